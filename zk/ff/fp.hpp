#pragma once
// Prime fields in Montgomery form on 64-bit limbs (least significant first).
//
// fp_t<P> holds x·R mod p with R = 2^(64·N): exactly the "LEM" bytes that snarkjs writes for Fq
// coordinates in a .zkey (docs/formats.md §2.2), so zkey point sections are read in place.
// P supplies N and the modulus; R mod p, R² mod p and −p⁻¹ mod 2^64 are derived at compile time.
//
// Every modulus used here leaves the top bit of its top limb clear (BN254 Fr/Fq, BLS12-381
// Fr/Fq), which admits the "no-carry" CIOS multiplication: the running
// sum never overflows N limbs, saving one carry word per outer iteration (G. Botrel and
// Y. El Housni, "Faster big-integer modular multiplication for most moduli", gnark-crypto 2020).
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "zk/ff/bigint.hpp"
#include "zk/ff/zk_hd.hpp"

#if defined(__x86_64__) && defined(__BMI2__) && defined(__ADX__) && !defined(__CUDA_ARCH__)
#define ZK_FF_X86_ASM 1
#include "zk/ff/mont_mul_x86.hpp"
#endif

namespace zk::ff {

template <class P>
struct fp_t {
  static constexpr int N = P::N;
  using params_t = P;
  using big_t = bigint_t<N>;

  static constexpr big_t modulus = P::modulus;
  static constexpr big_t r1 = big_pow2_mod<N>(64 * N, P::modulus);      // R mod p
  static constexpr big_t r2 = big_pow2_mod<N>(2 * 64 * N, P::modulus);  // R² mod p
  static constexpr uint64_t inv = neg_inv64(P::modulus.l[0]);           // −p⁻¹ mod 2^64
  static constexpr unsigned bits = P::modulus.num_bits();
  static_assert((P::modulus.l[N - 1] >> 63) == 0, "no-carry CIOS needs a spare top bit");

  // Limb i of p (of R mod p), readable from host and device code alike: a local constexpr copy
  // is a compile-time constant in either (device code cannot read host static members), and
  // the loops over limbs unroll, so the index is constant too.
  ZK_HD_FORCE static constexpr uint64_t p_limb(int i) {
    constexpr big_t m = P::modulus;
    return m.l[i];
  }
  ZK_HD_FORCE static constexpr uint64_t r1_limb(int i) {
    constexpr big_t m = big_pow2_mod<N>(64 * N, P::modulus);
    return m.l[i];
  }

  uint64_t l[N];

  // --- constants ---------------------------------------------------------------------------
  ZK_HD static constexpr fp_t zero() { return fp_t{}; }
  ZK_HD static constexpr fp_t one() {
    fp_t r{};
    for (int i = 0; i < N; ++i) r.l[i] = r1_limb(i);
    return r;
  }
  // Raw Montgomery limbs (the in-memory and zkey representation).
  ZK_HD static constexpr fp_t from_mont(const big_t& m) {
    fp_t r{};
    for (int i = 0; i < N; ++i) r.l[i] = m.l[i];
    return r;
  }
  // Canonical integer a < p  →  a·R mod p.
  static constexpr fp_t from_canonical(const big_t& a) {
    fp_t t = from_mont(a), rr = from_mont(r2);
    return t * rr;
  }
  static constexpr fp_t from_u64(uint64_t v) {
    big_t a{};
    a.l[0] = v;
    return from_canonical(a);
  }
  // Canonical integer a·R⁻¹·R = a  (one Montgomery multiplication by 1).
  constexpr big_t to_canonical() const {
    fp_t one_raw{};
    one_raw.l[0] = 1;
    fp_t t = *this * one_raw;
    big_t r{};
    for (int i = 0; i < N; ++i) r.l[i] = t.l[i];
    return r;
  }
  constexpr big_t raw() const {
    big_t r{};
    for (int i = 0; i < N; ++i) r.l[i] = l[i];
    return r;
  }

  // Parses a canonical decimal (or 0x-hex) string; false if malformed or ≥ p.
  static bool from_string(std::string_view s, fp_t& out) {
    big_t a;
    if (!parse_bigint(s, a) || !big_lt(a, modulus)) return false;
    out = from_canonical(a);
    return true;
  }
  std::string to_string() const { return to_decimal(to_canonical()); }

  // --- predicates --------------------------------------------------------------------------
  ZK_HD constexpr bool is_zero() const {
    uint64_t acc = 0;
    for (int i = 0; i < N; ++i) acc |= l[i];
    return acc == 0;
  }
  ZK_HD constexpr bool is_one() const { return *this == one(); }
  ZK_HD friend constexpr bool operator==(const fp_t& a, const fp_t& b) {
    uint64_t acc = 0;
    for (int i = 0; i < N; ++i) acc |= a.l[i] ^ b.l[i];
    return acc == 0;
  }
  ZK_HD friend constexpr bool operator!=(const fp_t& a, const fp_t& b) { return !(a == b); }

