#pragma once
// The update's randomness and its vanilla verifier (storage-proofs-update 19.1.0 src/vanilla.rs
// phi, rho, EmptySectorUpdate::verify, verify_all_partitions; src/challenges.rs Challenges;
// docs/filecoin.md "SnapDeals").
//
// Randomness is neptune's arity-2 Poseidon with the domain tag of HashType::Custom(Arbitrary(1)),
// 1 · 2^40, in place of the Merkle tree's 2^2 − 1 = 3 (the round constants and matrices are the
// arity-2 ones; no padding):
//   phi               = H_rand(comm_d_new, comm_r_old)
//   rho(phi, high)    = H_rand(phi, high), high = the top h bits of a node index
//   digest j of k     = H_rand(comm_r_new, k · digests_per_partition + j); its 255 little-endian
//                       bits cut into (node_bits − partition_bits)-bit chunks, each read
//                       little-endian with k on top: the partition's challenges, in order
// comm_r = the ordinary Poseidon-2 (tag 3) of comm_c and TreeR's root, before and after.
#include <cstdint>
#include <string>
#include <vector>

#include "zk/base/result.hpp"
#include "zk/filecoin/core/fr32.hpp"
#include "zk/filecoin/update/public_inputs.hpp"
#include "zk/filecoin/update/vanilla_proof.hpp"
#include "zk/neptune/poseidon.hpp"

namespace zk::filecoin {

// The arity-2 constants with the domain tag 2^40 (POSEIDON_CONSTANTS_GEN_RANDOMNESS). Hash with
// neptune::poseidon_hash only: the vectorised paths cache their constants by arity.
const neptune::poseidon_constants_t& update_randomness_constants();

fr_t update_phi(const fr_t& comm_d_new, const fr_t& comm_r_old);
fr_t update_rho(const fr_t& phi, uint64_t high);
// The node index's top h bits: c >> (node_bits − h).
uint64_t update_challenge_high(const update_config_t& c, uint64_t node);
// Partition k's challenges (challenge_count of them); std::invalid_argument when k ≥ partitions.
std::vector<uint64_t> update_challenges(const update_config_t& c, const fr_t& comm_r_new,
                                        uint32_t k);

// EmptySectorUpdate::verify for partition k: passes, or refuses with the first check that fails,
// naming the challenge, its node and the check (the Rust verifier returns false, or errs / panics
// on a value that is not a field element: all refusals here).
check_t verify_update_partition(const update_config_t& c, uint32_t k,
                                const update_commitments_t& comms,
                                const update_partition_proof_t& proof);
// verify_all_partitions: exactly c.partitions proofs, partition 0 first; the first failure is
// named "partition k: …".
check_t verify_update_partitions(const update_config_t& c, const update_commitments_t& comms,
                                 const std::vector<update_partition_proof_t>& proofs);

}  // namespace zk::filecoin
