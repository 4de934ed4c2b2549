#pragma once
// neptune 11.0.0's legacy Poseidon circuit (src/circuit.rs `poseidon_hash`, the one
// filecoin-hashers 14.1.0 src/poseidon.rs and storage-proofs-porep 19.1.0
// stacked/circuit/hash.rs call; not circuit2), over the optimised constants of
// zk/neptune/poseidon.hpp (compressed round constants, pre-sparse and sparse matrices).
//
// The state holds "elements" that are either allocated numbers or linear combinations (Elt:
// Allocated / Num). The domain tag is the constant Num tag·ONE. Per round:
//   first full round   element 0 (the tag) is computed as a constant; every other element x
//                      (allocated inputs): y = (x + pre)² [1], y² [1], y²·(x + pre) + post [1]
//   full rounds        each element: allocate it if it is a Num [1: lc·1 = v], then
//                      v² [1], v⁴ [1], v⁴·v + post [1] (no post in the terminal round)
//   partial rounds     element 0 alone, the same four
//   mix                round r: the pre-sparse matrix when r = R_F/2 − 1, the sparse matrix of
//                      the partial round when R_F/2 ≤ r < R_F/2 + R_P, else M; a product is a Num
//                      (Σ_i M[i][j]·element_i: a linear combination, no constraint); with a
//                      sparse matrix element j ≥ 1 becomes element_j + v_rest[j−1]·element_0
//   result             element 1, allocated [1]
// Constraints: 3·arity + 4·t·(R_F − 1) + 4·R_P + 1 (311 for arity 2, 598 for arity 11).
#include <vector>

#include "zk/bellperson/gadgets/num.hpp"
#include "zk/neptune/poseidon.hpp"

