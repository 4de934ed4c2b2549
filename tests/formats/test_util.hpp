#pragma once
// Helpers for the format tests: a temp dir, a tiny binfile writer, synthetic r1cs/wtns/zkey
// builders, and an assertion that an expression throws a format_error containing fragments.

#include <doctest/doctest.h>

#include <array>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <initializer_list>
#include <string>
#include <vector>

#include "tests/test_util.hpp"
#include "zk/base/curve_id.hpp"
#include "zk/base/error.hpp"

namespace zk::formats::test {

using bytes_t = std::vector<uint8_t>;

using zk::test::temp_dir_t;

inline void write_file(const std::string& path, const bytes_t& data) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(data.data()), static_cast<std::streamsize>(data.size()));
}

inline bytes_t read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return bytes_t(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// Little-endian appenders.
inline void put_u32(bytes_t& b, uint32_t v) {
  for (int i = 0; i < 4; ++i) b.push_back(uint8_t(v >> (8 * i)));
}
inline void put_u64(bytes_t& b, uint64_t v) {
  for (int i = 0; i < 8; ++i) b.push_back(uint8_t(v >> (8 * i)));
}
inline void put_bytes(bytes_t& b, const bytes_t& src) { b.insert(b.end(), src.begin(), src.end()); }
// A small integer as n LE bytes.
inline bytes_t le(uint64_t v, size_t n) {
  bytes_t b(n, 0);
  for (size_t i = 0; i < n && i < 8; ++i) b[i] = uint8_t(v >> (8 * i));
  return b;
}
// Deterministic filler standing in for point bytes (the readers never look inside points).
inline bytes_t pattern(size_t n, uint32_t seed) {
  bytes_t b(n);
  uint32_t x = seed * 2654435761u + 1;
  for (auto& v : b) {
    x = x * 1103515245u + 12345u;
    v = uint8_t(x >> 16);
  }
  return b;
}

inline bytes_t modulus_le(const detail::modulus_limbs_t& m) {
  bytes_t b(m.n_limbs * 8);
  for (size_t i = 0; i < b.size(); ++i) b[i] = uint8_t(m.limb[i / 8] >> (8 * (i % 8)));
  return b;
}
inline bytes_t prime_r(curve_id_t c) {
  return modulus_le(c == curve_id_t::bn254 ? detail::bn254_r : detail::bls12_381_r);
}
inline bytes_t prime_q(curve_id_t c) {
  return modulus_le(c == curve_id_t::bn254 ? detail::bn254_q : detail::bls12_381_q);
}

// ---- binfile container ----

struct section_t {
  uint32_t id;
  bytes_t payload;
};

// nSections defaults to sections.size().
inline bytes_t make_binfile(const char* magic, uint32_t version,
                            const std::vector<section_t>& sections, int64_t n_sections = -1) {
  bytes_t b(magic, magic + 4);
  put_u32(b, version);
  put_u32(b, n_sections < 0 ? uint32_t(sections.size()) : uint32_t(n_sections));
  for (const section_t& s : sections) {
    put_u32(b, s.id);
    put_u64(b, s.payload.size());
    put_bytes(b, s.payload);
  }
  return b;
}

inline section_t* find_section(std::vector<section_t>& v, uint32_t id) {
  for (auto& s : v) {
    if (s.id == id) return &s;
  }
  return nullptr;
}

// ---- synthetic .r1cs (§1.2) ----

struct r1cs_term_t {
  uint32_t wire;
  bytes_t coef;  // fs bytes LE
};
using r1cs_lc_t = std::vector<r1cs_term_t>;

struct r1cs_spec_t {
  uint32_t fs = 32;
  bytes_t prime = prime_r(curve_id_t::bn254);
  uint32_t n_wires = 6, n_pub_out = 1, n_pub_in = 1, n_prv_in = 1;
  uint64_t n_labels = 9;
  // Each constraint: A, B, C. The default exercises multi-term and empty LCs, an r-1
  // coefficient, and wire 256 after wire 2 (circom sorts by the LE byte string, §1.2).
  std::vector<std::array<r1cs_lc_t, 3>> constraints;

  r1cs_spec_t() {
    bytes_t minus_one = prime;  // r - 1
    minus_one[0] -= 1;
    constraints = {
        {r1cs_lc_t{{3, le(1, 32)}}, r1cs_lc_t{{4, le(1, 32)}}, r1cs_lc_t{{1, le(1, 32)}}},
        {r1cs_lc_t{{1, le(2, 32)}, {0, le(7, 32)}}, r1cs_lc_t{{2, minus_one}},
         r1cs_lc_t{{5, le(1, 32)}}},
        {r1cs_lc_t{}, r1cs_lc_t{}, r1cs_lc_t{{2, le(5, 32)}, {0, le(3, 32)}, {256, le(1, 32)}}},
    };
    n_wires = 300;
  }
};

inline bytes_t r1cs_header_payload(const r1cs_spec_t& s) {
  bytes_t h;
  put_u32(h, s.fs);
  put_bytes(h, s.prime);
  put_u32(h, s.n_wires);
  put_u32(h, s.n_pub_out);
  put_u32(h, s.n_pub_in);
  put_u32(h, s.n_prv_in);
  put_u64(h, s.n_labels);
  put_u32(h, uint32_t(s.constraints.size()));
  return h;
}

inline bytes_t r1cs_constraints_payload(const r1cs_spec_t& s) {
  bytes_t c;
  for (const auto& con : s.constraints) {
    for (const r1cs_lc_t& lc : con) {
      put_u32(c, uint32_t(lc.size()));
      for (const r1cs_term_t& t : lc) {
        put_u32(c, t.wire);
        put_bytes(c, t.coef);
      }
    }
  }
  return c;
}

// circom's order: constraints (2) before the header (1), then the label map (3).
inline std::vector<section_t> make_r1cs_sections(const r1cs_spec_t& s) {
  bytes_t labels;
  for (uint32_t i = 0; i < s.n_wires; ++i) put_u64(labels, i);
  return {{2, r1cs_constraints_payload(s)}, {1, r1cs_header_payload(s)}, {3, labels}};
}

// ---- synthetic .wtns (§1.3) ----

inline std::vector<section_t> make_wtns_sections(const bytes_t& prime,
                                                 const std::vector<bytes_t>& values) {
  bytes_t h;
  put_u32(h, uint32_t(prime.size()));
  put_bytes(h, prime);
  put_u32(h, uint32_t(values.size()));
  bytes_t v;
  for (const bytes_t& x : values) put_bytes(v, x);
  return {{1, h}, {2, v}};
}

// w = [1, 2, 3, ..., n] as n8-byte values.
inline std::vector<bytes_t> witness_values(uint32_t n, size_t n8 = 32) {
  std::vector<bytes_t> w;
  for (uint32_t i = 0; i < n; ++i) w.push_back(le(i + 1, n8));
  return w;
}

// ---- synthetic .zkey (§2) ----

struct zkey_coef_t {
  uint32_t matrix, constraint, signal;
  bytes_t value;
};

struct zkey_spec_t {
  curve_id_t curve = curve_id_t::bn254;
  uint32_t protocol = 1;
  uint32_t n_vars = 6, n_public = 2, domain_size = 8;
  // Three r1cs constraints (rows 0..2) then the nPublic+1 input rows 3..5 (§2.4).
  std::vector<zkey_coef_t> coefs = {
      {0, 0, 3, le(11, 32)}, {1, 0, 4, le(12, 32)}, {0, 1, 1, le(13, 32)},
      {1, 1, 2, le(14, 32)}, {1, 1, 5, le(15, 32)}, {0, 2, 0, le(16, 32)},
      {0, 3, 0, le(1, 32)},  {0, 4, 1, le(1, 32)},  {0, 5, 2, le(1, 32)},
  };
  bool with_mpc_params = true;

  uint32_t n8q() const { return curve == curve_id_t::bn254 ? 32 : 48; }
  uint32_t g1() const { return 2 * n8q(); }
  uint32_t g2() const { return 4 * n8q(); }
};

inline bytes_t circuit_hash_for_test() { return pattern(64, 99); }

// Sections in zkey_new's order 1,2,4,3,9,8,5,6,7,10. Point bytes are pattern(size, id); the six
// header points are pattern(size, 100 + k).
inline std::vector<section_t> make_zkey_sections(const zkey_spec_t& s) {
  bytes_t p1;
  put_u32(p1, s.protocol);

  bytes_t h;
  put_u32(h, s.n8q());
  put_bytes(h, prime_q(s.curve));
  put_u32(h, 32);
  put_bytes(h, prime_r(s.curve));
  put_u32(h, s.n_vars);
  put_u32(h, s.n_public);
  put_u32(h, s.domain_size);
  const uint32_t sizes[6] = {s.g1(), s.g1(), s.g2(), s.g2(), s.g1(), s.g2()};
  for (int k = 0; k < 6; ++k) put_bytes(h, pattern(sizes[k], 100 + k));

  bytes_t coefs;
  put_u32(coefs, uint32_t(s.coefs.size()));
  for (const zkey_coef_t& c : s.coefs) {
    put_u32(coefs, c.matrix);
    put_u32(coefs, c.constraint);
    put_u32(coefs, c.signal);
    put_bytes(coefs, c.value);
  }

  bytes_t mpc = circuit_hash_for_test();
  put_u32(mpc, 0);

  std::vector<section_t> out = {
      {1, p1},
      {2, h},
      {4, coefs},
      {3, pattern(uint64_t(s.n_public + 1) * s.g1(), 3)},
      {9, pattern(uint64_t(s.domain_size) * s.g1(), 9)},
      {8, pattern(uint64_t(s.n_vars - s.n_public - 1) * s.g1(), 8)},
      {5, pattern(uint64_t(s.n_vars) * s.g1(), 5)},
      {6, pattern(uint64_t(s.n_vars) * s.g1(), 6)},
      {7, pattern(uint64_t(s.n_vars) * s.g2(), 7)},
  };
  if (s.with_mpc_params) out.push_back({10, mpc});
  return out;
}

// ---- snarkjs fixtures: tests/fixtures/{bn254,bls12_381}/{mulchain,poseidon}/ ----

struct fixture_t {
  const char* curve_dir;
  curve_id_t curve;
  const char* circuit;

  std::string path(const char* file) const {
    return std::string(ZK_SOURCE_DIR) + "/tests/fixtures/" + curve_dir + "/" + circuit + "/" + file;
  }
};

inline const std::vector<fixture_t>& all_fixtures() {
  static const std::vector<fixture_t> f = {{"bn254", curve_id_t::bn254, "mulchain"},
                                           {"bn254", curve_id_t::bn254, "poseidon"},
                                           {"bls12_381", curve_id_t::bls12_381, "mulchain"},
                                           {"bls12_381", curve_id_t::bls12_381, "poseidon"}};
  return f;
}

// True when every named file of the fixture exists. The fixtures are committed: a missing one
// is a broken checkout, so it fails the test (and the caller skips what needs it).
inline bool fixture_present(const fixture_t& fx, std::initializer_list<const char*> files) {
  bool all = true;
  for (const char* f : files) {
    const bool here = std::filesystem::exists(fx.path(f));
    CHECK_MESSAGE(
        here, "fixture missing: " << fx.path(f) << " (tests/interop/make_fixtures.sh makes them)");
    all = all && here;
  }
  return all;
}

// ---- errors ----

// The message of the format_error thrown by f, or "" when nothing was thrown.
inline std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const format_error& e) {
    return e.what();
  }
  return "";
}

inline bool has(const std::string& s, const std::string& fragment) {
  return s.find(fragment) != std::string::npos;
}

}  // namespace zk::formats::test

// CHECK_ERROR(expr, "frag1", "frag2", ...): expr throws format_error whose message contains
// every fragment.
#define CHECK_ERROR(expr, ...)                                                        \
  do {                                                                                \
    const std::string zk_msg_ = ::zk::formats::test::error_of([&] { (void)(expr); }); \
    INFO("error message: " << zk_msg_);                                               \
    CHECK_FALSE(zk_msg_.empty());                                                     \
    for (const char* zk_frag_ : std::initializer_list<const char*>{__VA_ARGS__}) {    \
      INFO("expected fragment: " << std::string(zk_frag_));                           \
      CHECK(::zk::formats::test::has(zk_msg_, zk_frag_));                             \
    }                                                                                 \
  } while (0)
