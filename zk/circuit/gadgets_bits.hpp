#pragma once
// Field and boolean gadgets over any constraint system of cs.hpp. Each one states its
// constraint cost; bits are wires constrained to {0, 1} (or derived from such wires by
// constraints that keep them boolean), least significant first where they encode an integer.
//
//   mul(a, b)            w = a·b                         1 constraint   a·b = w
//   enforce_equal(a, b)                                  1              a·1 = b
//   alloc_bit(v)         b ∈ {0,1}                       1              b·(1 − b) = 0
//   to_bits(x, n)        x = Σ 2^i b_i, n bits            n + 1          booleanity, (Σ 2^i b_i)·1
//   = x xor2(a, b)           a ⊕ b = a + b − 2ab             1              (2a)·b = a + b − r
//   and2(a, b)           ab                              1
//   ch(e, f, g)          (e ∧ f) ⊕ (¬e ∧ g) = g + e(f − g)   1          e·(f − g) = r − g
//   maj(a, b, c)         bc + a(b + c − 2bc)             2              b·c = t, a·(b + c − 2t) = r
//   − t
//
// xor2/ch/maj outputs are boolean whenever their inputs are (the constraint fixes r to the
// boolean function's value), so they need no booleanity constraint of their own.
// Every gadget's structure depends only on its arguments' structure, never on values, so the
// shape and prove modes record the same constraints.
#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "zk/circuit/cs.hpp"

namespace zk::circuit {

// 2^i in Fr for i < 256 (Montgomery form), built once per field.
template <class Fr>
const Fr& pow2(unsigned i) {
  static const std::array<Fr, 256> table = [] {
    std::array<Fr, 256> t{};
    t[0] = Fr::one();
    for (unsigned k = 1; k < 256; ++k) t[k] = t[k - 1] + t[k - 1];
    return t;
  }();
  return table[i];
}

template <class CS>
using lc_of_t = typename CS::lc_t;

template <class CS>
lc_of_t<CS> mul(CS& cs, const lc_of_t<CS>& a, const lc_of_t<CS>& b) {
  auto w = cs.alloc(a.value * b.value);
  cs.enforce(a, b, w);
  return w;
}

template <class CS>
void enforce_equal(CS& cs, const lc_of_t<CS>& a, const lc_of_t<CS>& b) {
  cs.enforce(a, cs.one(), b);
}

template <class CS>
lc_of_t<CS> alloc_bit(CS& cs, bool v) {
  using Fr = typename CS::fr_t;
  auto b = cs.alloc(v ? Fr::one() : Fr::zero());
  cs.enforce(b, cs.one() - b, lc_of_t<CS>{});
  return b;
}

// The constant bit v (no wire, no constraint).
template <class CS>
lc_of_t<CS> constant_bit(const CS& cs, bool v) {
  return v ? cs.one() : lc_of_t<CS>{};
}

// Σ_{i<n} 2^i bits[i] (a linear combination: no constraint).
template <class CS>
lc_of_t<CS> pack_bits(const lc_of_t<CS>* bits, unsigned n) {
  using Fr = typename CS::fr_t;
  lc_of_t<CS> acc{};
  for (unsigned i = 0; i < n; ++i) acc += bits[i] * pow2<Fr>(i);
  return acc;
}

// Decomposes x into n ≤ 253 bits, least significant first, into out[0..n): n + 1 constraints.
// The caller must know x < 2^n for an honest witness; a value that does not fit throws (the
// constraints would be unsatisfiable).
template <class CS>
void to_bits(CS& cs, const lc_of_t<CS>& x, unsigned n, lc_of_t<CS>* out) {
  using Fr = typename CS::fr_t;
  if (n > 253) throw std::invalid_argument("to_bits: at most 253 bits, got " + std::to_string(n));
  auto v = x.value.to_canonical();
  for (unsigned i = n; i < 64 * unsigned(Fr::N); ++i)
    if (v.bit(i))
      throw std::invalid_argument("to_bits: value " + x.value.to_string() + " needs more than " +
                                  std::to_string(n) + " bits");
  for (unsigned i = 0; i < n; ++i) out[i] = alloc_bit(cs, v.bit(i));
  cs.enforce(pack_bits<CS>(out, n), cs.one(), x);
}

template <class CS>
lc_of_t<CS> xor2(CS& cs, const lc_of_t<CS>& a, const lc_of_t<CS>& b) {
  auto r = cs.alloc(a.value + b.value - (a.value * b.value).dbl());
  cs.enforce(a + a, b, a + b - r);
  return r;
}

template <class CS>
lc_of_t<CS> and2(CS& cs, const lc_of_t<CS>& a, const lc_of_t<CS>& b) {
  return mul(cs, a, b);
}

template <class CS>
lc_of_t<CS> ch(CS& cs, const lc_of_t<CS>& e, const lc_of_t<CS>& f, const lc_of_t<CS>& g) {
  auto fg = f - g;
  auto r = cs.alloc(g.value + e.value * fg.value);
  cs.enforce(e, fg, r - g);
  return r;
}

template <class CS>
lc_of_t<CS> maj(CS& cs, const lc_of_t<CS>& a, const lc_of_t<CS>& b, const lc_of_t<CS>& c) {
  auto t = mul(cs, b, c);
  auto s = b + c - (t + t);
  auto r = cs.alloc(t.value + a.value * s.value);
  cs.enforce(a, s, r - t);
  return r;
}

}  // namespace zk::circuit
