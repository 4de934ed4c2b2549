#pragma once
// The scheduler actor: owns the policy (node::scheduler_policy_t) and turns messages into its
// calls; it decides nothing the policy does not. It keeps only what the policy has no business
// knowing: the actors behind node ids, the circuits' descriptions, each job's owner, inputs and
// proofs, the clients awaiting a job, and which synth buffer each partition holds.
//
// A partition through the scheduler (messages.hpp has the senders):
//   submit ─▶ (inputs checked off the actor) ─▶ policy.submit ─▶ schedule() ─dispatch_msg─▶ synth
//   buffer_ready ─▶ synth_done ─prove_request_msg─▶ prover ─ack─▶ transfer_done ─release─▶
//   synthesizer started ─▶ prove_started;  proof_msg ─▶ pairing check (off the actor) ─▶ prove_done
//   (DONE); failure_msg ─▶ failed (retry or fail; a send that failed: requeued without an attempt
//   spent, the buffer held where it is); a node's down message ─▶ remove_node (requeued, no
//   attempt)
// After every event: schedule() and the dispatches it returns.
//
// Durability (docs/durability.md): with a journal, a job is journaled before its id is returned
// and a proof before it counts as done; each dispatch notes the partition's attempts and
// placement, each finish the job's state. init() replays the journal: finished proofs are served
// to await, unfinished partitions are queued again, job numbers never repeat.
// Liveness (tick, every second): a partition past its stage's deadline (the larger of
// stage_timeout and four times the slowest that stage has taken for its circuit) is failed and
// queued again; a job no live node can hold fails after placement_timeout (its reason is in
// status meanwhile).
//
// Trust (docs/security.md): every request names a session (node/scheduler/sessions.hpp); jobs
// belong to the client that submitted them (or admin); a report about a partition is taken only
// from the actor its current attempt was dispatched to and only for that attempt; a proof only
// once it verifies against the circuit's key. Circuits come only from scheduler_config_t.
#include <array>
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <utility>
#include <vector>

#include "actors/messages.hpp"
#include "common/timeline/recorder.hpp"
#include "node/scheduler/journal.hpp"
#include "node/scheduler/outcomes.hpp"
#include "node/scheduler/sessions.hpp"
#include "node/scheduler/uploads.hpp"
#include "zk/base/result.hpp"

namespace zk::actors {

struct scheduler_limits_t {
  uint32_t max_partitions = 1024;                              // per job (and inputs per job)
  uint32_t max_queued_jobs = 1000;                             // unfinished jobs per client
  std::chrono::milliseconds retention{std::chrono::hours(1)};  // finished jobs kept this long
  std::vector<std::string> input_roots;  // where file inputs may be; empty: none may
};

struct scheduler_timing_t {
  std::chrono::milliseconds placement_timeout{std::chrono::minutes(10)};
  std::chrono::milliseconds stage_timeout{std::chrono::minutes(2)};  // the least stage deadline
  std::chrono::milliseconds tick{std::chrono::seconds(1)};  // deadlines and retention checked
  // A prover a buffer could not be sent to gets no new work for this long (it may be silent
  // without the control plane having noticed yet; its node timeout drops it if so).
  std::chrono::milliseconds prover_pause{std::chrono::seconds(30)};
};

struct scheduler_config_t {
  lookahead_t lookahead;
  unsigned max_attempts = 3;
  std::shared_ptr<timeline::recorder_t> recorder;  // QUEUED and DONE (may be null)
  uint16_t track = 0;
  timeline_actor aggregator;  // named to nodes that join from other processes (timeline_atom)
  std::vector<circuit_def_t> circuits;         // every one checked with check_circuit
  std::shared_ptr<node::sessions_t> sessions;  // required
  scheduler_limits_t limits;
  scheduler_timing_t timing;
  std::shared_ptr<node::journal_t> journal;  // null: nothing survives a restart
  // Inputs uploaded through the HTTP API, and the key of the tickets that let a synthesis node
  // fetch one for the partition it was dispatched (null / empty: no uploads).
  std::shared_ptr<node::upload_store_t> uploads;
  std::string upload_key;
};

// A circuit description that can be scheduled passes; else it is refused with why not.
check_t check_circuit(const circuit_def_t& c);

struct scheduler_actor_state {
  static inline const char* name = "zkfleet.scheduler";

  scheduler_actor::pointer self = nullptr;
  node::scheduler_policy_t policy;
  std::shared_ptr<timeline::recorder_t> rec;
  uint16_t track = 0;
  timeline_actor aggregator;
  std::shared_ptr<node::sessions_t> sessions;
  scheduler_limits_t limits;
  scheduler_timing_t timing;
  std::shared_ptr<node::journal_t> journal;
  std::shared_ptr<node::upload_store_t> uploads;
  std::string upload_key;
  caf::actor checker;             // detached: input files and proofs are checked there, never here
  node::job_outcomes_t outcomes;  // failed, cancelled and refused jobs, for /metrics
  // The uploads that submissions being taken in name (one entry per submission naming one): a
  // refused submission's uploads are deleted, but not those.
  std::multiset<std::string> intake_refs;

