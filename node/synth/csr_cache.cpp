#include "node/synth/csr_cache.hpp"

#include <cstring>
#include <stdexcept>

#include "zk/ec/with_curve.hpp"
#include "zk/formats/r1cs.hpp"

namespace zk::node {
namespace {

template <class Fr>
void to_mont_matrix(const formats::csr_matrix_t& m, csr_t::matrix_t& out) {
  static_assert(sizeof(Fr) == 32, "Fr is four limbs");
  out.row_ptr = m.row_ptr;
  out.col = m.col;
  out.coef.resize(m.nnz());
  for (uint64_t k = 0; k < m.nnz(); ++k) {
    typename Fr::big_t v;
    std::memcpy(v.l, m.coef_at(k), 32);
    Fr x = Fr::from_canonical(v);
    std::memcpy(out.coef[k].data(), &x, 32);
  }
}

}  // namespace

const csr_t& csr_cache_t::csr(const circuit_def_t& c) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = csr_.find(c.id);
  if (it != csr_.end()) return *it->second;
  formats::r1cs_file_t r1cs(c.r1cs);
  if (r1cs.curve() != c.curve || r1cs.header().n_wires != c.n_vars)
    throw std::runtime_error(c.r1cs + ": not the constraint system of circuit '" + c.id +
                             "' (curve or wires differ)");
  auto m = formats::build_csr(r1cs);
  auto out = std::make_unique<csr_t>();
  out->n_constraints = m.a.n_rows();
  curves::with_curve(c.curve, [&](auto tag) {
    using Fr = typename decltype(tag)::fr_t;
    to_mont_matrix<Fr>(m.a, out->a);
    to_mont_matrix<Fr>(m.b, out->b);
    to_mont_matrix<Fr>(m.c, out->c);
  });
  return *csr_.emplace(c.id, std::move(out)).first->second;
}

}  // namespace zk::node
