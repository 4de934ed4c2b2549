#pragma once
// Field elements: bellpepper-core 0.2.1 src/gadgets/num.rs (AllocatedNum, Num) and bellperson
// 0.27.0 src/gadgets/multipack.rs (pack_into_inputs, pack_bits).
//
//   alloc / alloc_input        a variable with its value (no constraint)
//   inputize(x)                a new input i with i·1 = x
//   to_bits_le(x)              255 AllocatedBits b_i (field_into_allocated_bits_le), then
//                              0·0 = Σ 2^i·b_i − x (A and B empty)
//   square(x)                  y with x·x = y
//   mul(x, y)                  p with x·y = p
//   enforce_lc_is(lc, x)       lc·1 = x
//   pack_into_inputs(bits)     per 254-bit chunk (Fr::CAPACITY): an input i with
//                              (Σ 2^k·bit_k)·1 = i
//   pack_bits(bits)            the first 254 bits: a variable x with (Σ 2^k·bit_k)·1 = x
#include <cstddef>

#include "zk/bellperson/gadgets/boolean.hpp"

namespace zk::bellperson {

inline constexpr unsigned fr_num_bits = 255;  // Fr::NUM_BITS
inline constexpr unsigned fr_capacity = 254;  // Fr::CAPACITY

// AllocatedNum.
struct num_t {
  var_t var;
  fr_t value;
};

template <class CS>
num_t alloc_num(CS& cs, const fr_t& v) {
  return num_t{cs.alloc(v), v};
}

template <class CS>
num_t alloc_input_num(CS& cs, const fr_t& v) {
  return num_t{cs.alloc_input(v), v};
}

template <class CS>
void inputize(CS& cs, const num_t& x) {
  using lc_t = typename CS::lc_t;
  const var_t i = cs.alloc_input(x.value);
  lc_t la;
  la.add_var(i, x.value);
  lc_t lb;
  lb.add_one();
  lc_t lc;
  lc.add_var(x.var, x.value);
  cs.enforce(la, lb, lc);
}

// AllocatedNum::to_bits_le into out[0..255).
template <class CS>
void num_to_bits_le(CS& cs, const num_t& x, bit_t* out) {
  using lc_t = typename CS::lc_t;
  field_into_allocated_bits_le(cs, x.value, out);
  lc_t lc;
  for (unsigned i = 0; i < fr_num_bits; ++i) lc.add_bit_pow2(i, out[i].var, out[i].value);
  lc.sub_var(x.var, x.value);
  cs.enforce(lc_t{}, lc_t{}, lc);
}

// lc·1 = x: a linear combination's value bound to a variable x of value v (A = lc, B = ONE,
// C = x: Num checks against an AllocatedNum, packings).
template <class CS>
void enforce_lc_is(CS& cs, const typename CS::lc_t& lc, var_t x, const fr_t& v) {
  using lc_t = typename CS::lc_t;
  lc_t lb;
  lb.add_one();
  lc_t lc_x;
  lc_x.add_var(x, v);
  cs.enforce(lc, lb, lc_x);
}

// AllocatedNum::mul.
template <class CS>
num_t num_mul(CS& cs, const num_t& x, const num_t& y) {
  using lc_t = typename CS::lc_t;
  const fr_t v = x.value * y.value;
  const var_t p = cs.alloc(v);
  lc_t la;
  la.add_var(x.var, x.value);
  lc_t lb;
  lb.add_var(y.var, y.value);
  lc_t lc;
  lc.add_var(p, v);
  cs.enforce(la, lb, lc);
  return num_t{p, v};
}

// AllocatedNum::square: the same constraint as mul(x, x).
template <class CS>
num_t num_square(CS& cs, const num_t& x) {
  return num_mul(cs, x, x);
}

// Σ 2^k·bits[k] over k < n as a linear combination (Num::add_bool_with_coeff with doubling
// coefficients).
template <class CS>
typename CS::lc_t pack_booleans(const boolean_t* bits, size_t n) {
  typename CS::lc_t lc;
  for (size_t k = 0; k < n; ++k) {
    const boolean_t& b = bits[k];
    switch (b.kind) {
      case boolean_t::kind_t::constant:
        if (b.value) lc.add_one(pow2_fr(unsigned(k)));
        break;
      case boolean_t::kind_t::is:
        lc.add_bit_pow2(unsigned(k), b.var, b.value);
        break;
      case boolean_t::kind_t::negated:
        lc.add_one(pow2_fr(unsigned(k)));
        lc.sub_bit(pow2_fr(unsigned(k)), b.var, !b.value);
        break;
    }
  }
  return lc;
}

// multipack::pack_into_inputs.
template <class CS>
void pack_into_inputs(CS& cs, const boolean_t* bits, size_t n) {
  using lc_t = typename CS::lc_t;
  for (size_t off = 0; off < n; off += fr_capacity) {
    const size_t len = n - off < fr_capacity ? n - off : fr_capacity;
    lc_t num = pack_booleans<CS>(bits + off, len);
    fr_t value{};
    if constexpr (CS::evaluates) value = num.value();
    enforce_lc_is(cs, num, cs.alloc_input(value), value);
  }
}

// multipack::pack_bits: the first min(n, 254) bits.
template <class CS>
num_t pack_bits(CS& cs, const boolean_t* bits, size_t n) {
  using lc_t = typename CS::lc_t;
  lc_t num = pack_booleans<CS>(bits, n < fr_capacity ? n : fr_capacity);
  fr_t value{};
  if constexpr (CS::evaluates) value = num.value();
  const var_t x = cs.alloc(value);
  enforce_lc_is(cs, num, x, value);
  return num_t{x, value};
}

}  // namespace zk::bellperson