  struct node_ref_t {
    std::string name;
    synthesizer_actor synthesizer;  // both invalid once the node left
    prover_actor prover;
    std::string endpoint;                              // data endpoint
    std::string transfer_key;                          // its data server's ticket key (prover)
    bool joined_synth = false, joined_prover = false;  // the roles it joined with
    std::string backend;                               // a prover's
    std::vector<std::string> hot;  // the circuits whose keys it holds resident (a prover's)
    std::map<std::string, uint64_t> params;  // its filecoin_params: circuit → the key's bytes
    std::set<std::string> moving;            // circuits whose key it is loading or releasing
  };
  struct part_ref_t {
    node::dispatch_t where{};
    uint32_t attempt = 0;      // the dispatch's; replies naming another are late
    std::string report_token;  // dispatch_msg::report_token
    uint64_t buffer_id = 0;    // the synth buffer, once ready
    uint64_t buffer_bytes =
        0;  // its payload's bytes (what crosses the data plane, its header aside)
    bool holds_buffer = false;
    bool in_transit = false;    // synthesis done, the buffer moving to the prover's process
    bool verifying = false;     // its proof is at the checker
    std::string public_digest;  // of the synthesized witness (buffer_ready_msg)
    node::part_state_t stage =
        node::part_state_t::queued;  // as the last tick saw it, and since when
    std::chrono::steady_clock::time_point stage_since{};
  };
  struct job_ref_t {
    std::string public_id;
    std::string owner;  // the client that submitted it
    job_request_msg request;
    std::vector<proof_msg> proofs;
    std::vector<caf::typed_response_promise<job_result_msg>> waiters;
    std::optional<std::chrono::steady_clock::time_point> finished_at;
    std::optional<std::chrono::steady_clock::time_point> unplaceable_since;
    bool finish_noted = false;  // its end is in the journal (and its held buffers freed)
    int64_t submitted_ms = 0;   // unix ms
    std::map<uint32_t, std::string> proved_by;  // partition → the prover whose proof it took
  };
  std::map<std::string, circuit_def_t> circuits;
  std::map<node_id_t, node_ref_t> nodes;
  std::map<job_id_t, job_ref_t> jobs;
  std::map<std::string, job_id_t> by_public_id;
  // (owner, request_id) → the newest job submitted under that request id (job_request_msg).
  using request_key_t = std::pair<std::string, std::string>;
  std::map<request_key_t, job_id_t> by_request;
  // Submits of a request id whose first submit is still being taken in: that one's fingerprint,
  // and the same request's later submits, answered with its answer.
  struct pending_request_t {
    std::string digest;
    std::vector<caf::typed_response_promise<std::string>> waiters;
  };
  std::map<request_key_t, pending_request_t> pending_requests;
  std::map<std::string, uint32_t> pending_submits;            // per client, inputs being checked
  std::map<std::pair<job_id_t, uint32_t>, part_ref_t> parts;  // dispatched, not yet done
  // Queued partitions whose finished buffer a synthesis node holds: (node, its buffer id).
  std::map<std::pair<job_id_t, uint32_t>, std::pair<node_id_t, uint64_t>> held;
  // Per circuit, the slowest synthesis, transfer and proof seen (seconds): the stage deadlines.
  std::map<std::string, std::array<double, 3>> slowest;
  std::map<node_id_t, std::chrono::steady_clock::time_point> paused_until;  // timing.prover_pause
  uint32_t last_attempt = 0;         // starts at random: a restarted scheduler's attempts are new
  unsigned ticks_since_collect = 0;  // uploads no job names are collected once a minute

