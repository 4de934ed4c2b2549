#pragma once
// Multi-scalar multiplication Σ k_i·P_i on the CPU: Pippenger's bucket method with signed-digit
// windows, multithreaded by window.
//
// Scalars are canonical little-endian integers of 32 bytes (the .wtns layout, read in place).
// A plan_t recodes one scalar vector once; the prover reuses the witness plan for the A, B1 and
// B2 MSMs. Zero scalars are dropped and scalars equal to one are summed apart (bit-heavy circuits
// have many of both); the window width is chosen from the count of the rest.
//
// Signed digits: every scalar k < 2^bits is rewritten as Σ_w d_w·2^{c·w} with
// d_w ∈ [−2^{c−1}, 2^{c−1}], so each window needs 2^{c−1} buckets and a negative digit adds −P
// (a free negation in affine form). Buckets are XYZZ points (mixed addition 8M + 2S).
#include <cstddef>
#include <cstdint>
#include <vector>

#include "common/ec/point.hpp"

namespace zk::msm {

struct plan_t {
  size_t n = 0;                   // length of the scalar vector the plan was made from
  unsigned c = 0;                 // window width in bits
  unsigned windows = 0;           // number of signed-digit windows
  std::vector<uint32_t> idx;      // positions of scalars > 1
  std::vector<uint32_t> ones;     // positions of scalars == 1
  std::vector<int16_t> digits;    // windows × idx.size(), window-major
};

// scalars: n little-endian integers, `stride` bytes apart (32 for Fr), each < 2^bits.
plan_t make_plan(const uint8_t* scalars, size_t n, unsigned bits, size_t stride = 32);

// Σ k_i·P_i over the plan's scalars. bases[i] for i < plan.n; (0,0) bases are the identity.
template <class G>
ec::jacobian_t<G> msm(const ec::affine_t<G>* bases, const plan_t& plan);

// Convenience: plan and run in one call.
template <class G>
ec::jacobian_t<G> msm(const ec::affine_t<G>* bases, const uint8_t* scalars, size_t n, unsigned bits) {
  return msm<G>(bases, make_plan(scalars, n, bits));
}

}  // namespace zk::msm
