#include "zk/filecoin/api/c1.hpp"

#include <array>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <initializer_list>
#include <stdexcept>

#include "zk/base/base64.hpp"
#include "zk/base/error.hpp"
#include "zk/base/files.hpp"
#include "zk/filecoin/porep/circuit/public_inputs.hpp"
#include "zk/filecoin/porep/vanilla/graph.hpp"

namespace zk::filecoin {

namespace {

constexpr size_t total_parents = 37;  // stacked/vanilla/proof.rs TOTAL_PARENTS: labels hashed

// --- a strict JSON reader for this schema --------------------------------------------------------
//
// Recursive descent straight into the structs: nothing is kept of the text, the recursion follows
// the schema (never the input's nesting), and every error names the JSON path and the byte.

class json_in_t {
 public:
  json_in_t(std::string_view text, std::string_view file) : s_(text), file_(file) {}

  // The path of the value being read; key()/index() extend it for one scope.
  class scope_t {
   public:
    scope_t(std::string& path, size_t keep) : path_(path), keep_(keep) {}
    ~scope_t() { path_.resize(keep_); }
    scope_t(const scope_t&) = delete;
    scope_t& operator=(const scope_t&) = delete;

   private:
    std::string& path_;
    size_t keep_;
  };
  scope_t key(std::string_view k) {
    const size_t keep = path_.size();
    if (!path_.empty()) path_ += '.';
    path_.append(k);
    return scope_t(path_, keep);
  }
  scope_t index(size_t i) {
    const size_t keep = path_.size();
    path_ += '[' + std::to_string(i) + ']';
    return scope_t(path_, keep);
  }

  [[noreturn]] void fail(const std::string& what) const {
    std::string msg(file_);
    msg += ": ";
    if (!path_.empty()) msg += path_ + ": ";
    msg += what + " (byte " + std::to_string(pos_) + ")";
    throw format_error(msg);
  }

  void ws() {
    while (pos_ < s_.size() &&
           (s_[pos_] == ' ' || s_[pos_] == '\t' || s_[pos_] == '\n' || s_[pos_] == '\r'))
      ++pos_;
  }
  char peek() {
    ws();
    return pos_ < s_.size() ? s_[pos_] : '\0';
  }
  void expect(char c, const char* what) {
    if (peek() != c)
      fail(std::string("expected ") + what +
           (pos_ < s_.size() ? std::string(", found '") + s_[pos_] + "'" : ", found the end"));
    ++pos_;
  }
  bool at_end() {
    ws();
    return pos_ == s_.size();
  }

  std::string string() {
    expect('"', "a string");
    std::string out;
    while (true) {
      if (pos_ >= s_.size()) fail("unterminated string");
      const char c = s_[pos_++];
      if (c == '"') return out;
      if (static_cast<unsigned char>(c) < 0x20) fail("control character in a string");
      if (c != '\\') {
        out += c;
        continue;
      }
      if (pos_ >= s_.size()) fail("unterminated string");
      const char e = s_[pos_++];
      switch (e) {
        case '"':
        case '\\':
        case '/':
          out += e;
          break;
        case 'b':
          out += '\b';
          break;
        case 'f':
          out += '\f';
          break;
        case 'n':
          out += '\n';
          break;
        case 'r':
          out += '\r';
          break;
        case 't':
          out += '\t';
          break;
        case 'u': {
          uint32_t cp = hex4();
          if (cp >= 0xd800 && cp < 0xdc00) {
            if (pos_ + 2 > s_.size() || s_[pos_] != '\\' || s_[pos_ + 1] != 'u')
              fail("unpaired surrogate in a \\u escape");
            pos_ += 2;
            const uint32_t lo = hex4();
            if (lo < 0xdc00 || lo >= 0xe000) fail("unpaired surrogate in a \\u escape");
            cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
          } else if (cp >= 0xdc00 && cp < 0xe000) {
            fail("unpaired surrogate in a \\u escape");
          }
          utf8(cp, out);
          break;
        }
        default:
          fail(std::string("invalid escape \\") + e);
      }
    }
  }

