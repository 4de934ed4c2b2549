#pragma once
// The degree-12 tower over which the BN254 and BLS12-381 pairings take their values:
//
//   Fq2  = Fq[u]/(u² + 1)            (zk/ff/fp2.hpp)
//   Fq6  = Fq2[v]/(v³ − ξ)           fp6_t<P>,  element c0 + c1·v + c2·v²
//   Fq12 = Fq6[w]/(w² − v)           fp12_t<P>, element c0 + c1·w
//
// so w⁶ = ξ, and in powers of w an Fq12 element is
//   c0.c0 + c1.c0·w + c0.c1·w² + c1.c1·w³ + c0.c2·w⁴ + c1.c2·w⁵.
// This is the tower of iden3/wasmcurves (snarkjs), arkworks, gnark and zkcrypto, and the
// nesting order [c0, c1] of [c0, c1, c2] of [c0, c1] is the one snarkjs prints for Gt elements
// (vk_alphabeta_12, docs/formats.md §4).
//
// A tower-parameter struct P supplies
//   fq_t, fq2_t                    the base fields
//   static constexpr uint64_t xi_c0  ξ = xi_c0 + u  (BN254: 9 + u, BLS12-381: 1 + u)
// and everything else (Frobenius coefficients) is derived from ξ and q at compile time.
//
// Formulas:
//   Fq6 multiplication: Karatsuba, Fq6 squaring: Chung–Hasan SQR2; both from A. J. Devegili,
//     C. Ó hÉigeartaigh, M. Scott, R. Dahab, "Multiplication and squaring on pairing-friendly
//     fields", eprint 2006/471.
//   Fq12 squaring: "complex" squaring (same paper).
//   Cyclotomic squaring: R. Granger, M. Scott, "Faster squaring in the cyclotomic subgroup of
//     sixth degree extensions", PKC 2010 (eprint 2009/565).
//   Inversions: the norm maps down the tower (as in Beuchat et al., eprint 2010/354).
#include <cstdint>

#include "zk/ff/bls12_381.hpp"
#include "zk/ff/bn254.hpp"

