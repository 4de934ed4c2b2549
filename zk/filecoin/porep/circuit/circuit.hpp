#pragma once
// Filecoin's PoRep circuit (storage-proofs-porep 19.1.0 src/stacked/circuit/: proof.rs
// StackedCircuit, params.rs Proof::synthesize, column.rs, column_proof.rs, create_label.rs,
// hash.rs), synthesized variable for variable and constraint for constraint as bellperson does,
// in the three modes of zk/bellperson/cs.hpp. docs/filecoin.md "The circuit" describes the layout.
//
// One partition's circuit, after ONE (Input 0):
//   replica_id      allocated, made public (input 1), decomposed into 255 bits (+1 constraint)
//   comm_d, comm_r  allocated, made public (inputs 2, 3)
//   comm_r_last, comm_c allocated; comm_r = Poseidon2(comm_c, comm_r_last) enforced
//   per challenge (identical structure, so each occupies a fixed range of aux variables, inputs
//   and constraints — challenges synthesize in parallel, see synthesize_partition):
//     data leaf; its inclusion in tree D (SHA-256 binary tree; public input: the path index)
//     6 DRG and 8 expander parents: their columns (one value per layer), the column's Poseidon
//       hash (arity = layers), its inclusion in tree C (public input: the path index)
//     the challenge as 64 bits, packed into a public input
//     per layer: every parent label of the layer (DRG: same layer; expander, from layer 2: the
//       layer before) as 256 bits, the label SHA-256(replica_id ‖ layer ‖ node ‖ 37 parents),
//       packed into a number
//     the encoded node = last label + data leaf, its inclusion in tree R (public input)
//     the column hash of the challenge's labels, its inclusion in tree C (public input)
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "zk/base/stop.hpp"
#include "zk/bellperson/abc_program.hpp"
#include "zk/bellperson/cs.hpp"
#include "zk/filecoin/core/circuit_parts.hpp"
#include "zk/filecoin/porep/circuit/gadgets.hpp"
#include "zk/filecoin/porep/config.hpp"
#include "zk/filecoin/porep/vanilla/graph.hpp"
#include "zk/filecoin/porep/vanilla/labels.hpp"
#include "zk/filecoin/porep/vanilla/proof.hpp"

namespace zk::filecoin {

// What the R1CS depends on: the graph size, the layers, the challenges per partition and the
// tree shape of tree C and tree R (porep_id, api version and the sector's data do not change it).
struct circuit_config_t {
  uint64_t nodes = 0;
  uint32_t layers = 0;
  uint32_t challenges = 0;  // per partition
  tree_shape_t shape;