  // A JSON number that is a non-negative integer below 2^64 (no sign, fraction or exponent).
  uint64_t u64(const char* what = "a non-negative integer") {
    ws();
    const size_t start = pos_;
    uint64_t v = 0;
    bool any = false;
    while (pos_ < s_.size() && s_[pos_] >= '0' && s_[pos_] <= '9') {
      const uint64_t d = uint64_t(s_[pos_] - '0');
      if (v > (UINT64_MAX - d) / 10) fail(std::string(what) + " above 2^64 - 1");
      v = v * 10 + d;
      ++pos_;
      any = true;
    }
    if (!any) fail(std::string("expected ") + what);
    if (pos_ - start > 1 && s_[start] == '0') fail("a number with a leading zero (not JSON)");
    if (pos_ < s_.size() && (s_[pos_] == '.' || s_[pos_] == 'e' || s_[pos_] == 'E'))
      fail(std::string("expected ") + what + ", found a fraction or an exponent");
    return v;
  }
  int64_t i64() {
    if (peek() == '-') {
      ++pos_;
      const uint64_t m = u64("an integer");
      if (m > uint64_t(INT64_MAX) + 1) fail("an integer below -2^63");
      return m == uint64_t(INT64_MAX) + 1 ? INT64_MIN : -int64_t(m);
    }
    const uint64_t v = u64("an integer");
    if (v > uint64_t(INT64_MAX)) fail("an integer above 2^63 - 1");
    return int64_t(v);
  }
  uint32_t u32() {
    const uint64_t v = u64();
    if (v > UINT32_MAX) fail(std::to_string(v) + " does not fit 32 bits");
    return uint32_t(v);
  }

  void null() {
    ws();
    if (s_.substr(pos_, 4) != "null") fail("expected null");
    pos_ += 4;
  }

  // An object whose keys are exactly `keys`, each once, in any order; on(key) reads the value.
  template <class F>
  void object(std::initializer_list<const char*> keys, F&& on) {
    expect('{', "an object");
    uint64_t seen = 0;
    if (peek() == '}') {
      ++pos_;
    } else {
      while (true) {
        const std::string k = string();
        size_t i = 0;
        for (const char* want : keys) {
          if (k == want) break;
          ++i;
        }
        if (i == keys.size()) fail("unknown key \"" + k + "\"" + expected_keys(keys));
        if (seen & (uint64_t(1) << i)) fail("key \"" + k + "\" given twice");
        seen |= uint64_t(1) << i;
        expect(':', "':'");
        {
          auto sc = key(k);
          on(k);
        }
        if (peek() == ',') {
          ++pos_;
          continue;
        }
        expect('}', "',' or '}'");
        break;
      }
    }
    size_t i = 0;
    for (const char* want : keys) {
      if (!(seen & (uint64_t(1) << i))) fail(std::string("missing key \"") + want + "\"");
      ++i;
    }
  }

  // An object with one key (an externally tagged enum, a map of one entry); returns the key
  // after on(key) read its value.
  template <class F>
  std::string single_key_object(const char* what, F&& on) {
    expect('{', "an object");
    if (peek() == '}') fail(std::string("expected one key: ") + what);
    const std::string k = string();
    expect(':', "':'");
    {
      auto sc = key(k);
      on(k);
    }
    if (peek() == ',') fail(std::string("more than one key: expected one, ") + what);
    expect('}', "'}'");
    return k;
  }

  // An array; on(i) reads element i.
  template <class F>
  size_t array(F&& on) {
    expect('[', "an array");
    size_t n = 0;
    if (peek() == ']') {
      ++pos_;
      return 0;
    }
    while (true) {
      {
        auto sc = index(n);
        on(n);
      }
      ++n;
      if (peek() == ',') {
        ++pos_;
        continue;
      }
      expect(']', "',' or ']'");
      return n;
    }
  }

