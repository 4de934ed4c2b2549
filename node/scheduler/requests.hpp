#pragma once
// What clients ask the scheduler and what it answers, as plain structs (no CAF): the actors'
// messages carry them (actors/messages.hpp: their inspect and type ids), the HTTP API
// (node/api) renders them, the command line prints them.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "node/job_spec.hpp"
#include "node/scheduler/policy.hpp"

namespace zk::node {

struct job_request_msg {
  std::string circuit;
  priority_t priority = priority_t::normal;
  uint32_t partitions = 1;
  job_spec_t spec;                // what to prove, typed by the circuit's kind (node/job_spec.hpp)
  bool circuit_priority = false;  // ignore `priority`: take the circuit's (circuit_def_t::priority)
  // The client's own name of the job, its idempotency key (Curio's request_id; "": none): while
  // a job submitted under it by the same client is retained, the same request again answers that
  // job; an unfinished one of another request is refused; a failed or cancelled one gives way to
  // a new job. Journaled with the job, so it holds across a scheduler restart.
  std::string request_id{};
  // The fingerprint of what the request asks (node/cuzk/request.hpp request_fingerprint): what
  // "the same request" means for request_id. Empty with an empty request_id.
  std::string request_digest{};
};

// The longest request_id a job may carry (bytes).
inline constexpr size_t max_request_id = 256;

struct proof_msg {
  uint64_t job = 0;
  uint32_t partition = 0;
  uint32_t attempt = 0;
  std::string proof_json;                   // snarkjs proof.json
  std::vector<std::string> public_signals;  // snarkjs public.json
  double synth_seconds = 0, prove_seconds = 0, verify_seconds = 0;
  std::string report_token;  // dispatch_msg::report_token of this attempt
  // The prover's build_ab stage: a, b, c loaded, or rebuilt from a packed witness (what the wire's
  // choice weighs, node/scheduler/wire_choice.hpp); < 0: not reported.
  double build_ab_seconds = -1;
};

struct job_status_msg {
  std::string id;          // the job's public id: 128 random bits, hex
  uint64_t seq = 0;        // the scheduler's job number (what the timeline names the job by)
  std::string request_id;  // the client's name of it (job_request_msg::request_id), or ""
  std::string owner;
  std::string circuit;
  priority_t priority = priority_t::normal;
  uint32_t partitions = 0, done = 0, failed = 0;
  bool cancelled = false, finished = false;
  std::string error;
  std::vector<std::string> part_states;  // part_state_name per partition
  // Why its queued partitions wait although idle nodes would take them: no live node can hold
  // them (it fails after scheduler.placement_timeout). Empty otherwise.
  std::string waiting;
  // Per partition, the node it is on now (the synthesis node while synthesizing, the prover from
  // then on, the prover that proved it once done); "" while queued.
  std::vector<std::string> part_nodes;
  int64_t submitted_ms = 0;  // unix ms
  // The job's kind (its circuit's): what its proofs are (a Filecoin job's make one sector proof).
  circuit_kind_t kind = circuit_kind_t::circom;
};

// One word for where a job is: queued (nothing placed yet), running, done, failed, cancelled.
inline const char* job_state(const job_status_msg& s) {
  if (s.cancelled) return "cancelled";
  if (s.failed > 0) return "failed";
  if (s.finished) return "done";
  for (const auto& p : s.part_states)
    if (p != "queued") return "running";
  return "queued";
}

struct job_result_msg {
  job_status_msg status;
  std::vector<proof_msg> proofs;  // by partition, those done
};

// What one prover did when asked to load or release a circuit's parameters (PreloadSRS /
// EvictSRS of the gRPC face; the scheduler asks every prover configured with them).
struct key_outcome_msg {
  std::string node;     // the prover's name
  std::string outcome;  // "loaded", "already loaded", "evicted", "not loaded" or "refused"
  std::string why;      // a refusal's reason, or what failed
  uint64_t bytes = 0;   // loaded or freed: the parameters' size
  uint64_t ms = 0;      // how long the load took
};

// --- nodes -----------------------------------------------------------------------------------

// What a node holds now, as the scheduler accounts it (stats_atom → std::vector of these).
struct node_usage_msg {
  std::string name;
  uint64_t reserved = 0, budget = 0;
  uint32_t synthesizing = 0, pipeline = 0;
  uint64_t peak_reserved = 0;          // the most ever reserved on it (never above budget)
  bool synth = false, prover = false;  // the roles it joined with
  bool alive = true;                   // false once it left (its entry stays for the peak)
  std::string backend;                 // a prover's: "cpu" or "cuda (<device>)"
  bool draining = false;  // given no new work (zkfleet drain); it finishes what it holds
  bool drained = false;   // draining and holding nothing: safe to stop
  // A prover's circuits whose keys it holds resident (a filecoin-porep circuit's parameters).
  std::vector<std::string> hot_circuits{};
};

}  // namespace zk::node
