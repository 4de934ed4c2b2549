#pragma once
// The configuration of one SnapDeals update (EmptySectorUpdate) proof: storage-proofs-update
// 19.1.0's constants (src/constants.rs) and PublicParams::from_sector_size (src/vanilla.rs), as
// filecoin-proofs' SectorUpdateConfig::from_porep_config fixes them (h = h_default). Everything
// follows from the sector's node count (sector bytes / 32); the registered update proofs that name
// the sizes live in zk/filecoin/api/registry.hpp (registered_update_proof_t).
//
//   partitions       nodes ≤ 8 KiB → 1; ≤ 32 KiB → 2; ≤ 16 MiB → 4; else 16
//   challenges       per partition: nodes ≤ 16 MiB → 10; else 86
//   hs               nodes ≤ 32 KiB → [1,1,1,1,1,1]; else [7,8,9,10,11,12]
//   h                h_default = hs[3] (1 for the test sizes ≤ 32 KiB, 10 otherwise)
//   h_select         1 << (the FIRST index of h in hs): with hs all ones that is index 0, so
//                    h_select = 1 at 2 KiB, not 1 << 3 = 8 as at the production sizes
//   apex leaves      nodes ≤ 8 KiB → 8; else 128 (per partition)
//   TreeR            LCTree<Poseidon, 8, sub, top> of the sector size (tree_shape_for); TreeD the
//                    binary SHA-256 tree
#include <array>
#include <cstdint>
#include <string>

#include "zk/filecoin/core/merkle.hpp"

namespace zk::filecoin {

struct registered_update_proof_t;  // zk/filecoin/api/registry.hpp

struct update_config_t {
  const registered_update_proof_t* proof = nullptr;
  uint64_t sector_size = 0;      // bytes
  uint64_t nodes = 0;            // sector_size / 32
  uint32_t node_bits = 0;        // log2(nodes): challenge_bit_len
  uint32_t partitions = 0;       // partition_count
  uint32_t partition_bits = 0;   // log2(partitions)
  uint32_t challenges = 0;       // challenge_count, per partition
  uint32_t apex_leaves = 0;      // apex_leaf_count, per partition
  uint32_t apex_leaf_bits = 0;   // log2(apex_leaves)
  std::array<uint32_t, 6> hs{};  // the six h values the circuit selects among
  uint32_t h = 0;                // h_default
  uint32_t h_select = 0;         // 1 << (first index of h in hs)
  tree_shape_t shape;            // TreeR's

  // PublicParams::identifier(): "empty_sector_update::PublicParams{ sector_nodes: N }".
  std::string identifier() const;
  // The parameter cache id (CacheableParameters::cache_identifier): "empty-sector-update-"
  // + TreeR's display name ("merkletree-poseidon_hasher-8-{sub}-{top}") + "-" + the hex SHA-256
  // of identifier(); the files are v28-<id>.params / .vk / .meta.
  std::string parameter_id() const;
  // The proof bytes: one 192-byte Groth16 proof a partition.
  uint64_t proof_bytes() const { return uint64_t(partitions) * 192; }
};

// The configuration of a sector of `sector_size` bytes; std::invalid_argument when the update
// does not define that size (constants.rs ALLOWED_SECTOR_SIZES: 1, 2, 4, 8, 16, 32 KiB, 8, 16,
// 512 MiB, 32, 64 GiB).
update_config_t update_config_for_size(uint64_t sector_size);

// h_select for a node count and h (constants.rs h_select); std::invalid_argument when h is not
// one of hs(nodes).
uint32_t update_h_select(uint64_t nodes, uint32_t h);

}  // namespace zk::filecoin
