#pragma once
// Development key generation (`zkfleet setup`): a Groth16 proving key and verification key for a
// circom .r1cs, made from toxic waste drawn in this process — NOT a ceremony. The files are what
// `snarkjs groth16 setup` followed by phase-2 contributions would produce (docs/formats.md
// §2), so snarkjs and rapidsnark prove with the zkey and `snarkjs groth16 verify` accepts the
// proofs against the verification_key.json:
//
//   domain  n = smallest power of two ≥ nConstraints + nPublic + 1                    (§2.6)
//   rows    the r1cs constraints, then nPublic+1 input rows {A, row nConstraints+s, wire s, 1}
//           (§2.4); L_c = Lagrange basis of {ω_n^c} with snarkjs's roots (§5.4)
//   A_i(τ) = Σ_c a_{c,i}·L_c(τ)   (likewise B_i, and C_i from the r1cs C matrix)
//   header  [α]₁ [β]₁ [β]₂ [γ]₂ = G2 generator (γ = 1, as snarkjs) [δ]₁ [δ]₂          (§2.3)
//   IC[i] = [β·A_i + α·B_i + C_i]₁ (i ≤ nPublic)   C[i] = [(β·A_i + α·B_i + C_i)/δ]₁ (i > nPublic)
//   A[i] = [A_i]₁  B1[i] = [B_i]₁  B2[i] = [B_i]₂  H[j] = [L^{(2n)}_{2j+1}(τ)/δ]₁      (§2.5)
//
// The key is zk/groth16/generator.hpp's with snarkjs's convention (its nqr's roots, H on the odd
// coset, γ = 1, a point for every wire); this file reads the .r1cs and writes the two files. The
// cost is fixed-base scalar multiplication (ec/fixed_base.hpp): about 3·nVars + n in G1 and
// nVars in G2.
#include <cstdint>
#include <optional>
#include <string>

#include "zk/base/curve_id.hpp"
#include "zk/groth16/generator.hpp"

namespace zk::groth16 {

struct setup_options_t {
  // Deterministic toxic waste (tests, reproducible benchmarks): τ, α, β, δ are drawn from
  // std::mt19937_64(seed). Default: std::random_device.
  std::optional<uint64_t> seed;
};

struct setup_report_t {
  curve_id_t curve = curve_id_t::bn254;
  uint32_t n_constraints = 0;
  uint32_t n_vars = 0;    // wires, including wire 0
  uint32_t n_public = 0;  // nPubOut + nPubIn
  uint32_t domain_size = 0;
  uint64_t n_coefficients = 0;  // section 4 records: nnz(A) + nnz(B) + nPublic + 1

  // Seconds per phase.
  double read_seconds = 0;      // map and validate the .r1cs
  double evaluate_seconds = 0;  // Lagrange basis at τ, A_i/B_i/C_i(τ), the key's scalars
  double g1_seconds = 0;        // fixed-base G1: table, header, IC, A, B1, C, H
  double g2_seconds = 0;        // fixed-base G2: table, header, B2
  double write_seconds = 0;     // zkey sections, e(α, β), verification_key.json
  double total_seconds() const {
    return read_seconds + evaluate_seconds + g1_seconds + g2_seconds + write_seconds;
  }
};

// Reads `r1cs_path`, picks the curve from its prime (BN254 or BLS12-381; anything else throws
// format_error naming the file) and writes `zkey_path` (zkey v1, sections 1..10, no
// contributions) and `vkey_path` (verification_key.json). Prints nothing. Throws
// format_error / std::runtime_error naming the file on bad input or a domain beyond
// the field's 2-adicity.
setup_report_t dev_setup(const std::string& r1cs_path, const std::string& zkey_path,
                         const std::string& vkey_path, const setup_options_t& options = {});

// The secrets (snarkjs's convention_t::draw_secrets), exposed so that tests can recompute a key
// from its seed. Drawn in the order τ, α, β, δ, each uniform in [1, r) by rejection sampling on
// 64-bit words; τ is redrawn while τ^{2n} = 1 (the Lagrange formulas divide by τ − ω, ω in the
// 2n-domain for H); γ = 1.
template <class Fr>
secrets_t<Fr> draw_toxic_waste(const setup_options_t& options, uint32_t domain_size);

}  // namespace zk::groth16