namespace zk::pairing {

// --- small helpers on the base fields ---------------------------------------------------------

// a/2 in Fq: (a + p·(a mod 2)) >> 1. The spare top bit of every modulus here (fp.hpp) keeps
// a + p below 2^(64N). Works on the Montgomery form since (aR)/2 = (a/2)R mod p.
template <class F>
constexpr F halve(const F& a) {
  constexpr int N = F::N;
  uint64_t mask = 0 - (a.l[0] & 1);
  uint64_t t[N] = {};
  unsigned __int128 c = 0;
  for (int i = 0; i < N; ++i) {
    c += (unsigned __int128)a.l[i] + (F::modulus.l[i] & mask);
    t[i] = (uint64_t)c;
    c >>= 64;
  }
  F r{};
  for (int i = 0; i < N; ++i)
    r.l[i] = (t[i] >> 1) | (i + 1 < N ? t[i + 1] << 63 : (uint64_t)c << 63);
  return r;
}

// K·a for a small compile-time constant K by a doubling chain.
template <uint64_t K, class F>
constexpr F mul_small(const F& a) {
  static_assert(K >= 1, "K must be positive");
  if constexpr (K == 1) {
    return a;
  } else if constexpr (K % 2 == 0) {
    return mul_small<K / 2>(a).dbl();
  } else {
    return mul_small<K - 1>(a) + a;
  }
}

// (q − 1)/d for the modulus of F, d a small divisor (compile time).
template <class F>
constexpr typename F::big_t modulus_minus_one_div(uint64_t d) {
  typename F::big_t a = F::modulus;
  a.l[0] -= 1;  // q is odd
  unsigned __int128 rem = 0;
  for (int i = F::N - 1; i >= 0; --i) {
    unsigned __int128 cur = (rem << 64) | a.l[i];
    a.l[i] = (uint64_t)(cur / d);
    rem = cur % d;
  }
  return a;
}

// --- tower parameters per curve ----------------------------------------------------------------

struct bn254_tower_t {
  using fq_t = zk::bn254::fq_t;
  using fq2_t = zk::bn254::fq2_t;
  static constexpr uint64_t xi_c0 = 9;  // ξ = 9 + u (EIP-197, wasmcurves pNonResidueF6)
};

struct bls12_381_tower_t {
  using fq_t = zk::bls12_381::fq_t;
  using fq2_t = zk::bls12_381::fq2_t;
  static constexpr uint64_t xi_c0 = 1;  // ξ = 1 + u (wasmcurves f2m_mulNR, zkcrypto bls12_381)
};

// ξ = xi_c0 + u
template <class P>
constexpr typename P::fq2_t tower_xi() {
  return typename P::fq2_t{P::fq_t::from_u64(P::xi_c0), P::fq_t::one()};
}

// g[k−1][j] = ξ^(j·(q^k − 1)/6) = w^(j·(q^k − 1)), k = 1, 2, 3, j = 0..5, so that
// (w^j)^(q^k) = g[k−1][j]·w^j (w⁶ = ξ).
template <class P>
struct frobenius_table_t {
  typename P::fq2_t g[3][6];
};

// Derivation from ξ and q alone: g[0][1] = ξ^((q−1)/6) is one exponentiation and
// g[0][j] = g[0][1]^j. Because (q^k − 1)/6 = ((q − 1)/6)·(1 + q + … + q^(k−1)) and x ↦ x^q is
// conjugation on Fq2,
//   g[1][j] = g[0][j]·conj(g[0][j])          (a norm, so it lies in Fq)
//   g[2][j] = g[0][j]·conj(g[0][j])·g[0][j] = g[1][j]·g[0][j].
template <class P>
constexpr frobenius_table_t<P> derive_frobenius_table() {
  using fq2_t = typename P::fq2_t;
  frobenius_table_t<P> t{};
  fq2_t g1 = tower_xi<P>().pow(modulus_minus_one_div<typename P::fq_t>(6));
  fq2_t acc = fq2_t::one();
  for (int j = 0; j < 6; ++j) {
    t.g[0][j] = acc;
    t.g[1][j] = acc * acc.conjugate();
    t.g[2][j] = t.g[1][j] * acc;
    acc = acc * g1;
  }
  return t;
}

// Evaluated by the compiler (constexpr), once per curve.
template <class P>
inline constexpr frobenius_table_t<P> frobenius_table = derive_frobenius_table<P>();

// ξ·a for ξ = k + u: (a0 + a1u)(k + u) = (k·a0 − a1) + (a0 + k·a1)u, k·a0 by a doubling chain
// (for k = 9: three doublings and an addition, cheaper than a multiplication).
template <class P>
constexpr typename P::fq2_t mul_by_xi(const typename P::fq2_t& a) {
  return {mul_small<P::xi_c0>(a.c0) - a.c1, a.c0 + mul_small<P::xi_c0>(a.c1)};
}

template <class P>
constexpr typename P::fq2_t halve2(const typename P::fq2_t& a) {
  return {halve(a.c0), halve(a.c1)};
}

// x ↦ x^(q^k) on Fq2 is conjugation for odd k, identity for even k (u^q = −u as q ≡ 3 mod 4).
template <int K, class F2>
constexpr F2 frobenius_fq2(const F2& a) {
  if constexpr (K % 2 == 1) {
    return a.conjugate();
  } else {
    return a;
  }
}

// --- Fq6 -----------------------------------------------------------------------------------------

template <class P>
struct fp6_t {
  using fq_t = typename P::fq_t;
  using fq2_t = typename P::fq2_t;
  fq2_t c0, c1, c2;

  static constexpr fp6_t zero() { return {fq2_t::zero(), fq2_t::zero(), fq2_t::zero()}; }
  static constexpr fp6_t one() { return {fq2_t::one(), fq2_t::zero(), fq2_t::zero()}; }
  constexpr bool is_zero() const { return c0.is_zero() && c1.is_zero() && c2.is_zero(); }
  constexpr bool is_one() const { return c0.is_one() && c1.is_zero() && c2.is_zero(); }
  friend constexpr bool operator==(const fp6_t& a, const fp6_t& b) {
    return a.c0 == b.c0 && a.c1 == b.c1 && a.c2 == b.c2;
  }
  friend constexpr bool operator!=(const fp6_t& a, const fp6_t& b) { return !(a == b); }

  friend constexpr fp6_t operator+(const fp6_t& a, const fp6_t& b) {
    return {a.c0 + b.c0, a.c1 + b.c1, a.c2 + b.c2};
  }
  friend constexpr fp6_t operator-(const fp6_t& a, const fp6_t& b) {
    return {a.c0 - b.c0, a.c1 - b.c1, a.c2 - b.c2};
  }
  constexpr fp6_t operator-() const { return {-c0, -c1, -c2}; }
  constexpr fp6_t dbl() const { return {c0.dbl(), c1.dbl(), c2.dbl()}; }
  constexpr fp6_t& operator+=(const fp6_t& b) { return *this = *this + b; }
  constexpr fp6_t& operator-=(const fp6_t& b) { return *this = *this - b; }