  // 32 numbers 0…255. The hot path of a C1 (every hash is one): no path is built unless an
  // element is bad.
  bytes32_t bytes32() {
    bytes32_t out{};
    expect('[', "an array");
    size_t n = 0;
    if (peek() == ']') {
      ++pos_;
    } else {
      while (true) {
        ws();
        unsigned v = 0;
        const size_t start = pos_;
        while (pos_ < s_.size() && s_[pos_] >= '0' && s_[pos_] <= '9' && pos_ - start < 4)
          v = v * 10 + unsigned(s_[pos_++] - '0');
        const bool digits = pos_ > start;
        const bool plain =
            digits && (pos_ - start == 1 || s_[start] != '0') &&
            (pos_ >= s_.size() || (s_[pos_] != '.' && s_[pos_] != 'e' && s_[pos_] != 'E' &&
                                   !(s_[pos_] >= '0' && s_[pos_] <= '9')));
        if (!plain || v > 255) {
          pos_ = start;
          auto sc = index(n);
          const uint64_t big = u64("a byte (0 to 255)");
          fail(std::to_string(big) + " is not a byte (0 to 255)");
        }
        if (n < 32) out[n] = uint8_t(v);
        ++n;
        const char c = peek();
        if (c == ',') {
          ++pos_;
          continue;
        }
        expect(']', "',' or ']'");
        break;
      }
    }
    if (n != 32) fail("expected 32 bytes, got " + std::to_string(n));
    return out;
  }

  const std::string& path() const { return path_; }
  std::string_view file() const { return file_; }

 private:
  uint32_t hex4() {
    if (pos_ + 4 > s_.size()) fail("short \\u escape");
    uint32_t v = 0;
    for (int i = 0; i < 4; ++i) {
      const char c = s_[pos_++];
      v <<= 4;
      if (c >= '0' && c <= '9')
        v |= uint32_t(c - '0');
      else if (c >= 'a' && c <= 'f')
        v |= uint32_t(c - 'a' + 10);
      else if (c >= 'A' && c <= 'F')
        v |= uint32_t(c - 'A' + 10);
      else
        fail("bad hex digit in a \\u escape");
    }
    return v;
  }
  static void utf8(uint32_t cp, std::string& out) {
    if (cp < 0x80) {
      out += char(cp);
    } else if (cp < 0x800) {
      out += char(0xc0 | (cp >> 6));
      out += char(0x80 | (cp & 0x3f));
    } else if (cp < 0x10000) {
      out += char(0xe0 | (cp >> 12));
      out += char(0x80 | ((cp >> 6) & 0x3f));
      out += char(0x80 | (cp & 0x3f));
    } else {
      out += char(0xf0 | (cp >> 18));
      out += char(0x80 | ((cp >> 12) & 0x3f));
      out += char(0x80 | ((cp >> 6) & 0x3f));
      out += char(0x80 | (cp & 0x3f));
    }
  }
  static std::string expected_keys(std::initializer_list<const char*> keys) {
    std::string s = " (expected ";
    bool first = true;
    for (const char* k : keys) {
      s += (first ? "" : ", ") + std::string(k);
      first = false;
    }
    return s + ")";
  }

