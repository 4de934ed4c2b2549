#pragma once
// A bellperson .params file as a key of the one Groth16 prover (zk/groth16/prover.hpp): its bases
// decoded once from the file's ZCash encoding (canonical big-endian coordinates) into the prover's
// Montgomery affine points, the file's pages released section by section as they are decoded (the
// key is held once: decoded, not also mapped), with what bellperson's prover knows of the circuit
// (src/groth16/prover/native.rs create_proof; docs/filecoin.md §13):
//
//   h       n − 1 points [τ^i·Z(τ)/δ]₁ against the coefficients of the quotient on bellperson's
//           coset: the domain of ω = g^((r−1)/2^log n) and the shift g, g = 7 (ff / blstrs's
//           MULTIPLICATIVE_GENERATOR; not snarkjs's nqr 5)
//   l       one point per aux variable: groth16's C query, from the first aux variable on
//   a       the inputs, then the aux variables in the A density (r1cs_shape_t::a_aux)
//   b_g1/g2 the inputs in b_input, then the aux variables in b_aux
//
// The generator drops the a, b_g1 and b_g2 points at infinity, which are exactly the variables
// outside the densities; the key's msm::density_t over the whole witness (inputs ‖ aux) lets the
// MSMs pair witness position i with base rank(i) without compacting any scalar.
#include <cstdint>
#include <vector>

#include "zk/bellperson/cs.hpp"
#include "zk/bellperson/groth16/files.hpp"
#include "zk/groth16/keys.hpp"

namespace zk::bellperson {

class params_key_t {
 public:
  // Checks every section's size against the circuit (its counts and densities: the file must be
  // for this circuit; std::invalid_argument naming the file and the section otherwise), then
  // decodes every point (in parallel; an unchecked file's points are checked for their encoding
  // only, see params_file_t) and drops each section's pages from the resident set once decoded.
  params_key_t(const params_file_t& file, const r1cs_shape_t& shape);
  params_key_t(const params_key_t&) = delete;
  params_key_t& operator=(const params_key_t&) = delete;

  // Points into this object: valid while it lives.
  const groth16::proving_key_t<curve_t>& view() const { return pk_; }
  const groth16::verifying_key_t<curve_t>& verifying_key() const { return vk_; }
  // The decoded bases and densities held (what a prover node's budget accounts).
  uint64_t bytes() const;
  // The same without decoding anything (a node's budget check before it loads the key): for the
  // file, whose sizes must be the circuit's, or for the circuit alone (the sizes its file has).
  static uint64_t bytes_for(const params_file_t& file, const r1cs_shape_t& shape);
  static uint64_t bytes_for(const r1cs_shape_t& shape);

 private:
  std::vector<g1_affine_t> h_, l_, a_, b_g1_;
  std::vector<g2_affine_t> b_g2_;
  msm::density_t a_density_, b_density_;  // over the witness: inputs ‖ aux
  groth16::proving_key_t<curve_t> pk_;
  groth16::verifying_key_t<curve_t> vk_;
};

}  // namespace zk::bellperson
