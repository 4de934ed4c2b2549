#include "zk/formats/r1cs.hpp"

#include <doctest/doctest.h>

#include <cstring>

#include "tests/formats/test_util.hpp"

using namespace zk;
using namespace zk::formats;
using namespace zk::formats::test;

namespace {

// Writes the spec's sections (optionally edited) as <dir>/circuit.r1cs and returns the path.
std::string write_r1cs(const temp_dir_t& dir, const std::vector<section_t>& sections,
                       uint32_t version = 1) {
  const std::string path = dir.file("circuit.r1cs");
  write_file(path, make_binfile("r1cs", version, sections));
  return path;
}

bool coef_is(const uint8_t* coef, uint64_t v) {
  return std::memcmp(coef, le(v, 32).data(), 32) == 0;
}

}  // namespace

TEST_CASE("r1cs: parses circom's layout (header after constraints)") {
  temp_dir_t dir;
  r1cs_spec_t spec;
  r1cs_file_t f(write_r1cs(dir, make_r1cs_sections(spec)));

  const r1cs_header_t& h = f.header();
  CHECK(h.fs == 32);
  CHECK(std::memcmp(h.prime, spec.prime.data(), 32) == 0);
  CHECK(h.n_wires == 300);
  CHECK(h.n_pub_out == 1);
  CHECK(h.n_pub_in == 1);
  CHECK(h.n_prv_in == 1);
  CHECK(h.n_labels == 9);
  CHECK(h.n_constraints == 3);
  CHECK(h.n_public() == 2);
  CHECK(f.curve() == curve_id_t::bn254);
  CHECK(f.nnz() == std::array<uint64_t, 3>{3, 2, 5});

  std::vector<r1cs_constraint_t> cons(f.constraints().begin(), f.constraints().end());
  REQUIRE(cons.size() == 3);
  CHECK(cons[0].a.size() == 1);
  CHECK(cons[0].a[0].wire == 3);
  CHECK(coef_is(cons[0].a[0].coef, 1));
  CHECK(cons[1].a.size() == 2);
  CHECK(cons[1].a[1].wire == 0);
  CHECK(coef_is(cons[1].a[1].coef, 7));
  CHECK(std::memcmp(cons[1].b[0].coef, spec.constraints[1][1][0].coef.data(), 32) == 0);
  CHECK(cons[2].a.empty());
  CHECK(cons[2].b.empty());
  CHECK(cons[2].c.size() == 3);
  CHECK(cons[2].c[2].wire == 256);
}

TEST_CASE("r1cs: CSR arrays") {
  temp_dir_t dir;
  r1cs_spec_t spec;
  r1cs_file_t f(write_r1cs(dir, make_r1cs_sections(spec)));
  const r1cs_csr_t csr = build_csr(f);

  CHECK(csr.a.row_ptr == std::vector<uint64_t>{0, 1, 3, 3});
  CHECK(csr.a.col == std::vector<uint32_t>{3, 1, 0});
  CHECK(csr.b.row_ptr == std::vector<uint64_t>{0, 1, 2, 2});
  CHECK(csr.b.col == std::vector<uint32_t>{4, 2});
  CHECK(csr.c.row_ptr == std::vector<uint64_t>{0, 1, 2, 5});
  CHECK(csr.c.col == std::vector<uint32_t>{1, 5, 2, 0, 256});
  CHECK(csr.a.n_rows() == 3);
  CHECK(csr.c.nnz() == 5);
  CHECK(csr.a.coef.size() == 3 * 32);
  CHECK(coef_is(csr.a.coef_at(1), 2));
  CHECK(coef_is(csr.a.coef_at(2), 7));
  CHECK(std::memcmp(csr.b.coef_at(1), spec.constraints[1][1][0].coef.data(), 32) == 0);
  CHECK(coef_is(csr.c.coef_at(3), 3));
}

TEST_CASE("r1cs: section order does not matter") {
  temp_dir_t dir;
  auto secs = make_r1cs_sections(r1cs_spec_t());
  std::swap(secs[0], secs[2]);
  r1cs_file_t f(write_r1cs(dir, secs));
  CHECK(f.header().n_constraints == 3);
  CHECK(f.nnz()[2] == 5);
}

