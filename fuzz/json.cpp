// snarkjs JSON readers (zk/formats/json.hpp): parse_proof_json, parse_public_json and
// parse_vkey_json, each on every input, and the number helpers on every number they accept.
// Expected for bad input: format_error. Properties: what a reader accepts, its writer
// writes back as text the reader reads to the same values (for a verification key, when it has
// vk_alphabeta_12: without it the fields stay "" and the writer's output is not a valid key);
// decimal_to_le and le_to_decimal agree on every accepted number.
#include "zk/formats/json.hpp"

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz/fuzz_util.hpp"
#include "zk/base/curve_id.hpp"
#include "zk/base/error.hpp"

namespace {

using namespace zk;
using namespace zk::formats;

// A number string the readers accepted: its value survives le → decimal → le.
void check_number(const std::string& s) {
  ZK_FUZZ_CHECK(is_number_string(s));
  uint8_t le[64], back[64];
  if (!decimal_to_le(s, le, sizeof le)) return;  // wider than 512 bits: refused, fine
  const std::string dec = le_to_decimal(le, sizeof le);
  ZK_FUZZ_CHECK(decimal_to_le(dec, back, sizeof back));
  ZK_FUZZ_CHECK(std::memcmp(le, back, sizeof le) == 0);
  const bool plain_decimal = s.size() < 2 || s[1] != 'x';
  if (plain_decimal) {
    const size_t nz = s.find_first_not_of('0');
    ZK_FUZZ_CHECK(dec == (nz == std::string::npos ? "0" : s.substr(nz)));
  }
}

void check_g1(const g1_json_t& p) {
  for (const auto* s : {&p.x, &p.y, &p.z}) check_number(*s);
}
void check_g2(const g2_json_t& p) {
  for (const auto* e : {&p.x, &p.y, &p.z}) {
    check_number((*e)[0]);
    check_number((*e)[1]);
  }
}
bool same(const g1_json_t& a, const g1_json_t& b) { return a.x == b.x && a.y == b.y && a.z == b.z; }
bool same(const g2_json_t& a, const g2_json_t& b) { return a.x == b.x && a.y == b.y && a.z == b.z; }

void proof(std::string_view text) {
  proof_json_t p;
  try {
    p = parse_proof_json(text, "proof.json");
  } catch (const format_error&) {
    return;
  }
  check_g1(p.a);
  check_g2(p.b);
  check_g1(p.c);
  const proof_json_t q = parse_proof_json(proof_to_json(p), "rewritten proof.json");
  ZK_FUZZ_CHECK(same(p.a, q.a) && same(p.b, q.b) && same(p.c, q.c));
  ZK_FUZZ_CHECK(p.protocol == q.protocol && p.curve == q.curve);
}

void public_signals(std::string_view text) {
  std::vector<std::string> v;
  try {
    v = parse_public_json(text, "public.json");
  } catch (const format_error&) {
    return;
  }
  for (const std::string& s : v) check_number(s);
  ZK_FUZZ_CHECK(parse_public_json(public_to_json(v), "rewritten public.json") == v);
}

void vkey(std::string_view text) {
  vkey_json_t k;
  try {
    k = parse_vkey_json(text, "verification_key.json");
  } catch (const format_error&) {
    return;
  }
  ZK_FUZZ_CHECK(k.protocol == "groth16");
  ZK_FUZZ_CHECK(parse_curve_name(k.curve).has_value());
  ZK_FUZZ_CHECK(k.ic.size() == uint64_t(k.n_public) + 1);
  check_g1(k.alpha1);
  check_g2(k.beta2);
  check_g2(k.gamma2);
  check_g2(k.delta2);
  for (const g1_json_t& p : k.ic) check_g1(p);
  bool has_alphabeta = true;
  for (const auto& fq6 : k.alphabeta)
    for (const auto& fq2 : fq6)
      for (const std::string& s : fq2) {
        if (s.empty()) {
          has_alphabeta = false;
        } else {
          check_number(s);
        }
      }
  if (!has_alphabeta) return;
  const vkey_json_t b = parse_vkey_json(vkey_to_json(k), "rewritten verification_key.json");
  ZK_FUZZ_CHECK(b.curve == k.curve && b.n_public == k.n_public);
  ZK_FUZZ_CHECK(same(b.alpha1, k.alpha1) && same(b.beta2, k.beta2));
  ZK_FUZZ_CHECK(same(b.gamma2, k.gamma2) && same(b.delta2, k.delta2));
  ZK_FUZZ_CHECK(b.alphabeta == k.alphabeta && b.ic.size() == k.ic.size());
  for (size_t i = 0; i < k.ic.size(); ++i) ZK_FUZZ_CHECK(same(b.ic[i], k.ic[i]));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  proof(text);
  public_signals(text);
  vkey(text);
  return 0;
}
