#pragma once
// The work behind the actors, as plain C++ (no CAF here): circuits registered by id, synthesis
// of one partition into a synth buffer of the node's buffer store, and proving from such a
// buffer with the CPU backend (prover_t), verified before the proof leaves.
//
//   circuit kind   synthesis (synthesizer)                       buffer shape    prover
//   circom         the job's .wtns, checked and copied in         witness-only    prove(witness):
//                                                                                 a/b from the key
//   circom         the .wtns, then a = A·w, b = B·w, c = C·w      abc+witness     load_abc + prove_loaded
//                  from the r1cs in CSR form (built once per
//                  circuit by a synth_cache_t, reused)
//   native         porep-lite in prove mode: witness and          abc+witness     load_abc + prove_loaded
//                  a/b/c in one pass
//
// A circom job may bring an input.json instead of a .wtns when its circuit has a witness
// generator (the operator's command, from the config): synthesis runs it first.
//
// Exceptions stay inside this layer's callers (the actors turn them into error values).
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "actors/scheduler_state.hpp"
#include "common/buffer/buffer_store.hpp"
#include "common/groth16/prover.hpp"

namespace zk::actors {

enum class circuit_kind : uint8_t { circom = 0, native = 1 };

// A circuit the cluster proves, registered by id. Described once (describe_*), it travels with
// every dispatch and prove request, so a worker needs nothing else to do its part.
struct circuit_def_t {
  std::string id;
  circuit_kind kind = circuit_kind::circom;
  std::string zkey;           // proving key path (native: <key_dir>/circuit.zkey)
  std::string r1cs;           // circom abc+witness: the constraint matrices
  std::string native_name;    // native: "porep-lite"
  std::string native_params;  // native: what the R1CS depends on (curve, challenges, depth)
  buffer::synth_shape shape = buffer::synth_shape::witness_only;
  uint16_t curve = buffer::curve_code_bn254;  // synth header code
  std::string digest;         // hex SHA-256: of the .zkey (circom) or of the .r1cs (native)
  uint64_t n_vars = 0, n_public = 0, domain_size = 0;
  uint64_t domain_rows = 0;        // rows of a/b/c in the buffer (abc+witness)
  uint64_t buffer_bytes = 0;       // one partition's buffer as the store accounts it (size class)
  uint64_t prover_work_bytes = 0;  // the prover's a/b/c work arrays for one proof
  // circom: the operator's command (config `witness_generator`) that turns a job's input.json
  // into a .wtns, run without a shell with "{input}"/"{output}" replaced (never from a job).
  // Empty: jobs of this circuit bring a .wtns.
  std::vector<std::string> witness_generator;
  // Jobs of this circuit that name no priority get this one (config: the circuit's `priority`,
  // else the scheduler's `default_priority`).
  priority_t priority = priority_t::normal;
};

// How long a witness generator may run for one partition before it is killed.
constexpr std::chrono::seconds witness_generator_timeout{600};

// A circom circuit from its snarkjs .zkey (jobs bring a .wtns per partition or one for all).
// With an .r1cs its buffers are abc+witness (the synthesizer evaluates the constraints), else
// witness-only.
circuit_def_t describe_zkey_circuit(const std::string& id, const std::string& zkey_path,
                                    const std::string& r1cs_path = "");
// A native circuit ("porep-lite"): keyed with a development setup cached in key_dir by r1cs
// digest (circuit::setup_circuit), then described from its key.
circuit_def_t describe_native_circuit(const std::string& id, const std::string& name, const std::string& params,
                                      const std::string& key_dir);
// What the scheduler's policy needs of a circuit.
circuit_spec_t to_spec(const circuit_def_t& c);

// Checks a job's inputs against its circuit before it is accepted: circom takes one .wtns path
// (every partition) or one per partition, each an existing file; a path ending in ".json" is an
// input.json, accepted only when the circuit has a witness generator; native takes none or one
// "seed=N" (the synthetic replica). Returns the reason when they do not fit.
std::optional<std::string> check_job_inputs(const circuit_def_t& c, const std::vector<std::string>& inputs,
                                            uint32_t partitions);

struct synth_result_t {
  uint64_t buffer_id = 0;  // in the store it was committed to
  uint64_t payload_bytes = 0;
  uint64_t checksum = 0;   // payload XXH64, as in the header
  double seconds = 0;
};

// What a synthesis worker keeps across partitions: each circom circuit's constraint matrices in
// CSR form with Montgomery coefficients, built on first use.
class synth_cache_t {
 public:
  synth_cache_t();
  ~synth_cache_t();
  struct csr_t;
  // Thread-safe: a node's workers share one cache (one copy of each circuit's matrices); the
  // first caller builds, the others wait for it. The reference stays valid with the cache.
  const csr_t& csr(const circuit_def_t& c);

