#include "zk/formats/json.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "zk/base/curve_id.hpp"
#include "zk/base/error.hpp"
#include "zk/base/files.hpp"

namespace zk::formats {

namespace {

// Insertion-ordered, so keys come out in snarkjs's order.
using ojson_t = nlohmann::ordered_json;

// ---- writing ----

ojson_t to_json(const g1_json_t& p) { return ojson_t::array({p.x, p.y, p.z}); }

ojson_t to_json(const std::array<std::string, 2>& e) { return ojson_t::array({e[0], e[1]}); }

ojson_t to_json(const g2_json_t& p) {
  return ojson_t::array({to_json(p.x), to_json(p.y), to_json(p.z)});
}

// JSON.stringify(x, null, 1) (and bfj {space: 1}, which snarkjs 0.7.6's CLI uses): one-space
// indent, ": " after keys, no trailing newline.
std::string stringify(const ojson_t& j) { return j.dump(1); }

// ---- reading: every accessor carries the JSON path for its error ----

class walker_t {
 public:
  explicit walker_t(std::string_view name) : name_(name) {}

  ojson_t parse(std::string_view text) const {
    try {
      return ojson_t::parse(text.begin(), text.end());
    } catch (const ojson_t::exception& e) {
      // parse_error for bad syntax, but also out_of_range (406) for a number literal beyond a
      // double such as 1e400: every way the parser refuses the text is bad input.
      throw_file_error(name_, std::string("invalid JSON: ") + e.what());
    }
  }

  [[noreturn]] void fail(const std::string& path, std::string_view what) const {
    throw_file_error(name_,
                     (path.empty() ? std::string("(root)") : path) + ": " + std::string(what));
  }

  const ojson_t& member(const ojson_t& obj, const char* key, const std::string& path) const {
    if (!obj.is_object()) fail(path, "expected an object");
    auto it = obj.find(key);
    if (it == obj.end()) fail(join(path, key), "missing");
    return *it;
  }

  const ojson_t& array(const ojson_t& j, size_t size, const std::string& path) const {
    if (!j.is_array() || j.size() != size) {
      fail(path, "expected an array of " + std::to_string(size) + " elements");
    }
    return j;
  }

  std::string string(const ojson_t& j, const std::string& path) const {
    if (!j.is_string()) fail(path, "expected a string");
    return j.get<std::string>();
  }

  std::string number(const ojson_t& j, const std::string& path) const {
    if (!j.is_string() || !is_number_string(j.get_ref<const std::string&>())) {
      fail(path, "expected a decimal string");
    }
    return j.get<std::string>();
  }

  std::array<std::string, 2> fq2(const ojson_t& j, const std::string& path) const {
    array(j, 2, path);
    return {number(j[0], path + "[0]"), number(j[1], path + "[1]")};
  }

  g1_json_t g1(const ojson_t& j, const std::string& path) const {
    array(j, 3, path);
    return {number(j[0], path + "[0]"), number(j[1], path + "[1]"), number(j[2], path + "[2]")};
  }

  g2_json_t g2(const ojson_t& j, const std::string& path) const {
    array(j, 3, path);
    return {fq2(j[0], path + "[0]"), fq2(j[1], path + "[1]"), fq2(j[2], path + "[2]")};
  }

  static std::string join(const std::string& path, const char* key) {
    return path.empty() ? std::string(key) : path + "." + key;
  }