namespace zk::neptune {

using bellperson::num_t;
using bellperson::var_t;

namespace poseidon_detail {

template <class CS>
struct elt_t {
  bool allocated = false;
  num_t num;             // when allocated
  typename CS::lc_t lc;  // when a Num
};

template <class CS>
elt_t<CS> elt_from_fr(const fr_t& k) {  // Elt::num_from_fr: k·ONE
  elt_t<CS> e;
  e.lc.add_one(k);
  return e;
}

template <class CS>
fr_t elt_value(const elt_t<CS>& e) {
  if (e.allocated) return e.num.value;
  if constexpr (CS::evaluates)
    return e.lc.value();
  else
    return fr_t{};
}

// Elt::ensure_allocated(cs, true).
template <class CS>
num_t ensure_allocated(CS& cs, const elt_t<CS>& e) {
  using lc_t = typename CS::lc_t;
  if (e.allocated) return e.num;
  const fr_t v = elt_value(e);
  const var_t x = cs.alloc(v);
  lc_t one;
  one.add_one();
  lc_t lc;
  lc.add_var(x, v);
  cs.enforce(e.lc, one, lc);
  return num_t{x, v};
}

// Elt::scale(k) (an Allocated element becomes the Num k·x).
template <class CS>
elt_t<CS> scaled(const elt_t<CS>& e, const fr_t& k) {
  elt_t<CS> r;
  if (e.allocated) {
    r.lc.add_var(e.num.var, e.num.value);
  } else {
    r.lc = e.lc;
  }
  r.lc.scale(k);
  return r;
}

// scalar_product: Σ_i k_i·elts_i as a Num, folded from Num::zero().
template <class CS>
elt_t<CS> scalar_product(const std::vector<elt_t<CS>>& elts, const fr_t* k, size_t stride) {
  elt_t<CS> acc;
  for (size_t i = 0; i < elts.size(); ++i) acc.lc.add_lc(scaled(elts[i], k[i * stride]).lc);
  return acc;
}

// square_sum: (x + k)² with (x + k)·(x + k) = res.
template <class CS>
num_t square_sum(CS& cs, const fr_t& k, const num_t& x) {
  using lc_t = typename CS::lc_t;
  const fr_t s = x.value + k;
  const fr_t v = s * s;
  const var_t y = cs.alloc(v);
  lc_t la;
  la.add_var(x.var, x.value).add_one(k);
  lc_t lc;
  lc.add_var(y, v);
  cs.enforce(la, la, lc);
  return num_t{y, v};
}

// mul_sum: a·(b + pre) + post, with (b + pre)·a = res − post.
template <class CS>
num_t mul_sum(CS& cs, const num_t& a, const num_t& b, const fr_t* pre, const fr_t* post) {
  using lc_t = typename CS::lc_t;
  fr_t v = b.value;
  if (pre) v += *pre;
  v = v * a.value;
  if (post) v += *post;
  const var_t y = cs.alloc(v);
  lc_t la;
  la.add_var(b.var, b.value);
  if (pre) la.add_one(*pre);
  lc_t lb;
  lb.add_var(a.var, a.value);
  lc_t lc;
  lc.add_var(y, v);
  if (post) lc.add_one(-*post);
  cs.enforce(la, lb, lc);
  return num_t{y, v};
}

}  // namespace poseidon_detail

// neptune::circuit::poseidon_hash over preimage[0..c.arity).
template <class CS>
num_t poseidon_hash(CS& cs, const num_t* preimage, const poseidon_constants_t& c) {
  using namespace poseidon_detail;
  const unsigned t = c.width;
  std::vector<elt_t<CS>> el(t);
  el[0] = elt_from_fr<CS>(c.domain_tag);
  for (unsigned i = 1; i < t; ++i) {
    el[i].allocated = true;
    el[i].num = preimage[i - 1];
  }
  size_t offset = 0;  // into compressed_round_constants
  unsigned round = 0;

  auto product_mds = [&]() {
    const unsigned sparse_offset = c.half_full_rounds - 1;
    std::vector<elt_t<CS>> next(t);
    if (round == sparse_offset) {
      for (unsigned j = 0; j < t; ++j) next[j] = scalar_product(el, &c.pre_sparse_matrix[j], t);
    } else if (round > sparse_offset && round < c.half_full_rounds + c.partial_rounds) {
      const auto& sm = c.sparse_matrixes[round - sparse_offset - 1];
      next[0] = scalar_product(el, sm.w_hat.data(), 1);
      for (unsigned j = 1; j < t; ++j) {
        if (el[j].allocated)
          throw std::logic_error("poseidon circuit: sparse mix of an allocated element");
        next[j] = el[j];
        next[j].lc.add_lc(scaled(el[0], sm.v_rest[j - 1]).lc);
      }
    } else {
      for (unsigned j = 0; j < t; ++j) next[j] = scalar_product(el, &c.mds[j], t);
    }
    el = std::move(next);
    ++round;
  };

  auto full_round = [&](bool first, bool last) {
    const fr_t* pre = first ? &c.compressed_round_constants[offset] : nullptr;
    if (first) offset += t;
    const fr_t* post = (first || !last) ? &c.compressed_round_constants[offset] : nullptr;
    if (first || !last) offset += t;
    for (unsigned i = 0; i < t; ++i) {
      if (first) {
        if (i == 0) {
          // constant_quintic_s_box_pre_add_tag: ((tag + pre)^5 + post)·ONE.
          // (The tag is a constant: its value is known in every mode.)
          const fr_t x = c.domain_tag + pre[0];
          const fr_t x2 = x * x;
          const fr_t v = x * (x2 * x2) + post[0];
          el[0] = elt_from_fr<CS>(v);
        } else {
          // quintic_s_box_pre_add
          const num_t l = ensure_allocated(cs, el[i]);
          const num_t l2 = square_sum(cs, pre[i], l);
          const num_t l4 = num_square(cs, l2);
          el[i].allocated = true;
          el[i].num = mul_sum(cs, l4, l, &pre[i], &post[i]);
        }
      } else {
        // quintic_s_box
        const num_t l = ensure_allocated(cs, el[i]);
        const num_t l2 = num_square(cs, l);
        const num_t l4 = num_square(cs, l2);
        const num_t l5 = mul_sum(cs, l4, l, nullptr, post ? &post[i] : nullptr);
        el[i] = elt_t<CS>{};
        el[i].allocated = true;
        el[i].num = l5;
      }
    }
    product_mds();
  };

  auto partial_round = [&]() {
    const fr_t& rk = c.compressed_round_constants[offset++];
    const num_t l = ensure_allocated(cs, el[0]);
    const num_t l2 = num_square(cs, l);
    const num_t l4 = num_square(cs, l2);
    const num_t l5 = mul_sum(cs, l4, l, nullptr, &rk);
    el[0] = elt_t<CS>{};
    el[0].allocated = true;
    el[0].num = l5;
    product_mds();
  };

  full_round(true, false);
  for (unsigned i = 1; i < c.full_rounds / 2; ++i) full_round(false, false);
  for (unsigned i = 0; i < c.partial_rounds; ++i) partial_round();
  for (unsigned i = 0; i + 1 < c.full_rounds / 2; ++i) full_round(false, false);
  full_round(false, true);
  return ensure_allocated(cs, el[1]);
}

}  // namespace zk::neptune
