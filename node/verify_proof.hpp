#pragma once
// A proof that came back from the cluster (snarkjs proof.json text and public signals) checked
// against its circuit's key: what the demo and the tests do with every proof they receive.
#include <string>
#include <vector>

#include "common/groth16/verifier.hpp"
#include "node/circuit.hpp"

namespace zk::node {

// Malformed proof text throws (formats::format_error); a wrong proof is a verdict.
groth16::verdict_t verify_proof(const circuit_def_t& c, const std::string& proof_json,
                                const std::vector<std::string>& public_signals);

}  // namespace zk::node
