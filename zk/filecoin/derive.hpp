#pragma once
// What a sector's identity and the chain's randomness fix: replica_id, the challenged nodes of
// each partition, their parents, and the public inputs of the circuit (docs/filecoin.md §2).
//
//   replica_id     storage-proofs-porep stacked/vanilla/params.rs generate_replica_id:
//                  sha256(prover_id ‖ sector u64 BE ‖ ticket ‖ comm_d ‖ porep_id), the top two
//                  bits of byte 31 cleared (fr32 bytes_into_fr_repr_safe)
//   challenges     stacked/vanilla/challenges.rs, each a 256-bit little-endian number reduced
//                  mod (nodes − 1), plus 1 (node 0 is never challenged); challenge i of
//                  partition k has the global index j = per_partition·k + i:
//     interactive      sha256(replica_id ‖ seed ‖ j u32 LE)
//     non-interactive  sha256("filecoin.io|PoRep|1|NonInteractive|1" ‖ replica_id ‖ comm_r ‖
//                      j u32 LE)
//     synthetic        min(nodes, 2^18) synthetic challenges, number i = 32 bytes of ChaCha20 at
//                      byte 32·i, key BLAKE2b-256 keyed "filecoin.io|PoRep|1|Synthetic|1|
//                      Generation" of replica_id ‖ comm_r; challenge j is synthetic challenge
//                      (u32 LE at byte 4·j of ChaCha20 keyed BLAKE2b-256 keyed "…|Selection" of
//                      replica_id ‖ seed) mod their count; both with nonce "synth-porep\0"
//   public inputs  stacked/circuit/proof.rs StackedCompound::generate_public_inputs:
//                  replica_id, comm_d, comm_r, then per challenge c: c (comm_d leaf index), its
//                  6 DRG parents, its 8 expander parents, c (the label), c (comm_r_last leaf),
//                  c (comm_c leaf) — each node index one field element (gadgets/por.rs
//                  generate_public_inputs packs the auth path's bits into one Fr, which is the
//                  index itself)
#include <optional>
#include <vector>

#include "zk/ff/bls12_381.hpp"
#include "zk/filecoin/graph.hpp"
#include "zk/filecoin/registry.hpp"

namespace zk::filecoin {

using fr_t = zk::bls12_381::fr_t;

// The 32 bytes (little-endian) as a field element; nullopt when the value is ≥ r.
std::optional<fr_t> fr_from_bytes(const uint8_t* le32);
inline std::optional<fr_t> fr_from_bytes(const bytes32_t& b) { return fr_from_bytes(b.data()); }
bytes32_t fr_to_bytes(const fr_t& x);

// The identity of one sealed sector and the randomness of its commitment.
struct sector_ids_t {
  bytes32_t prover_id{};
  uint64_t sector = 0;
  bytes32_t ticket{};
  bytes32_t seed{};  // the interactive seed (unused by non-interactive PoRep)
  bytes32_t comm_d{};
  bytes32_t comm_r{};
};

bytes32_t replica_id(const bytes32_t& prover_id, uint64_t sector, const bytes32_t& ticket,
                     const bytes32_t& comm_d, const bytes32_t& porep_id);

// The challenged nodes of partition k (k < c.partitions; std::out_of_range otherwise).
std::vector<uint64_t> porep_challenges(const porep_config_t& c, const bytes32_t& replica_id,
                                       const bytes32_t& seed, const bytes32_t& comm_r, uint32_t k);

// The whole synthetic challenge set (SynthChallenges::derive_synthetic, what SyntheticPoRep's
// pre-commit proves): min(nodes, 2^18) nodes.
std::vector<uint64_t> synthetic_challenge_set(uint64_t nodes, const bytes32_t& replica_id,
                                              const bytes32_t& comm_r);

// One challenged node with its parents.
struct challenge_t {
  uint64_t node = 0;
  uint32_t drg[drg_degree] = {};
  uint32_t exp[exp_degree] = {};
};

// Everything partition k's circuit is given in public.
struct partition_inputs_t {
  uint32_t k = 0;
  std::vector<challenge_t> challenges;
  std::vector<fr_t> inputs;  // public_inputs_per_partition() of them, ONE excluded
};

// Checks comm_d and comm_r are field elements (std::invalid_argument naming which otherwise,
// as filecoin-proofs' as_safe_commitment) and derives partition k's inputs.
partition_inputs_t partition_inputs(const porep_config_t& c, const graph_t& g,
                                    const sector_ids_t& s, uint32_t k);

// Each node index of the inputs, in circuit order (the per-challenge part of the layout above).
void append_challenge_inputs(const challenge_t& ch, std::vector<fr_t>& out);

}  // namespace zk::filecoin
