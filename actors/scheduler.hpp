#pragma once
// The scheduler actor: owns the policy (node::scheduler_policy_t) and turns messages into its
// calls; it decides nothing the policy does not. It keeps only what the policy has no business
// knowing: the actors behind node ids, the circuits' descriptions, each job's inputs and proofs,
// the clients awaiting a job, and which synth buffer each partition holds.
//
// A partition through the scheduler (messages.hpp has the senders):
//   submit ─▶ policy.submit ─▶ schedule() ─dispatch_msg─▶ synthesizer
//   buffer_ready ─▶ synth_done ─prove_request─▶ prover ─ack─▶ transfer_done ─release─▶ synthesizer
//   started ─▶ prove_started;  proof_msg ─▶ prove_done (DONE);  failure_msg ─▶ failed (retry or
//   fail) a node's down message ─▶ remove_node (its partitions are queued again)
// After every event: schedule() and the dispatches it returns.
#include <map>
#include <memory>
#include <utility>
#include <vector>

#include "actors/messages.hpp"
#include "common/timeline/recorder.hpp"

namespace zk::actors {

struct scheduler_config_t {
  lookahead_t lookahead;
  unsigned max_attempts = 3;
  std::shared_ptr<timeline::recorder_t> recorder;  // QUEUED and DONE (may be null)
  uint16_t track = 0;
  timeline_actor aggregator;  // named to nodes that join from other processes (timeline_atom)
};

struct scheduler_actor_state {
  static inline const char* name = "zkfleet.scheduler";

  scheduler_actor::pointer self = nullptr;
  node::scheduler_policy_t policy;
  std::shared_ptr<timeline::recorder_t> rec;
  uint16_t track = 0;
  timeline_actor aggregator;

  struct node_ref_t {
    std::string name;
    synthesizer_actor synthesizer;  // both invalid once the node left
    prover_actor prover;
    std::string endpoint;                              // data endpoint
    bool joined_synth = false, joined_prover = false;  // the roles it joined with
  };
  struct part_ref_t {
    node::dispatch_t where{};
    uint64_t buffer_id = 0;  // the synth buffer, once ready
    bool holds_buffer = false;
    bool in_transit = false;  // synthesis done, the buffer moving to the prover's process
  };
  struct job_ref_t {
    job_request request;
    std::vector<proof_msg> proofs;
    std::vector<caf::typed_response_promise<job_result_msg>> waiters;
  };
  std::map<std::string, circuit_def_t> circuits;
  std::map<node_id, node_ref_t> nodes;
  std::map<job_id, job_ref_t> jobs;
  std::map<std::pair<job_id, uint32_t>, part_ref_t> parts;  // dispatched, not yet done

  void init(scheduler_actor::pointer s, const scheduler_config_t& cfg);
  caf::result<node_id> join(const node_join_msg& m);
  void node_down(const caf::down_msg& m);
  caf::result<caf::ok_atom> add_circuit(const circuit_def_t& c);
  caf::result<uint64_t> submit(const job_request& r);
  caf::result<job_status_msg> status(uint64_t job) const;
  caf::result<job_result_msg> await(uint64_t job);
  caf::result<bool> cancel(uint64_t job);
  void buffer_ready(const buffer_ready_msg& m);
  void acknowledged(uint64_t job, uint32_t part, double seconds);
  void started(uint64_t job, uint32_t part);
  void proved(const proof_msg& m);
  void failed(const failure_msg& m);
  std::vector<node_usage_msg> usage() const;
  std::vector<circuit_def_t> circuit_list() const;
  caf::result<caf::message> reject(caf::message_view& m);
  caf::result<timeline_actor> timeline() const;

 private:
  void schedule();
  void release_buffer(part_ref_t& p);
  void settle(job_id job);  // answers the waiters once the job is finished
  job_status_msg make_status(job_id job) const;
};

using scheduler_impl = scheduler_actor::stateful_pointer<scheduler_actor_state>;
scheduler_actor::behavior_type scheduler(scheduler_impl self, scheduler_config_t cfg);

}  // namespace zk::actors
