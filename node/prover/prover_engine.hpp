#pragma once
// Proving synth buffers on a prover node: the proving keys mapped once per circuit and kept
// (with their prover's work arrays) across proofs, on the CPU backend or the node's
// accelerators (the CUDA backend's hooks), every proof verified before it leaves
// (groth16::prove_verified).
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "common/buffer/buffer_store.hpp"
#include "node/circuit.hpp"
#include "zk/groth16/api.hpp"

namespace zk::node {

struct proof_result_t {
  std::string proof_json;                   // snarkjs proof.json text
  std::vector<std::string> public_signals;  // decimal, snarkjs public.json order
  double prove_seconds = 0, verify_seconds = 0;
};

// The prover's accelerators (null: the CPU), owned by the caller for the engine's lifetime
// (apps/backend.hpp's backend_t in `zkfleet node`).
using groth16::accelerators_t;

// Not thread-safe: one prover worker owns one.
class prover_engine_t {
 public:
  prover_engine_t();
  ~prover_engine_t();
  // Keys mapped later prove on these (set before the first proof).
  void set_accelerators(const accelerators_t& acc) { acc_ = acc; }
  // Keys mapped later get precomputed base tables (groth16::key_tables_t: endomorphism images,
  // shifted copies) built right after mapping, as long as all tables together stay within
  // budget_bytes (the part of the node's memory budget given to them); a key whose tables would
  // not fit proves without, and says so in the log. Off by default. Only CPU proofs read them.
  void set_precompute(const groth16::precompute_t& p, uint64_t budget_bytes) {
    precompute_ = p;
    precompute_budget_ = budget_bytes;
  }
  // Each filecoin-porep circuit's .params on this node (circuit id → path): those circuits prove
  // with them (node/prover/filecoin_key.hpp), and only here.
  void set_filecoin_params(std::vector<std::pair<std::string, std::string>> params) {
    filecoin_params_ = std::move(params);
  }
  // The file c's key is mapped from: its zkey, or this node's .params ("" when it has none).
  std::string key_path(const circuit_def_t& c) const;
  // Bytes of precomputed tables held now, over all mapped keys.
  uint64_t precompute_bytes() const;
  // Maps c's key now (a node's hot circuits, at start-up) instead of at its first proof.
  // Throws naming the file when it cannot be read.
  void load(const circuit_def_t& c);
  // Checks the buffer against the circuit (digest, curve, counts, shape), proves, verifies with
  // the key's verification key. Throws std::runtime_error when the buffer does not fit or the
  // proof fails verification. A key file rewritten in place since it was mapped is mapped again
  // first, and refused while its bytes differ from the first mapping's. `stop` is polled at the
  // proof's safe points (groth16::prover_t::set_stop): when it answers true the call throws
  // zk::cancelled_error within one MSM task or transform (the job was cancelled).
  proof_result_t prove(const circuit_def_t& c, const buffer::buffer_ref_t& buffer,
                       const groth16::stage_observer_t& observe = {}, const stop_t& stop = {});
  // Circuits whose key is mapped now.
  std::vector<std::string> loaded() const;
  // Drops the circuit's key (its decoded parameters, its tables): false when none was mapped. Its
  // next proof, or load(), maps it again.
  bool unload(const std::string& circuit_id);

  struct key_t;

 private:
  key_t& key(const circuit_def_t& c);
  std::map<std::string, std::unique_ptr<key_t>> keys_;
  std::map<std::string, uint64_t>
      first_sample_;  // each circuit's key bytes when first mapped (sampled)
  accelerators_t acc_;
  groth16::precompute_t precompute_;
  uint64_t precompute_budget_ = 0;
  std::vector<std::pair<std::string, std::string>> filecoin_params_;
};

}  // namespace zk::node
