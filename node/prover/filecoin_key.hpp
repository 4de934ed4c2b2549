#pragma once
// A prover node's key for a filecoin-porep circuit (node/filecoin_job.hpp): the node's own
// bellperson .params (node.filecoin_params) decoded once for the circuit and kept resident
// (zk/filecoin/api/c2.hpp c2_prover_t: bellperson::params_key_t, the one Groth16 prover), proving
// synth buffers through the same path as every other key (prove_buffer: groth16::prove_verified,
// the proof verified with the file's verifying key against the partition's public inputs before it
// leaves), on the node's accelerator for the stages it has kernels for.
#include <memory>
#include <string>

#include "node/prover/prover_key.hpp"
#include "zk/bellperson/groth16/points.hpp"

namespace zk::node {

// Decodes `params` for circuit c (read unchecked: the operator's file; its sizes must fit the
// circuit, or std::invalid_argument names the section). Throws naming the file.
std::unique_ptr<prover_engine_t::key_t> load_filecoin_key(
    const circuit_def_t& c, const std::string& params,
    const groth16::accelerator_t<bellperson::curve_t>* acc);

}  // namespace zk::node
