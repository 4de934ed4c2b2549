#pragma once
// SDR labeling (storage-proofs-porep 19.1.0 stacked/vanilla/create_label/single.rs
// create_label / create_label_exp, graph.rs copy_parents_data_inner{,_exp}; sha2raw 14.1.0 for
// the block layout): the label of node v in layer L (1-based) is
//
//   SHA-256( replica_id (32) ‖ L as u32 BE ‖ v as u64 BE ‖ 20 zero bytes ‖ P_0 ‖ … ‖ P_36 )
//
// with the top two bits of byte 31 cleared, where the 37 parent labels P are the node's parents'
// labels repeated in order: layer 1 has only the 6 DRG parents (from layer 1 itself: 6 × 6 + the
// first again), later layers the 6 DRG parents from the same layer then the 8 expander parents
// from layer L − 1 (14 + 14 + the first 9). Node 0 hashes the 64-byte header alone (its parents
// are not hashed). That is 20 SHA-256 blocks per label (1,248 bytes of message), and a layer is
// sequential: node v needs v − 1 (always its first DRG parent in V1_1_0, its last in V1_0_0).
//
// The parent table is Filecoin's parent cache (stacked/vanilla/cache.rs): 14 u32 per node, DRG
// then expander, from graph_t (zk/filecoin/porep/vanilla/graph.hpp).
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "zk/base/sha256.hpp"
#include "zk/filecoin/porep/vanilla/graph.hpp"

namespace zk::filecoin {

inline constexpr unsigned label_parents = 37;  // TOTAL_PARENTS

// Where parent label i (< 37) of a label of `layer` comes from (create_label/single.rs through
// copy_parents_data, params.rs Proof::from_parts): the parent `slot` of graph_t::parents (0–5 DRG,
// 6–13 expander) and the layer of that parent's label — layer 1 cycles the 6 DRG parents' layer-1
// labels; a later layer cycles the 6 DRG parents' labels of the same layer and the 8 expander
// parents' labels of the layer below.
struct label_parent_t {
  unsigned slot;
  uint32_t layer;
};
inline label_parent_t label_parent(uint32_t layer, unsigned i) {
  const unsigned slot = i % (layer == 1 ? drg_degree : graph_degree);
  return {slot, slot < drg_degree ? layer : layer - 1};
}

// All parents of every node (graph_t::parents), computed on the compute pool.
class parent_table_t {
 public:
  explicit parent_table_t(const graph_t& g);
  // The table of g from `dir` when a valid file for g is there, else built and written there
  // (atomically, by rename) for the next time — Filecoin keeps the same cache on disk
  // (stacked/vanilla/cache.rs). The file, parents-<nodes>-<16 bytes of SHA-256(header)>.bin, is a
  // 96-byte header (magic "ZKFCPAR1", nodes u64 LE, the ApiVersion's index, 7 zero bytes, the DRG
  // seed (28 bytes), 4 zero bytes, the four Feistel keys u64 LE, 8 zero bytes), nodes × 14 u32 LE,
  // and the SHA-256 of all that; a file that does not match in size, header or digest is rebuilt.
  // `loaded` (when given) says whether the file was used.
  static parent_table_t cached(const graph_t& g, const std::string& dir, bool* loaded = nullptr);
  uint64_t nodes() const { return nodes_; }
  const uint32_t* operator[](uint64_t node) const { return &p_[node * graph_degree]; }
  size_t bytes() const { return p_.size() * sizeof(uint32_t); }

 private:
  parent_table_t(uint64_t nodes, std::vector<uint32_t> p) : nodes_(nodes), p_(std::move(p)) {}
  uint64_t nodes_;
  std::vector<uint32_t> p_;
};

// One layer's labels: layer 1 from nothing (prev = nullptr), layer L > 1 from layer L − 1's
// labels. out has parents.nodes() entries. Single-threaded by nature (see above); it prefetches
// the parents' labels a few nodes ahead.
void sdr_label_layer(const parent_table_t& parents, const bytes32_t& replica_id, uint32_t layer,
                     const bytes32_t* prev, bytes32_t* out);

// Every layer (layers × nodes labels kept: for the sector sizes with 2 layers, or tests).
std::vector<std::vector<bytes32_t>> sdr_labels(const graph_t& g, const bytes32_t& replica_id,
                                               uint32_t layers);

// The label from its 37 parent labels as a labeling proof carries them (LabelingProof::
// create_label, the same hash for node > 0).
bytes32_t sdr_label_from_parents(const bytes32_t& replica_id, uint32_t layer, uint64_t node,
                                 const bytes32_t* parents, size_t count);

// The 37 parent labels of node v in layer L (the order above), from the layers' labels:
// cur = layer L, prev = layer L − 1 (unused for L = 1).
void sdr_label_parents(const parent_table_t& parents, uint32_t layer, uint64_t node,
                       const bytes32_t* cur, const bytes32_t* prev, bytes32_t out[label_parents]);

}  // namespace zk::filecoin
