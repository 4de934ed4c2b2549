#pragma once
// Eight field multiplications at once with AVX-512 IFMA (x86-64 hosts only; never device code).
//
// vpmadd52luq / vpmadd52huq multiply the low 52 bits of eight 64-bit lanes and add the low (or
// high) 52 bits of the 104-bit products to eight 64-bit accumulators. A field element is then
// held in radix 2^52, L limbs (L = ⌈(64·N + 1)/52⌉: 5 for BN254's Fq, 8 for BLS12-381's), and a
// vector holds limb j of eight independent elements, one per lane ("vertical" SIMD, as in
// S. Gueron and V. Krasnov, "Accelerating Big Integer Arithmetic Using Intel IFMA Extensions",
// ARITH 2016, and N. Drucker and S. Gueron, "Fast modular squaring with AVX512IFMA", ITNG 2019;
// gnark-crypto's `-tags=avx512` Fr vector code uses the same lane layout).
//
// Montgomery multiplication, word by word (CIOS) in radix 2^52 with lazy carries: each step adds
// a·b_i and m·p (m = t_0·(−p⁻¹) mod 2^52), both halves of every product landing in 64-bit
// accumulators (12 spare bits: at most 4·L additions of < 2^52 before the carries are
// propagated once, at the end). L steps divide by 2^(52·L), not by R = 2^(64·N), the radix of
// fp_t's Montgomery form; so the left operand enters shifted by s = 52·L − 64·N bits (4 for
// BN254, 32 for BLS12-381): mont52(a·2^s, b) = a·b·2^s / 2^(52·L) = a·b / R, the very product
// fp_t computes, fully reduced after one conditional subtraction (a·2^s < 2^(52·L) and b < p
// bound the result below 2p). Values cross between the two layouts by regrouping bits only;
// the results equal fp_t's bit for bit (tests/ff).
//
// Every function here is compiled for AVX-512 IFMA (target attribute) and must only run after
// ifma::available() said yes; callers keep the portable path as the fallback.
#if defined(__x86_64__) && !defined(__CUDACC__) && !defined(__CUDA_ARCH__)
#define ZK_FF_IFMA 1
#include <immintrin.h>

#include <cstddef>
#include <cstdint>

#include "zk/ff/fp.hpp"
#include "zk/ff/fp2.hpp"

#define ZK_IFMA_TARGET __attribute__((target("avx512f,avx512ifma,avx512vl,avx512bw,avx512dq")))
#define ZK_IFMA_INLINE ZK_IFMA_TARGET inline __attribute__((always_inline))

namespace zk::ff::ifma {

// This CPU runs AVX-512 IFMA (and the OS saves the ZMM state), and ZK_NO_IFMA is unset or 0.
bool available();
// The CPU alone (ignores ZK_NO_IFMA): for tests that compare both paths.
bool cpu_has_ifma();

constexpr uint64_t mask52 = (uint64_t(1) << 52) - 1;

// Lane-wise shifts as GCC vector operations: <immintrin.h>'s _mm512_srli_epi64 in GCC 12 passes
// an "undefined" register that trips -Wuninitialized (GCC bug 105593); the code is the same.
typedef unsigned long long u64x8_t __attribute__((vector_size(64)));
ZK_IFMA_INLINE __m512i shr(__m512i a, unsigned n) { return (__m512i)((u64x8_t)a >> n); }
ZK_IFMA_INLINE __m512i shl(__m512i a, unsigned n) { return (__m512i)((u64x8_t)a << n); }

// Radix-2^52 constants of a prime field fp_t<P> (all compile time).
template <class F>
struct radix52_t {
  static constexpr int N = F::N;                      // 64-bit limbs
  static constexpr int L = (64 * N + 1 + 51) / 52;    // 52-bit limbs: 5 or 8
  static constexpr unsigned shift = 52 * L - 64 * N;  // left operand's pre-shift
  static constexpr uint64_t pinv = F::inv & mask52;   // −p⁻¹ mod 2^52
  static_assert(shift > 0 && shift < 52, "pre-shift must stay within one limb");

