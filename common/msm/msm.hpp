#pragma once
// Multi-scalar multiplication Σ k_i·P_i on the CPU: Pippenger's bucket method with signed-digit
// windows, multithreaded by window.
//
// Scalars are canonical little-endian integers of 32 bytes (the .wtns layout, read in place).
// A plan_t sorts one scalar vector once; the prover reuses the witness plan for the A, B1 and
// B2 MSMs. Zero scalars are dropped and scalars equal to one are summed apart (bit-heavy circuits
// have many of both); the window width is chosen from the count of the rest.
//
// Signed digits: every scalar k < 2^bits is rewritten as Σ_w d_w·2^{c·w} with
// d_w ∈ [−2^{c−1}, 2^{c−1}), so each window needs 2^{c−1} buckets and a negative digit adds −P
// (a free negation in affine form). The digits are read straight off k + H with
// H = Σ_w 2^{c−1}·2^{c·w}: d_w = ((k + H) >> c·w mod 2^c) − 2^{c−1} — no carries to propagate,
// so no digit table is stored (it would be as large as the scalars, many times over).
// Buckets accumulate in batch-affine form (msm.cpp).
#include <cstddef>
#include <cstdint>
#include <vector>

#include "common/ec/point.hpp"

namespace zk::msm {

struct plan_t {
  const uint8_t* scalars = nullptr;  // the scalar vector (not owned: it must outlive the plan)
  size_t stride = 32;                // bytes from one scalar to the next
  size_t n = 0;                      // length of the scalar vector
  unsigned bits = 0;                 // every scalar is below 2^bits
  unsigned c = 0;                    // window width in bits
  unsigned windows = 0;              // number of signed-digit windows
  uint64_t offset[5] = {};           // H = Σ_w 2^{c−1}·2^{c·w}
  std::vector<uint32_t> idx;         // positions of scalars > 1
  std::vector<uint32_t> ones;        // positions of scalars == 1
};

// scalars: n little-endian integers, `stride` bytes apart (32 for Fr), each < 2^bits.
plan_t make_plan(const uint8_t* scalars, size_t n, unsigned bits, size_t stride = 32);

// The signed-digit recoding for c-bit windows: returns the window count W and writes
// H = Σ_w 2^{c−1}·2^{c·w} (five limbs), W the smallest with k + H < 2^{c·W} for all k < 2^bits.
// Shared with the CUDA MSM, so both read the same digits.
unsigned signed_digit_windows(unsigned bits, unsigned c, uint64_t offset[5]);

// Which kernels an MSM may use. The defaults pick the fastest this CPU runs; tests and
// bench_micro turn paths off to compare them (every path gives the same sum).
struct options_t {
  bool simd = true;     // AVX-512 IFMA bucket additions (ifma_buckets.hpp) when the CPU has them
  unsigned window = 0;  // window width in bits; 0: the plan's (the cost model's choice)
};

// Σ k_i·P_i over the plan's scalars. bases[i] for i < plan.n; (0,0) bases are the identity.
template <class G>
ec::jacobian_t<G> msm(const ec::affine_t<G>* bases, const plan_t& plan, const options_t& opt = {});

// Convenience: plan and run in one call.
template <class G>
ec::jacobian_t<G> msm(const ec::affine_t<G>* bases, const uint8_t* scalars, size_t n,
                      unsigned bits) {
  return msm<G>(bases, make_plan(scalars, n, bits));
}

}  // namespace zk::msm
