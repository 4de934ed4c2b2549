#pragma once
// Filecoin's Merkle trees and inclusion proofs (storage-proofs-core 19.1.0 src/merkle/,
// merkletree 0.23.0, filecoin-hashers 14.1.0).
//
// tree_d (comm_d): a binary tree over the fr32-padded sector, its leaves the 32-byte elements
// themselves (Algorithm::leaf returns the leaf unchanged), each node sha256(left ‖ right) with
// the top two bits of byte 31 cleared (Sha256Function::node, trim_to_fr32).
//
// tree_c and tree_r_last: Poseidon trees of the sector's shape (LCTree<PoseidonHasher, U8, sub,
// top>, filecoin-proofs constants.rs): the nodes are split into base_trees = max(sub, 1) ·
// max(top, 1) consecutive ranges, each the leaves of a full 8-ary tree (node = Poseidon-8 of its
// children, PoseidonFunction::multi_node); the sub level hashes groups of `sub` base roots with
// Poseidon-sub, the top level groups of `top` sub roots with Poseidon-top. Seen level by level it
// is one forest: each level hashes consecutive groups of its arity, never across a base tree.
//
// Inclusion proofs (src/merkle/proof.rs MerkleProof, serialised in the C1 JSON as the variants
// Single {root, leaf, path}, Sub {base_proof, sub_proof, root, leaf}, Top {base_proof, sub_proof,
// top_proof, root, leaf}): each path element is the arity − 1 siblings in order and the position
// `index` of the node within its group; the root is recomputed by inserting the running hash at
// `index` and hashing the group (InclusionPath::root); the leaf index is the positions read as
// digits, base digits least significant (path_index).
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "zk/base/bytes.hpp"
#include "zk/base/result.hpp"
#include "zk/filecoin/core/fr32.hpp"

