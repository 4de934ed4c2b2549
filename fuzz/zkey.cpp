// Groth16 .zkey reader: zk::formats::zkey_file_t(path) (zk/formats/zkey.hpp).
// Expected for bad input: format_error. Properties of an accepted file: every point
// span and the coefficient records lie inside the mapping with the sizes the header fixes, every
// coefficient record passes check_zkey_coefficient, coefficients_sorted_by_constraint() tells
// the truth, and — when the records are sorted, as the writer requires — write_zkey accepts the
// key and the reader reads back the same header and sections (reader and writer agree).
#include "zk/formats/zkey.hpp"

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>

#include "fuzz/fuzz_util.hpp"
#include "zk/base/error.hpp"
#include "zk/formats/zkey_writer.hpp"

namespace {

using namespace zk;
using namespace zk::formats;

bool inside(const binfile_t& f, const uint8_t* p, uint64_t n) {
  const uint8_t* begin = f.data();
  return p >= begin && n <= f.size() && uint64_t(p - begin) <= f.size() - n;
}

void check_span(const zkey_file_t& z, uint32_t id, const point_span_t& s) {
  const zkey_point_section_t want = zkey_points_of(z.header(), id);
  ZK_FUZZ_CHECK(s.count == want.count);
  ZK_FUZZ_CHECK(s.stride == want.point_size);
  ZK_FUZZ_CHECK(inside(z.file(), s.data, s.size_bytes()));
}

bool same_bytes(const point_span_t& a, const point_span_t& b) {
  return a.size_bytes() == b.size_bytes() &&
         (a.size_bytes() == 0 || std::memcmp(a.data, b.data, a.size_bytes()) == 0);
}

void round_trip(const zkey_file_t& in) {
  static const std::string out = zk::fuzz::scratch_dir() + "/rewritten.zkey";
  static const uint8_t zero_hash[zkey_circuit_hash_size] = {};
  const uint8_t* hash = in.circuit_hash() != nullptr ? in.circuit_hash() : zero_hash;
  try {
    write_zkey(out, in.header(), sections_of(in), hash);
  } catch (const format_error& e) {
    std::fprintf(stderr, "fuzz: write_zkey refused a key the reader accepted: %s\n", e.what());
    std::abort();
  }
  try {
    const zkey_file_t back(out);
    const zkey_header_t &a = in.header(), &b = back.header();
    ZK_FUZZ_CHECK(a.curve == b.curve && a.n8q == b.n8q && a.n8r == b.n8r);
    ZK_FUZZ_CHECK(a.n_vars == b.n_vars && a.n_public == b.n_public);
    ZK_FUZZ_CHECK(a.domain_size == b.domain_size && a.log2_domain_size == b.log2_domain_size);
    ZK_FUZZ_CHECK(same_bytes(in.ic(), back.ic()) && same_bytes(in.a(), back.a()));
    ZK_FUZZ_CHECK(same_bytes(in.b1(), back.b1()) && same_bytes(in.b2(), back.b2()));
    ZK_FUZZ_CHECK(same_bytes(in.c(), back.c()) && same_bytes(in.h(), back.h()));
    ZK_FUZZ_CHECK(in.coefficients().count == back.coefficients().count);
    ZK_FUZZ_CHECK(in.coefficients().size_bytes() == 0 ||
                  std::memcmp(in.coefficients().data, back.coefficients().data,
                              in.coefficients().size_bytes()) == 0);
    ZK_FUZZ_CHECK(std::memcmp(back.circuit_hash(), hash, zkey_circuit_hash_size) == 0);
  } catch (const format_error& e) {
    std::fprintf(stderr, "fuzz: the reader refused the key write_zkey wrote: %s\n", e.what());
    std::abort();
  }
  ::unlink(out.c_str());
}

void check_accepted(const zkey_file_t& z) {
  const zkey_header_t& h = z.header();
  ZK_FUZZ_CHECK(h.n_public + 1ull <= h.n_vars);
  ZK_FUZZ_CHECK(h.domain_size != 0 && (h.domain_size & (h.domain_size - 1)) == 0);
  ZK_FUZZ_CHECK((uint64_t(1) << h.log2_domain_size) == h.domain_size);
  check_span(z, zkey_section::ic, z.ic());
  check_span(z, zkey_section::points_a, z.a());
  check_span(z, zkey_section::points_b1, z.b1());
  check_span(z, zkey_section::points_b2, z.b2());
  check_span(z, zkey_section::points_c, z.c());
  check_span(z, zkey_section::points_h, z.h());

  const coef_span_t cs = z.coefficients();
  ZK_FUZZ_CHECK(cs.n8r == h.n8r);
  ZK_FUZZ_CHECK(inside(z.file(), cs.data, cs.size_bytes()));
  bool sorted = true;
  for (uint64_t i = 0; i < cs.count; ++i) {
    const coef_record_t r = cs[i];
    ZK_FUZZ_CHECK(check_zkey_coefficient(h, r.matrix, r.constraint, r.signal, r.value));
    if (i > 0 && r.constraint < cs[i - 1].constraint) sorted = false;
  }
  ZK_FUZZ_CHECK(sorted == z.coefficients_sorted_by_constraint());
  if (z.circuit_hash() != nullptr)
    ZK_FUZZ_CHECK(inside(z.file(), z.circuit_hash(), zkey_circuit_hash_size));
  if (sorted) round_trip(z);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string& path = zk::fuzz::input_file().write(data, size);
  try {
    const zkey_file_t z(path);
    check_accepted(z);
  } catch (const format_error&) {
  }
  return 0;
}
