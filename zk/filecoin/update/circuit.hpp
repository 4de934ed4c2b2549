#pragma once
// The SnapDeals update's circuit (storage-proofs-update 19.1.0 src/circuit.rs
// EmptySectorUpdateCircuit::synthesize, src/gadgets.rs), synthesized variable for variable and
// constraint for constraint as bellperson does, in the three modes of zk/bellperson/cs.hpp.
// docs/filecoin.md "The update's circuit" describes the layout.
//
// One partition's circuit, after ONE (Input 0):
//   k_and_h_select   allocated, made public (input 1); its low partition_bits + 6 bits allocated,
//                    (Σ 2^i·b_i)·1 = k_and_h_select; the partition bits packed into `partition`
//   comm_r_old, comm_d_new, comm_r_new   allocated, made public (inputs 2, 3, 4)
//   phi              H_rand(comm_d_new, comm_r_old) (Poseidon-2, domain tag 2^40)
//   comm_c, root_r_old, root_r_new, the apex leaves, the partition path: allocated
//   comm_r_old = H(comm_c, root_r_old), comm_r_new = H(comm_c, root_r_new) (Poseidon-2, tag 3)
//   the apex tree over the apex leaves (SHA-256), its root in tree D at the partition's place
//   the challenges' random bits: digests H_rand(comm_r_new, k·digests + j), 255 bits each
//   per challenge (identical structure, so each occupies a fixed range of aux variables and
//   constraints — challenges synthesize in parallel, see synthesize_update_partition):
//     its bits = its random bits then the partition bits; rho = H_rand(phi, the top h bits)
//     leaf_r_old, leaf_d_new; leaf_r_new = leaf_r_old + leaf_d_new·rho
//     leaf_r_old in tree R old, leaf_r_new in tree R new (Poseidon, the sector's shape)
//     the apex leaf the challenge's bits select; leaf_d_new under it in tree D (SHA-256)
// No challenge adds a public input: the circuit has exactly 4 (+ ONE).
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "zk/base/stop.hpp"
#include "zk/bellperson/cs.hpp"
#include "zk/filecoin/core/circuit_parts.hpp"
#include "zk/filecoin/update/gadgets.hpp"
#include "zk/filecoin/update/public_inputs.hpp"
#include "zk/filecoin/update/vanilla_proof.hpp"