  std::string_view s_;
  std::string_view file_;
  size_t pos_ = 0;
  std::string path_;
};

// --- the schema, read --------------------------------------------------------------------------

std::vector<domain_t> read_domains(json_in_t& j) {
  std::vector<domain_t> out;
  j.array([&](size_t) { out.push_back(j.bytes32()); });
  return out;
}

inclusion_path_t read_inclusion_path(json_in_t& j) {
  inclusion_path_t out;
  j.object({"path"}, [&](const std::string&) {
    j.array([&](size_t) {
      path_element_t e;
      j.object({"hashes", "index"}, [&](const std::string& k) {
        if (k == "hashes")
          e.hashes = read_domains(j);
        else
          e.index = j.u64();
      });
      out.push_back(std::move(e));
    });
  });
  return out;
}

merkle_proof_t read_merkle(json_in_t& j) {
  merkle_proof_t m;
  j.object({"data"}, [&](const std::string&) {
    j.single_key_object("Single, Sub or Top", [&](const std::string& kind) {
      if (kind == "Single") {
        m.kind = merkle_kind_t::single;
        j.object({"root", "leaf", "path"}, [&](const std::string& k) {
          if (k == "root")
            m.root = j.bytes32();
          else if (k == "leaf")
            m.leaf = j.bytes32();
          else
            m.base = read_inclusion_path(j);
        });
      } else if (kind == "Sub") {
        m.kind = merkle_kind_t::sub;
        j.object({"base_proof", "sub_proof", "root", "leaf"}, [&](const std::string& k) {
          if (k == "base_proof")
            m.base = read_inclusion_path(j);
          else if (k == "sub_proof")
            m.sub = read_inclusion_path(j);
          else if (k == "root")
            m.root = j.bytes32();
          else
            m.leaf = j.bytes32();
        });
      } else if (kind == "Top") {
        m.kind = merkle_kind_t::top;
        j.object({"base_proof", "sub_proof", "top_proof", "root", "leaf"},
                 [&](const std::string& k) {
                   if (k == "base_proof")
                     m.base = read_inclusion_path(j);
                   else if (k == "sub_proof")
                     m.sub = read_inclusion_path(j);
                   else if (k == "top_proof")
                     m.top = read_inclusion_path(j);
                   else if (k == "root")
                     m.root = j.bytes32();
                   else
                     m.leaf = j.bytes32();
                 });
      } else {
        j.fail("unknown proof kind (expected Single, Sub or Top)");
      }
    });
  });
  return m;
}

column_proof_t read_column_proof(json_in_t& j) {
  column_proof_t c;
  j.object({"column", "inclusion_proof"}, [&](const std::string& k) {
    if (k == "column") {
      j.object({"index", "rows", "_h"}, [&](const std::string& f) {
        if (f == "index")
          c.column.index = j.u32();
        else if (f == "rows")
          c.column.rows = read_domains(j);
        else
          j.null();
      });
    } else {
      c.inclusion_proof = read_merkle(j);
    }
  });
  return c;
}

labeling_proof_t read_labeling(json_in_t& j) {
  labeling_proof_t l;
  j.object({"parents", "layer_index", "node"}, [&](const std::string& k) {
    if (k == "parents")
      l.parents = read_domains(j);
    else if (k == "layer_index")
      l.layer_index = j.u32();
    else
      l.node = j.u64();
  });
  return l;
}

vanilla_proof_t read_vanilla(json_in_t& j) {
  vanilla_proof_t v;
  j.object({"comm_d_proofs", "comm_r_last_proof", "replica_column_proofs", "labeling_proofs",
            "encoding_proof"},
           [&](const std::string& k) {
             if (k == "comm_d_proofs") {
               v.comm_d_proofs = read_merkle(j);
             } else if (k == "comm_r_last_proof") {
               v.comm_r_last_proof = read_merkle(j);
             } else if (k == "replica_column_proofs") {
               j.object({"c_x", "drg_parents", "exp_parents"}, [&](const std::string& f) {
                 auto& r = v.replica_column_proofs;
                 if (f == "c_x")
                   r.c_x = read_column_proof(j);
                 else
                   j.array([&](size_t) {
                     (f == "drg_parents" ? r.drg_parents : r.exp_parents)
                         .push_back(read_column_proof(j));
                   });
               });
             } else if (k == "labeling_proofs") {
               j.array([&](size_t) { v.labeling_proofs.push_back(read_labeling(j)); });
             } else {
               v.encoding_proof = read_labeling(j);
             }
           });
  return v;
}

// --- validation --------------------------------------------------------------------------------

// Paths for validate_c1's messages, built as the reader builds them.
class where_t {
 public:
  explicit where_t(std::string base) : s_(std::move(base)) {}
  where_t key(std::string_view k) const {
    return where_t(s_.empty() ? std::string(k) : s_ + "." + std::string(k));
  }
  where_t index(size_t i) const { return where_t(s_ + "[" + std::to_string(i) + "]"); }
  [[noreturn]] void fail(const std::string& what) const {
    throw std::invalid_argument(s_.empty() ? what : s_ + ": " + what);
  }
  const std::string& str() const { return s_; }