 private:
  std::mutex mu_;
  std::map<std::string, std::unique_ptr<csr_t>> csr_;
};

// Synthesizes partition `part` of job `job` into `store` (reserved before anything is computed:
// over budget is an error, nothing allocated). Throws std::runtime_error naming the input.
// An input.json (circom) is first turned into a .wtns by the circuit's witness generator
// (util::run_subprocess, at most witness_generator_timeout; the .wtns goes to a fresh directory
// under the temp dir, removed afterwards); its failure throws naming the circuit, the
// generator, how it ended and the tail of its output. The .wtns is then checked and used as a
// job's .wtns is. `stop`, when given, is polled while the generator runs: true kills it (the
// job was cancelled) and the call throws saying so.
synth_result_t synthesize(const circuit_def_t& c, const std::vector<std::string>& inputs, uint32_t partitions,
                          uint64_t job, uint32_t part, buffer::buffer_store_t& store, synth_cache_t& cache,
                          const std::function<bool()>& stop = {});

struct proof_result_t {
  std::string proof_json;                   // snarkjs proof.json text
  std::vector<std::string> public_signals;  // decimal, snarkjs public.json order
  double prove_seconds = 0, verify_seconds = 0;
};

// The prover's accelerators (the CUDA backend's hooks; null: the CPU), owned by the caller for
// the engine's lifetime (apps/backend.hpp's backend_t in `zkfleet node`).
struct accelerators_t {
  const groth16::accelerator_t<curves::bn254>* bn254 = nullptr;
  const groth16::accelerator_t<curves::bls12_381>* bls12_381 = nullptr;
};

// Proves synth buffers with the CPU backend, or on the accelerators when given. Keys are mapped once per circuit and kept (with
// their prover's work arrays) across proofs. Not thread-safe: one prover actor owns one.
class prover_engine_t {
 public:
  prover_engine_t();
  ~prover_engine_t();
  // Keys mapped later prove on these (set before the first proof).
  void set_accelerators(const accelerators_t& acc) { acc_ = acc; }
  // Checks the buffer against the circuit (digest, curve, counts, shape), proves, verifies with
  // the key's verification key. Throws std::runtime_error when the buffer does not fit or the
  // proof fails verification (no proof leaves unverified). A key file rewritten in place since it
  // was mapped is mapped again first, and refused while its bytes differ from the first mapping's.
  proof_result_t prove(const circuit_def_t& c, const buffer::buffer_ref_t& buffer,
                       const groth16::stage_observer& observe = {});

  struct key_t;

 private:
  std::map<std::string, std::unique_ptr<key_t>> keys_;
  std::map<std::string, uint64_t> first_sample_;  // each circuit's key bytes when first mapped (sampled)
  accelerators_t acc_;
};

// The buffer stores of one process by data endpoint ("local:<node>"): in one process a prover
// pins a synthesizer's buffer in place instead of moving it. Thread-safe.
class buffer_directory_t {
 public:
  void add(const std::string& endpoint, std::shared_ptr<buffer::buffer_store_t> store);
  std::shared_ptr<buffer::buffer_store_t> store(const std::string& endpoint) const;
  // A pin on buffer `id` of the store at `endpoint`; nullopt when either is unknown.
  std::optional<buffer::buffer_ref_t> find(const std::string& endpoint, uint64_t id) const;

 private:
  mutable std::mutex mu_;
  std::map<std::string, std::shared_ptr<buffer::buffer_store_t>> stores_;
};

// Verifies proof.json text against a circuit's key (used by tests and the demo's summary).
bool verify_proof_json(const circuit_def_t& c, const std::string& proof_json,
                       const std::vector<std::string>& public_signals, std::string* why = nullptr);

}  // namespace zk::actors