  // --- additive group ----------------------------------------------------------------------
  // r = a + b mod p. a + b < 2p < 2^(64N) by the spare bit, so no carry leaves the top limb.
  ZK_HD_FORCE friend constexpr fp_t operator+(const fp_t& a, const fp_t& b) {
#ifdef ZK_FF_X86_ASM
    if (!__builtin_is_constant_evaluated()) {
      if constexpr (N == 4 || N == 6) {
        fp_t r{};
        if constexpr (N == 4)
          x86::mod_add_4(r.l, a.l, b.l, modulus.l);
        else
          x86::mod_add_6(r.l, a.l, b.l, modulus.l);
        return r;
      }
    }
#endif
    fp_t s{}, t{};
    unsigned __int128 c = 0;
    for (int i = 0; i < N; ++i) {
      c += (unsigned __int128)a.l[i] + b.l[i];
      s.l[i] = (uint64_t)c;
      c >>= 64;
    }
    uint64_t borrow = 0;
    for (int i = 0; i < N; ++i) {
      unsigned __int128 d = (unsigned __int128)s.l[i] - p_limb(i) - borrow;
      t.l[i] = (uint64_t)d;
      borrow = (uint64_t)(d >> 64) & 1;
    }
    // borrow = 1 → s < p, keep s.
    uint64_t mask = 0 - borrow;
    for (int i = 0; i < N; ++i) t.l[i] = (s.l[i] & mask) | (t.l[i] & ~mask);
    return t;
  }
  ZK_HD_FORCE friend constexpr fp_t operator-(const fp_t& a, const fp_t& b) {
#ifdef ZK_FF_X86_ASM
    if (!__builtin_is_constant_evaluated()) {
      if constexpr (N == 4 || N == 6) {
        fp_t r{};
        if constexpr (N == 4)
          x86::mod_sub_4(r.l, a.l, b.l, modulus.l);
        else
          x86::mod_sub_6(r.l, a.l, b.l, modulus.l);
        return r;
      }
    }
#endif
    fp_t d{};
    uint64_t borrow = 0;
    for (int i = 0; i < N; ++i) {
      unsigned __int128 x = (unsigned __int128)a.l[i] - b.l[i] - borrow;
      d.l[i] = (uint64_t)x;
      borrow = (uint64_t)(x >> 64) & 1;
    }
    // add p back if it went negative
    uint64_t mask = 0 - borrow;
    unsigned __int128 c = 0;
    for (int i = 0; i < N; ++i) {
      c += (unsigned __int128)d.l[i] + (p_limb(i) & mask);
      d.l[i] = (uint64_t)c;
      c >>= 64;
    }
    return d;
  }
  ZK_HD constexpr fp_t operator-() const { return zero() - *this; }
  ZK_HD_FORCE constexpr fp_t dbl() const { return *this + *this; }
  ZK_HD constexpr fp_t& operator+=(const fp_t& b) { return *this = *this + b; }
  ZK_HD constexpr fp_t& operator-=(const fp_t& b) { return *this = *this - b; }

  // --- multiplication (CIOS, no-carry variant) ----------------------------------------------
  ZK_HD_FORCE friend constexpr fp_t operator*(const fp_t& a, const fp_t& b) {
#ifdef ZK_FF_X86_ASM
    if (!__builtin_is_constant_evaluated()) {
      if constexpr (N == 4 || N == 6) {
        fp_t r{};
        if constexpr (N == 4)
          x86::mont_mul_4(r.l, a.l, b.l, modulus.l, inv);
        else
          x86::mont_mul_6(r.l, a.l, b.l, modulus.l, inv);
        return r;  // the asm ends with the conditional subtraction
      }
    }
#endif
    return mul_portable(a, b);
  }
  // The reference CIOS in portable C++ (constant evaluation, device code, other hosts).
  ZK_HD static constexpr fp_t mul_portable(const fp_t& a, const fp_t& b) {
    uint64_t t[N] = {};
    for (int i = 0; i < N; ++i) {
      // t += a·b[i]; carry A
      unsigned __int128 x = (unsigned __int128)a.l[0] * b.l[i] + t[0];
      uint64_t A = (uint64_t)(x >> 64);
      t[0] = (uint64_t)x;
      uint64_t m = t[0] * inv;
      // t = (t + m·p) / 2^64; carry C
      unsigned __int128 y = (unsigned __int128)m * p_limb(0) + t[0];
      uint64_t C = (uint64_t)(y >> 64);
      for (int j = 1; j < N; ++j) {
        x = (unsigned __int128)a.l[j] * b.l[i] + t[j] + A;
        A = (uint64_t)(x >> 64);
        y = (unsigned __int128)m * p_limb(j) + (uint64_t)x + C;
        C = (uint64_t)(y >> 64);
        t[j - 1] = (uint64_t)y;
      }
      t[N - 1] = C + A;
    }
    fp_t r{};
    for (int j = 0; j < N; ++j) r.l[j] = t[j];
    return r.reduce_once();
  }
  ZK_HD constexpr fp_t& operator*=(const fp_t& b) { return *this = *this * b; }
  ZK_HD_FORCE constexpr fp_t sqr() const { return *this * *this; }

