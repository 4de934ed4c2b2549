#include "zk/formats/zkey.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <functional>

#include "tests/formats/test_util.hpp"
#include "zk/formats/r1cs.hpp"
#include "zk/formats/wtns.hpp"
#include "zk/formats/zkey_writer.hpp"

using namespace zk;
using namespace zk::formats;
using namespace zk::formats::test;

namespace {

std::string write_zkey_file(const temp_dir_t& dir, const std::vector<section_t>& sections,
                            const char* name = "circuit.zkey") {
  const std::string path = dir.file(name);
  write_file(path, make_binfile("zkey", 1, sections));
  return path;
}

bool same(const uint8_t* p, const bytes_t& b) { return std::memcmp(p, b.data(), b.size()) == 0; }

bool same_section(const binfile_t& x, const binfile_t& y, uint32_t id) {
  const byte_span_t a = x.bytes(x.unique(id));
  const byte_span_t b = y.bytes(y.unique(id));
  return a.size == b.size && std::memcmp(a.data, b.data, a.size) == 0;
}

// Synthetic layout (zkey_new order 1,2,4,3,...): section 1 payload at 0x18, section 2 payload at
// 0x28, section 4 record at 0x28 + 660 (BN254 header) and its payload 12 bytes later.
constexpr uint64_t bn254_coefs_payload = 0x28 + 660 + 12;
// Header field offsets inside the section 2 payload (BN254): nVars, nPublic, domainSize.
constexpr size_t hdr_n_public = 4 + 32 + 4 + 32 + 4;
constexpr size_t hdr_domain = hdr_n_public + 4;

}  // namespace

TEST_CASE("zkey: parses a BN254 key written in zkey_new's section order") {
  temp_dir_t dir;
  zkey_spec_t spec;
  zkey_file_t z(write_zkey_file(dir, make_zkey_sections(spec)));
  const zkey_header_t& h = z.header();
  CHECK(h.curve == curve_id_t::bn254);
  CHECK(h.n8q == 32);
  CHECK(h.n8r == 32);
  CHECK(same(h.q, prime_q(curve_id_t::bn254)));
  CHECK(same(h.r, prime_r(curve_id_t::bn254)));
  CHECK(h.n_vars == 6);
  CHECK(h.n_public == 2);
  CHECK(h.domain_size == 8);
  CHECK(h.log2_domain_size == 3);
  // α₁, β₁, β₂, γ₂, δ₁, δ₂ in that order (§2.3).
  CHECK(same(h.alpha1, pattern(64, 100)));
  CHECK(same(h.beta1, pattern(64, 101)));
  CHECK(same(h.beta2, pattern(128, 102)));
  CHECK(same(h.gamma2, pattern(128, 103)));
  CHECK(same(h.delta1, pattern(64, 104)));
  CHECK(same(h.delta2, pattern(128, 105)));

  CHECK(z.ic().count == 3);
  CHECK(z.ic().stride == 64);
  CHECK(same(z.ic().data, pattern(3 * 64, 3)));
  CHECK(z.a().count == 6);
  CHECK(same(z.a()[0], pattern(6 * 64, 5)));
  CHECK(z.b1().count == 6);
  CHECK(z.b2().count == 6);
  CHECK(z.b2().stride == 128);
  CHECK(same(z.b2()[0], pattern(6 * 128, 7)));
  CHECK(z.c().count == 3);
  CHECK(same(z.c().data, pattern(3 * 64, 8)));
  CHECK(z.h().count == 8);
  CHECK(z.h().size_bytes() == 8 * 64);
  // Spans point into the mapping, not into copies.
  CHECK(z.h().data > z.file().data());
  CHECK(z.h().data + z.h().size_bytes() <= z.file().data() + z.file().size());

  const coef_span_t cs = z.coefficients();
  REQUIRE(cs.count == spec.coefs.size());
  CHECK(cs.stride() == 44);
  for (uint64_t i = 0; i < cs.count; ++i) {
    const coef_record_t c = cs[i];
    CHECK(c.matrix == spec.coefs[i].matrix);
    CHECK(c.constraint == spec.coefs[i].constraint);
    CHECK(c.signal == spec.coefs[i].signal);
    CHECK(same(c.value, spec.coefs[i].value));
  }
  CHECK(z.coefficients_sorted_by_constraint());
  REQUIRE(z.circuit_hash() != nullptr);
  CHECK(same(z.circuit_hash(), circuit_hash_for_test()));
  z.advise_willneed(zkey_section::points_h);
}

