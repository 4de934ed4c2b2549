#pragma once
// The radix-2 butterflies of the NTT, written once for the CPU loops (ntt.cpp) and the CUDA
// stage kernels (cuda/ntt.cu). Butterfly k of a stage with half-length len pairs elements
// (j, j + len) of block k / len, j = k % len; its twiddle is ω^{j·stride}.
#include <cstddef>

#include "common/ff/zk_hd.hpp"

namespace zk::ntt {

// Gentleman–Sande (DIF): natural order in, bit-reversed out. For the inverse transform the
// twiddle is ω^{−j·stride} = −ω^{n/2 − j·stride} (ω^{n/2} = −1), folded in as (v − u)·tw.
template <bool Inverse, class Fr>
ZK_HD void dif_butterfly(Fr* a, size_t k, size_t len, size_t stride, const Fr* tw, size_t half_n) {
  const size_t blk = k / len, j = k % len;
  Fr* x = a + blk * 2 * len + j;
  Fr u = x[0], v = x[len];
  x[0] = u + v;
  if (j == 0) x[len] = u - v;
  else if (Inverse) x[len] = (v - u) * tw[half_n - j * stride];
  else x[len] = (u - v) * tw[j * stride];
}

// Cooley–Tukey (DIT): bit-reversed in, natural order out.
template <class Fr>
ZK_HD void dit_butterfly(Fr* a, size_t k, size_t len, size_t stride, const Fr* tw) {
  const size_t blk = k / len, j = k % len;
  Fr* x = a + blk * 2 * len + j;
  Fr u = x[0], v = j == 0 ? x[len] : x[len] * tw[j * stride];
  x[0] = u + v;
  x[len] = u - v;
}

}  // namespace zk::ntt
