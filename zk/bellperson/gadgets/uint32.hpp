#pragma once
// 32-bit words for SHA-256: bellperson 0.27.0 src/gadgets/uint32.rs (UInt32) and
// src/gadgets/multieq.rs (MultiEq).
//
// A word is 32 Booleans, least significant first, with its value; rotations and shifts only
// re-index them (a shift brings in Constant(false)). xor, ch and maj work bit by bit (boolean.hpp).
// addmany(x_1..x_n) allocates the bits of the full sum S = Σ x_j (⌈log2(n·(2^32 − 1))⌉ of them,
// each boolean-constrained) and asks the MultiEq to enforce Σ_j Σ_i 2^i·x_j,i = Σ_k 2^k·s_k; only
// the low 32 bits form the result. A sum of constants is a constant (no variable, no constraint).
//
// MultiEq packs several such equalities into one constraint: each new one is shifted by the bits
// already used (lhs += 2^used·lhs', rhs += 2^used·rhs') until the next one would reach
// Fr::CAPACITY = 254 bits; then (lhs)·1 = rhs is enforced and a new accumulation starts. The
// last accumulation is enforced when the SHA-256 compression ends (Rust: on drop).
#include <array>
#include <cstdint>

#include "zk/bellperson/gadgets/boolean.hpp"
#include "zk/bellperson/gadgets/num.hpp"

namespace zk::bellperson {

struct uint32_g {
  std::array<boolean_t, 32> bits;  // least significant first
  uint32_t value = 0;

  static uint32_g constant(uint32_t v) {
    uint32_g w;
    for (unsigned i = 0; i < 32; ++i) w.bits[i] = boolean_t::constant((v >> i) & 1);
    w.value = v;
    return w;
  }
  // from_bits_be: bits[0] is the most significant.
  static uint32_g from_bits_be(const boolean_t* bits) {
    uint32_g w;
    for (unsigned i = 0; i < 32; ++i) {
      w.bits[i] = bits[31 - i];
      w.value |= uint32_t(bits[31 - i].value) << i;
    }
    return w;
  }
  // into_bits_be: out[0] is the most significant.
  void into_bits_be(boolean_t* out) const {
    for (unsigned i = 0; i < 32; ++i) out[i] = bits[31 - i];
  }
  uint32_g rotr(unsigned by) const {
    by %= 32;
    uint32_g w;
    for (unsigned i = 0; i < 32; ++i) w.bits[i] = bits[(i + by) % 32];
    w.value = by ? (value >> by) | (value << (32 - by)) : value;
    return w;
  }
  uint32_g shr(unsigned by) const {
    by %= 32;
    uint32_g w;
    for (unsigned i = 0; i < 32; ++i)
      w.bits[i] = i + by < 32 ? bits[i + by] : boolean_t::constant(false);
    w.value = value >> by;
    return w;
  }
};

template <class CS>
class multieq_t {
 public:
  using lc_t = typename CS::lc_t;
  explicit multieq_t(CS& cs) : cs_(cs) {}
  multieq_t(const multieq_t&) = delete;
  multieq_t& operator=(const multieq_t&) = delete;

  CS& cs() { return cs_; }

  void enforce_equal(unsigned num_bits, const lc_t& lhs, const lc_t& rhs) {
    if (fr_capacity <= bits_used_ + num_bits) accumulate();
    const fr_t& k = pow2_fr(bits_used_);
    lhs_.add_lc(k, lhs);
    rhs_.add_lc(k, rhs);
    bits_used_ += num_bits;
  }
  // The end of the Rust value's life (MultiEq::drop).
  void finish() {
    if (bits_used_ > 0) accumulate();
  }

 private:
  void accumulate() {
    lc_t one;
    one.add_one();
    cs_.enforce(lhs_, one, rhs_);
    lhs_ = lc_t{};
    rhs_ = lc_t{};
    bits_used_ = 0;
  }
  CS& cs_;
  unsigned bits_used_ = 0;
  lc_t lhs_, rhs_;
};

template <class CS>
uint32_g uint32_xor(CS& cs, const uint32_g& a, const uint32_g& b) {
  uint32_g r;
  for (unsigned i = 0; i < 32; ++i) r.bits[i] = boolean_xor(cs, a.bits[i], b.bits[i]);
  r.value = a.value ^ b.value;
  return r;
}

template <class CS>
uint32_g uint32_sha256_ch(CS& cs, const uint32_g& a, const uint32_g& b, const uint32_g& c) {
  uint32_g r;
  for (unsigned i = 0; i < 32; ++i) r.bits[i] = sha256_ch(cs, a.bits[i], b.bits[i], c.bits[i]);
  r.value = (a.value & b.value) ^ (~a.value & c.value);
  return r;
}

template <class CS>
uint32_g uint32_sha256_maj(CS& cs, const uint32_g& a, const uint32_g& b, const uint32_g& c) {
  uint32_g r;
  for (unsigned i = 0; i < 32; ++i) r.bits[i] = sha256_maj(cs, a.bits[i], b.bits[i], c.bits[i]);
  r.value = (a.value & b.value) ^ (a.value & c.value) ^ (b.value & c.value);
  return r;
}

// UInt32::addmany of ops[0..n) (2 ≤ n ≤ 10), modulo 2^32.
template <class CS>
uint32_g uint32_addmany(multieq_t<CS>& meq, const uint32_g* const* ops, unsigned n) {
  using lc_t = typename CS::lc_t;
  CS& cs = meq.cs();
  uint64_t max_value = uint64_t(n) * 0xffffffffULL;
  uint64_t sum = 0;
  bool all_constants = true;
  lc_t lc;
  for (unsigned j = 0; j < n; ++j) {
    const uint32_g& op = *ops[j];
    sum += op.value;
    for (unsigned i = 0; i < 32; ++i) all_constants &= op.bits[i].is_constant();
    if constexpr (!CS::evaluates) {
      for (unsigned i = 0; i < 32; ++i) {
        const boolean_t& b = op.bits[i];
        switch (b.kind) {
          case boolean_t::kind_t::constant:
            if (b.value) lc.add_one(pow2_fr(i));
            break;
          case boolean_t::kind_t::is:
            lc.add_bit_pow2(i, b.var, b.value);
            break;
          case boolean_t::kind_t::negated:
            lc.add_one(pow2_fr(i));
            lc.sub_bit(pow2_fr(i), b.var, !b.value);
            break;
        }
      }
    }
  }
  // Prove mode: Σ_j Σ_i 2^i·x_j,i is the integer sum itself.
  if constexpr (CS::evaluates) lc.add_integer(int64_t(sum));
  if (all_constants) return uint32_g::constant(uint32_t(sum));

  uint32_g r;
  lc_t result;
  unsigned i = 0;
  while (max_value != 0) {
    const bit_t b = alloc_bit(cs, (sum >> i) & 1);
    result.add_bit_pow2(i, b.var, b.value);
    if (i < 32) r.bits[i] = boolean_t::is(b);
    max_value >>= 1;
    ++i;
  }
  meq.enforce_equal(i, lc, result);
  r.value = uint32_t(sum);
  return r;
}

}  // namespace zk::bellperson
