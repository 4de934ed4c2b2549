#include "zk/formats/wtns.hpp"

#include <doctest/doctest.h>

#include <cstring>

#include "tests/formats/test_util.hpp"

using namespace zk;
using namespace zk::formats;
using namespace zk::formats::test;

namespace {

std::string write_wtns(const temp_dir_t& dir, const std::vector<section_t>& sections,
                       uint32_t version = 2) {
  const std::string path = dir.file("witness.wtns");
  write_file(path, make_binfile("wtns", version, sections));
  return path;
}

}  // namespace

TEST_CASE("wtns: parses header and values in place") {
  temp_dir_t dir;
  const bytes_t r = prime_r(curve_id_t::bn254);
  wtns_file_t w(write_wtns(dir, make_wtns_sections(r, witness_values(5))));
  CHECK(w.n8() == 32);
  CHECK(std::memcmp(w.prime(), r.data(), 32) == 0);
  CHECK(w.n_witness() == 5);
  CHECK(w.curve() == curve_id_t::bn254);
  CHECK(w.value(3)[0] == 4);
  CHECK(w.values() + 3 * 32 == w.value(3));
  // Values point into the mapping: header 12, section 1 record 12 + 40, section 2 record head 12.
  CHECK(w.values() == w.file().data() + 12 + 12 + 40 + 12);
}

TEST_CASE("wtns: sections out of order, BLS12-381 prime") {
  temp_dir_t dir;
  auto secs = make_wtns_sections(prime_r(curve_id_t::bls12_381), witness_values(3));
  std::swap(secs[0], secs[1]);
  wtns_file_t w(write_wtns(dir, secs));
  CHECK(w.curve() == curve_id_t::bls12_381);
  CHECK(w.n_witness() == 3);
}

TEST_CASE("wtns: value >= prime names the index") {
  temp_dir_t dir;
  const bytes_t r = prime_r(curve_id_t::bn254);
  auto vals = witness_values(5);
  vals[3] = r;
  CHECK_ERROR(wtns_file_t(write_wtns(dir, make_wtns_sections(r, vals))), "witness.wtns",
              "section 2 (witness values)", "witness[3] = 0x30644e72", "is not below the prime",
              "at offset 0xac");
}

TEST_CASE("wtns: witness[0] must be 1") {
  temp_dir_t dir;
  const bytes_t r = prime_r(curve_id_t::bn254);
  auto vals = witness_values(4);
  vals[0] = le(2, 32);
  CHECK_ERROR(wtns_file_t(write_wtns(dir, make_wtns_sections(r, vals))), "witness.wtns",
              "section 2 (witness values)", "witness[0] = 0x2", "expected 1");
  vals[0] = le(1, 32);
  vals[0][31] = 1;  // 1 + 2^248: the low byte alone is not enough
  CHECK_ERROR(wtns_file_t(write_wtns(dir, make_wtns_sections(r, vals))), "witness[0]",
              "expected 1");
  CHECK_ERROR(wtns_file_t(write_wtns(dir, make_wtns_sections(r, {}))), "witness.wtns",
              "nWitness is 0");
}

TEST_CASE("wtns: section lengths, duplicates, version, truncation") {
  temp_dir_t dir;
  const bytes_t r = prime_r(curve_id_t::bn254);

  auto secs = make_wtns_sections(r, witness_values(4));
  secs[1].payload.resize(3 * 32);
  CHECK_ERROR(wtns_file_t(write_wtns(dir, secs)), "witness.wtns", "section 2 (witness values)",
              "length 96 does not match n8*nWitness = 128");

  secs = make_wtns_sections(r, witness_values(4));
  secs[0].payload.push_back(0);
  CHECK_ERROR(wtns_file_t(write_wtns(dir, secs)), "section 1 (header)",
              "length 41 does not match 8+n8 = 40");

  secs = make_wtns_sections(r, witness_values(4));
  secs.push_back(secs[1]);
  CHECK_ERROR(wtns_file_t(write_wtns(dir, secs)), "witness.wtns", "section 2 (witness values)",
              "appears 2 times");

  CHECK_ERROR(wtns_file_t(write_wtns(dir, make_wtns_sections(r, witness_values(4)), 1)),
              "witness.wtns", "unsupported version 1", "expected 2");

  const bytes_t full = make_binfile("wtns", 2, make_wtns_sections(r, witness_values(4)));
  const std::string path = dir.file("witness.wtns");
  for (size_t len : {size_t(4), size_t(12), size_t(30), size_t(64), size_t(80), full.size() - 1}) {
    CAPTURE(len);
    write_file(path, bytes_t(full.begin(), full.begin() + long(len)));
    CHECK_ERROR(wtns_file_t(path), "witness.wtns");
  }
}

TEST_CASE("wtns: snarkjs fixtures") {
  for (const fixture_t& fx : all_fixtures()) {
    CAPTURE(fx.path("witness.wtns"));
    if (!fixture_present(fx, {"witness.wtns"})) continue;
    wtns_file_t w(fx.path("witness.wtns"));
    CHECK(w.curve() == fx.curve);
    CHECK(w.n8() == 32);
    CHECK(w.n_witness() > 1);
  }
}
