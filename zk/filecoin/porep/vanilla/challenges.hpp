#pragma once
// What a sector's identity and the chain's randomness fix: replica_id and the challenged nodes of
// each partition (docs/filecoin.md §2); their public inputs: porep/circuit/public_inputs.hpp.
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
#include <optional>
#include <vector>

#include "zk/base/bytes.hpp"
#include "zk/filecoin/core/fr32.hpp"
#include "zk/filecoin/porep/config.hpp"

namespace zk::filecoin {

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

}  // namespace zk::filecoin
