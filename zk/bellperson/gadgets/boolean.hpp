#pragma once
// Bits and booleans: bellpepper-core 0.2.1 src/gadgets/boolean.rs (AllocatedBit, Boolean),
// variable for variable and constraint for constraint, including every constant-folding case
// (which decides whether a constraint exists at all).
//
//   AllocatedBit::alloc(b)      b ∈ {0,1}        (1 − b)·b = 0
//   AllocatedBit::xor(a, b)     r = a ⊕ b        (a + a)·b = a + b − r
//   AllocatedBit::and(a, b)     r = a ∧ b        a·b = r
//   AllocatedBit::and_not(a, b) r = a ∧ ¬b       a·(1 − b) = r
//   AllocatedBit::nor(a, b)     r = ¬a ∧ ¬b      (1 − a)·(1 − b) = r
//   Boolean::sha256_ch(a,b,c)   (a∧b) ⊕ (¬a∧c)   (b − c)·a = ch − c
//   Boolean::sha256_maj(a,b,c)  majority         bc = b ∧ c; (2bc − b − c)·a = bc − maj
// Every result of xor/and/ch/maj is boolean by its constraint; a Boolean is a constant, an
// allocated bit, or the negation of one (which costs nothing: 1 − x in a linear combination).
#include <cstdint>

#include "zk/bellperson/cs.hpp"

namespace zk::bellperson {

// AllocatedBit: a variable constrained to {0, 1}, with its value.
struct bit_t {
  var_t var;
  bool value = false;
};

// Boolean: Constant(value), Is(bit) or Not(bit); `value` is the Boolean's own value (for Not:
// the negation of the bit's).
struct boolean_t {
  enum class kind_t : uint8_t { constant, is, negated };
  var_t var;
  kind_t kind = kind_t::constant;
  bool value = false;