TEST_CASE("r1cs: out-of-range wire") {
  temp_dir_t dir;
  r1cs_spec_t spec;
  spec.constraints[1][1][0].wire = 300;  // constraint 1, B, term 0
  // Constraint 0 takes 3*(4+36) = 120 bytes and constraint 1's A 4+2*36 = 76, so the term sits
  // at payload 24 + 120 + 76 + 4 = 0xe0.
  CHECK_ERROR(r1cs_file_t(write_r1cs(dir, make_r1cs_sections(spec))), "circuit.r1cs",
              "section 2 (constraints)", "constraint 1 B term 0: wire 300 >= nWires = 300",
              "at offset 0xe0", "section at offset 0x18");
}

TEST_CASE("r1cs: opened for its header, the constraints are not read") {
  temp_dir_t dir;
  r1cs_spec_t spec;
  spec.constraints[1][1][0].wire = 300;  // a term the full open refuses
  const std::string path = write_r1cs(dir, make_r1cs_sections(spec));
  CHECK_ERROR(r1cs_file_t(path), "wire 300 >= nWires = 300");
  const r1cs_file_t h(path, r1cs_open_t::header);
  temp_dir_t other;
  const r1cs_file_t full(write_r1cs(other, make_r1cs_sections(r1cs_spec_t())));
  CHECK(h.header().n_wires == full.header().n_wires);
  CHECK(h.header().n_constraints == spec.constraints.size());
  CHECK_THROWS_AS(h.constraints(), std::logic_error);
  // The header itself is checked as in a full open.
  spec = r1cs_spec_t();
  spec.n_pub_in = 400;
  CHECK_ERROR(r1cs_file_t(write_r1cs(dir, make_r1cs_sections(spec)), r1cs_open_t::header),
              "exceeds nWires");
}

TEST_CASE("r1cs: coefficient >= prime") {
  temp_dir_t dir;
  r1cs_spec_t spec;
  spec.constraints[2][2][1].coef = spec.prime;
  CHECK_ERROR(r1cs_file_t(write_r1cs(dir, make_r1cs_sections(spec))), "circuit.r1cs",
              "section 2 (constraints)", "constraint 2 C term 1: coefficient 0x30644e72",
              ">= prime 0x30644e72");
  spec.constraints[2][2][1].coef = bytes_t(32, 0xff);
  CHECK_ERROR(r1cs_file_t(write_r1cs(dir, make_r1cs_sections(spec))), "constraint 2 C term 1",
              "coefficient 0xffff");
}

TEST_CASE("r1cs: term counts and section lengths") {
  temp_dir_t dir;
  r1cs_spec_t spec;

  auto secs = make_r1cs_sections(spec);
  secs[0].payload[0] = 0xe8;  // constraint 0, A: 1000 terms
  secs[0].payload[1] = 0x03;
  CHECK_ERROR(r1cs_file_t(write_r1cs(dir, secs)), "circuit.r1cs", "section 2 (constraints)",
              "constraint 0 A: 1000 terms need 36000 bytes", "at offset 0x1c");

  secs = make_r1cs_sections(spec);
  put_bytes(secs[0].payload, {0, 0, 0});
  CHECK_ERROR(r1cs_file_t(write_r1cs(dir, secs)), "circuit.r1cs", "section 2 (constraints)",
              "3 unexpected trailing bytes");

  // The header claims one constraint more than the section holds.
  secs = make_r1cs_sections(spec);
  secs[1].payload[64 - 4] = 4;
  CHECK_ERROR(r1cs_file_t(write_r1cs(dir, secs)), "circuit.r1cs", "section 2 (constraints)",
              "truncated", "for a u32");

  secs = make_r1cs_sections(spec);
  secs[1].payload.push_back(0);
  CHECK_ERROR(r1cs_file_t(write_r1cs(dir, secs)), "circuit.r1cs", "section 1 (header)",
              "length 65 does not match 32+fs = 64");

  secs = make_r1cs_sections(spec);
  secs[1].payload[0] = 7;
  CHECK_ERROR(r1cs_file_t(write_r1cs(dir, secs)), "section 1 (header)", "fs = 7");

  secs = make_r1cs_sections(spec);
  secs[2].payload.resize(8);
  CHECK_ERROR(r1cs_file_t(write_r1cs(dir, secs)), "section 3 (wire-to-label map)",
              "length 8 does not match 8*nWires = 2400");
}

