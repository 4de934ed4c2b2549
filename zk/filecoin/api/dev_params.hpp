#pragma once
// Development parameters for a Filecoin PoRep circuit (`zkfleet filecoin setup`): a bellperson
// `.params` + `.vk` pair made from secrets derived from a seed in this process — NOT a ceremony:
// anyone who knows the seed can forge proofs. What bellperson 0.27's generate_parameters
// (src/groth16/generator.rs) computes for the circuit's R1CS
// (zk/filecoin/porep/circuit/circuit.hpp, input constraints appended), with the secrets τ, α, β, γ,
// δ:
//
//   domain  n = the smallest power of two ≥ constraints + inputs; ω = 7^((r−1)/2^log n)
//   L_i(τ)  = (τⁿ − 1)/n · ωⁱ/(τ − ωⁱ)     a_j(τ) = Σ_i A_ij·L_i(τ) (likewise b_j, c_j)
//   vk      [α]₁ [β]₁ [β]₂ [γ]₂ [δ]₁ [δ]₂, IC_j = [(β·a_j + α·b_j + c_j)/γ]₁ for the inputs
//   h       [τⁱ·(τⁿ − 1)/δ]₁, i < n − 1
//   l       [(β·a_j + α·b_j + c_j)/δ]₁ for every aux variable
//   a       [a_j(τ)]₁ for the inputs and the aux variables in the A density
//   b_g1/g2 [b_j(τ)]₁, [b_j(τ)]₂ for the variables in the B densities (the generator drops the
//           points at infinity, which are exactly the variables outside the densities)
//
// Secrets: SHA-256("zkfleet/filecoin-dev-params/v1" ‖ seed u64 LE ‖ name ‖ attempt u32 LE), the
// top two bits cleared, redrawn until below r and non-zero (name = "tau", "alpha", "beta",
// "gamma", "delta"); τ is redrawn while τⁿ = 1. The files depend on the circuit and the seed
// only, so they are cached by the circuit's hash (r1cs_shape_t::digest) and the seed.
#include <cstdint>
#include <string>

#include "zk/filecoin/porep/circuit/circuit.hpp"

namespace zk::filecoin {

struct dev_params_report_t {
  std::string params_path, vk_path;  // params_path empty with vk_only
  std::string digest;                // the circuit's hash (hex)
  uint64_t domain = 0, points = 0;
  double seconds = 0;
};

// Writes <dir>/<name>.params (unless vk_only) and <dir>/<name>.vk for the circuit. Throws
// std::runtime_error naming the file when it cannot be written.
dev_params_report_t make_dev_params(const circuit_config_t& c, uint64_t seed,
                                    const std::string& dir, const std::string& name,
                                    bool vk_only = false);

}  // namespace zk::filecoin
