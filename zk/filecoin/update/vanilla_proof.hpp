#pragma once
// The SnapDeals update's vanilla partition proofs in the bytes filecoin-ffi and Curio carry
// (docs/filecoin.md "SnapDeals"): storage-proofs-update 19.1.0 src/vanilla.rs PartitionProof,
// serialised by filecoin-proofs-api's update::generate_partition_proofs with bincode 1.3.3's
// default options (little-endian, fixed-width integers, u64 lengths). One partition:
//
//   comm_c                  32 bytes (PoseidonDomain: a field element, little-endian)
//   apex_leafs              u64 count, then count × 32 bytes (Sha256Domain)
//   challenge_proofs        u64 count, then per challenge proof_r_old, proof_d_new, proof_r_new
//   MerkleProof             u32 variant: 0 Single {root, leaf, path}
//                                        1 Sub {base_path, sub_path, root, leaf}
//                                        2 Top {base_path, sub_path, top_path, root, leaf}
//   path (InclusionPath)    u64 count of elements, leaf level first; each element a u64 count of
//                           hashes, the hashes (32 bytes each), its index as u64
//
// proof_r_old / proof_r_new open TreeR (Poseidon, the sector's shape: Single, Sub or Top),
// proof_d_new TreeD (binary SHA-256, always Single).
//
// The reader takes nothing on trust: every count is compared with the one the update's
// configuration fixes (apex leaves, challenges, levels, arity − 1 siblings, the variant of the
// shape) before anything is allocated, every index must be below its arity, and the bytes must end
// exactly after the structure; a refusal is a zk::format_error naming the file, the partition, the
// field (e.g. challenge_proofs[3].proof_d_new.path[2].hashes) and the byte offset. bincode itself
// is laxer (any counts, trailing bytes ignored); every structure it would accept that this refuses
// makes filecoin-proofs' vanilla verifier fail or panic, except trailing bytes, which
// filecoin-ffi never writes (a deliberate refusal).
//
// Curio keeps a sector's proofs in UpdateCache/snap-vproof.json: Go's json.Marshal of [][]byte,
// a JSON list of standard padded base64 strings, one a partition, partition 0 first.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "zk/filecoin/core/merkle.hpp"
#include "zk/filecoin/update/config.hpp"

namespace zk::filecoin {

struct update_challenge_proof_t {
  merkle_proof_t proof_r_old;  // TreeR of the sector key (the old replica)
  merkle_proof_t proof_d_new;  // TreeD of the new data
  merkle_proof_t proof_r_new;  // TreeR of the new replica
};

struct update_partition_proof_t {
  domain_t comm_c{};
  std::vector<domain_t> apex_leafs;                        // apex_leaves of them
  std::vector<update_challenge_proof_t> challenge_proofs;  // challenges of them
};

// The expected shapes of the three openings.
merkle_shape_t update_tree_r_shape(const update_config_t& c);
merkle_shape_t update_tree_d_shape(const update_config_t& c);

// The bytes of one partition's proof for the configuration (15,064 at 2 KiB, 43,864 at 8 MiB).
uint64_t update_partition_proof_size(const update_config_t& c);

// One partition's bytes, as described above; format_error "<file>: partition <k>: <field>
// (offset 0x…): <why>".
update_partition_proof_t decode_update_partition_proof(const uint8_t* data, uint64_t n,
                                                       const update_config_t& c,
                                                       std::string_view file, uint32_t partition);
// bincode::serialize of the proof (no checks: it writes what it is given).
std::vector<uint8_t> encode_update_partition_proof(const update_partition_proof_t& p);

// snap-vproof.json: the list of byte strings (format_error naming the file and the element when
// the text is not a JSON list of standard padded base64 strings).
std::vector<std::vector<uint8_t>> parse_snap_vproof_json(std::string_view text,
                                                         std::string_view file);
std::string snap_vproof_json(const std::vector<std::vector<uint8_t>>& partitions);

// A file of a sector's partition proofs: snap-vproof.json (text starting with '[') or the
// partitions' raw bytes concatenated, partition 0 first. Exactly c.partitions of them
// (format_error otherwise), each decoded.
std::vector<update_partition_proof_t> read_update_vanilla_file(const std::string& path,
                                                               const update_config_t& c);

}  // namespace zk::filecoin
