#pragma once
// Filecoin C2: one partition's Groth16 proof over BLS12-381 with a bellperson `.params` file, as
// bellperson 0.27's prover makes it (src/groth16/prover/native.rs create_proof), so that
// Filecoin's verifier accepts it with the file's verifying key (docs/filecoin.md §13).
//
//   h       the assignment's a, b, c (constraints, then bellperson's input constraints, zero up to
//           the domain n = the smallest power of two holding them) are evaluations on the
//           domain of ω = 7^((r−1)/2^log n) (ff's ROOT_OF_UNITY: generator 7, not snarkjs's nqr);
//           each goes to the coset 7·ω^i, p = (a·b − c)/(7^n − 1), back to coefficients from
//           that coset: h's n − 1 coefficients against the file's n − 1 H points.
//   A       Σ inputs·a[0..ℓ) + Σ over the aux variables in the A density (r1cs_shape_t::a_aux)
//   B1, B2  Σ over the inputs and aux variables in the B densities (b_input, b_aux): the
//           generator dropped every other point (they are at infinity), so the file's a, b_g1
//           and b_g2 sections hold exactly the density's points, in variable order
//   L       Σ aux_i·l_i over every aux variable
//   proof   A = α + ΣA + rδ₁, B = β₂ + ΣB2 + sδ₂, C = L + H + s·A + r·(β₁ + ΣB1) (= bellperson's
//           C: −rs·δ₁ cancels the rs·δ₁ of s·A + r·B1), r and s uniform from the OS CSPRNG,
//           multiplied in constant time.
//
// split (issue 24 item 4, SupraSeal C2's split): the PoRep witness is mostly 0 and 1, so the
// MSM plans drop the 0s and add the bases of the 1s; the rest go through Pippenger's windows.
// Off: every scalar goes through the windows (the baseline the split is measured against).
//
// Two levels, so that synthesis and proving can run on different hosts:
//   prove_partition     C1 + prover id + sector + partition → the checked, verified proof;
//   partition_prover_t  the key (the mapped file, or its bases decoded and resident) and
//                       prove(assignment) → proof, for an assignment synthesized anywhere
//                       (zk/filecoin/porep/circuit/circuit.hpp synthesize_partition).
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "zk/bellperson/cs.hpp"
#include "zk/bellperson/groth16/files.hpp"
#include "zk/filecoin/api/c1.hpp"
#include "zk/filecoin/porep/circuit/circuit.hpp"
#include "zk/groth16/prover.hpp"

namespace zk::filecoin {

// The field's multiplicative generator (blstrs Scalar::MULTIPLICATIVE_GENERATOR): ω's generator
// and the coset shift of bellperson's h.
constexpr uint64_t bellperson_generator = 7;

struct prove_options_t {
  bool split = true;  // SupraSeal's 0/1 split of the A, B1, B2 and L MSMs
  // The MSMs on an accelerator (its msm_g1 / msm_g2 hooks, over the compacted scalars; h stays on
  // the CPU: the accelerator's compute_h is snarkjs's odd coset). Null: the CPU.
  const groth16::accelerator_t<bellperson::curve_t>* accelerator = nullptr;
  // Hears compute_h, msm_a, msm_b1, msm_b2, msm_c (bellperson's L), msm_h, assemble.
  groth16::stage_observer_t observe;
  // Fixed randomizers (tests); unset: fresh from the OS CSPRNG for every proof.
  std::optional<fr_t> r, s;
};

// Partition k of a C1 (zk/filecoin/api/c1.hpp: the API's JSON or the lotus/curio wrapper) in one
// call: the circuit of its registered proof, the witness of its vanilla_proofs[k], prove mode.
// Throws std::invalid_argument for a partition the C1 does not have and as witness_from_vanilla
// does.
partition_assignment_t synthesize_partition(const c1_output_t& c1, uint32_t partition,
                                            bool parallel = true);

// Why no proof was made: the reason names the part (the challenge and the check, the constraint
// and its region, the section whose size does not fit, the failed verification).
struct prove_refusal_t {
  std::string reason;
};

struct partition_proof_t {
  bellperson::proof_t proof;
  std::array<uint8_t, bellperson::proof_size> bytes{};  // bellperson's encoding
  // prove_partition's own stages (the prover's are heard by prove_options_t::observe):
  double check_seconds = 0;      // replica_id and the vanilla proofs
  double synthesis_seconds = 0;  // prove-mode synthesis of the partition
  double satisfied_seconds = 0;  // every constraint checked
  uint64_t constraints = 0;      // the circuit's own (input constraints not included)
};

template <class T>
using prove_result_t = std::variant<T, prove_refusal_t>;

// One partition's prover over a .params file for one circuit. The file must outlive it.
class partition_prover_t {
 public:
  // resident: decode every base now and keep them (a prover node's key, counted by bytes());
  // otherwise each section is decoded just before its MSM and freed after it (one-shot CLI:
  // lower peak memory). Throws std::invalid_argument naming the section when the file's sizes do
  // not fit the circuit (another circuit's parameters).
  partition_prover_t(const bellperson::params_file_t& params, const circuit_config_t& config,
                     bool resident = false);

  const circuit_config_t& config() const { return config_; }
  const bellperson::params_file_t& params() const { return params_; }
  unsigned log_domain() const { return log_n_; }
  uint64_t resident_bytes() const;

  // The proof of a prove-mode assignment of this circuit (synthesize_partition). a, b, c are
  // resized to the domain and used as work space (their values are lost). Does not check the
  // assignment: see prove_partition, first_unsatisfied and bellperson::verify_proof.
  bellperson::proof_t prove(partition_assignment_t& assignment,
                            const prove_options_t& opt = {}) const;

 private:
  const bellperson::params_file_t& params_;
  circuit_config_t config_;
  std::shared_ptr<const bellperson::r1cs_shape_t> shape_;  // densities (no matrices)
  unsigned log_n_ = 0;
  struct bases_t;
  std::shared_ptr<const bases_t> resident_;
};

// What prove_partition is given: a C1 (zk/filecoin/api/c1.hpp) and the sector's identity.
struct prove_inputs_t {
  const c1_output_t* c1 = nullptr;
  bytes32_t prover_id{};
  uint64_t sector = 0;
  uint32_t partition = 0;
};

// Partition k of a C1: refused (nothing proved) when the C1's replica_id is not that of the
// prover id, sector, ticket, comm_d and porep_id, when a vanilla proof fails its check (the
// reason names partition, challenge and check), when the synthesized assignment leaves a
// constraint unsatisfied (its number and region), or when the proof does not verify with the
// params' verifying key against the public inputs derived from the C1.
prove_result_t<partition_proof_t> prove_partition(const partition_prover_t& prover,
                                                  const prove_inputs_t& in,
                                                  const prove_options_t& opt = {});

}  // namespace zk::filecoin