namespace zk::filecoin {

// The Merkle tree of tree_c and tree_r_last (filecoin-proofs constants.rs, LCTree<Poseidon,
// U8, sub, top>): base arity 8; sub 0 (none), 2 or 8; top 0 (none) or 2.
struct tree_shape_t {
  uint32_t base_arity = 8;
  uint32_t sub_arity = 0;
  uint32_t top_arity = 0;
  friend bool operator==(const tree_shape_t& a, const tree_shape_t& b) {
    return a.base_arity == b.base_arity && a.sub_arity == b.sub_arity && a.top_arity == b.top_arity;
  }
};
// "8", "8-8", "8-8-2".
std::string tree_shape_name(const tree_shape_t& s);

// A proof as MerkleProof holds it (and the C1 JSON serialises it): kind Single/Sub/Top, the base
// path (leaf level first), one sub and one top element for the Sub and Top kinds.
using domain_t = bytes32_t;  // a Sha256Domain or PoseidonDomain: a field element, little-endian

struct path_element_t {
  std::vector<domain_t> hashes;  // the arity − 1 siblings
  uint64_t index = 0;            // this node's position among its siblings, < arity
};
using inclusion_path_t = std::vector<path_element_t>;  // leaf level first

enum class merkle_kind_t { single, sub, top };

struct merkle_proof_t {
  merkle_kind_t kind = merkle_kind_t::single;
  domain_t root{}, leaf{};
  inclusion_path_t base;  // Single's "path", Sub's and Top's "base_proof"
  inclusion_path_t sub;   // Sub, Top: "sub_proof"
  inclusion_path_t top;   // Top: "top_proof"
};

enum class merkle_hasher_t { sha256, poseidon };

// The root recomputed from the leaf up the path (InclusionPath::root for each part in turn).
// Throws std::invalid_argument naming the level when an element's size is not a supported arity
// (2 for SHA-256; 2, 4, 8, 11, 16 for Poseidon as filecoin-hashers' shared_hash_frs allows 2, 4,
// 8, 16 and the column hash 11), when an index is outside its group, or when a Poseidon value is
// not a canonical field element.
bytes32_t merkle_path_root(const merkle_proof_t& p, merkle_hasher_t h);
// The leaf index the path proves (MerkleProofTrait::path_index).
uint64_t merkle_path_index(const merkle_proof_t& p);

// The expected shape of a proof for a tree of `leaves` nodes (compound_path_length): base
// levels of base_arity, then one sub and one top element when the shape has them.
struct merkle_shape_t {
  uint32_t base_arity = 2, sub_arity = 0, top_arity = 0;
  uint32_t base_levels = 0;
};
merkle_shape_t merkle_shape(merkle_hasher_t h, const tree_shape_t& shape, uint64_t leaves);

// Checks a proof completely: its shape (numbers of levels and siblings), that the path recomputes
// `root` from the leaf, that the stated root is `expected_root` when given, and that it proves
// leaf `index`. Refuses with the first failure in words.
check_t merkle_proof_check(const merkle_proof_t& p, merkle_hasher_t h, const merkle_shape_t& shape,
                           uint64_t index, const bytes32_t* expected_root = nullptr);

// tree_d: the binary SHA-256 tree. Leaves: a power of two ≥ 2 of 32-byte elements
// (std::invalid_argument otherwise). Levels are built in parallel on the compute pool.
class sha256_tree_t {
 public:
  // Keeps every level, the leaves included.
  explicit sha256_tree_t(std::vector<bytes32_t> leaves);
  // Keeps only the levels from `discard` up (as Filecoin's rows_to_discard): the leaves stay the
  // caller's and are passed again to prove(), which rehashes the 2^discard leaves below a path.
  sha256_tree_t(const bytes32_t* leaves, uint64_t n, unsigned discard);
  uint64_t leaf_count() const { return n_; }
  const bytes32_t& root() const { return levels_.back()[0]; }
  // The leaves when kept (empty otherwise).
  const std::vector<bytes32_t>& leaves() const { return levels_[0]; }
  // The nodes at height l (0: the leaves, log2(leaf_count()): the root); std::logic_error for a
  // level not kept, std::out_of_range above the root.
  const std::vector<bytes32_t>& level(unsigned l) const;
  size_t bytes() const;
  // std::out_of_range for i ≥ leaf_count(); std::logic_error when the leaves were not kept.
  merkle_proof_t prove(uint64_t i) const;
  merkle_proof_t prove(uint64_t i, const bytes32_t* leaves) const;

 private:
  uint64_t n_ = 0;
  unsigned first_ =
      0;  // levels_[k] is level k, or first_ + k − 1 for k ≥ 1 when first_ > 0 (levels_[0] empty)
  std::vector<std::vector<bytes32_t>> levels_;
};

// comm_d of a padded sector (the root of its sha256_tree_t) without keeping the tree.
bytes32_t sha256_tree_root(const uint8_t* padded, uint64_t bytes);

// The arity of each level above the leaves of a Poseidon tree of `shape` over n leaves (LCTree:
// the base levels, then the sub level, then the top level, those the shape has). Throws
// std::invalid_argument naming n and the shape when n does not fill max(sub, 1) · max(top, 1)
// full base trees.
std::vector<unsigned> poseidon_tree_arities(const tree_shape_t& shape, uint64_t n);

// Writes nodes [first, first + arity) of `level` (0: the leaves) to out.
using tree_group_fn_t =
    std::function<void(size_t level, uint64_t first, unsigned arity, fr_t* out)>;

// Leaf i's inclusion proof (Single, Sub or Top as the shape says; the base path, then the sub and
// top elements) in a Poseidon tree of `shape` with those level arities and that root, from the
// groups along the path as `group` gives them.
merkle_proof_t poseidon_tree_proof(const tree_shape_t& shape, const std::vector<unsigned>& arities,
                                   uint64_t i, const fr_t& root, const tree_group_fn_t& group);

// tree_c / tree_r_last: a Poseidon tree of the given shape over field elements.
class poseidon_tree_t {
 public:
  // Writes leaves [first, first + count) to out; called concurrently on disjoint ranges.
  using leaf_fn_t = std::function<void(uint64_t first, uint64_t count, fr_t* out)>;

