#pragma once
// Development parameters in bellperson's files: what bellperson 0.27's generate_parameters
// (src/groth16/generator.rs) computes for a circuit recorded by shape_cs_t with its matrices,
// made by the one key generator (zk/groth16/generator.hpp) with bellperson's convention and
// written as a `.params` (params_writer_t, files.hpp) and a `.vk` — NOT a ceremony: anyone who
// knows the seed can forge proofs. With the secrets τ, α, β, γ, δ:
//
//   numbering  Input(i) → i, Aux(i) → inputs + i (ONE = Input(0) first)
//   domain     n = the smallest power of two ≥ constraints + inputs (the input constraints
//              appended, A = Input(i), B = C = 0); ω = 7^((r−1)/2^log n)
//   L_i(τ)  = (τⁿ − 1)/n · ωⁱ/(τ − ωⁱ)     a_j(τ) = Σ_i A_ij·L_i(τ) (likewise b_j, c_j)
//   vk      [α]₁ [β]₁ [β]₂ [γ]₂ [δ]₁ [δ]₂, IC_j = [(β·a_j + α·b_j + c_j)/γ]₁ for the inputs
//   h       [τⁱ·(τⁿ − 1)/δ]₁, i < n − 1
//   l       [(β·a_j + α·b_j + c_j)/δ]₁ for every aux variable
//   a       [a_j(τ)]₁ for the inputs and the aux variables in the A density
//   b_g1/g2 [b_j(τ)]₁, [b_j(τ)]₂ for the variables in the B densities (the generator drops the
//           points at infinity, which are exactly the variables outside the densities:
//           r1cs_shape_t::a_aux, b_input, b_aux)
//
// Secrets (dev_secrets): SHA-256("zkfleet/filecoin-dev-params/v1" ‖ seed u64 LE ‖ name ‖
// attempt u32 LE), the top two bits cleared, redrawn until below r and non-zero (name = "tau",
// "alpha", "beta", "gamma", "delta"); while τⁿ = 1, τ is drawn again from the seed
// seed + 0x9e3779b97f4a7c15·k, k = 1, 2, … (the tag keeps the name under which Filecoin's
// development parameters were first made, so that a seed gives the same files as before).
#include <cstdint>
#include <string>

#include "zk/bellperson/cs.hpp"
#include "zk/groth16/generator.hpp"

namespace zk::bellperson {

// A shape with its matrices as the key generator's constraint source, numbered Input(i) → i,
// Aux(i) → inputs + i. The shape must outlive it; std::invalid_argument without matrices.
class shape_source_t final : public groth16::constraint_source_t<fr_t> {
 public:
  explicit shape_source_t(const r1cs_shape_t& shape);
  uint64_t constraints() const override { return s_.counts.constraints; }
  uint64_t inputs() const override { return s_.counts.inputs; }
  uint64_t variables() const override { return uint64_t(s_.counts.inputs) + s_.counts.aux; }
  void for_each_term(const term_visitor_t& visit) const override;

 private:
  const r1cs_shape_t& s_;
};

// The secrets of a seed for a domain of n points (γ drawn).
groth16::secrets_t<fr_t> dev_secrets(uint64_t seed, uint64_t domain_size);

// bellperson's convention: generator 7, h as powers of τ, γ drawn, the densities' points only,
// the secrets of the seed.
groth16::convention_t<fr_t> generator_convention(uint64_t seed);

struct generated_params_t {
  uint64_t domain = 0;  // n
  uint64_t points = 0;  // in the .params sections h, l, a, b_g1, b_g2 (0 without a .params)
};

// Writes params_path (unless it is empty) and then vk_path for the shape, from the seed's
// secrets. Throws std::invalid_argument for a shape without matrices and std::runtime_error
// naming the file when one cannot be written.
generated_params_t generate_parameters(const r1cs_shape_t& shape, uint64_t seed,
                                       const std::string& params_path, const std::string& vk_path);

}  // namespace zk::bellperson
