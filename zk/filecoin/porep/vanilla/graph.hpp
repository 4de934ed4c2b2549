#pragma once
// The SDR graph of Filecoin's stacked DRG PoRep (StackedBucketGraph): for every node, 6 parents
// of the bucket-sampled depth-robust graph in the same layer and 8 expander parents in the
// layer below. Every function here names its source (storage-proofs-core 19.1.0,
// storage-proofs-porep 19.1.0):
//
//   drg_seed      drgraph.rs derive_drg_seed: sha256("Filecoin_DRSample" ‖ porep_id)[0..28]
//   drg_parents   drgraph.rs BucketGraph::parents: per node a ChaCha8Rng seeded with
//                 drg_seed ‖ node u32 LE; five parents at sampled distances in the "metagraph"
//                 of node·5 nodes, mapped back by /5, and the immediate predecessor node−1 —
//                 first in V1_1_0 and V1_2_0, last in V1_0_0; nodes 0 and 1 have six 0s
//   feistel_keys  stacked/vanilla/graph.rs derive_feistel_keys: sha256("Filecoin_Feistel" ‖
//                 porep_id) as four u64 LE
//   exp_parents   stacked/vanilla/graph.rs correspondent: parent i of node = the Feistel
//                 permutation (crypto/feistel.rs: 3 rounds, BLAKE2b-512 round function, cycle
//                 walking) of node·8 + i over [0, nodes·8), divided by 8 — in V1_0_0 after a
//                 truncation to u32 (which changes 64 GiB graphs)
#include <array>
#include <cstdint>

#include "zk/filecoin/porep/config.hpp"

namespace zk::filecoin {

constexpr unsigned drg_degree = 6;  // drgraph.rs BASE_DEGREE
constexpr unsigned exp_degree = 8;  // stacked/vanilla/graph.rs EXP_DEGREE
constexpr unsigned graph_degree = drg_degree + exp_degree;

class graph_t {
 public:
  // nodes in [2, 2^32); std::invalid_argument otherwise.
  graph_t(uint64_t nodes, const bytes32_t& porep_id, api_version_t api_version);
  explicit graph_t(const porep_config_t& c) : graph_t(c.nodes, c.porep_id, c.api_version) {}

  uint64_t nodes() const { return nodes_; }
  api_version_t api_version() const { return api_version_; }
  const std::array<uint8_t, 28>& drg_seed() const { return drg_seed_; }
  const std::array<uint64_t, 4>& feistel_keys() const { return feistel_keys_; }

  // node < nodes(); std::out_of_range otherwise.
  void drg_parents(uint64_t node, uint32_t out[drg_degree]) const;
  void exp_parents(uint64_t node, uint32_t out[exp_degree]) const;
  // StackedGraph::parents: the 6 DRG parents, then the 8 expander parents.
  void parents(uint64_t node, uint32_t out[graph_degree]) const;

  // The Feistel permutation of [0, n) with this graph's keys and precomputed masks (for tests).
  uint64_t feistel_permute(uint64_t index) const;

 private:
  uint64_t feistel_encode(uint64_t index) const;
  void check_node(uint64_t node) const;

  uint64_t nodes_;
  api_version_t api_version_;
  std::array<uint8_t, 28> drg_seed_{};
  std::array<uint64_t, 4> feistel_keys_{};
  uint64_t left_mask_ = 0, right_mask_ = 0;
  unsigned half_bits_ = 0;
};

}  // namespace zk::filecoin
