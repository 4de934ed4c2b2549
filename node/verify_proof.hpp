#pragma once
// A proof that came back from the cluster (snarkjs proof.json text and public signals) checked
// against its circuit's key: what the demo and the tests do with every proof they receive.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "node/circuit.hpp"
#include "zk/groth16/verifier.hpp"

namespace zk::node {

// Malformed proof text throws (format_error); a wrong proof is refused with its reason.
check_t verify_proof(const circuit_def_t& c, const std::string& proof_json,
                     const std::vector<std::string>& public_signals);

// What binds a proof to the witness it was made from: SHA-256 over the public signals
// w[1..n_public] as 32-byte little-endian values. From a synth buffer's witness (canonical
// little-endian, w[0] first; `witness` holds at least n_public + 1 values) ...
std::string public_digest(const uint8_t* witness, uint64_t n_public);
// ... from a synth buffer of any shape (a packed witness's first values decoded) ...
std::string public_digest(const buffer::synth_header_t& h, const uint8_t* payload);
// ... and from a proof's public.json strings (nullopt when one is not a number below 2^256).
std::optional<std::string> public_digest(const std::vector<std::string>& public_signals);

}  // namespace zk::node
