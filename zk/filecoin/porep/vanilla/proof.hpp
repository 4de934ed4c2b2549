#pragma once
// The vanilla proofs of a C1 (storage-proofs-porep 19.1.0 stacked/vanilla/params.rs Proof,
// column.rs, column_proof.rs, labeling_proof.rs, encoding_proof.rs) and their check, written from
// the Rust verifier (proof_scheme.rs StackedDrg::verify_all_partitions, params.rs Proof::verify,
// ReplicaColumnProof::verify, ColumnProof::verify, LabelingProof::verify, EncodingProof::verify).
//
// One vanilla proof per challenged node c:
//   comm_d_proofs          tree_d path of c (binary SHA-256), leaf = the padded data element
//   comm_r_last_proof      tree_r_last path of c (Poseidon, the sector's shape), leaf = replica[c]
//   replica_column_proofs  c_x: the column of c (its label in every layer) with its tree_c path;
//                          drg_parents (6) and exp_parents (8): the parents' columns and paths
//   labeling_proofs        one per layer L: the 37 parent labels that label c in layer L
//   encoding_proof         the last layer's labeling data again: replica[c] = label + data[c]
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "zk/base/result.hpp"
#include "zk/filecoin/core/fr32.hpp"
#include "zk/filecoin/core/merkle.hpp"
#include "zk/filecoin/porep/config.hpp"
#include "zk/filecoin/porep/vanilla/graph.hpp"

namespace zk::filecoin {

struct column_t {
  uint32_t index = 0;
  std::vector<domain_t> rows;  // one a layer
};
struct column_proof_t {
  column_t column;
  merkle_proof_t inclusion_proof;  // in tree_c
};
struct replica_column_proof_t {
  column_proof_t c_x;
  std::vector<column_proof_t> drg_parents;  // 6
  std::vector<column_proof_t> exp_parents;  // 8
};
// LabelingProof and EncodingProof: the same fields.
struct labeling_proof_t {
  std::vector<domain_t> parents;  // 37: the parents' labels, repeated (TOTAL_PARENTS)
  uint32_t layer_index = 0;
  uint64_t node = 0;
};

struct vanilla_proof_t {
  merkle_proof_t comm_d_proofs;
  merkle_proof_t comm_r_last_proof;
  replica_column_proof_t replica_column_proofs;
  std::vector<labeling_proof_t> labeling_proofs;  // layers 1 … L
  labeling_proof_t encoding_proof;
};

// vanilla_proofs[k][i]: partition k, challenge i (the C1's "vanilla_proofs" array).
using vanilla_partitions_t = std::vector<std::vector<vanilla_proof_t>>;

// What a sealer opens for its challenges: the three trees' inclusion proofs of a node and any
// node's label. The full sealer (zk/filecoin/api/seal.hpp) answers from the sector's layers and
// trees, the sparse one (sparse_seal.hpp) from the few nodes it computed.
struct sector_openings_t {
  std::function<merkle_proof_t(uint64_t node)> comm_d;       // tree_d
  std::function<merkle_proof_t(uint64_t node)> comm_r_last;  // tree_r_last
  std::function<merkle_proof_t(uint64_t node)> comm_c;       // tree_c (of the node's column hash)
  std::function<bytes32_t(uint32_t layer, uint64_t node)> label;  // layers 1 … L
};

// The vanilla proof of one challenge (stacked/vanilla/proof_scheme.rs prove_layers_generate,
// params.rs Proof::from_parts): the node's comm_d and comm_r_last paths; the columns (every
// layer's label) of the node and of its 6 DRG and 8 expander parents in graph order, each with
// its tree_c path; one labeling proof a layer, its 37 parents taken from those columns
// (labels.hpp label_parent); the last one again as the encoding proof.
vanilla_proof_t make_vanilla_proof(const porep_config_t& c, const graph_t& g,
                                   const sector_openings_t& s, uint64_t challenge);

// What the proofs are checked against (the public inputs of verify_all_partitions).
struct vanilla_public_t {
  bytes32_t replica_id{};
  bytes32_t comm_d{};
  bytes32_t comm_r{};
  bytes32_t seed{};
};

// Checks every partition as StackedDrg::verify_all_partitions does, and more strictly where the
// Rust vanilla verifier leaves a check to the circuit:
//   * the partition count is c.partitions, each partition has the challenge count, and proof i of
//     partition k is for challenge i of porep_challenges(c, replica_id, seed, comm_r, k);
//   * comm_r = Poseidon2(comm_c, comm_r_last) with comm_c = c_x's root and comm_r_last =
//     comm_r_last_proof's root of the partition's first proof, and every proof has those roots;
//   * comm_d_proofs: the right shape, root comm_d, proves c, and (stricter: Rust checks only the
//     index and the root) the path hashes from the leaf to the root;
//   * comm_r_last_proof: the same against comm_r_last (Rust: index only);
//   * every column proof (c_x, 6 DRG, 8 expander: counts checked, Rust zips): the column has one
//     row per layer, its index is the node (stricter), its path hashes Poseidon_layers(rows) up to
//     comm_c and proves the node — c for c_x, graph parents in order for the others;
//   * labeling proof of layer L: layer_index L, node c (stricter), the label recomputed from its
//     37 parents equals c_x's row L, and (stricter: the circuit takes them from the columns) the
//     parents are the columns' labels as Proof::from_parts repeats them;
//   * the encoding proof: its key (the label hashed from its own fields) plus comm_d's leaf equals
//     comm_r_last's leaf (EncodingProof::verify), and it is the last layer's labeling data.
// Passes when everything holds, else refuses with the first failure: "partition K, challenge I
// (node C): <what>: <detail>".
check_t check_vanilla_proofs(const porep_config_t& c, const graph_t& g, const vanilla_public_t& pub,
                             const vanilla_partitions_t& partitions);

// The same for one proof of a known challenge, with comm_c and comm_r_last given (the per-proof
// part of the above; for a prover that checks a partition's witness before proving it).
check_t check_vanilla_proof(const porep_config_t& c, const graph_t& g, const vanilla_public_t& pub,
                            uint64_t challenge, const bytes32_t& comm_c,
                            const bytes32_t& comm_r_last, const vanilla_proof_t& p);

// The column hash (storage-proofs-porep stacked/vanilla/hash.rs hash_single_column): Poseidon of
// arity = layers (2 or 11) over the rows. Throws std::invalid_argument for a row that is not a
// field element or an unsupported row count.
fr_t column_hash(const std::vector<bytes32_t>& rows);

}  // namespace zk::filecoin
