#pragma once
// A prover node's key for a filecoin-porep circuit (node/filecoin_job.hpp): the node's own
// bellperson .params (node.filecoin_params) mapped, its bases decoded once and kept resident
// (zk/filecoin/api/prover.hpp partition_prover_t), and every proof verified with the file's
// verifying key against the partition's public inputs before it leaves.
#include <memory>
#include <string>

#include "node/prover/prover_key.hpp"

namespace zk::node {

// Maps `params` for circuit c (read unchecked: the operator's file; its sizes must fit the
// circuit, or std::invalid_argument names the section). Throws naming the file.
std::unique_ptr<prover_engine_t::key_t> load_filecoin_key(const circuit_def_t& c,
                                                          const std::string& params);

}  // namespace zk::node