  // Bits [52·j, 52·j + 52) of a little-endian N-limb integer.
  static constexpr uint64_t limb_of(const uint64_t* w, int j) {
    const int bit = 52 * j, q = bit / 64, r = bit % 64;
    uint64_t v = q < N ? w[q] >> r : 0;
    if (r > 12 && q + 1 < N) v |= w[q + 1] << (64 - r);
    return v & mask52;
  }
  static constexpr uint64_t p(int j) {
    constexpr auto m = F::modulus;
    return limb_of(m.l, j);
  }
};

// 64-bit limbs (fp_t's raw Montgomery form) → L limbs of 52 bits, and back.
template <class F>
inline void split52(const F& x, uint64_t* out) {
  using R = radix52_t<F>;
  for (int j = 0; j < R::L; ++j) out[j] = R::limb_of(x.l, j);
}
template <class F>
inline F join52(const uint64_t* in) {
  using R = radix52_t<F>;
  F r{};
  for (int j = 0; j < R::L; ++j) {
    const int bit = 52 * j, q = bit / 64, s = bit % 64;
    if (q < R::N) r.l[q] |= in[j] << s;
    if (s > 12 && q + 1 < R::N) r.l[q + 1] |= in[j] >> (64 - s);
  }
  return r;
}

// Eight elements, limb-major: v[j] holds limb j of lanes 0..7.
template <int L>
struct vfe_t {
  __m512i v[L];
};

template <class F>
struct vfield_t {
  using R = radix52_t<F>;
  static constexpr int L = R::L;
  using vfe = vfe_t<L>;

  ZK_IFMA_INLINE static __m512i bc(uint64_t x) { return _mm512_set1_epi64((long long)x); }

  // Lanes all equal to one fp_t element.
  ZK_IFMA_INLINE static vfe broadcast(const F& x) {
    vfe r;
    for (int j = 0; j < L; ++j) r.v[j] = bc(R::limb_of(x.l, j));
    return r;
  }
  // Loads / stores limb-major memory: L × 8 words, 64-byte aligned.
  ZK_IFMA_INLINE static vfe load(const uint64_t* m) {
    vfe r;
    for (int j = 0; j < L; ++j) r.v[j] = _mm512_load_si512(m + 8 * j);
    return r;
  }
  ZK_IFMA_INLINE static void store(uint64_t* m, const vfe& a) {
    for (int j = 0; j < L; ++j) _mm512_store_si512(m + 8 * j, a.v[j]);
  }

  // r = t − p if t ≥ p else t; t normalised (limbs < 2^52) and t < 2p.
  ZK_IFMA_INLINE static vfe reduce_once(const __m512i* t) {
    const __m512i m = bc(mask52);
    vfe s;
    __m512i borrow = _mm512_setzero_si512();
    for (int j = 0; j < L; ++j) {
      const __m512i d = _mm512_sub_epi64(_mm512_sub_epi64(t[j], bc(R::p(j))), borrow);
      borrow = shr(d, 63);
      s.v[j] = _mm512_and_si512(d, m);
    }
    const __mmask8 below_p = _mm512_test_epi64_mask(borrow, borrow);
    for (int j = 0; j < L; ++j) s.v[j] = _mm512_mask_blend_epi64(below_p, s.v[j], t[j]);
    return s;
  }

  ZK_IFMA_INLINE static vfe add(const vfe& a, const vfe& b) {
    const __m512i m = bc(mask52);
    __m512i t[L];
    __m512i carry = _mm512_setzero_si512();
    for (int j = 0; j < L; ++j) {
      const __m512i s = _mm512_add_epi64(_mm512_add_epi64(a.v[j], b.v[j]), carry);
      carry = shr(s, 52);
      t[j] = _mm512_and_si512(s, m);
    }
    return reduce_once(t);
  }

  ZK_IFMA_INLINE static vfe sub(const vfe& a, const vfe& b) {
    const __m512i m = bc(mask52);
    vfe d, e;
    __m512i borrow = _mm512_setzero_si512();
    for (int j = 0; j < L; ++j) {
      const __m512i x = _mm512_sub_epi64(_mm512_sub_epi64(a.v[j], b.v[j]), borrow);
      borrow = shr(x, 63);
      d.v[j] = _mm512_and_si512(x, m);
    }
    // a < b: add p back (the sum's carry out of the top limb cancels the borrow).
    const __mmask8 neg = _mm512_test_epi64_mask(borrow, borrow);
    __m512i carry = _mm512_setzero_si512();
    for (int j = 0; j < L; ++j) {
      const __m512i s = _mm512_add_epi64(_mm512_add_epi64(d.v[j], bc(R::p(j))), carry);
      carry = shr(s, 52);
      e.v[j] = _mm512_and_si512(s, m);
    }
    for (int j = 0; j < L; ++j) d.v[j] = _mm512_mask_blend_epi64(neg, d.v[j], e.v[j]);
    return d;
  }