TEST_CASE("zkey: BLS12-381 (n8q = 48) and sections in id order") {
  temp_dir_t dir;
  zkey_spec_t spec;
  spec.curve = curve_id_t::bls12_381;
  auto secs = make_zkey_sections(spec);
  std::sort(secs.begin(), secs.end(),
            [](const section_t& a, const section_t& b) { return a.id < b.id; });
  zkey_file_t z(write_zkey_file(dir, secs));
  CHECK(z.header().curve == curve_id_t::bls12_381);
  CHECK(z.header().n8q == 48);
  CHECK(z.header().g1_size() == 96);
  CHECK(z.header().g2_size() == 192);
  CHECK(z.file().unique(zkey_section::header).size == 964);
  CHECK(z.b2().stride == 192);
  CHECK(same(z.header().delta2, pattern(192, 105)));
  CHECK(z.coefficients().stride() == 44);
}

TEST_CASE("zkey: protocol must be Groth16") {
  temp_dir_t dir;
  zkey_spec_t spec;
  spec.protocol = 2;
  CHECK_ERROR(zkey_file_t(write_zkey_file(dir, make_zkey_sections(spec))), "circuit.zkey",
              "section 1 (protocol)", "protocol 2 (PLONK) is not Groth16");
  spec.protocol = 10;
  CHECK_ERROR(zkey_file_t(write_zkey_file(dir, make_zkey_sections(spec))), "protocol 10 (FFLONK)");
  spec.protocol = 7;
  CHECK_ERROR(zkey_file_t(write_zkey_file(dir, make_zkey_sections(spec))), "protocol 7 (unknown)");
}

TEST_CASE("zkey: every section length is checked against the header counts") {
  struct expectation_t {
    uint32_t id;
    const char* fragment;
  };
  const expectation_t table[] = {
      {1, "section 1 (protocol): length 5 does not match u32 protocol = 4"},
      {2, "section 2 (Groth16 header): length 661 does not match 4+n8q+4+n8r+12"},
      {3, "section 3 (IC points): length 193 does not match 2*n8q*(nPublic+1) = 192"},
      {4, "section 4 (coefficients): length 401 does not match 4+nCoef*(12+n8r)"},
      {5, "section 5 (A points): length 385 does not match 2*n8q*nVars = 384"},
      {6, "section 6 (B1 points): length 385 does not match 2*n8q*nVars = 384"},
      {7, "section 7 (B2 points): length 769 does not match 4*n8q*nVars = 768"},
      {8, "section 8 (C points): length 193 does not match 2*n8q*(nVars-nPublic-1) = 192"},
      {9, "section 9 (H points): length 513 does not match 2*n8q*domainSize = 512"},
  };
  temp_dir_t dir;
  for (const expectation_t& e : table) {
    CAPTURE(e.id);
    auto secs = make_zkey_sections(zkey_spec_t());
    find_section(secs, e.id)->payload.push_back(0);
    CHECK_ERROR(zkey_file_t(write_zkey_file(dir, secs)), "circuit.zkey", e.fragment,
                "(section at offset 0x");
  }
  auto secs = make_zkey_sections(zkey_spec_t());
  find_section(secs, 10)->payload.resize(60);
  CHECK_ERROR(zkey_file_t(write_zkey_file(dir, secs)), "section 10 (MPC params)", "too short");
}

TEST_CASE("zkey: duplicate and missing sections") {
  temp_dir_t dir;
  auto secs = make_zkey_sections(zkey_spec_t());
  secs.push_back(*find_section(secs, 5));
  CHECK_ERROR(zkey_file_t(write_zkey_file(dir, secs)), "circuit.zkey", "section 5 (A points)",
              "appears 2 times");

  secs = make_zkey_sections(zkey_spec_t());
  secs.erase(std::find_if(secs.begin(), secs.end(), [](const section_t& s) { return s.id == 9; }));
  CHECK_ERROR(zkey_file_t(write_zkey_file(dir, secs)), "circuit.zkey", "section 9 (H points)",
              "is missing");

  zkey_spec_t no_mpc;
  no_mpc.with_mpc_params = false;
  zkey_file_t z(write_zkey_file(dir, make_zkey_sections(no_mpc)));
  CHECK(z.circuit_hash() == nullptr);
}