  // v·a: (a0 + a1v + a2v²)·v = ξ·a2 + a0·v + a1·v²
  constexpr fp6_t mul_by_v() const { return {mul_by_xi<P>(c2), c0, c1}; }
  constexpr fp6_t mul_by_fq2(const fq2_t& s) const { return {c0 * s, c1 * s, c2 * s}; }

  // Karatsuba (Devegili et al. 2006/471): 6 Fq2 multiplications.
  //   v0 = a0b0, v1 = a1b1, v2 = a2b2
  //   c0 = v0 + ξ((a1 + a2)(b1 + b2) − v1 − v2)
  //   c1 = (a0 + a1)(b0 + b1) − v0 − v1 + ξ·v2
  //   c2 = (a0 + a2)(b0 + b2) − v0 − v2 + v1
  friend constexpr fp6_t operator*(const fp6_t& a, const fp6_t& b) {
    fq2_t v0 = a.c0 * b.c0, v1 = a.c1 * b.c1, v2 = a.c2 * b.c2;
    fq2_t t0 = mul_by_xi<P>((a.c1 + a.c2) * (b.c1 + b.c2) - v1 - v2) + v0;
    fq2_t t1 = (a.c0 + a.c1) * (b.c0 + b.c1) - v0 - v1 + mul_by_xi<P>(v2);
    fq2_t t2 = (a.c0 + a.c2) * (b.c0 + b.c2) - v0 - v2 + v1;
    return {t0, t1, t2};
  }
  constexpr fp6_t& operator*=(const fp6_t& b) { return *this = *this * b; }

  // a·(b0 + b1·v): Karatsuba with b2 = 0, 5 Fq2 multiplications.
  constexpr fp6_t mul_by_01(const fq2_t& b0, const fq2_t& b1) const {
    fq2_t v0 = c0 * b0, v1 = c1 * b1;
    fq2_t t0 = mul_by_xi<P>(c2 * b1) + v0;
    fq2_t t1 = (c0 + c1) * (b0 + b1) - v0 - v1;
    fq2_t t2 = c2 * b0 + v1;
    return {t0, t1, t2};
  }
  // a·(b1·v): 3 Fq2 multiplications.
  constexpr fp6_t mul_by_1(const fq2_t& b1) const {
    return {mul_by_xi<P>(c2 * b1), c0 * b1, c1 * b1};
  }

  // Chung–Hasan SQR2 (Devegili et al. 2006/471): 2 Fq2 multiplications + 3 squarings.
  //   s0 = a0², s1 = 2a0a1, s2 = (a0 − a1 + a2)², s3 = 2a1a2, s4 = a2²
  //   c0 = s0 + ξs3, c1 = s1 + ξs4, c2 = s1 + s2 + s3 − s0 − s4
  constexpr fp6_t sqr() const {
    fq2_t s0 = c0.sqr(), s1 = (c0 * c1).dbl(), s2 = (c0 - c1 + c2).sqr();
    fq2_t s3 = (c1 * c2).dbl(), s4 = c2.sqr();
    return {s0 + mul_by_xi<P>(s3), s1 + mul_by_xi<P>(s4), s1 + s2 + s3 - s0 - s4};
  }

  // Inverse via the Fq6 → Fq2 norm (Beuchat et al. 2010/354):
  //   t0 = a0² − ξa1a2, t1 = ξa2² − a0a1, t2 = a1² − a0a2
  //   a⁻¹ = (t0 + t1v + t2v²)/(a0t0 + ξ(a2t1 + a1t2)). Zero maps to zero.
  constexpr fp6_t inverse() const {
    fq2_t t0 = c0.sqr() - mul_by_xi<P>(c1 * c2);
    fq2_t t1 = mul_by_xi<P>(c2.sqr()) - c0 * c1;
    fq2_t t2 = c1.sqr() - c0 * c2;
    fq2_t n = (c0 * t0 + mul_by_xi<P>(c2 * t1 + c1 * t2)).inverse();
    return {t0 * n, t1 * n, t2 * n};
  }

