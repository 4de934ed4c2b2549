#pragma once
// A sparse seal: the C1 of a sector that was never sealed — TEST DATA, no replica exists — made
// in seconds at any sector size (32 and 64 GiB included) for testing C2 at real size
// (docs/filecoin.md §15, "Sparse C1s"). Filecoin's vanilla check (StackedDrg::
// verify_all_partitions, storage-proofs-porep 19.1.0) accepts it, and so does the circuit, since
// everything a C1 opens is consistent:
//
//   piece    the reference's random piece (seal.hpp random_piece) of min(sector, 8 MiB), fr32-
//            padded, repeated to the sector's size: tree_d is a real tree over it (periodic_sha256_
//            tree_t, merkle.hpp), so comm_d exists before anything else — it must: replica_id
//            hashes it, and the challenges are drawn from replica_id (stacked/vanilla/params.rs
//            generate_replica_id, challenges.rs); up to 8 MiB this is the whole sector's data,
//            the same comm_d and replica_id as `seal --random N`
//   labels   the challenged nodes' labels in every layer computed as SDR computes them from
//            their 14 parents (create_label/single.rs); every other label — the parents' when
//            they are not challenged themselves — one pseudo-random value per (layer, node)
//   trees    tree_c over the columns the C1 opens (the challenged nodes and their parents) and
//            tree_r_last over the challenged nodes' replica values (label + data, encode.rs):
//            only the nodes on those paths computed, every sibling off them pseudo-random per
//            (tree, level, index) (sparse_poseidon_tree_t), so the roots comm_c and comm_r_last
//            follow, and comm_r = Poseidon2(comm_c, comm_r_last)
//   proofs   one vanilla proof per challenge (proof.hpp make_vanilla_proof, as the full sealer)
//
// Pseudo-random values are trim(SHA-256(key ‖ kind u32 LE ‖ a u32 LE ‖ b u64 LE)) with key =
// SHA-256("zkfleet sparse seal v1" ‖ the --random seed u64 LE): kind 1 a label (layer, node),
// 2 a tree_c node (level, index), 3 a tree_r_last node (level, index); 254 bits, so each is a
// field element. No table is kept: the same (kind, a, b) gives the same value wherever two paths
// meet. Memory and time grow with the challenges (and the 8 MiB block), never with the sector.
//
// Only interactive PoRep: synthetic and non-interactive challenges are drawn from comm_r, which the
// opened paths themselves determine (std::invalid_argument names the proof).
#include <cstdint>
#include <string>
#include <vector>

#include "zk/filecoin/api/c1.hpp"
#include "zk/filecoin/api/registry.hpp"
#include "zk/filecoin/porep/vanilla/proof.hpp"

namespace zk::filecoin {

struct sparse_seal_request_t {
  porep_config_t config;
  bytes32_t prover_id{};
  uint64_t sector = 0;
  bytes32_t ticket{};
  bytes32_t seed{};
  uint64_t random = 0;  // the piece and every pseudo-random value
};

struct sparse_seal_result_t {
  bytes32_t comm_d{}, comm_c{}, comm_r_last{}, comm_r{}, replica_id{};
  std::vector<std::vector<uint64_t>> challenges;  // per partition
  vanilla_partitions_t vanilla_proofs;
  uint64_t block_nodes = 0;       // the repeated block of padded data (32 bytes a node)
  uint64_t challenged_nodes = 0;  // distinct, over all partitions
  uint64_t labels_computed = 0;   // by SDR, (layer, node) pairs
  uint64_t columns = 0;           // distinct columns opened (challenged nodes and their parents)
  uint64_t tree_c_nodes = 0, tree_r_last_nodes = 0;  // computed nodes of each tree
  struct seconds_t {
    double data_and_tree_d = 0, labels = 0, tree_c = 0, tree_r_last = 0, proofs = 0, total = 0;
  } seconds;
};

// The padded data block's size in nodes: min(nodes, 2^18) (8 MiB).
uint64_t sparse_block_nodes(uint64_t nodes);

sparse_seal_result_t sparse_seal_sector(const sparse_seal_request_t& req);

// The C1 output of a sparse seal (as c1_of of a full seal: seal.hpp).
c1_output_t c1_of(const sparse_seal_request_t& req, const sparse_seal_result_t& r);

}  // namespace zk::filecoin
