#pragma once
// A prover node's key for a filecoin-porep or filecoin-snap circuit (node/filecoin_job.hpp,
// node/filecoin_snap_job.hpp): the node's own bellperson .params (node.filecoin_params) decoded
// once for the circuit's shape and kept resident (zk/filecoin/api/params_prover.hpp: the key with
// its densities and the one Groth16 prover over it, as the command line's C2 has them), proving
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