TEST_CASE("r1cs: header consistency, duplicates, missing sections, magic, version") {
  temp_dir_t dir;
  r1cs_spec_t spec;
  spec.n_prv_in = 298;
  CHECK_ERROR(r1cs_file_t(write_r1cs(dir, make_r1cs_sections(spec))), "circuit.r1cs",
              "section 1 (header)", "exceeds nWires = 300");

  auto secs = make_r1cs_sections(r1cs_spec_t());
  secs.push_back(secs[1]);
  CHECK_ERROR(r1cs_file_t(write_r1cs(dir, secs)), "circuit.r1cs", "section 1 (header)",
              "appears 2 times");

  secs = make_r1cs_sections(r1cs_spec_t());
  secs.erase(secs.begin());
  CHECK_ERROR(r1cs_file_t(write_r1cs(dir, secs)), "circuit.r1cs", "section 2 (constraints)",
              "is missing");

  CHECK_ERROR(r1cs_file_t(write_r1cs(dir, make_r1cs_sections(r1cs_spec_t()), 2)), "circuit.r1cs",
              "unsupported version 2", "expected 1");

  const std::string path = dir.file("circuit.r1cs");
  write_file(path, make_binfile("wtns", 1, make_r1cs_sections(r1cs_spec_t())));
  CHECK_ERROR(r1cs_file_t(path), "circuit.r1cs", "bad magic \"wtns\"", "expected \"r1cs\"");
}

TEST_CASE("r1cs: truncated file") {
  temp_dir_t dir;
  const bytes_t full = make_binfile("r1cs", 1, make_r1cs_sections(r1cs_spec_t()));
  const std::string path = dir.file("circuit.r1cs");
  for (size_t len : {size_t(1), size_t(11), size_t(20), size_t(100), size_t(300), full.size() / 2,
                     full.size() - 1}) {
    CAPTURE(len);
    write_file(path, bytes_t(full.begin(), full.begin() + long(len)));
    CHECK_ERROR(r1cs_file_t(path), "circuit.r1cs");
  }
}

TEST_CASE("r1cs: curve identification") {
  temp_dir_t dir;
  r1cs_spec_t spec;
  spec.prime = prime_r(curve_id_t::bls12_381);
  spec.constraints.clear();
  CHECK(r1cs_file_t(write_r1cs(dir, make_r1cs_sections(spec))).curve() == curve_id_t::bls12_381);
  spec.prime = le(97, 32);
  CHECK_FALSE(r1cs_file_t(write_r1cs(dir, make_r1cs_sections(spec))).curve().has_value());
}

TEST_CASE("r1cs: snarkjs fixtures") {
  for (const fixture_t& fx : all_fixtures()) {
    CAPTURE(fx.path("circuit.r1cs"));
    if (!fixture_present(fx, {"circuit.r1cs"})) continue;
    r1cs_file_t f(fx.path("circuit.r1cs"));
    CHECK(f.curve() == fx.curve);
    CHECK(f.header().fs == 32);
    CHECK(f.header().n_public() >= 1);
    CHECK(f.header().n_constraints > 0);
    const r1cs_csr_t csr = build_csr(f);
    CHECK(csr.a.n_rows() == f.header().n_constraints);
    CHECK(csr.a.nnz() == f.nnz()[0]);
    CHECK(csr.b.nnz() == f.nnz()[1]);
    CHECK(csr.c.nnz() == f.nnz()[2]);
    uint64_t terms = 0;
    for (const r1cs_constraint_t& c : f.constraints())
      terms += c.a.size() + c.b.size() + c.c.size();
    CHECK(terms == f.nnz()[0] + f.nnz()[1] + f.nnz()[2]);
  }
}