  void init(scheduler_actor::pointer s, const scheduler_config_t& cfg);
  caf::result<hello_msg> hello(const std::string& nonce);
  caf::result<std::string> login(const login_msg& m);
  caf::result<node_id_t> join(const std::string& token, const node_join_msg& m);
  void node_down(const caf::down_msg& m);
  caf::result<std::string> submit(const std::string& token, const job_request_msg& r);
  caf::result<std::string> submit_checked(const std::string& client, const job_request_msg& r);
  // A refused submission: logged (one line: circuit, client, the reason as the client reads it),
  // counted for /metrics under `why`, and returned.
  caf::error refuse(const std::string& client, const std::string& circuit, node::refusal_t why,
                    caf::error e);
  caf::result<job_status_msg> status(const std::string& token, const std::string& job) const;
  caf::result<job_result_msg> await(const std::string& token, const std::string& job);
  caf::result<job_result_msg> proofs(const std::string& token, const std::string& job) const;
  caf::result<std::vector<job_status_msg>> job_list(const std::string& token, uint32_t limit) const;
  caf::result<bool> cancel(const std::string& token, const std::string& job);
  // An operator's asks (actors/scheduler_operator.cpp).
  caf::result<job_status_msg> retry(const std::string& token, const std::string& job);
  caf::result<job_status_msg> set_priority(const std::string& token, const std::string& job,
                                           priority_t priority);
  caf::result<node_usage_msg> drain(const std::string& token, const std::string& node,
                                    bool draining);
  // PreloadSRS / EvictSRS (actors/scheduler_params.cpp): every live prover with filecoin_params
  // for `circuit` asked to load its parameters (load) or release them; what each did.
  caf::result<std::vector<key_outcome_msg>> move_params(const std::string& token,
                                                        const std::string& circuit, bool load);
  void buffer_ready(const buffer_ready_msg& m);
  void acknowledged(uint64_t job, uint32_t part, uint32_t attempt, double seconds);
  void started(uint64_t job, uint32_t part, uint32_t attempt);
  void proved(const proof_msg& m);
  void failed(const failure_msg& m);
  void tick();
  caf::result<std::vector<node_usage_msg>> usage(const std::string& token) const;
  // The job outcomes' Prometheus text (node/scheduler/outcomes.hpp), for /metrics.
  caf::result<std::string> job_metrics(const std::string& token) const;
  caf::result<std::vector<circuit_def_t>> circuit_list(const std::string& token) const;
  caf::result<caf::message> reject(caf::message_view& m);
  caf::result<timeline_actor> timeline(const std::string& token) const;

 private:
  // The caller's identity, or the error that refuses it (unauthenticated, or not `role`).
  result_t<security::identity_t, caf::error> who(const std::string& token,
                                                 std::optional<security::role_t> role) const;
  // The job a client may see (its own, or any for admin), typed as its id, its number or
  // request:<its request id> (node/job_ref.hpp).
  result_t<job_id_t, caf::error> owned_job(const std::string& token,
                                           const std::string& typed) const;
  // The partition a worker's report is about, when it comes from the actor the current attempt
  // was dispatched to (`synth`: the synthesizer, else the prover), names that attempt and (when
  // `token` is given) carries its report token; null (the report is dropped, and logged)
  // otherwise.
  part_ref_t* reporter_part(uint64_t job, uint32_t part, uint32_t attempt, bool synth, bool prover,
                            const char* what, const std::string* token);
  void accept_proof(const proof_msg& m);
  // A submit under a request id (job_request_msg::request_id): the job it names already (its
  // public id), a refusal (another request's unfinished job), a wait for the same request still
  // being taken in, or nullopt: a new job (its key then noted as being taken in).
  std::optional<caf::result<std::string>> submit_by_request(const std::string& owner,
                                                            const job_request_msg& r);
  // A submission whose inputs intake refused: its uploads (`sent`) deleted from the store, but
  // for those a job or another intake names and those uploaded again since `since` (the store's
  // clock when it came, ns).
  void drop_refused(const std::vector<node::stored_object_t>& sent, int64_t since);
  // The end of a request's intake: its waiting submits answered like the first.
  void settle_request(const std::string& owner, const job_request_msg& r,
                      const caf::expected<std::string>& answer);
  void restore(const node::journaled_job_t& j);  // one job replayed from the journal
  // Journal writes; false (logged) when the journal failed.
  bool journal_part(job_id_t job, uint32_t part);
  void note_finish(job_id_t job);  // once a job is finished: journaled, its held buffers freed
  void check_deadlines(std::chrono::steady_clock::time_point now);
  void check_placement(std::chrono::steady_clock::time_point now);
  void note_slowest(job_id_t job, int stage, double seconds);
  void schedule();
  void dispatch();  // what the policy places now, sent to its nodes
  // One prover's key of `circuit` loaded or released (scheduler_params.cpp): `done` gets what
  // happened, at once when the scheduler refuses it, else once the prover answered.
  void move_key(node_id_t n, const std::string& circuit, bool load,
                std::function<void(const key_outcome_msg&)> done);
  // Queued partitions of a Filecoin circuit that no live prover holds: one prover configured
  // with its parameters loads them again (within its budget). True when a load started.
  bool load_for_queued();
  void release_buffer(part_ref_t& p);
  void settle(job_id_t job);  // answers the waiters once the job is finished
  job_status_msg make_status(job_id_t job) const;
  node_usage_msg usage_row(node_id_t n) const;
};

using scheduler_impl_t = scheduler_actor::stateful_pointer<scheduler_actor_state>;
scheduler_actor::behavior_type scheduler(scheduler_impl_t self, scheduler_config_t cfg);

}  // namespace zk::actors