TEST_CASE("zkey: coefficient records are validated") {
  temp_dir_t dir;
  const std::string at4 = "at offset " + hex(bn254_coefs_payload + 4 + 4 * 44);
  zkey_spec_t spec;
  spec.coefs[4].matrix = 2;
  CHECK_ERROR(zkey_file_t(write_zkey_file(dir, make_zkey_sections(spec))), "circuit.zkey",
              "section 4 (coefficients)", "coefficient 4: matrix 2 is neither 0 (A) nor 1 (B)",
              at4.c_str());
  spec = zkey_spec_t();
  spec.coefs[4].constraint = 8;
  CHECK_ERROR(zkey_file_t(write_zkey_file(dir, make_zkey_sections(spec))),
              "section 4 (coefficients)", "coefficient 4: constraint 8 >= domainSize = 8",
              at4.c_str());
  spec = zkey_spec_t();
  spec.coefs[4].signal = 6;
  CHECK_ERROR(zkey_file_t(write_zkey_file(dir, make_zkey_sections(spec))),
              "section 4 (coefficients)", "coefficient 4: signal 6 >= nVars = 6", at4.c_str());
  spec = zkey_spec_t();
  spec.coefs[4].value = prime_r(curve_id_t::bn254);
  CHECK_ERROR(zkey_file_t(write_zkey_file(dir, make_zkey_sections(spec))),
              "section 4 (coefficients)", "coefficient 4: value 0x30644e72", ">= r", at4.c_str());

  // Order is not required by the reader, only reported.
  spec = zkey_spec_t();
  std::swap(spec.coefs[0], spec.coefs[7]);
  zkey_file_t z(write_zkey_file(dir, make_zkey_sections(spec)));
  CHECK_FALSE(z.coefficients_sorted_by_constraint());
}

TEST_CASE("zkey: opened for its verification key, the coefficient section is not read") {
  temp_dir_t dir;
  zkey_spec_t spec;
  spec.coefs[4].matrix = 2;  // a record the prover's open refuses
  const std::string path = write_zkey_file(dir, make_zkey_sections(spec));
  CHECK_ERROR(zkey_file_t(path), "coefficient 4: matrix 2 is neither 0 (A) nor 1 (B)");
  const zkey_file_t v(path, zkey_open_t::verifier);
  CHECK(v.header().n_vars == 6);
  CHECK(v.header().domain_size == 8);
  CHECK(v.coefficients().count == 0);
  CHECK(v.ic().count == v.header().n_public + 1);
  // The rest is checked as for the prover: a section of the wrong length still fails.
  auto secs = make_zkey_sections(zkey_spec_t());
  find_section(secs, 9)->payload.push_back(0);
  CHECK_ERROR(zkey_file_t(write_zkey_file(dir, secs), zkey_open_t::verifier),
              "section 9 (H points): length 513 does not match");
}

TEST_CASE("zkey: header consistency") {
  temp_dir_t dir;
  auto edit_header = [&](size_t at, uint32_t v) {
    auto secs = make_zkey_sections(zkey_spec_t());
    uint8_t* p = find_section(secs, 2)->payload.data() + at;
    for (int i = 0; i < 4; ++i) p[i] = uint8_t(v >> (8 * i));
    return write_zkey_file(dir, secs);
  };
  CHECK_ERROR(zkey_file_t(edit_header(hdr_domain, 6)), "circuit.zkey", "section 2 (Groth16 header)",
              "domainSize = 6 is not a power of two");
  CHECK_ERROR(zkey_file_t(edit_header(hdr_domain, 0)), "domainSize = 0 is not a power of two");
  CHECK_ERROR(zkey_file_t(edit_header(hdr_n_public, 6)), "section 2 (Groth16 header)",
              "nPublic + 1 = 7", "exceeds nVars = 6");
  CHECK_ERROR(zkey_file_t(edit_header(0, 33)), "section 2 (Groth16 header)", "n8q = 33");
}

TEST_CASE("zkey: unknown curve primes") {
  temp_dir_t dir;
  auto secs = make_zkey_sections(zkey_spec_t());
  find_section(secs, 2)->payload[4] ^= 1;  // q's low byte: 0x47 -> 0x46
  CHECK_ERROR(
      zkey_file_t(write_zkey_file(dir, secs)), "circuit.zkey", "section 2 (Groth16 header)",
      "unknown curve: q = 0x30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd46");

  // BN254 q with BLS12-381 r.
  secs = make_zkey_sections(zkey_spec_t());
  const bytes_t bls_r = prime_r(curve_id_t::bls12_381);
  std::copy(bls_r.begin(), bls_r.end(), find_section(secs, 2)->payload.begin() + 4 + 32 + 4);
  CHECK_ERROR(
      zkey_file_t(write_zkey_file(dir, secs)), "circuit.zkey",
      "unknown curve: r = 0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001",
      "not the scalar field of bn128");
}

