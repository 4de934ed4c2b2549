#pragma once
// Making a SnapDeals update: the encoding of new data into a sealed sector's key and the vanilla
// partition proofs of it, as storage-proofs-update 19.1.0 src/vanilla.rs EmptySectorUpdate::
// encode_into and prove_inner make them (filecoin-proofs api/update.rs encode_into and
// generate_partition_proofs; docs/filecoin.md "SnapDeals"):
//
//   TreeD_new       the binary SHA-256 tree over the new data (fr32-padded nodes) → comm_d_new
//   TreeR_old       the sector's TreeR over the sector key (the old replica); its root is the
//                   seal's comm_r_last, and comm_r_old = Poseidon2(comm_c, root)
//   phi             H_rand(comm_d_new, comm_r_old); rho(high) = H_rand(phi, high) for the 2^h highs
//   new replica     new[i] = key[i] + data[i] · rho(high(i)) in Fr, high(i) the top h bits of i
//   TreeR_new       TreeR over the new replica → comm_r_last_new; comm_r_new =
//                   Poseidon2(comm_c, comm_r_last_new) (comm_c is the seal's, unchanged)
//   partition k     comm_c; apex_leafs = TreeD_new's row at height node_bits − partition_bits −
//                   apex_leaf_bits, nodes [k·apex_leaves, (k+1)·apex_leaves); for each of the
//                   partition's challenges (update_challenges from comm_r_new) the full openings
//                   proof_r_old (TreeR_old), proof_d_new (TreeD_new), proof_r_new (TreeR_new)
//
// Every node is a 32-byte little-endian field element; bytes_into_fr refuses one ≥ r, and so do
// these functions (std::invalid_argument naming the input and the node). The trees are the seal's
// (zk/filecoin/core/merkle.hpp), without their lowest levels: a path's leaves are recomputed from
// the key, the data and the new replica, so each opening is a full path as Rust's
// gen_cached_proof gives it.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "zk/filecoin/core/merkle.hpp"
#include "zk/filecoin/update/config.hpp"
#include "zk/filecoin/update/vanilla_proof.hpp"

namespace zk::filecoin {

struct update_encode_timings_t {
  double tree_r_old = 0, tree_d = 0, encode = 0, tree_r_new = 0, proofs = 0, total = 0;
};

struct update_encoding_t {
  domain_t comm_c{};                             // the seal's, unchanged
  domain_t comm_r_last_old{};                    // TreeR_old's root (the seal's comm_r_last)
  domain_t comm_r_old{};                         // Poseidon2(comm_c, comm_r_last_old)
  domain_t comm_d_new{};                         // TreeD_new's root
  domain_t comm_r_last_new{};                    // TreeR_new's root
  domain_t comm_r_new{};                         // Poseidon2(comm_c, comm_r_last_new)
  std::vector<bytes32_t> replica;                // the new replica, c.nodes nodes
  std::vector<update_partition_proof_t> proofs;  // c.partitions of them, partition 0 first
  update_encode_timings_t seconds;
};

// Encodes `data` (the new data, fr32-padded: c.nodes nodes) into `sector_key` (the sealed
// sector's replica: c.nodes nodes) of a sector sealed with `comm_c`, and proves every partition.
// Throws std::invalid_argument for a wrong node count (naming the input, both counts) or a value
// that is not a field element ("sector key node 5 …", "data node 17 …", "comm_c …"), and, when
// the seal's comm_r_last is given, for a sector key whose TreeR root is another (before the
// encoding starts). `progress`, when given, is told each stage as it starts.
update_encoding_t encode_update(const update_config_t& c, const domain_t& comm_c,
                                const std::vector<bytes32_t>& sector_key,
                                const std::vector<bytes32_t>& data,
                                const std::function<void(const std::string&)>& progress = {},
                                const std::optional<domain_t>& comm_r_last_old = std::nullopt);

}  // namespace zk::filecoin