  ZK_IFMA_INLINE static vfe neg(const vfe& a) {
    vfe z;
    for (int j = 0; j < L; ++j) z.v[j] = _mm512_setzero_si512();
    return sub(z, a);
  }

  // a·b / R mod p, fully reduced (inputs fully reduced).
  ZK_IFMA_INLINE static vfe mul(const vfe& a, const vfe& b) {
    const __m512i m = bc(mask52), zero = _mm512_setzero_si512(), pinv = bc(R::pinv);
    constexpr unsigned s = R::shift;
    // a·2^s in L limbs (a < 2^(64·N), so it fits).
    __m512i as[L];
    as[0] = _mm512_and_si512(shl(a.v[0], s), m);
    for (int j = 1; j < L; ++j)
      as[j] = _mm512_or_si512(_mm512_and_si512(shl(a.v[j], s), m), shr(a.v[j - 1], 52 - s));
    __m512i t[L + 1];
    for (int j = 0; j <= L; ++j) t[j] = zero;
    for (int i = 0; i < L; ++i) {
      const __m512i bi = b.v[i];
      for (int j = 0; j < L; ++j) t[j] = _mm512_madd52lo_epu64(t[j], as[j], bi);
      for (int j = 0; j < L; ++j) t[j + 1] = _mm512_madd52hi_epu64(t[j + 1], as[j], bi);
      const __m512i q = _mm512_madd52lo_epu64(zero, t[0], pinv);
      for (int j = 0; j < L; ++j) t[j] = _mm512_madd52lo_epu64(t[j], q, bc(R::p(j)));
      for (int j = 0; j < L; ++j) t[j + 1] = _mm512_madd52hi_epu64(t[j + 1], q, bc(R::p(j)));
      // t_0 ≡ 0 mod 2^52 now: carry its high part and drop the word.
      const __m512i c = shr(t[0], 52);
      for (int j = 0; j < L; ++j) t[j] = t[j + 1];
      t[0] = _mm512_add_epi64(t[0], c);
      t[L] = zero;
    }
    for (int j = 0; j + 1 < L; ++j) {
      t[j + 1] = _mm512_add_epi64(t[j + 1], shr(t[j], 52));
      t[j] = _mm512_and_si512(t[j], m);
    }
    return reduce_once(t);
  }
  ZK_IFMA_INLINE static vfe sqr(const vfe& a) { return mul(a, a); }

  // Lane-wise equality to zero (fully reduced values).
  ZK_IFMA_INLINE static __mmask8 is_zero(const vfe& a) {
    __m512i o = a.v[0];
    for (int j = 1; j < L; ++j) o = _mm512_or_si512(o, a.v[j]);
    return _mm512_testn_epi64_mask(o, o);
  }
};

// Fq2 = Fq[u]/(u² + 1) over vfield_t: Karatsuba as fp2_t does (3 multiplications).
template <class F>
struct vfield2_t {
  using base_t = vfield_t<F>;
  using vfe = typename base_t::vfe;
  struct v2_t {
    vfe c0, c1;
  };
  ZK_IFMA_INLINE static v2_t add(const v2_t& a, const v2_t& b) {
    return {base_t::add(a.c0, b.c0), base_t::add(a.c1, b.c1)};
  }
  ZK_IFMA_INLINE static v2_t sub(const v2_t& a, const v2_t& b) {
    return {base_t::sub(a.c0, b.c0), base_t::sub(a.c1, b.c1)};
  }
  ZK_IFMA_INLINE static v2_t mul(const v2_t& a, const v2_t& b) {
    const vfe v0 = base_t::mul(a.c0, b.c0), v1 = base_t::mul(a.c1, b.c1);
    const vfe s = base_t::mul(base_t::add(a.c0, a.c1), base_t::add(b.c0, b.c1));
    return {base_t::sub(v0, v1), base_t::sub(base_t::sub(s, v0), v1)};
  }
  // (a0 + a1u)² = (a0 + a1)(a0 − a1) + 2a0a1·u
  ZK_IFMA_INLINE static v2_t sqr(const v2_t& a) {
    const vfe t = base_t::mul(a.c0, a.c1);
    return {base_t::mul(base_t::add(a.c0, a.c1), base_t::sub(a.c0, a.c1)), base_t::add(t, t)};
  }
};

}  // namespace zk::ff::ifma
#endif