  // a^(q^K): conjugate (K odd) each Fq2 coefficient and multiply the one of v^i = w^(2i) by
  // g[K−1][2i] (frobenius_table).
  template <int K>
  constexpr fp6_t frobenius_map() const {
    static_assert(K >= 1 && K <= 3, "frobenius_map<K> for K = 1, 2, 3");
    const auto& g = frobenius_table<P>.g[K - 1];
    return {frobenius_fq2<K>(c0), frobenius_fq2<K>(c1) * g[2], frobenius_fq2<K>(c2) * g[4]};
  }
};

// --- Fq12 ----------------------------------------------------------------------------------------

template <class P>
struct fp12_t {
  using fq_t = typename P::fq_t;
  using fq2_t = typename P::fq2_t;
  using fq6_t = fp6_t<P>;
  fq6_t c0, c1;

  static constexpr fp12_t zero() { return {fq6_t::zero(), fq6_t::zero()}; }
  static constexpr fp12_t one() { return {fq6_t::one(), fq6_t::zero()}; }
  constexpr bool is_zero() const { return c0.is_zero() && c1.is_zero(); }
  constexpr bool is_one() const { return c0.is_one() && c1.is_zero(); }
  friend constexpr bool operator==(const fp12_t& a, const fp12_t& b) {
    return a.c0 == b.c0 && a.c1 == b.c1;
  }
  friend constexpr bool operator!=(const fp12_t& a, const fp12_t& b) { return !(a == b); }

  friend constexpr fp12_t operator+(const fp12_t& a, const fp12_t& b) {
    return {a.c0 + b.c0, a.c1 + b.c1};
  }
  friend constexpr fp12_t operator-(const fp12_t& a, const fp12_t& b) {
    return {a.c0 - b.c0, a.c1 - b.c1};
  }
  constexpr fp12_t operator-() const { return {-c0, -c1}; }
  constexpr fp12_t& operator+=(const fp12_t& b) { return *this = *this + b; }
  constexpr fp12_t& operator-=(const fp12_t& b) { return *this = *this - b; }

  // Karatsuba over Fq6 (w² = v): 3 Fq6 multiplications.
  friend constexpr fp12_t operator*(const fp12_t& a, const fp12_t& b) {
    fq6_t v0 = a.c0 * b.c0, v1 = a.c1 * b.c1;
    return {v0 + v1.mul_by_v(), (a.c0 + a.c1) * (b.c0 + b.c1) - v0 - v1};
  }
  constexpr fp12_t& operator*=(const fp12_t& b) { return *this = *this * b; }

  // Complex squaring (Devegili et al. 2006/471): 2 Fq6 multiplications.
  //   (a0 + a1w)² = ((a0 + a1)(a0 + v·a1) − t − v·t) + 2t·w,  t = a0a1
  constexpr fp12_t sqr() const {
    fq6_t t = c0 * c1;
    fq6_t s = (c0 + c1) * (c0 + c1.mul_by_v()) - t - t.mul_by_v();
    return {s, t.dbl()};
  }

  // a^(q⁶) = conjugate over Fq6 (w^(q⁶) = −w); the inverse on the cyclotomic subgroup.
  constexpr fp12_t conjugate() const { return {c0, -c1}; }

  // (a0 + a1w)⁻¹ = (a0 − a1w)/(a0² − v·a1²). Zero maps to zero.
  constexpr fp12_t inverse() const {
    fq6_t n = (c0.sqr() - c1.sqr().mul_by_v()).inverse();
    return {c0 * n, -(c1 * n)};
  }

  // a^(q^K), K = 1, 2, 3: c0 as in Fq6 (even powers of w); the coefficient of v^i·w = w^(2i+1)
  // is conjugated (K odd) and multiplied by g[K−1][2i+1].
  template <int K>
  constexpr fp12_t frobenius_map() const {
    static_assert(K >= 1 && K <= 3, "frobenius_map<K> for K = 1, 2, 3");
    const auto& g = frobenius_table<P>.g[K - 1];
    fq6_t d1{frobenius_fq2<K>(c1.c0) * g[1], frobenius_fq2<K>(c1.c1) * g[3],
             frobenius_fq2<K>(c1.c2) * g[5]};
    return {c0.template frobenius_map<K>(), d1};
  }

