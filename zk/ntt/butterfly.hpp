#pragma once
// The NTT's arithmetic, written once for the CPU loops (ntt.cpp) and the CUDA kernels
// (cuda/ntt.cu), and run on the host by tests/ntt for the device's order of work:
//   - the radix-2 butterflies, as a pair operation (dif_pair, dit_pair) and in the stage-wide
//     indexing of the CPU (dif_butterfly, dit_butterfly);
//   - tiles: a run of S consecutive stages splits into independent sub-transforms of 2^S
//     elements (the CUDA NTT loads one per thread block into shared memory, so a 2^24 transform
//     reads and writes memory a few times instead of 24);
//   - the odd-coset scaling of compute_h at one position (coset_scale_at).
// Butterfly k of a stage with half-length len pairs elements (j, j + len) of block k / len,
// j = k % len; its twiddle is ω^{j·stride}, stride = (n/2) / len.
#include <cstddef>
#include <cstdint>

#include "zk/ff/zk_hd.hpp"

namespace zk::ntt {

// Gentleman–Sande (DIF): natural order in, bit-reversed out. For the inverse transform the
// twiddle is ω^{−j·stride} = −ω^{n/2 − j·stride} (ω^{n/2} = −1), folded in as (v − u)·tw.
template <bool Inverse, class Fr>
ZK_HD void dif_pair(Fr& x, Fr& y, size_t j, size_t stride, const Fr* tw, size_t half_n) {
  const Fr u = x, v = y;
  x = u + v;
  if (j == 0)
    y = u - v;
  else if (Inverse)
    y = (v - u) * tw[half_n - j * stride];
  else
    y = (u - v) * tw[j * stride];
}

// Cooley–Tukey (DIT): bit-reversed in, natural order out.
template <class Fr>
ZK_HD void dit_pair(Fr& x, Fr& y, size_t j, size_t stride, const Fr* tw) {
  const Fr u = x, v = j == 0 ? y : y * tw[j * stride];
  x = u + v;
  y = u - v;
}

template <bool Inverse, class Fr>
ZK_HD void dif_butterfly(Fr* a, size_t k, size_t len, size_t stride, const Fr* tw, size_t half_n) {
  const size_t blk = k / len, j = k % len;
  Fr* x = a + blk * 2 * len + j;
  dif_pair<Inverse>(x[0], x[len], j, stride, tw, half_n);
}

template <class Fr>
ZK_HD void dit_butterfly(Fr* a, size_t k, size_t len, size_t stride, const Fr* tw) {
  const size_t blk = k / len, j = k % len;
  Fr* x = a + blk * 2 * len + j;
  dit_pair(x[0], x[len], j, stride, tw);
}

// --- tiles ------------------------------------------------------------------------------------
// The stages of half-lengths u, 2u, …, u·2^{S−1} touch, for each tile τ < n/2^S, only the 2^S
// elements base(τ) + i·u (i < 2^S), base(τ) = (τ / u)·u·2^S + τ % u. Loaded as t[i], stage s
// (half-length u·2^s) pairs t[x] and t[x + 2^s] with the twiddle of global offset τ % u + (b mod
// 2^s)·u, b the butterfly's number in the tile (< 2^{S−1}). DIF runs s = S−1 … 0, DIT s = 0 … S−1.
ZK_HD size_t tile_base(size_t tile, size_t u, unsigned S) {
  return (tile / u) * (u << S) + tile % u;
}

template <bool Inverse, class Fr>
ZK_HD void dif_tile_butterfly(Fr* t, size_t b, unsigned s, size_t tile, size_t u, const Fr* tw,
                              size_t half_n) {
  const size_t m = (size_t(1) << s) - 1, x = ((b >> s) << (s + 1)) | (b & m);
  dif_pair<Inverse>(t[x], t[x + m + 1], tile % u + (b & m) * u, half_n / (u << s), tw, half_n);
}

template <class Fr>
ZK_HD void dit_tile_butterfly(Fr* t, size_t b, unsigned s, size_t tile, size_t u, const Fr* tw,
                              size_t half_n) {
  const size_t m = (size_t(1) << s) - 1, x = ((b >> s) << (s + 1)) | (b & m);
  dit_pair(t[x], t[x + m + 1], tile % u + (b & m) * u, half_n / (u << s), tw);
}

// log_n stages as passes of at most max_log stages each, as even as possible: passes[p] stages
// in pass p. Returns the pass count (0 for log_n = 0).
inline unsigned plan_tile_passes(unsigned log_n, unsigned max_log, unsigned passes[64]) {
  if (log_n == 0) return 0;
  const unsigned count = (log_n + max_log - 1) / max_log;
  for (unsigned p = 0; p < count; ++p) passes[p] = log_n / count + (p < log_n % count ? 1 : 0);
  return count;
}

// compute_h's odd-coset transform as tile passes: the inverse DIF from the longest half-length
// down (the last pass scaling by coset_scale_at as it stores), then the DIT from the shortest up.
// A pass is tile_kernel in cuda/ntt.cu; log_n = 0 is one pass that only scales.
struct tile_pass_t {
  size_t u;    // the pass's shortest half-length (its tiles' element spacing)
  unsigned S;  // stages in the pass (tiles of 2^S elements)
  bool dit;    // DIT (forward) or inverse DIF
  bool scale;  // apply the coset scaling when storing
};
inline unsigned odd_coset_schedule(unsigned log_n, unsigned max_log, tile_pass_t out[128]) {
  unsigned stages[64];
  const unsigned passes = plan_tile_passes(log_n, max_log, stages);
  if (passes == 0) {
    out[0] = tile_pass_t{1, 0, false, true};
    return 1;
  }
  unsigned k = 0, done = 0;
  for (unsigned p = 0; p < passes; ++p) {
    done += stages[p];
    out[k++] = tile_pass_t{(size_t(1) << log_n) >> done, stages[p], false, p + 1 == passes};
  }
  size_t u = 1;
  for (unsigned p = 0; p < passes; ++p) {
    out[k++] = tile_pass_t{u, stages[p], true, false};
    u <<= stages[p];
  }
  return k;
}

// --- the odd-coset scaling ------------------------------------------------------------------
ZK_HD size_t bitrev(size_t x, unsigned bits) {
  if (bits == 0) return 0;
#if defined(__CUDA_ARCH__)
  return __brevll(x) >> (64 - bits);
#else
  size_t r = 0;
  for (unsigned i = 0; i < bits; ++i) r |= ((x >> i) & 1) << (bits - 1 - i);
  return r;
#endif
}

// Position i of the bit-reversed coefficients (n·a_j at i = bitrev(j)) times ω_2n^j / n:
// ω_2n^j = ω_n^{j/2} for even j and ω_2n·ω_n^{(j−1)/2} for odd j, with ω_n^m = −ω_n^{m−n/2}
// for m ≥ n/2. n_inv = 1/n, g_n_inv = ω_2n/n, tw = ω_n^i for i < n/2.
template <class Fr>
ZK_HD Fr coset_scale_at(const Fr& v, size_t i, size_t n, unsigned log_n, const Fr* tw,
                        const Fr& n_inv, const Fr& g_n_inv) {
  const size_t half = n / 2, j = bitrev(i, log_n), m = j >> 1;
  const Fr& s = (j & 1) ? g_n_inv : n_inv;
  if (n == 1) return v * s;
  if (m < half) return v * tw[m] * s;
  return -(v * tw[m - half] * s);
}

}  // namespace zk::ntt