 private:
  std::string name_;
};

}  // namespace

// ---- proof.json (§3.7) ----

std::string proof_to_json(const proof_json_t& proof) {
  ojson_t j;
  j["pi_a"] = to_json(proof.a);
  j["pi_b"] = to_json(proof.b);
  j["pi_c"] = to_json(proof.c);
  j["protocol"] = proof.protocol;
  j["curve"] = proof.curve;
  return stringify(j);
}

proof_json_t parse_proof_json(std::string_view text, std::string_view name) {
  walker_t w(name);
  const ojson_t root = w.parse(text);
  if (!root.is_object()) w.fail("", "expected an object");
  proof_json_t p;
  p.a = w.g1(w.member(root, "pi_a", ""), "pi_a");
  p.b = w.g2(w.member(root, "pi_b", ""), "pi_b");
  p.c = w.g1(w.member(root, "pi_c", ""), "pi_c");
  // The verifier reads only the points; rapidsnark leaves out "curve".
  p.protocol = root.contains("protocol") ? w.string(root.at("protocol"), "protocol") : "";
  p.curve = root.contains("curve") ? w.string(root.at("curve"), "curve") : "";
  return p;
}

void write_proof_json(const std::string& path, const proof_json_t& proof) {
  write_file_atomic(path, proof_to_json(proof));
}

proof_json_t read_proof_json(const std::string& path) {
  return parse_proof_json(read_text(path), path);
}

// ---- public.json (§3.7) ----

std::string public_to_json(const std::vector<std::string>& signals) {
  // The snarkjs 0.7.6 CLI writes through bfj ({space: 1}), which matches JSON.stringify except
  // that an empty array comes out as "[\n]" (a circuit without public signals).
  if (signals.empty()) return "[\n]";
  ojson_t j = ojson_t::array();
  for (const std::string& s : signals) j.push_back(s);
  return stringify(j);
}

std::vector<std::string> parse_public_json(std::string_view text, std::string_view name) {
  walker_t w(name);
  const ojson_t root = w.parse(text);
  if (!root.is_array()) w.fail("", "expected an array of decimal strings");
  std::vector<std::string> out;
  out.reserve(root.size());
  for (size_t i = 0; i < root.size(); ++i) {
    out.push_back(w.number(root[i], "[" + std::to_string(i) + "]"));
  }
  return out;
}

void write_public_json(const std::string& path, const std::vector<std::string>& signals) {
  write_file_atomic(path, public_to_json(signals));
}

std::vector<std::string> read_public_json(const std::string& path) {
  return parse_public_json(read_text(path), path);
}

// ---- verification_key.json (§4; snarkjs src/zkey_export_verificationkey.js key order) ----

std::string vkey_to_json(const vkey_json_t& vk) {
  ojson_t j;
  j["protocol"] = vk.protocol;
  j["curve"] = vk.curve;
  j["nPublic"] = vk.n_public;
  j["vk_alpha_1"] = to_json(vk.alpha1);
  j["vk_beta_2"] = to_json(vk.beta2);
  j["vk_gamma_2"] = to_json(vk.gamma2);
  j["vk_delta_2"] = to_json(vk.delta2);
  ojson_t gt = ojson_t::array();
  for (const auto& fq6 : vk.alphabeta) {
    ojson_t c6 = ojson_t::array();
    for (const auto& fq2 : fq6) c6.push_back(to_json(fq2));
    gt.push_back(std::move(c6));
  }
  j["vk_alphabeta_12"] = std::move(gt);
  ojson_t ic = ojson_t::array();
  for (const g1_json_t& p : vk.ic) ic.push_back(to_json(p));
  j["IC"] = std::move(ic);
  return stringify(j);
}

vkey_json_t parse_vkey_json(std::string_view text, std::string_view name) {
  walker_t w(name);
  const ojson_t root = w.parse(text);
  if (!root.is_object()) w.fail("", "expected an object");
  vkey_json_t vk;
  vk.protocol = w.string(w.member(root, "protocol", ""), "protocol");
  if (vk.protocol != "groth16")
    w.fail("protocol", "expected \"groth16\", got \"" + vk.protocol + "\"");
  vk.curve = w.string(w.member(root, "curve", ""), "curve");
  if (!parse_curve_name(vk.curve)) w.fail("curve", "unknown curve \"" + vk.curve + "\"");

  const ojson_t& n_public = w.member(root, "nPublic", "");
  if (!n_public.is_number_unsigned() || n_public.get<uint64_t>() > UINT32_MAX) {
    w.fail("nPublic", "expected a non-negative integer");
  }
  vk.n_public = n_public.get<uint32_t>();

  vk.alpha1 = w.g1(w.member(root, "vk_alpha_1", ""), "vk_alpha_1");
  vk.beta2 = w.g2(w.member(root, "vk_beta_2", ""), "vk_beta_2");
  vk.gamma2 = w.g2(w.member(root, "vk_gamma_2", ""), "vk_gamma_2");
  vk.delta2 = w.g2(w.member(root, "vk_delta_2", ""), "vk_delta_2");

  // vk_alphabeta_12 is informational (snarkjs verify recomputes it); checked when present.
  if (root.contains("vk_alphabeta_12")) {
    const std::string path = "vk_alphabeta_12";
    const ojson_t& gt = w.array(root.at("vk_alphabeta_12"), 2, path);
    for (size_t i = 0; i < 2; ++i) {
      const std::string p6 = path + "[" + std::to_string(i) + "]";
      const ojson_t& fq6 = w.array(gt[i], 3, p6);
      for (size_t k = 0; k < 3; ++k) {
        vk.alphabeta[i][k] = w.fq2(fq6[k], p6 + "[" + std::to_string(k) + "]");
      }
    }
  }

  const ojson_t& ic = w.member(root, "IC", "");
  w.array(ic, uint64_t(vk.n_public) + 1, "IC");
  vk.ic.reserve(ic.size());
  for (size_t i = 0; i < ic.size(); ++i)
    vk.ic.push_back(w.g1(ic[i], "IC[" + std::to_string(i) + "]"));
  return vk;
}

void write_vkey_json(const std::string& path, const vkey_json_t& vkey) {
  write_file_atomic(path, vkey_to_json(vkey));
}

vkey_json_t read_vkey_json(const std::string& path) {
  return parse_vkey_json(read_text(path), path);
}

// ---- numbers ----

bool is_number_string(std::string_view s) {
  auto all = [](std::string_view d, bool hex_digits) {
    if (d.empty()) return false;
    for (char ch : d) {
      const bool digit = ch >= '0' && ch <= '9';
      const bool letter = (ch >= 'a' && ch <= 'f') || (ch >= 'A' && ch <= 'F');
      if (!digit && !(hex_digits && letter)) return false;
    }
    return true;
  };
  if (s.size() > 2 && s[0] == '0' && s[1] == 'x') return all(s.substr(2), true);
  return all(s, false);
}

// Schoolbook: repeated division of 32-bit limbs by 10^9. Called for a handful of numbers.
std::string le_to_decimal(const uint8_t* le, size_t n) {
  std::vector<uint32_t> limbs((n + 3) / 4, 0);
  for (size_t i = 0; i < n; ++i) limbs[i / 4] |= uint32_t(le[i]) << (8 * (i % 4));
  while (!limbs.empty() && limbs.back() == 0) limbs.pop_back();
  if (limbs.empty()) return "0";

  std::vector<uint32_t> chunks;  // base 10^9, least significant first
  while (!limbs.empty()) {
    uint64_t rem = 0;
    for (size_t i = limbs.size(); i-- > 0;) {
      const uint64_t cur = (rem << 32) | limbs[i];
      limbs[i] = static_cast<uint32_t>(cur / 1000000000u);
      rem = cur % 1000000000u;
    }
    chunks.push_back(static_cast<uint32_t>(rem));
    while (!limbs.empty() && limbs.back() == 0) limbs.pop_back();
  }
  std::string out = std::to_string(chunks.back());
  for (size_t i = chunks.size() - 1; i-- > 0;) {
    const std::string part = std::to_string(chunks[i]);
    out.append(9 - part.size(), '0').append(part);
  }
  return out;
}

bool decimal_to_le(std::string_view s, uint8_t* out, size_t n) {
  if (!is_number_string(s)) return false;
  std::memset(out, 0, n);
  const bool hex_digits = s.size() > 2 && s[1] == 'x';
  const uint32_t base = hex_digits ? 16 : 10;
  if (hex_digits) s.remove_prefix(2);
  for (char ch : s) {
    uint32_t carry = ch <= '9' ? uint32_t(ch - '0') : uint32_t((ch | 0x20) - 'a' + 10);
    // out = out * base + digit
    for (size_t i = 0; i < n; ++i) {
      const uint32_t v = uint32_t(out[i]) * base + carry;
      out[i] = static_cast<uint8_t>(v);
      carry = v >> 8;
    }
    if (carry != 0) return false;
  }
  return true;
}

}  // namespace zk::formats