  // leaves: nodes of the sector, a count the shape divides into full 8-ary base trees
  // (std::invalid_argument naming the count and shape otherwise).
  poseidon_tree_t(const tree_shape_t& shape, std::vector<fr_t> leaves);
  // The leaves made by `leaf` and not kept: prove() asks for the 8 of a path again.
  poseidon_tree_t(const tree_shape_t& shape, uint64_t n, const leaf_fn_t& leaf);
  uint64_t leaf_count() const { return n_; }
  const fr_t& root() const { return levels_.back()[0]; }
  // The leaves when kept (empty otherwise).
  const std::vector<fr_t>& leaves() const { return levels_[0]; }
  const tree_shape_t& shape() const { return shape_; }
  size_t bytes() const;
  // std::out_of_range for i ≥ leaf_count(); std::logic_error when the leaves were not kept and
  // no leaf function is given.
  merkle_proof_t prove(uint64_t i, const leaf_fn_t& leaf = {}) const;

 private:
  void build_up();

  uint64_t n_ = 0;
  tree_shape_t shape_;
  std::vector<unsigned> arities_;  // per level above the leaves
  std::vector<std::vector<fr_t>> levels_;
};

// tree_d of a sector whose padded data is one block repeated (the sparse seal's data,
// zk/filecoin/api/sparse_seal.hpp): n leaves, leaf i being block[i mod m] for a block of m leaves
// (a power of two ≥ 2 dividing n). The block's own tree is kept whole; above its root every node
// hashes two equal children (sha256_trunc2(h, h)), so the root and any path cost O(m + log n)
// however large n is. Throws std::invalid_argument for an m or n that does not fit.
class periodic_sha256_tree_t {
 public:
  periodic_sha256_tree_t(std::vector<bytes32_t> block, uint64_t n);
  uint64_t leaf_count() const { return n_; }
  const bytes32_t& root() const { return above_.back(); }
  const bytes32_t& leaf(uint64_t i) const;
  // std::out_of_range for i ≥ leaf_count().
  merkle_proof_t prove(uint64_t i) const;

 private:
  sha256_tree_t block_;
  uint64_t n_ = 0;
  std::vector<bytes32_t>
      above_;  // above_[k]: the node of level log2(m) + k (k = 0: the block's root)
};

// A Poseidon tree of the shape over n leaves of which only some are known (the sparse seal's
// tree_c and tree_r_last): the nodes on the paths from the known leaves to the root are computed,
// every other node those paths need (a sibling off every path) is `filler(level, index)` — so two
// paths that meet agree, and the root is the root of a tree whose other leaves are fillers. Memory
// and time grow with the known leaves times the height, never with n.
class sparse_poseidon_tree_t {
 public:
  using filler_fn_t = std::function<fr_t(size_t level, uint64_t index)>;

  // known: (leaf index, value), any order, each index < n once (std::invalid_argument otherwise).
  sparse_poseidon_tree_t(const tree_shape_t& shape, uint64_t n,
                         std::vector<std::pair<uint64_t, fr_t>> known, filler_fn_t filler);
  uint64_t leaf_count() const { return n_; }
  const fr_t& root() const { return levels_.back().begin()->second; }
  // The nodes computed (all levels, the known leaves included).
  uint64_t computed_nodes() const;
  // A known leaf's proof; std::out_of_range for any other leaf.
  merkle_proof_t prove(uint64_t i) const;

 private:
  fr_t node(size_t level, uint64_t index) const;

  tree_shape_t shape_;
  uint64_t n_ = 0;
  std::vector<unsigned> arities_;
  filler_fn_t filler_;
  std::vector<std::map<uint64_t, fr_t>> levels_;  // computed nodes per level, leaves first
};

}  // namespace zk::filecoin
