#pragma once
// File-level entry points for native circuits (what `zkfleet setup --circuit` and
// `zkfleet prove --circuit` call):
//
//   setup_circuit   synthesize the shape, write DIR/circuit.r1cs, and key it with
//                   groth16::dev_setup into DIR/circuit.zkey + DIR/verification_key.json.
//                   DIR/circuit.json records the circuit, its shape key and the circuit digest
//                   (SHA-256 of the .r1cs bytes); when it already names the same digest and the
//                   key files exist, the key is reused and nothing is written.
//   prove_circuit   synthesize in prove mode (witness + a/b/c in one pass), feed
//                   prover_t::load_abc / prove_loaded, verify the proof with the key's own
//                   verification key and write proof.json / public.json (snarkjs format).
//
// Known circuits: "porep-lite" (porep.hpp).
#include <optional>
#include <string>

#include "zk/groth16/api.hpp"
#include "zk/groth16/setup.hpp"

namespace zk::circuit {

struct circuit_setup_report_t {
  std::string shape;   // e.g. "porep-lite:curve=bn254,challenges=2,depth=8"
  std::string digest;  // SHA-256 of circuit.r1cs, hex
  std::string curve;   // snarkjs name
  uint32_t n_constraints = 0, n_wires = 0, n_public = 0;
  bool reused = false;  // the cached key in DIR matched the digest
  double synth_seconds = 0, digest_seconds = 0;
  groth16::setup_report_t setup;  // when not reused
};

struct circuit_prove_report_t {
  std::string curve;
  uint32_t n_constraints = 0, n_wires = 0, n_public = 0, domain_size = 0;
  double replica_seconds = 0;  // the native synthetic replica (data, virtual tree, paths)
  double synth_seconds = 0;    // prove-mode synthesis (witness + a/b/c, canonical witness bytes)
  double load_seconds = 0;     // mapping the key
  double prove_seconds = 0;    // load_abc + prove_loaded
  double verify_seconds = 0;
};

// Throws std::invalid_argument for an unknown circuit or bad params (naming the key),
// std::runtime_error / format_error naming the file on I/O or key problems.
circuit_setup_report_t setup_circuit(const std::string& name, const std::string& params,
                                     const std::string& dir,
                                     const groth16::setup_options_t& options = {});
// Where a native circuit's development key is kept when no directory is given: per shape, under
// $XDG_CACHE_HOME/zkfleet/keys (else ~/.cache/zkfleet/keys, else the temp dir). setup_circuit
// reuses a key there when the r1cs digest matches, so each shape is keyed once per machine.
std::string default_key_dir(const std::string& name, const std::string& params);

circuit_prove_report_t prove_circuit(const std::string& name, const std::string& params,
                                     uint32_t partition, const std::string& key_dir,
                                     const std::string& proof_path, const std::string& public_path,
                                     const groth16::prove_options_t& options = {});

}  // namespace zk::circuit
