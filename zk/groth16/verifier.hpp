#pragma once
// Groth16 verification with the native pairing (docs/formats.md §4):
//   e(π_A, π_B) = e(α₁, β₂) · e(vk_x, γ₂) · e(π_C, δ₂),  vk_x = IC₀ + Σ x_i·IC_i,
// evaluated as one product of four Miller loops and one final exponentiation.
// Beyond snarkjs, the proof points must lie in the prime-order subgroups.
#include <string>
#include <vector>

#include "zk/base/result.hpp"
#include "zk/groth16/keys.hpp"

namespace zk::groth16 {

// A verification's outcome is a check: it passes (a valid proof), or it refuses with why not
// ("the pairing check failed"). Malformed input (a point that does not decode) throws before.
template <class C>
check_t verify(const verifying_key_t<C>& vk, const std::vector<typename C::fr_t>& public_signals,
               const proof_t<C>& proof);

// e(α₁, β₂) in snarkjs's vk_alphabeta_12 layout (decimal strings).
template <class C>
formats::gt_json_t alphabeta_json(const typename C::g1_affine& alpha1,
                                  const typename C::g2_affine& beta2);

}  // namespace zk::groth16