TEST_CASE("zkey: truncated file") {
  temp_dir_t dir;
  const bytes_t full = make_binfile("zkey", 1, make_zkey_sections(zkey_spec_t()));
  const std::string path = dir.file("circuit.zkey");
  for (size_t len : {size_t(3), size_t(12), size_t(30), size_t(100), size_t(700), size_t(1200),
                     full.size() / 2, full.size() - 70, full.size() - 1}) {
    CAPTURE(len);
    write_file(path, bytes_t(full.begin(), full.begin() + long(len)));
    CHECK_ERROR(zkey_file_t(path), "circuit.zkey", len < 12 ? "too short" : "offset 0x");
  }
}

TEST_CASE("zkey: check_witness_matches") {
  temp_dir_t dir;
  zkey_file_t z(write_zkey_file(dir, make_zkey_sections(zkey_spec_t())));
  const std::string wpath = dir.file("witness.wtns");

  write_file(
      wpath,
      make_binfile("wtns", 2, make_wtns_sections(prime_r(curve_id_t::bn254), witness_values(6))));
  check_witness_matches(z, wtns_file_t(wpath));

  write_file(
      wpath,
      make_binfile("wtns", 2, make_wtns_sections(prime_r(curve_id_t::bn254), witness_values(5))));
  CHECK_ERROR(check_witness_matches(z, wtns_file_t(wpath)), "witness.wtns", "circuit.zkey",
              "nWitness = 5", "nVars = 6");

  write_file(wpath,
             make_binfile("wtns", 2,
                          make_wtns_sections(prime_r(curve_id_t::bls12_381), witness_values(6))));
  CHECK_ERROR(check_witness_matches(z, wtns_file_t(wpath)), "witness.wtns", "circuit.zkey",
              "witness prime 0x73eda753", "r = 0x30644e72");
}

TEST_CASE("corrupted r1cs, wtns and zkey files parse or throw format_error, never crash") {
  temp_dir_t dir;
  struct target_t {
    const char* name;
    bytes_t data;
    std::function<void(const std::string&)> open;
  };
  const target_t targets[] = {
      {"c.zkey", make_binfile("zkey", 1, make_zkey_sections(zkey_spec_t())),
       [](const std::string& p) { zkey_file_t z(p); }},
      {"c.r1cs", make_binfile("r1cs", 1, make_r1cs_sections(r1cs_spec_t())),
       [](const std::string& p) { build_csr(r1cs_file_t(p)); }},
      {"w.wtns",
       make_binfile("wtns", 2, make_wtns_sections(prime_r(curve_id_t::bn254), witness_values(8))),
       [](const std::string& p) { wtns_file_t w(p); }},
  };
  uint32_t rng = 12345;
  auto next = [&] { return rng = rng * 1664525u + 1013904223u; };
  for (const target_t& t : targets) {
    const std::string path = dir.file(t.name);
    for (int iter = 0; iter < 200; ++iter) {
      bytes_t b = t.data;
      for (int k = 0; k < 3; ++k) b[next() % b.size()] ^= uint8_t(1u << (next() % 8));
      if (iter % 4 == 0) b.resize(1 + next() % b.size());
      write_file(path, b);
      try {
        t.open(path);
      } catch (const format_error& e) {
        CHECK(has(e.what(), t.name));
      }
    }
  }
}

// ---- writer ----

TEST_CASE("zkey_writer: round trip of synthetic keys, sections written 1..10") {
  for (curve_id_t curve : {curve_id_t::bn254, curve_id_t::bls12_381}) {
    CAPTURE(curve_name(curve));
    temp_dir_t dir;
    zkey_spec_t spec;
    spec.curve = curve;
    zkey_file_t in(write_zkey_file(dir, make_zkey_sections(spec)));
    const std::string out_path = dir.file("out.zkey");
    write_zkey(out_path, in.header(), sections_of(in), in.circuit_hash());
    CHECK_FALSE(std::filesystem::exists(out_path + ".tmp"));

    zkey_file_t out(out_path);
    for (uint32_t id = 1; id <= 9; ++id) {
      CAPTURE(id);
      CHECK(same_section(in.file(), out.file(), id));
    }
    // Section 10: the circuit hash and nContributions = 0 (zkey_new's layout).
    CHECK(same_section(in.file(), out.file(), 10));
    REQUIRE(out.file().sections().size() == 10);
    for (uint32_t i = 0; i < 10; ++i) CHECK(out.file().sections()[i].id == i + 1);
  }
}