  // Sparse products with line functions (slots numbered c0.c0, c0.c1, c0.c2, c1.c0, c1.c1, c1.c2
  // = w⁰, w², w⁴, w¹, w³, w⁵). 13 Fq2 multiplications instead of 18.
  //
  // D-type twist lines live in w⁰, w¹, w³: a·(d0 + (d3 + d4·v)·w).
  constexpr fp12_t mul_by_034(const fq2_t& d0, const fq2_t& d3, const fq2_t& d4) const {
    fq6_t v0 = c0.mul_by_fq2(d0);
    fq6_t v1 = c1.mul_by_01(d3, d4);
    fq6_t t = (c0 + c1).mul_by_01(d0 + d3, d4);
    return {v0 + v1.mul_by_v(), t - v0 - v1};
  }
  // M-type twist lines live in w⁰, w², w³: a·((d0 + d1·v) + d4·v·w).
  constexpr fp12_t mul_by_014(const fq2_t& d0, const fq2_t& d1, const fq2_t& d4) const {
    fq6_t v0 = c0.mul_by_01(d0, d1);
    fq6_t v1 = c1.mul_by_1(d4);
    fq6_t t = (c0 + c1).mul_by_01(d0, d1 + d4);
    return {v0 + v1.mul_by_v(), t - v0 - v1};
  }

  // Granger–Scott squaring, valid only for a in the cyclotomic subgroup (a^Φ12(q) = 1, e.g.
  // after the easy part of the final exponentiation), eprint 2009/565.
  // View Fq12 = Fq4³ with Fq4 = Fq2[s]/(s² − ξ), s = w³, and
  //   a = (z0 + z1·s) + (z2 + z3·s)·w + (z4 + z5·s)·w²,
  //   z0 = c0.c0, z1 = c1.c1, z2 = c1.c0, z3 = c0.c2, z4 = c0.c1, z5 = c1.c2.
  // With A = z0 + z1s, B = z2 + z3s, C = z4 + z5s:
  //   A' = 3A² − 2·conj(A),  B' = 3s·C² + 2·conj(B),  C' = 3B² − 2·conj(C)
  // where conj(x + ys) = x − ys and (t4 + t5s)·s = ξt5 + t4s. 9 Fq2 squarings.
  constexpr fp12_t cyclotomic_sqr() const {
    const fq2_t &z0 = c0.c0, &z1 = c1.c1, &z2 = c1.c0, &z3 = c0.c2, &z4 = c0.c1, &z5 = c1.c2;
    // (x + y·s)² = (x² + ξy²) + ((x + y)² − x² − y²)·s
    auto fq4_sqr = [](const fq2_t& x, const fq2_t& y, fq2_t& r0, fq2_t& r1) {
      fq2_t xx = x.sqr(), yy = y.sqr();
      r0 = xx + mul_by_xi<P>(yy);
      r1 = (x + y).sqr() - xx - yy;
    };
    fq2_t t0{}, t1{}, t2{}, t3{}, t4{}, t5{};
    fq4_sqr(z0, z1, t0, t1);          // A²
    fq4_sqr(z2, z3, t2, t3);          // B²
    fq4_sqr(z4, z5, t4, t5);          // C²
    fq2_t x0 = (t0 - z0).dbl() + t0;  // 3t0 − 2z0
    fq2_t x1 = (t1 + z1).dbl() + t1;  // 3t1 + 2z1
    fq2_t xt = mul_by_xi<P>(t5);
    fq2_t x2 = (xt + z2).dbl() + xt;  // 3ξt5 + 2z2
    fq2_t x3 = (t4 - z3).dbl() + t4;  // 3t4 − 2z3
    fq2_t x4 = (t2 - z4).dbl() + t2;  // 3t2 − 2z4
    fq2_t x5 = (t3 + z5).dbl() + t3;  // 3t3 + 2z5
    return {fq6_t{x0, x4, x3}, fq6_t{x2, x1, x5}};
  }

  // Square-and-multiply; for tests and one-off use (not constant time).
  template <int M>
  constexpr fp12_t pow(const ff::bigint_t<M>& e) const {
    fp12_t r = one();
    for (int i = (int)e.num_bits() - 1; i >= 0; --i) {
      r = r.sqr();
      if (e.bit(i)) r = r * *this;
    }
    return r;
  }
};

}  // namespace zk::pairing

namespace zk::bn254 {
using fq6_t = pairing::fp6_t<pairing::bn254_tower_t>;
using fq12_t = pairing::fp12_t<pairing::bn254_tower_t>;
}  // namespace zk::bn254

namespace zk::bls12_381 {
using fq6_t = pairing::fp6_t<pairing::bls12_381_tower_t>;
using fq12_t = pairing::fp12_t<pairing::bls12_381_tower_t>;
}  // namespace zk::bls12_381