  static boolean_t constant(bool v) { return boolean_t{var_t{}, kind_t::constant, v}; }
  static boolean_t is(const bit_t& b) { return boolean_t{b.var, kind_t::is, b.value}; }
  bool is_constant() const { return kind == kind_t::constant; }
  bool is_is() const { return kind == kind_t::is; }
  bool is_not() const { return kind == kind_t::negated; }
  // The allocated bit behind Is/Not.
  bit_t bit() const { return bit_t{var, kind == kind_t::negated ? !value : value}; }
  boolean_t negate() const {
    const kind_t k = kind == kind_t::is        ? kind_t::negated
                     : kind == kind_t::negated ? kind_t::is
                                               : kind_t::constant;
    return boolean_t{var, k, !value};
  }
};

// lc + &b.lc(ONE, 1), lc − &b.lc(ONE, 1), lc + &b.lc(ONE, k) (Boolean::lc: Constant(true) → ONE,
// Constant(false) → nothing, Is(x) → x, Not(x) → ONE − x, each times the coefficient).
template <class LC>
LC& add_boolean(LC& lc, const boolean_t& b) {
  switch (b.kind) {
    case boolean_t::kind_t::constant:
      if (b.value) lc.add_one();
      break;
    case boolean_t::kind_t::is:
      lc.add_bit(b.var, b.value);
      break;
    case boolean_t::kind_t::negated:
      lc.add_one();
      lc.sub_bit(b.var, !b.value);
      break;
  }
  return lc;
}
template <class LC>
LC& sub_boolean(LC& lc, const boolean_t& b) {
  switch (b.kind) {
    case boolean_t::kind_t::constant:
      if (b.value) lc.sub_one(fr_t::one());
      break;
    case boolean_t::kind_t::is:
      lc.sub_bit(b.var, b.value);
      break;
    case boolean_t::kind_t::negated:
      lc.sub_one(fr_t::one());
      lc.add_bit(b.var, !b.value);
      break;
  }
  return lc;
}
template <class LC>
LC& add_boolean(LC& lc, const fr_t& k, const boolean_t& b) {
  switch (b.kind) {
    case boolean_t::kind_t::constant:
      if (b.value) lc.add_one(k);
      break;
    case boolean_t::kind_t::is:
      lc.add_bit(k, b.var, b.value);
      break;
    case boolean_t::kind_t::negated:
      lc.add_one(k);
      lc.sub_bit(k, b.var, !b.value);
      break;
  }
  return lc;
}

// ---- AllocatedBit ----------------------------------------------------------------------------

template <class CS>
bit_t alloc_bit(CS& cs, bool v) {
  using lc_t = typename CS::lc_t;
  const var_t x = cs.alloc_bit(v);
  lc_t a;
  a.add_one().sub_bit(x, v);
  lc_t b;
  b.add_bit(x, v);
  cs.enforce(a, b, lc_t{});
  return bit_t{x, v};
}

template <class CS>
bit_t bit_xor(CS& cs, const bit_t& a, const bit_t& b) {
  using lc_t = typename CS::lc_t;
  const bool r = a.value != b.value;
  const var_t x = cs.alloc_bit(r);
  lc_t la;
  la.add_bit(a.var, a.value).add_bit(a.var, a.value);
  lc_t lb;
  lb.add_bit(b.var, b.value);
  lc_t lc;
  lc.add_bit(a.var, a.value).add_bit(b.var, b.value).sub_bit(x, r);
  cs.enforce(la, lb, lc);
  return bit_t{x, r};
}

template <class CS>
bit_t bit_and(CS& cs, const bit_t& a, const bit_t& b) {
  using lc_t = typename CS::lc_t;
  const bool r = a.value && b.value;
  const var_t x = cs.alloc_bit(r);
  lc_t la;
  la.add_bit(a.var, a.value);
  lc_t lb;
  lb.add_bit(b.var, b.value);
  lc_t lc;
  lc.add_bit(x, r);
  cs.enforce(la, lb, lc);
  return bit_t{x, r};
}

template <class CS>
bit_t bit_and_not(CS& cs, const bit_t& a, const bit_t& b) {
  using lc_t = typename CS::lc_t;
  const bool r = a.value && !b.value;
  const var_t x = cs.alloc_bit(r);
  lc_t la;
  la.add_bit(a.var, a.value);
  lc_t lb;
  lb.add_one().sub_bit(b.var, b.value);
  lc_t lc;
  lc.add_bit(x, r);
  cs.enforce(la, lb, lc);
  return bit_t{x, r};
}

template <class CS>
bit_t bit_nor(CS& cs, const bit_t& a, const bit_t& b) {
  using lc_t = typename CS::lc_t;
  const bool r = !a.value && !b.value;
  const var_t x = cs.alloc_bit(r);
  lc_t la;
  la.add_one().sub_bit(a.var, a.value);
  lc_t lb;
  lb.add_one().sub_bit(b.var, b.value);
  lc_t lc;
  lc.add_bit(x, r);
  cs.enforce(la, lb, lc);
  return bit_t{x, r};
}

// ---- Boolean ---------------------------------------------------------------------------------

template <class CS>
boolean_t boolean_xor(CS& cs, const boolean_t& a, const boolean_t& b) {
  // (Constant(false), x) | (x, Constant(false)) → x; then Constant(true) → ¬x.
  if (a.is_constant() && !a.value) return b;
  if (b.is_constant() && !b.value) return a;
  if (a.is_constant()) return b.negate();
  if (b.is_constant()) return a.negate();
  // Is ⊕ Not = ¬(Is ⊕ Is'), the Is operand first; Is ⊕ Is and Not ⊕ Not = the bits' xor.
  if (a.is_is() && b.is_not()) return boolean_t::is(bit_xor(cs, a.bit(), b.bit())).negate();
  if (a.is_not() && b.is_is()) return boolean_t::is(bit_xor(cs, b.bit(), a.bit())).negate();
  return boolean_t::is(bit_xor(cs, a.bit(), b.bit()));
}

template <class CS>
boolean_t boolean_and(CS& cs, const boolean_t& a, const boolean_t& b) {
  if ((a.is_constant() && !a.value) || (b.is_constant() && !b.value))
    return boolean_t::constant(false);
  if (a.is_constant()) return b;  // Constant(true) ∧ x
  if (b.is_constant()) return a;
  if (a.is_is() && b.is_not()) return boolean_t::is(bit_and_not(cs, a.bit(), b.bit()));
  if (a.is_not() && b.is_is()) return boolean_t::is(bit_and_not(cs, b.bit(), a.bit()));
  if (a.is_not() && b.is_not()) return boolean_t::is(bit_nor(cs, a.bit(), b.bit()));
  return boolean_t::is(bit_and(cs, a.bit(), b.bit()));
}

// (a ∧ b) ⊕ (¬a ∧ c), with the constant cases of Boolean::sha256_ch in their order.
template <class CS>
boolean_t sha256_ch(CS& cs, const boolean_t& a, const boolean_t& b, const boolean_t& c) {
  using lc_t = typename CS::lc_t;
  const bool v = (a.value && b.value) != (!a.value && c.value);
  if (a.is_constant() && b.is_constant() && c.is_constant()) return boolean_t::constant(v);
  if (a.is_constant() && !a.value) return c;
  if (b.is_constant() && !b.value) return boolean_and(cs, a.negate(), c);
  if (c.is_constant() && !c.value) return boolean_and(cs, a, b);
  if (c.is_constant() && c.value) return boolean_and(cs, a, b.negate()).negate();
  if (b.is_constant() && b.value) return boolean_and(cs, a.negate(), c.negate()).negate();
  // a is Constant(true) or allocated: the general case.
  const var_t x = cs.alloc_bit(v);
  lc_t la;
  add_boolean(la, b);
  sub_boolean(la, c);
  lc_t lb;
  add_boolean(lb, a);
  lc_t lc;
  lc.add_bit(x, v);
  sub_boolean(lc, c);
  cs.enforce(la, lb, lc);
  return boolean_t::is(bit_t{x, v});
}

// (a ∧ b) ⊕ (a ∧ c) ⊕ (b ∧ c), with the constant cases of Boolean::sha256_maj in their order.
template <class CS>
boolean_t sha256_maj(CS& cs, const boolean_t& a, const boolean_t& b, const boolean_t& c) {
  using lc_t = typename CS::lc_t;
  const bool v = ((a.value && b.value) != (a.value && c.value)) != (b.value && c.value);
  if (a.is_constant() && b.is_constant() && c.is_constant()) return boolean_t::constant(v);
  if (a.is_constant() && !a.value) return boolean_and(cs, b, c);
  if (b.is_constant() && !b.value) return boolean_and(cs, a, c);
  if (c.is_constant() && !c.value) return boolean_and(cs, a, b);
  if (c.is_constant() && c.value) return boolean_and(cs, a.negate(), b.negate()).negate();
  if (b.is_constant() && b.value) return boolean_and(cs, a.negate(), c.negate()).negate();
  if (a.is_constant() && a.value) return boolean_and(cs, b.negate(), c.negate()).negate();
  // All allocated: maj is allocated first, then b ∧ c, then the constraint.
  const var_t x = cs.alloc_bit(v);
  const boolean_t bc = boolean_and(cs, b, c);
  lc_t la;
  add_boolean(la, bc);
  add_boolean(la, bc);
  sub_boolean(la, b);
  sub_boolean(la, c);
  lc_t lb;
  add_boolean(lb, a);
  lc_t lc;
  add_boolean(lc, bc);
  lc.sub_bit(x, v);
  cs.enforce(la, lb, lc);
  return boolean_t::is(bit_t{x, v});
}

// ---- allocation helpers ----------------------------------------------------------------------

// field_into_allocated_bits_le: the 255 bits of x (Fr::NUM_BITS), least significant first, each
// an AllocatedBit.
template <class CS>
void field_into_allocated_bits_le(CS& cs, const fr_t& x, bit_t* out) {
  const auto v = x.to_canonical();
  for (unsigned i = 0; i < 255; ++i) out[i] = alloc_bit(cs, v.bit(i));
}

}  // namespace zk::bellperson