  // x in [0, 2p) → x mod p
  ZK_HD_FORCE constexpr fp_t reduce_once() const {
    fp_t t{};
    uint64_t borrow = 0;
    for (int i = 0; i < N; ++i) {
      unsigned __int128 d = (unsigned __int128)l[i] - p_limb(i) - borrow;
      t.l[i] = (uint64_t)d;
      borrow = (uint64_t)(d >> 64) & 1;
    }
    uint64_t mask = 0 - borrow;
    for (int i = 0; i < N; ++i) t.l[i] = (l[i] & mask) | (t.l[i] & ~mask);
    return t;
  }

  // Small constant multiples used by curve formulas.
  ZK_HD constexpr fp_t times3() const { return dbl() + *this; }
  ZK_HD constexpr fp_t times4() const { return dbl().dbl(); }
  ZK_HD constexpr fp_t times8() const { return dbl().dbl().dbl(); }

  // --- exponentiation and inversion ----------------------------------------------------------
  template <int M>
  constexpr fp_t pow(const bigint_t<M>& e) const {
    fp_t r = one();
    for (int i = (int)e.num_bits() - 1; i >= 0; --i) {
      r = r.sqr();
      if (e.bit(i)) r = r * *this;
    }
    return r;
  }
  constexpr fp_t pow_u64(uint64_t e) const {
    bigint_t<1> b{{e}};
    return pow(b);
  }
  // a^(p−2) (Fermat) with 4-bit fixed windows: bits squarings and bits/4 multiplications
  // (against bits/2 for plain square-and-multiply). Inverse of zero is zero.
  constexpr fp_t inverse() const {
    big_t e = modulus;
    big_t two{};
    two.l[0] = 2;
    big_sub(e, e, two);
    fp_t table[16] = {};
    table[0] = one();
    for (int i = 1; i < 16; ++i) table[i] = table[i - 1] * *this;
    fp_t r = one();
    const int top = (int(e.num_bits()) + 3) / 4;
    for (int w = top - 1; w >= 0; --w) {
      r = r.sqr().sqr().sqr().sqr();
      unsigned d = unsigned((e.l[(4 * w) / 64] >> ((4 * w) % 64)) & 15);
      if (d) r = r * table[d];
    }
    return r;
  }
  // Legendre symbol: 1 for a non-zero square, −1 for a non-square, 0 for zero.
  int legendre() const {
    if (is_zero()) return 0;
    big_t e = modulus;
    big_t one_{};
    one_.l[0] = 1;
    big_sub(e, e, one_);
    for (int i = 0; i < N; ++i) e.l[i] = (e.l[i] >> 1) | (i + 1 < N ? e.l[i + 1] << 63 : 0);
    return pow(e).is_one() ? 1 : -1;
  }
  // Square root by Tonelli–Shanks; false if none exists.
  bool sqrt(fp_t& out) const;
};

template <class P>
bool fp_t<P>::sqrt(fp_t& out) const {
  if (is_zero()) {
    out = zero();
    return true;
  }
  if (legendre() != 1) return false;
  // p − 1 = 2^s · t
  big_t t = modulus;
  t.l[0] -= 1;
  unsigned s = 0;
  while (!t.bit(0)) {
    for (int i = 0; i < N; ++i) t.l[i] = (t.l[i] >> 1) | (i + 1 < N ? t.l[i + 1] << 63 : 0);
    ++s;
  }
  fp_t z = from_u64(2);
  while (z.legendre() != -1) z += one();
  fp_t c = z.pow(t);
  big_t t1 = t;  // (t + 1) / 2
  big_t one_{};
  one_.l[0] = 1;
  big_add(t1, t1, one_);
  for (int i = 0; i < N; ++i) t1.l[i] = (t1.l[i] >> 1) | (i + 1 < N ? t1.l[i + 1] << 63 : 0);
  fp_t x = pow(t1), b = pow(t);
  unsigned m = s;
  while (!b.is_one()) {
    unsigned i = 0;
    fp_t b2 = b;
    while (!b2.is_one()) {
      b2 = b2.sqr();
      ++i;
    }
    fp_t g = c;
    for (unsigned j = 0; j + i + 1 < m; ++j) g = g.sqr();
    x = x * g;
    c = g.sqr();
    b = b * c;
    m = i;
  }
  out = x;
  return true;
}

// Replaces each element of v by its inverse with one field inversion (Montgomery's trick).
// scratch must hold n elements. Zero entries are left as zero.
template <class F>
void batch_inverse(F* v, F* scratch, size_t n) {
  F acc = F::one();
  for (size_t i = 0; i < n; ++i) {
    scratch[i] = acc;
    if (!v[i].is_zero()) acc = acc * v[i];
  }
  F inv = acc.inverse();
  for (size_t i = n; i-- > 0;) {
    if (v[i].is_zero()) continue;
    F vi = v[i];
    v[i] = inv * scratch[i];
    inv = inv * vi;
  }
}

}  // namespace zk::ff
