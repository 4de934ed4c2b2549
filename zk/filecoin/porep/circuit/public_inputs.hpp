#pragma once
// The public inputs of one partition's circuit (storage-proofs-porep 19.1.0 stacked/circuit/
// proof.rs StackedCompound::generate_public_inputs; docs/filecoin.md §2): replica_id, comm_d,
// comm_r, then per challenge c: c (comm_d leaf index), its 6 DRG parents, its 8 expander parents,
// c (the label), c (comm_r_last leaf), c (comm_c leaf) — each node index one field element
// (storage-proofs-core gadgets/por.rs generate_public_inputs packs the auth path's bits into one
// Fr, which is the index itself).
#include <cstdint>
#include <vector>

#include "zk/filecoin/core/fr32.hpp"
#include "zk/filecoin/porep/config.hpp"
#include "zk/filecoin/porep/vanilla/challenges.hpp"
#include "zk/filecoin/porep/vanilla/graph.hpp"

namespace zk::filecoin {

// One challenged node with its parents.
struct challenge_t {
  uint64_t node = 0;
  uint32_t drg[drg_degree] = {};
  uint32_t exp[exp_degree] = {};
};

// Everything partition k's circuit is given in public.
struct partition_inputs_t {
  uint32_t k = 0;
  std::vector<challenge_t> challenges;
  std::vector<fr_t> inputs;  // public_inputs_per_partition() of them, ONE excluded
};

// Checks comm_d and comm_r are field elements (std::invalid_argument naming which otherwise,
// as filecoin-proofs' as_safe_commitment) and derives partition k's inputs.
partition_inputs_t partition_inputs(const porep_config_t& c, const graph_t& g,
                                    const sector_ids_t& s, uint32_t k);

// Each node index of the inputs, in circuit order (the per-challenge part of the layout above).
void append_challenge_inputs(const challenge_t& ch, std::vector<fr_t>& out);

}  // namespace zk::filecoin
