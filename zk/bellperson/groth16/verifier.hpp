#pragma once
// Groth16 verification with a bellperson key (docs/filecoin.md §5).
//
// One partition (bellperson src/groth16/verifier.rs verify_proof):
//   e(A, B) = e(α, β) · e(Σ_i x_i·IC_i, γ) · e(C, δ),  x_0 = 1,
// is the one Groth16 verifier's check (zk/groth16/verifier.hpp: the proof's points on their curves
// and in their subgroups, one product of four Miller loops and one final exponentiation).
// Several (verify_proofs_batch): with independent random 128-bit weights z_j,
//   Π_j e(z_j·A_j, B_j) = e(α, β)^{Σ z_j} · e(Σ_j z_j·vk_x_j, γ) · e(Σ_j z_j·C_j, δ),
// n + 3 Miller loops and one final exponentiation; a false batch is then checked partition by
// partition so that the refusal names the failing ones. Both are checks (zk/base/result.hpp):
// they pass, or refuse with the reason.
#include <string>
#include <vector>

#include "zk/bellperson/groth16/files.hpp"
#include "zk/groth16/verifier.hpp"

namespace zk::bellperson {

check_t verify_proof(const verifying_key_t& vk, const proof_t& proof,
                     const std::vector<fr_t>& inputs);
check_t verify_proofs_batch(const verifying_key_t& vk, const std::vector<proof_t>& proofs,
                            const std::vector<std::vector<fr_t>>& inputs);

}  // namespace zk::bellperson