TEST_CASE("zkey_writer: streaming in chunks gives the same bytes") {
  temp_dir_t dir;
  zkey_file_t in(write_zkey_file(dir, make_zkey_sections(zkey_spec_t())));
  const std::string a = dir.file("a.zkey");
  const std::string b = dir.file("b.zkey");
  write_zkey(a, in.header(), sections_of(in), in.circuit_hash());

  zkey_writer_t w(b, in.header(), in.coefficients().count);
  const point_span_t points[] = {in.ic(), {}, in.a(), in.b1(), in.b2(), in.c(), in.h()};
  for (uint32_t id = 3; id <= 9; ++id) {
    w.begin_section(id);
    if (id == 4) {
      for (uint64_t i = 0; i < in.coefficients().count; ++i) {
        const coef_record_t c = in.coefficients()[i];
        w.add_coefficient(c.matrix, c.constraint, c.signal, c.value);
      }
    } else {
      const point_span_t& p = points[id - 3];
      for (uint64_t i = 0; i < p.count; ++i) w.write(p[i], p.stride);
    }
    w.end_section();
  }
  w.finish(in.circuit_hash());
  CHECK(read_file(a) == read_file(b));
}

TEST_CASE("zkey_writer: rejects what snarkjs would mis-read") {
  temp_dir_t dir;
  zkey_file_t in(write_zkey_file(dir, make_zkey_sections(zkey_spec_t())));
  const std::string out = dir.file("out.zkey");

  SUBCASE("coefficients out of constraint order") {
    zkey_spec_t spec;
    std::swap(spec.coefs[0], spec.coefs[7]);
    zkey_file_t unsorted(write_zkey_file(dir, make_zkey_sections(spec), "unsorted.zkey"));
    CHECK_ERROR(write_zkey(out, unsorted.header(), sections_of(unsorted), in.circuit_hash()),
                "out.zkey", "coefficient 1: constraint 0 follows constraint 4",
                "sorted by constraint");
  }
  SUBCASE("point section of the wrong size") {
    zkey_sections_t s = sections_of(in);
    s.b2.size -= 1;
    CHECK_ERROR(write_zkey(out, in.header(), s, in.circuit_hash()), "out.zkey", "section 7",
                "got 767 bytes, its length is 768");
    s = sections_of(in);
    s.h.size += 64;
    CHECK_ERROR(write_zkey(out, in.header(), s, in.circuit_hash()), "out.zkey", "section 9",
                "exceed its length 512");
  }
  SUBCASE("bad header") {
    zkey_header_t h = in.header();
    h.domain_size = 12;
    CHECK_ERROR(zkey_writer_t(out, h, 0), "out.zkey", "domainSize = 12");
    h = in.header();
    const bytes_t q = le(97, 32);
    h.q = q.data();
    CHECK_ERROR(zkey_writer_t(out, h, 0), "out.zkey", "unknown curve: q = 0x61");
    h = in.header();
    h.n_public = 6;
    CHECK_ERROR(zkey_writer_t(out, h, 0), "out.zkey", "nPublic = 6");
  }
  SUBCASE("misuse of the streaming API; the temp file is removed") {
    {
      zkey_writer_t w(out, in.header(), in.coefficients().count);
      CHECK(std::filesystem::exists(out + ".tmp"));
      CHECK_ERROR(w.begin_section(5), "out.zkey", "expected section 3, got 5");
      w.begin_section(3);
      CHECK_ERROR(w.add_coefficient(0, 0, 0, in.header().r), "outside section 4");
      CHECK_ERROR(w.finish(in.circuit_hash()), "finish() before sections 3..9");
      CHECK_ERROR(w.end_section(), "section 3", "got 0 bytes");
    }
    CHECK_FALSE(std::filesystem::exists(out + ".tmp"));
    CHECK_FALSE(std::filesystem::exists(out));
  }
  SUBCASE("too many coefficients") {
    zkey_writer_t w(out, in.header(), 1);
    w.begin_section(3);
    w.write(in.ic().data, in.ic().size_bytes());
    w.end_section();
    w.begin_section(4);
    const coef_record_t c = in.coefficients()[0];
    w.add_coefficient(c.matrix, c.constraint, c.signal, c.value);
    CHECK_ERROR(w.add_coefficient(c.matrix, c.constraint, c.signal, c.value),
                "more records than nCoef = 1");
  }
}

