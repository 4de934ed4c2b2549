#include "zk/circuit/r1cs_writer.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>

#include "zk/ff/bls12_381.hpp"
#include "zk/ff/bn254.hpp"
#include "zk/formats/binfile.hpp"
#include "zk/formats/r1cs.hpp"

namespace zk::circuit {
namespace {

struct byte_writer_t {
  std::vector<uint8_t>& out;
  void u32(uint32_t v) {
    size_t n = out.size();
    out.resize(n + 4);
    formats::store_u32(out.data() + n, v);
  }
  void u64(uint64_t v) {
    size_t n = out.size();
    out.resize(n + 8);
    formats::store_u64(out.data() + n, v);
  }
  template <int N>
  void big(const ff::bigint_t<N>& v) {
    for (int k = 0; k < N; ++k) u64(v.l[k]);
  }
  // Starts a section record; returns the offset of its length field.
  size_t begin_section(uint32_t id) {
    u32(id);
    size_t at = out.size();
    u64(0);
    return at;
  }
  void end_section(size_t at) { formats::store_u64(out.data() + at, out.size() - at - 8); }
};

template <class Fr>
void write_lc(byte_writer_t& w, const sparse_matrix_t<Fr>& m, uint64_t row) {
  w.u32(uint32_t(m.row_ptr[row + 1] - m.row_ptr[row]));
  for (uint64_t k = m.row_ptr[row]; k < m.row_ptr[row + 1]; ++k) {
    w.u32(m.col[k]);
    w.big(m.coeff[k].to_canonical());
  }
}

}  // namespace

template <class Fr>
std::vector<uint8_t> r1cs_bytes(const r1cs_shape_t<Fr>& s) {
  constexpr uint32_t fs = sizeof(typename Fr::big_t);
  static_assert(fs == 32, "circom field elements are 32 bytes on both curves");
  const uint64_t nnz = s.a.nnz() + s.b.nnz() + s.c.nnz();
  std::vector<uint8_t> out;
  out.reserve(12 + 3 * 12 + 64 + 3 * 4 * uint64_t(s.n_constraints()) + nnz * (4 + fs) +
              8 * uint64_t(s.n_wires));
  byte_writer_t w{out};
  out.insert(out.end(), {'r', '1', 'c', 's'});
  w.u32(1);  // version
  w.u32(3);  // sections

  size_t at = w.begin_section(formats::r1cs_section::header);
  w.u32(fs);
  w.big(Fr::modulus);
  w.u32(s.n_wires);
  w.u32(0);           // nPubOut
  w.u32(s.n_public);  // nPubIn
  w.u32(0);           // nPrvIn
  w.u64(s.n_wires);   // nLabels
  w.u32(s.n_constraints());
  w.end_section(at);

  at = w.begin_section(formats::r1cs_section::constraints);
  for (uint64_t i = 0; i < s.n_constraints(); ++i) {
    write_lc(w, s.a, i);
    write_lc(w, s.b, i);
    write_lc(w, s.c, i);
  }
  w.end_section(at);

  at = w.begin_section(formats::r1cs_section::wire_to_label);
  for (uint32_t i = 0; i < s.n_wires; ++i) w.u64(i);
  w.end_section(at);
  return out;
}

void write_bytes(const std::string& path, const std::vector<uint8_t>& bytes) {
  const std::string tmp = path + ".tmp";
  FILE* f = std::fopen(tmp.c_str(), "wb");
  if (!f) throw std::runtime_error(path + ": cannot create: " + std::strerror(errno));
  bool ok = std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size();
  ok = (std::fclose(f) == 0) && ok;
  if (!ok || std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::remove(tmp.c_str());
    throw std::runtime_error(path + ": write failed: " + std::strerror(errno));
  }
}

template std::vector<uint8_t> r1cs_bytes<bn254::fr_t>(const r1cs_shape_t<bn254::fr_t>&);
template std::vector<uint8_t> r1cs_bytes<bls12_381::fr_t>(const r1cs_shape_t<bls12_381::fr_t>&);

}  // namespace zk::circuit