 private:
  std::string s_;
};

void check_field(const domain_t& d, const where_t& w) {
  if (!fr_from_bytes(d)) w.fail("value not below the field modulus");
}
void check_domains(const std::vector<domain_t>& v, size_t count, const where_t& w,
                   const char* what) {
  if (v.size() != count)
    w.fail("expected " + std::to_string(count) + " " + what + ", got " + std::to_string(v.size()));
  for (size_t i = 0; i < v.size(); ++i) check_field(v[i], w.index(i));
}

void check_path(const inclusion_path_t& p, uint32_t length, uint32_t arity, const where_t& w) {
  const where_t wp = w.key("path");
  if (p.size() != length)
    wp.fail("expected a path of " + std::to_string(length) + " level" + (length == 1 ? "" : "s") +
            ", got " + std::to_string(p.size()));
  for (size_t i = 0; i < p.size(); ++i) {
    const where_t we = wp.index(i);
    check_domains(p[i].hashes, arity - 1, we.key("hashes"),
                  arity == 2 ? "sibling hash" : "sibling hashes");
    if (p[i].index >= arity)
      we.key("index").fail(std::to_string(p[i].index) + " is not a position among " +
                           std::to_string(arity) + " siblings");
  }
}

void check_merkle(const merkle_proof_t& m, const tree_shape_t& shape, uint32_t base_path,
                  const where_t& w) {
  const merkle_kind_t want = shape.top_arity   ? merkle_kind_t::top
                             : shape.sub_arity ? merkle_kind_t::sub
                                               : merkle_kind_t::single;
  static const char* const names[] = {"Single", "Sub", "Top"};
  const where_t wd = w.key("data");
  if (m.kind != want)
    wd.fail(std::string("a ") + names[int(m.kind)] + " proof where tree shape " +
            tree_shape_name(shape) + " needs " + names[int(want)]);
  const where_t wk = wd.key(names[int(m.kind)]);
  check_field(m.root, wk.key("root"));
  check_field(m.leaf, wk.key("leaf"));
  if (m.kind == merkle_kind_t::single) {
    check_path(m.base, base_path, shape.base_arity, wk.key("path"));
    return;
  }
  check_path(m.base, base_path, shape.base_arity, wk.key("base_proof"));
  check_path(m.sub, 1, shape.sub_arity, wk.key("sub_proof"));
  if (m.kind == merkle_kind_t::top) check_path(m.top, 1, shape.top_arity, wk.key("top_proof"));
}

void check_column(const column_proof_t& c, const c1_shape_t& s, uint64_t nodes, const where_t& w) {
  const where_t wc = w.key("column");
  if (c.column.index >= nodes)
    wc.key("index").fail("node " + std::to_string(c.column.index) + " of a " +
                         std::to_string(nodes) + "-node sector");
  check_domains(c.column.rows, s.layers, wc.key("rows"), "rows (one a layer)");
  check_merkle(c.inclusion_proof, s.tree, s.base_path, w.key("inclusion_proof"));
}

void check_labeling(const labeling_proof_t& l, uint32_t layer, uint64_t nodes, const where_t& w) {
  check_domains(l.parents, total_parents, w.key("parents"), "parent labels");
  if (l.layer_index != layer)
    w.key("layer_index")
        .fail("layer " + std::to_string(l.layer_index) + " where " + std::to_string(layer) +
              " belongs");
  if (l.node >= nodes)
    w.key("node").fail("node " + std::to_string(l.node) + " of a " + std::to_string(nodes) +
                       "-node sector");
}

void check_vanilla(const vanilla_proof_t& v, const c1_shape_t& s, uint64_t nodes,
                   const where_t& w) {
  const tree_shape_t binary{2, 0, 0};
  check_merkle(v.comm_d_proofs, binary, s.comm_d_path, w.key("comm_d_proofs"));
  check_merkle(v.comm_r_last_proof, s.tree, s.base_path, w.key("comm_r_last_proof"));
  const where_t wr = w.key("replica_column_proofs");
  const auto& r = v.replica_column_proofs;
  check_column(r.c_x, s, nodes, wr.key("c_x"));
  if (r.drg_parents.size() != drg_degree)
    wr.key("drg_parents")
        .fail("expected " + std::to_string(drg_degree) + " column proofs, got " +
              std::to_string(r.drg_parents.size()));
  for (size_t i = 0; i < r.drg_parents.size(); ++i)
    check_column(r.drg_parents[i], s, nodes, wr.key("drg_parents").index(i));
  if (r.exp_parents.size() != exp_degree)
    wr.key("exp_parents")
        .fail("expected " + std::to_string(exp_degree) + " column proofs, got " +
              std::to_string(r.exp_parents.size()));
  for (size_t i = 0; i < r.exp_parents.size(); ++i)
    check_column(r.exp_parents[i], s, nodes, wr.key("exp_parents").index(i));
  if (v.labeling_proofs.size() != s.layers)
    w.key("labeling_proofs")
        .fail("expected " + std::to_string(s.layers) + " labeling proofs (one a layer), got " +
              std::to_string(v.labeling_proofs.size()));
  for (size_t i = 0; i < v.labeling_proofs.size(); ++i)
    check_labeling(v.labeling_proofs[i], uint32_t(i + 1), nodes, w.key("labeling_proofs").index(i));
  check_labeling(v.encoding_proof, s.layers, nodes, w.key("encoding_proof"));
}

void validate(const c1_output_t& c1, const where_t& root) {
  if (c1.registered_proof == nullptr) root.key("registered_proof").fail("not set");
  const registered_proof_t& p = *c1.registered_proof;
  const c1_shape_t s = c1_shape(p);
  const uint64_t nodes = p.sector_size / 32;
  const where_t wv = root.key("vanilla_proofs").key(p.vanilla_variant);
  if (c1.vanilla_proofs.size() != s.partitions)
    wv.fail(std::string(p.name) + " has " + std::to_string(s.partitions) + " partition" +
            (s.partitions == 1 ? "" : "s") + ", got " + std::to_string(c1.vanilla_proofs.size()));
  for (size_t k = 0; k < c1.vanilla_proofs.size(); ++k) {
    const where_t wk = wv.index(k);
    if (c1.vanilla_proofs[k].size() != s.challenges)
      wk.fail("expected " + std::to_string(s.challenges) + " challenge proofs, got " +
              std::to_string(c1.vanilla_proofs[k].size()));
    for (size_t i = 0; i < c1.vanilla_proofs[k].size(); ++i)
      check_vanilla(c1.vanilla_proofs[k][i], s, nodes, wk.index(i));
  }
  check_field(c1.comm_r, root.key("comm_r"));
  check_field(c1.comm_d, root.key("comm_d"));
  check_field(c1.replica_id, root.key("replica_id"));
}

// --- the schema, written (serde_json's compact form: struct fields in declaration order) --------

class json_out_t {
 public:
  explicit json_out_t(size_t reserve) { s_.reserve(reserve); }
  json_out_t& raw(std::string_view t) {
    s_.append(t);
    return *this;
  }
  json_out_t& num(uint64_t v) {
    char b[24];
    const int n = std::snprintf(b, sizeof b, "%llu", static_cast<unsigned long long>(v));
    s_.append(b, size_t(n));
    return *this;
  }
  json_out_t& bytes(const bytes32_t& d) {
    static const auto table = [] {
      std::array<std::string, 256> t;
      for (int i = 0; i < 256; ++i) t[size_t(i)] = std::to_string(i);
      return t;
    }();
    s_ += '[';
    for (size_t i = 0; i < 32; ++i) {
      if (i) s_ += ',';
      s_ += table[d[i]];
    }
    s_ += ']';
    return *this;
  }
  json_out_t& domains(const std::vector<domain_t>& v) {
    s_ += '[';
    for (size_t i = 0; i < v.size(); ++i) {
      if (i) s_ += ',';
      bytes(v[i]);
    }
    s_ += ']';
    return *this;
  }
  std::string take() { return std::move(s_); }