// ---- snarkjs fixtures ----

TEST_CASE("zkey: snarkjs fixtures agree with their r1cs and witness") {
  for (const fixture_t& fx : all_fixtures()) {
    CAPTURE(fx.path("circuit.zkey"));
    if (!fixture_present(fx, {"circuit.zkey", "circuit.r1cs", "witness.wtns"})) continue;
    zkey_file_t z(fx.path("circuit.zkey"));
    r1cs_file_t r(fx.path("circuit.r1cs"));
    wtns_file_t w(fx.path("witness.wtns"));
    const zkey_header_t& h = z.header();

    CHECK(h.curve == fx.curve);
    CHECK(h.n8q == (fx.curve == curve_id_t::bn254 ? 32u : 48u));
    CHECK(h.n8r == 32);
    CHECK(std::memcmp(h.r, r.header().prime, 32) == 0);
    check_witness_matches(z, w);
    CHECK(h.n_vars == w.n_witness());
    CHECK(h.n_vars == r.header().n_wires);
    CHECK(h.n_public == r.header().n_public());

    // n = the smallest power of two >= nConstraints + nPublic + 1 (§2.6).
    const uint64_t rows = uint64_t(r.header().n_constraints) + h.n_public + 1;
    CHECK(h.domain_size >= rows);
    CHECK(h.domain_size / 2 < rows);

    // zkey_new: every A and B term of the r1cs, then the nPublic+1 input rows (§2.4).
    const coef_span_t cs = z.coefficients();
    CHECK(cs.count == r.nnz()[0] + r.nnz()[1] + h.n_public + 1);
    for (uint32_t s = 0; s <= h.n_public; ++s) {
      const coef_record_t c = cs[cs.count - h.n_public - 1 + s];
      CHECK(c.matrix == 0);
      CHECK(c.constraint == r.header().n_constraints + s);
      CHECK(c.signal == s);
    }
    CHECK(z.coefficients_sorted_by_constraint());
    CHECK(z.circuit_hash() != nullptr);

    // Known facts from tests/fixtures/README.md.
    const bool mulchain = std::string(fx.circuit) == "mulchain";
    CHECK(r.header().n_constraints == (mulchain ? 1000u : 960u));
    CHECK(h.n_vars == (mulchain ? 1003u : 963u));
    CHECK(h.n_public == 2);
    CHECK(h.domain_size == 1024);
    if (mulchain) {
      // B1/B2 of wires 0, 1 and 3 are the point at infinity: all-zero bytes (§2.2).
      auto zero = [](const uint8_t* p, uint32_t n) {
        return std::all_of(p, p + n, [](uint8_t b) { return b == 0; });
      };
      for (uint32_t wire : {0u, 1u, 3u}) {
        CAPTURE(wire);
        CHECK(zero(z.b1()[wire], h.g1_size()));
        CHECK(zero(z.b2()[wire], h.g2_size()));
      }
      CHECK_FALSE(zero(z.b1()[2], h.g1_size()));
    }
  }
}

TEST_CASE("zkey_writer: snarkjs fixtures round-trip byte for byte (sections 1-9)") {
  for (const fixture_t& fx : all_fixtures()) {
    CAPTURE(fx.path("circuit.zkey"));
    if (!fixture_present(fx, {"circuit.zkey"})) continue;
    temp_dir_t dir;
    zkey_file_t in(fx.path("circuit.zkey"));
    const std::string out_path = dir.file("rewritten.zkey");
    write_zkey(out_path, in.header(), sections_of(in), in.circuit_hash());
    zkey_file_t out(out_path);
    for (uint32_t id = 1; id <= 9; ++id) {
      CAPTURE(id);
      CHECK(same_section(in.file(), out.file(), id));
    }
    CHECK(std::memcmp(out.circuit_hash(), in.circuit_hash(), zkey_circuit_hash_size) == 0);
  }
}