  // "nodes=64,layers=2,challenges=2,tree=8"
  std::string key() const;
  friend bool operator==(const circuit_config_t& a, const circuit_config_t& b) {
    return a.nodes == b.nodes && a.layers == b.layers && a.challenges == b.challenges &&
           a.shape == b.shape;
  }
};

// The circuit of a registered proof (its partitions' circuits are all the same). Throws
// std::invalid_argument for NonInteractivePoRep and shapes the circuit cannot take.
circuit_config_t circuit_config(const porep_config_t& p);
// storage-proofs-porep/tests/stacked_circuit.rs: nodes = 8 × the base tree count, 2 layers,
// 1 challenge, the given tree shape ("2", "8", "8-4", "8-4-2").
circuit_config_t test_circuit_config(const tree_shape_t& shape);
// Throws std::invalid_argument naming what does not fit (nodes not a power of two, a tree shape
// whose levels do not divide the nodes, layers other than 2 or 11, ...).
void check_config(const circuit_config_t& c);

// ---- the witness: the vanilla proofs of one partition ---------------------------------------

// A column opening of tree C: the node's label in every layer, and the Merkle path of the
// column's hash.
struct column_opening_t {
  std::vector<fr_t> rows;  // layers values, layer 1 first
  circuit_path_t path;
};

// One challenge's vanilla proof as the circuit reads it (stacked/circuit/params.rs
// From<VanillaProof>): the challenge (labeling_proofs[0].node), the data leaf
// (comm_d_proofs.leaf()), the paths of tree D, tree R and tree C (c_x's inclusion proof), and
// the column openings of the parents.
struct challenge_proof_t {
  uint64_t challenge = 0;
  fr_t data_leaf;
  circuit_path_t comm_d_path;                 // binary, log2(nodes) elements
  circuit_path_t comm_r_last_path;            // tree shape
  circuit_path_t comm_c_path;                 // tree shape
  std::vector<column_opening_t> drg_parents;  // 6
  std::vector<column_opening_t> exp_parents;  // 8
};

struct partition_witness_t {
  fr_t replica_id, comm_d, comm_r;
  fr_t comm_r_last, comm_c;  // vanilla_proofs[0]'s comm_r_last_proof and c_x roots
  std::vector<challenge_proof_t> challenges;
};

// The circuit's witness for one partition of a C1: vanilla_proofs[k] of a C1
// (zk/filecoin/api/c1.hpp) and its replica_id, comm_d, comm_r (StackedCompound::circuit: comm_c
// and comm_r_last are the roots of the first proof's c_x and comm_r_last paths). Throws
// std::invalid_argument naming the challenge and the field when a value is not a canonical field
// element or the proofs disagree on those roots; check_witness then checks the structure against a
// config.
partition_witness_t witness_from_vanilla(const vanilla_public_t& pub,
                                         const std::vector<vanilla_proof_t>& partition);

// A witness of the right structure with every value zero (what a blank circuit synthesizes).
partition_witness_t blank_witness(const circuit_config_t& c);
// Throws std::invalid_argument naming the challenge and the field whose structure does not fit
// the config (counts of challenges, parents, rows, path elements, siblings; an index ≥ arity).
void check_witness(const circuit_config_t& c, const partition_witness_t& w);

// ---- synthesis -------------------------------------------------------------------------------

// The values every challenge shares, allocated before the challenges.
struct circuit_shared_t {
  num_t comm_d, comm_c, comm_r_last;
  boolean_t replica_id_bits[256];
};

// StackedCircuit::synthesize up to the challenges.
template <class CS>
circuit_shared_t synthesize_prefix(CS& cs, const circuit_config_t& c, const partition_witness_t& w);
// Proof::synthesize of challenge j.
template <class CS>
void synthesize_challenge(CS& cs, const circuit_config_t& c, const challenge_proof_t& p,
                          const circuit_shared_t& shared, uint32_t j);
// The whole circuit (ONE must already be allocated, as every CS of cs.hpp but prove_cs_t does in
// its constructor).
template <class CS>
void synthesize_circuit(CS& cs, const circuit_config_t& c, const partition_witness_t& w);

// Where each part of the circuit sits (count mode over a blank witness; cached per config;
// zk/filecoin/core/circuit_parts.hpp).
const circuit_layout_t& circuit_layout(const circuit_config_t& c);

// The R1CS of the circuit: counts, densities, digest, regions and (with matrices) A, B, C.
// Synthesized once per config and kept for the process (thread-safe): the shared part and one
// challenge, the other challenges as relocated copies (shape_cs_t::repeat_part; the same R1CS as
// synthesize_circuit into a shape_cs_t, tested).
std::shared_ptr<const bellperson::r1cs_shape_t> circuit_shape(const circuit_config_t& c,
                                                              bool matrices = true);
// The same, synthesized now and not kept.
bellperson::r1cs_shape_t synthesize_shape(const circuit_config_t& c, bool matrices);

// The circuit's structure for rebuilding a partition's a, b, c from its witness alone (the
// packed wire, docs/design.md "Synth buffers"): the shared part and one challenge, the other
// challenges as moved copies. Built once per config and kept for the process (thread-safe); at
// 32 GiB it keeps the 7.2 M rows of one challenge.
std::shared_ptr<const bellperson::abc_program_t> circuit_program(const circuit_config_t& c);

// Prove-mode synthesis of one partition into caller-owned arrays sized by circuit_layout(c).total
// (a, b, c: total.constraints + total.inputs each): the shared part first, then the challenges
// in parallel on the compute pool (`parallel` false: one after another, same result), then the
// input constraints. Checks the witness's structure first (check_witness). `stop` is polled
// before the shared part and before each challenge: once it answers true the challenges not yet
// begun are skipped and zk::cancelled_error is thrown (the arrays are then partly written).
void synthesize_partition(const circuit_config_t& c, const partition_witness_t& w,
                          const bellperson::assignment_view_t& out, bool parallel = true,
                          const stop_t& stop = {});
partition_assignment_t synthesize_partition(const circuit_config_t& c, const partition_witness_t& w,
                                            bool parallel = true);

// The first constraint with a_i·b_i ≠ c_i (circuit constraints and input constraints), where
// it is (the region of the circuit's shape: "challenge 1: labeling layer 2"), or nullopt.
std::optional<unsatisfied_t> first_unsatisfied(const circuit_config_t& c,
                                               const bellperson::assignment_view_t& v);

// Witness-only prove-mode synthesis of one partition, streamed: the inputs written to `inputs`
// (circuit_layout(c).total.inputs values), the aux variables handed to `window` a part at a time
// — the shared part's, then each challenge's (window(first, values, n): aux variables first …
// first + n, Montgomery form; called from the compute threads, challenges in batches of one per
// thread, so the calls for different parts may run at once and in any order). With `check`,
// every constraint is checked as it is made (a·b = c; a, b, c are never stored) and the first
// that fails is returned, named as first_unsatisfied names it. Memory beyond the inputs: one
// challenge's aux variables per thread (231 MB at 32 GiB). Checks the witness's structure first
// (check_witness); `stop` is polled before each challenge (zk::cancelled_error).
using aux_window_fn_t = std::function<void(uint32_t first, const fr_t* values, uint32_t n)>;
std::optional<unsatisfied_t> synthesize_partition_streamed(const circuit_config_t& c,
                                                           const partition_witness_t& w,
                                                           fr_t* inputs, bool check,
                                                           const aux_window_fn_t& window,
                                                           const stop_t& stop = {});
// The same into whole arrays: inputs and aux as synthesize_partition writes them (arrays sized
// by circuit_layout(c).total).
std::optional<unsatisfied_t> synthesize_partition_witness(const circuit_config_t& c,
                                                          const partition_witness_t& w,
                                                          fr_t* inputs, fr_t* aux, bool check);

}  // namespace zk::filecoin