namespace zk::filecoin {

// ---- the witness: one partition's vanilla proof ---------------------------------------------

// One challenge's openings as the circuit reads them (circuit.rs ChallengeProof::
// from_merkle_proofs): the leaves and the siblings, leaf level first; the openings' index fields
// are not used (the circuit takes the challenge's bits).
struct update_challenge_witness_t {
  fr_t leaf_r_old, leaf_d_new, leaf_r_new;
  std::vector<std::vector<fr_t>> path_r_old, path_r_new;  // per level: arity − 1 siblings
  std::vector<fr_t> path_d_new;                           // node_bits siblings
};

struct update_partition_witness_t {
  uint32_t k = 0;
  uint64_t k_and_h_select = 0;
  fr_t comm_r_old, comm_d_new, comm_r_new;
  fr_t comm_c, root_r_old, root_r_new;  // root_*: challenge 0's openings' roots
  std::vector<fr_t> apex_leafs;
  std::vector<update_challenge_witness_t> challenges;
};

// The circuit's witness for partition k (EmptySectorUpdateCompound::circuit with Some(k)): the
// public inputs from the commitments, the rest from the partition's proof (decoded by
// vanilla_proof.hpp, which checked its structure). Throws std::invalid_argument naming the field
// (and the challenge) whose value is not a canonical field element, or for k ≥ partitions.
update_partition_witness_t update_witness_from_vanilla(const update_config_t& c, uint32_t k,
                                                       const update_commitments_t& comms,
                                                       const update_partition_proof_t& proof);

// A witness of the right structure for partition 0 with every other value zero (what a blank
// circuit synthesizes).
update_partition_witness_t update_blank_witness(const update_config_t& c);

// What the Rust circuit asserts before it allocates anything (circuit.rs synthesize), as
// std::invalid_argument naming the field: the counts of apex leaves, challenges, levels and
// siblings; k < partitions; k_and_h_select = k | h_select << partition_bits with exactly one
// h-select bit; every challenge's tree-D path ending in the same partition path.
void check_update_witness(const update_config_t& c, const update_partition_witness_t& w);

// ---- synthesis -------------------------------------------------------------------------------

// The values every challenge shares, allocated before the challenges.
struct update_circuit_shared_t {
  std::vector<bit_t> partition_bits;  // little-endian
  std::vector<bit_t> h_select_bits;   // 6
  num_t phi, root_r_old, root_r_new;
  std::vector<num_t> apex_leafs;
  std::vector<std::vector<bit_t>> random_bits;  // per challenge, little-endian
};

// `parallel` (prove mode): the apex tree's hashes of a row on the compute pool, each at its known
// place (at 8 MiB the apex tree is 58 % of the circuit, at 32 GiB 97 % of the shared part).
template <class CS>
update_circuit_shared_t synthesize_update_prefix(CS& cs, const update_config_t& c,
                                                 const update_partition_witness_t& w,
                                                 bool parallel = false);
// Challenge j (the loop body of circuit.rs synthesize). In prove mode, throws
// std::invalid_argument when the computed leaf_r_new is not the witness's (Rust's assert_eq).
template <class CS>
void synthesize_update_challenge(CS& cs, const update_config_t& c,
                                 const update_challenge_witness_t& p,
                                 const update_circuit_shared_t& s, uint32_t j);
// The whole circuit (ONE must already be allocated, as every CS of cs.hpp but prove_cs_t does
// in its constructor).
template <class CS>
void synthesize_update_circuit(CS& cs, const update_config_t& c,
                               const update_partition_witness_t& w);

// Where each part of the circuit sits (count mode over a blank witness; cached per sector size).
const circuit_layout_t& update_circuit_layout(const update_config_t& c);

// The R1CS of the circuit: counts, densities, digest, regions and (with matrices) A, B, C.
// Synthesized once per sector size and kept for the process (thread-safe): the shared part and
// one challenge, the other challenges as relocated copies in which challenge 0's random bits are
// replaced by each challenge's own (its constraints read its own bits of the shared digests;
// shape_cs_t::repeat_part with `shared`; the same R1CS as synthesize_update_circuit into a
// shape_cs_t, tested).
std::shared_ptr<const bellperson::r1cs_shape_t> update_circuit_shape(const update_config_t& c,
                                                                     bool matrices = true);
// The same, synthesized now and not kept.
bellperson::r1cs_shape_t synthesize_update_shape(const update_config_t& c, bool matrices);

// Prove-mode synthesis of one partition into caller-owned arrays sized by
// update_circuit_layout(c).total (a, b, c: total.constraints + total.inputs each): the shared
// part first, then the challenges in parallel on the compute pool (`parallel` false: one after
// another, same result), then the input constraints. Checks the witness first
// (check_update_witness). `stop` is polled before the shared part and before each challenge: once
// it answers true the challenges not yet begun are skipped and zk::cancelled_error is thrown.
void synthesize_update_partition(const update_config_t& c, const update_partition_witness_t& w,
                                 const bellperson::assignment_view_t& out, bool parallel = true,
                                 const stop_t& stop = {});
partition_assignment_t synthesize_update_partition(const update_config_t& c,
                                                   const update_partition_witness_t& w,
                                                   bool parallel = true);

// The first constraint with a_i·b_i ≠ c_i, named by the circuit's regions ("challenge 3: tree
// R new"), or nullopt.
std::optional<unsatisfied_t> first_unsatisfied_update(const update_config_t& c,
                                                      const bellperson::assignment_view_t& v);

}  // namespace zk::filecoin
