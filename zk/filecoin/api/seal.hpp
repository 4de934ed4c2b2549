#pragma once
// Sealing a sector, PC1 + PC2 + C1 of filecoin-proofs 19.1.0 (api/seal.rs seal_pre_commit_phase1,
// seal_pre_commit_phase2, seal_commit_phase1; storage-proofs-porep stacked/vanilla/proof.rs
// replicate_phase1/2 and prove_layers_generate), in memory:
//
//   piece (sector_size·127/128 bytes) ─fr32─▶ padded sector ─SHA-256 tree─▶ comm_d
//   replica_id = sha256(prover_id ‖ sector BE ‖ ticket ‖ comm_d ‖ porep_id), 254 bits
//   SDR labels, layer by layer (labels.hpp)
//   tree_c: leaves Poseidon_layers(column of each node), shape of the sector → comm_c
//   replica[i] = last layer's label[i] + data[i] (field addition, encode.rs encode)
//   tree_r_last: Poseidon tree over the replica → comm_r_last
//   comm_r = Poseidon2(comm_c, comm_r_last)
//   challenges of each partition from the seed (derive.hpp) and one vanilla proof per challenge
//
// Memory (nodes = sector size / 32): the padded sector and every layer's labels (32 bytes a node
// each), the parent table while labeling (56 bytes a node), and the trees without their leaves
// (tree_d keeps its levels from 4 up, 1/16 of the sector; tree_c and tree_r_last their levels from
// 1 up, 1/7 each): a path's leaves are recomputed from the data and the layers. With 2 layers the
// peak is about 4.8 × the sector size, while labeling (bench/README.md has the measured peak).
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "zk/filecoin/api/c1.hpp"
#include "zk/filecoin/api/registry.hpp"
#include "zk/filecoin/porep/vanilla/proof.hpp"

namespace zk::filecoin {

struct seal_request_t {
  porep_config_t config;
  bytes32_t prover_id{};
  uint64_t sector = 0;
  bytes32_t ticket{};
  bytes32_t seed{};
  std::vector<uint8_t> piece;  // exactly fr32_unpadded_size(sector_size) bytes
  bool keep_layers = false;    // keep every layer's labels in the result
  bool keep_replica = false;   // keep the replica in the result
  std::string parent_cache;    // a folder for the parent table (parent_table_t::cached), or ""
};

struct seal_timings_t {
  double pad_and_tree_d = 0, parents = 0, labels = 0, tree_c = 0, tree_r_last = 0, proofs = 0,
         total = 0;
};

struct seal_result_t {
  bytes32_t comm_d{}, comm_c{}, comm_r_last{}, comm_r{}, replica_id{};
  std::vector<std::vector<uint64_t>> challenges;  // per partition
  vanilla_partitions_t vanilla_proofs;
  std::vector<std::vector<bytes32_t>> layers;  // when keep_layers: layers[L − 1]
  std::vector<bytes32_t> replica;              // when keep_replica
  seal_timings_t seconds;
  size_t parent_table_bytes = 0;
  bool parent_table_loaded = false;  // read from parent_cache rather than computed
  size_t tree_bytes = 0;             // the levels the three trees keep
};

// Seals the piece. Throws std::invalid_argument for a piece of the wrong size (naming both
// sizes). `progress`, when given, is told each stage as it starts.
// The C1 output of a sealed sector, as seal_commit_phase1 returns it: the registered proof, the
// commitments, replica_id, the chain's ticket and seed, and the vanilla proofs.
c1_output_t c1_of(const seal_request_t& req, const seal_result_t& r);

seal_result_t seal_sector(const seal_request_t& req,
                          const std::function<void(const std::string&)>& progress = {});
// The same, taking the piece out of the request and freeing it once it is padded (a sector's
// worth of memory less at the peak); the request's other fields are left as they were.
seal_result_t seal_sector(seal_request_t&& req,
                          const std::function<void(const std::string&)>& progress = {});

// The piece the Rust reference's `seal --random SEED` seals (tests/filecoin-ref src/cmd_seal.rs
// random_piece): SHA-256(seed u64 LE ‖ i u64 LE) for i = 0, 1, …, concatenated, cut to len bytes.
std::vector<uint8_t> random_piece(uint64_t seed, size_t len);

}  // namespace zk::filecoin