 private:
  std::string s_;
};

void write_path(json_out_t& o, const inclusion_path_t& p) {
  o.raw("{\"path\":[");
  for (size_t i = 0; i < p.size(); ++i) {
    if (i) o.raw(",");
    o.raw("{\"hashes\":").domains(p[i].hashes).raw(",\"index\":").num(p[i].index).raw("}");
  }
  o.raw("]}");
}

void write_merkle(json_out_t& o, const merkle_proof_t& m) {
  switch (m.kind) {
    case merkle_kind_t::single:
      o.raw("{\"data\":{\"Single\":{\"root\":").bytes(m.root).raw(",\"leaf\":").bytes(m.leaf);
      o.raw(",\"path\":");
      write_path(o, m.base);
      o.raw("}}}");
      return;
    case merkle_kind_t::sub:
      o.raw("{\"data\":{\"Sub\":{\"base_proof\":");
      write_path(o, m.base);
      o.raw(",\"sub_proof\":");
      write_path(o, m.sub);
      break;
    case merkle_kind_t::top:
      o.raw("{\"data\":{\"Top\":{\"base_proof\":");
      write_path(o, m.base);
      o.raw(",\"sub_proof\":");
      write_path(o, m.sub);
      o.raw(",\"top_proof\":");
      write_path(o, m.top);
      break;
  }
  o.raw(",\"root\":").bytes(m.root).raw(",\"leaf\":").bytes(m.leaf).raw("}}}");
}

void write_column(json_out_t& o, const column_proof_t& c) {
  o.raw("{\"column\":{\"index\":").num(c.column.index).raw(",\"rows\":").domains(c.column.rows);
  o.raw(",\"_h\":null},\"inclusion_proof\":");
  write_merkle(o, c.inclusion_proof);
  o.raw("}");
}

void write_columns(json_out_t& o, const std::vector<column_proof_t>& v) {
  o.raw("[");
  for (size_t i = 0; i < v.size(); ++i) {
    if (i) o.raw(",");
    write_column(o, v[i]);
  }
  o.raw("]");
}

void write_labeling(json_out_t& o, const labeling_proof_t& l) {
  o.raw("{\"parents\":").domains(l.parents).raw(",\"layer_index\":").num(l.layer_index);
  o.raw(",\"node\":").num(l.node).raw("}");
}

void write_vanilla(json_out_t& o, const vanilla_proof_t& v) {
  o.raw("{\"comm_d_proofs\":");
  write_merkle(o, v.comm_d_proofs);
  o.raw(",\"comm_r_last_proof\":");
  write_merkle(o, v.comm_r_last_proof);
  o.raw(",\"replica_column_proofs\":{\"c_x\":");
  write_column(o, v.replica_column_proofs.c_x);
  o.raw(",\"drg_parents\":");
  write_columns(o, v.replica_column_proofs.drg_parents);
  o.raw(",\"exp_parents\":");
  write_columns(o, v.replica_column_proofs.exp_parents);
  o.raw("},\"labeling_proofs\":[");
  for (size_t i = 0; i < v.labeling_proofs.size(); ++i) {
    if (i) o.raw(",");
    write_labeling(o, v.labeling_proofs[i]);
  }
  o.raw("],\"encoding_proof\":");
  write_labeling(o, v.encoding_proof);
  o.raw("}");
}

c1_output_t parse_plain(json_in_t& j) {
  c1_output_t c1;
  std::string variant;
  j.object(
      {"registered_proof", "vanilla_proofs", "comm_r", "comm_d", "replica_id", "seed", "ticket"},
      [&](const std::string& k) {
        if (k == "registered_proof") {
          const std::string name = j.string();
          try {
            c1.registered_proof = &registered_proof(name);
          } catch (const std::invalid_argument& e) {
            j.fail(e.what());
          }
        } else if (k == "vanilla_proofs") {
          variant = j.single_key_object(
              "the sector size's variant, e.g. StackedDrg2KiBV1", [&](const std::string&) {
                j.array([&](size_t) {
                  std::vector<vanilla_proof_t> part;
                  j.array([&](size_t) { part.push_back(read_vanilla(j)); });
                  c1.vanilla_proofs.push_back(std::move(part));
                });
              });
        } else if (k == "comm_r") {
          c1.comm_r = j.bytes32();
        } else if (k == "comm_d") {
          c1.comm_d = j.bytes32();
        } else if (k == "replica_id") {
          c1.replica_id = j.bytes32();
        } else if (k == "seed") {
          c1.seed = j.bytes32();
        } else {
          c1.ticket = j.bytes32();
        }
      });
  if (!j.at_end()) j.fail("text after the end of the JSON value");
  const registered_proof_t& p = *c1.registered_proof;
  if (variant != p.vanilla_variant) {
    auto sc = j.key("vanilla_proofs");
    j.fail("variant \"" + variant + "\" where " + std::string(p.name) + " needs \"" +
           std::string(p.vanilla_variant) + "\"");
  }
  try {
    validate(c1, where_t(""));
  } catch (const std::invalid_argument& e) {
    throw_file_error(j.file(), e.what());
  }
  return c1;
}

}  // namespace

c1_shape_t c1_shape(const registered_proof_t& p) {
  const porep_config_t c = porep_config(p);
  c1_shape_t s;
  s.partitions = c.partitions;
  s.challenges = c.challenges_per_partition;
  s.layers = c.layers;
  s.tree = c.shape;
  for (uint64_t n = c.nodes; n > 1; n >>= 1) ++s.comm_d_path;
  uint64_t base_leaves = c.nodes / (s.tree.sub_arity ? s.tree.sub_arity : 1) /
                         (s.tree.top_arity ? s.tree.top_arity : 1);
  for (; base_leaves > 1; base_leaves /= s.tree.base_arity) ++s.base_path;
  return s;
}

void validate_c1(const c1_output_t& c1) { validate(c1, where_t("")); }

c1_read_t parse_c1(std::string_view json, std::string_view file) {
  c1_read_t out;
  json_in_t probe(json, file);
  // The wrapper is an object whose keys are SectorNum, Phase1Out, SectorSize; look at the first
  // key to tell which form this is.
  bool wrapper = false;
  {
    json_in_t k(json, file);
    if (k.peek() == '{') {
      k.expect('{', "an object");
      if (k.peek() == '"') {
        const std::string first = k.string();
        wrapper = first == "SectorNum" || first == "Phase1Out" || first == "SectorSize";
      }
    }
  }
  if (!wrapper) {
    out.c1 = parse_plain(probe);
    return out;
  }
  c1_wrapper_t w;
  std::string inner;
  probe.object({"SectorNum", "Phase1Out", "SectorSize"}, [&](const std::string& k) {
    if (k == "SectorNum") {
      w.sector_num = probe.i64();
    } else if (k == "SectorSize") {
      w.sector_size = probe.u64();
    } else {
      const auto decoded = base64_decode(probe.string());
      if (!decoded) probe.fail("not standard padded base64");
      inner = *decoded;
    }
  });
  if (!probe.at_end()) probe.fail("text after the end of the JSON value");
  const std::string inner_name = std::string(file) + " (Phase1Out)";
  json_in_t j(inner, inner_name);
  out.c1 = parse_plain(j);
  if (w.sector_size != out.c1.registered_proof->sector_size)
    throw_file_error(file, "SectorSize: " + std::to_string(w.sector_size) + " where " +
                               std::string(out.c1.registered_proof->name) + " has " +
                               std::to_string(out.c1.registered_proof->sector_size));
  out.wrapper = w;
  return out;
}

c1_read_t read_c1_file(const std::string& path) { return parse_c1(read_text(path), path); }

std::string write_c1_json(const c1_output_t& c1) {
  if (c1.registered_proof == nullptr) throw std::invalid_argument("C1: registered_proof not set");
  size_t domains = 0;
  for (const auto& part : c1.vanilla_proofs)
    for (const auto& v : part)
      domains += 64 + v.labeling_proofs.size() * total_parents +
                 (1 + v.replica_column_proofs.drg_parents.size() +
                  v.replica_column_proofs.exp_parents.size()) *
                     64;
  json_out_t o(domains * 130 + 4096);
  const registered_proof_t& p = *c1.registered_proof;
  o.raw("{\"registered_proof\":\"").raw(p.name).raw("\",\"vanilla_proofs\":{\"");
  o.raw(p.vanilla_variant).raw("\":[");
  for (size_t k = 0; k < c1.vanilla_proofs.size(); ++k) {
    if (k) o.raw(",");
    o.raw("[");
    for (size_t i = 0; i < c1.vanilla_proofs[k].size(); ++i) {
      if (i) o.raw(",");
      write_vanilla(o, c1.vanilla_proofs[k][i]);
    }
    o.raw("]");
  }
  o.raw("]},\"comm_r\":").bytes(c1.comm_r).raw(",\"comm_d\":").bytes(c1.comm_d);
  o.raw(",\"replica_id\":").bytes(c1.replica_id).raw(",\"seed\":").bytes(c1.seed);
  o.raw(",\"ticket\":").bytes(c1.ticket).raw("}");
  return o.take();
}

std::string write_c1_wrapper_json(const c1_output_t& c1, int64_t sector_num) {
  const std::string inner = write_c1_json(c1);
  std::string out = "{\"SectorNum\":" + std::to_string(sector_num) + ",\"Phase1Out\":\"";
  out += base64_encode(reinterpret_cast<const uint8_t*>(inner.data()), inner.size());
  out += "\",\"SectorSize\":" + std::to_string(c1.registered_proof->sector_size) + "}";
  return out;
}

sector_ids_t sector_ids_of(const c1_output_t& c1, const bytes32_t& prover_id, uint64_t sector) {
  sector_ids_t ids;
  ids.prover_id = prover_id;
  ids.sector = sector;
  ids.ticket = c1.ticket;
  ids.seed = c1.seed;
  ids.comm_d = c1.comm_d;
  ids.comm_r = c1.comm_r;
  return ids;
}

}  // namespace zk::filecoin
