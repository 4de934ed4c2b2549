#pragma once
// SIMULATED WORKLOAD — a discrete-event model of a farm driving the real scheduler_policy_t:
// synthesis and prove stages take configured durations, buffers of configured sizes move over
// per-node uplinks of configured bandwidth, and hundreds of nodes fit in one process. For
// scheduler tests and for modelling farms larger than this machine; its outputs are labelled as
// simulation, and nothing here ever computes a proof.
#include <cstdint>
#include <string>
#include <vector>

#include "common/timeline/aggregator.hpp"
#include "node/scheduler/policy.hpp"

namespace zk::node {

struct sim_circuit_t {
  circuit_spec_t spec;
  double synth_seconds = 1;  // one partition's synthesis on one core
  double prove_seconds = 1;  // one partition on one prover
  // What crosses the link per partition (0: spec.buffer_bytes, today's buffer), and the prover
  // host's CPU time per partition once it has arrived and before its proof (a, b, c rebuilt from
  // a packed witness, on one of the prover host's cores, overlapping the GPU's work on other
  // partitions; the timeline shows it as synthesis on the prover's "rebuild core" tracks: it is
  // the rest of the partition's synthesis, a, b, c from the witness; 0: none). The prover reports
  // such a partition delivered (transfer_done) once rebuilt, ready to prove: what auto lookahead
  // has to cover is transfer and rebuild.
  uint64_t wire_bytes = 0;
  double rebuild_seconds = 0;
};

struct sim_node_t {
  node_spec_t spec;                 // a prover's cores: how many partitions it rebuilds at once
  double uplink_bytes_per_s = 1e9;  // synthesis node → provers (a prover's downlink is not
                                    // modelled: one transfer at a time leaves each uplink)
};

struct sim_job_t {
  double submit_at = 0;
  std::string circuit;
  priority_t priority = priority_t::normal;
  uint32_t partitions = 1;
  double cancel_at = -1;  // < 0: never
};

struct sim_config_t {
  std::vector<sim_node_t> nodes;
  std::vector<sim_circuit_t> circuits;
  std::vector<sim_job_t> jobs;
  lookahead_t lookahead;
  // Each partition's synthesis and proving take their circuit's time × (1 + jitter·u), u uniform
  // in [−1, 1], drawn from a generator seeded with `seed` (the same seed, the same run). 0: exact.
  double jitter = 0;
  uint64_t seed = 1;
};

struct sim_result_t {
  double makespan_s = 0;
  uint64_t proofs = 0;
  double proofs_per_minute = 0;
  std::vector<job_status_t> jobs;          // in submission order (refused ones not among them)
  std::vector<std::string> refused;        // jobs the scheduler refused at submission, and why
  std::vector<job_id_t> completion_order;  // jobs as they finished
  std::vector<uint64_t> peak_reserved;     // per node (in config order)
  bool budget_exceeded = false;            // never true: checked after every scheduler step
  // pipeline − (lookahead + idle slot) after a round of dispatch that grew it, max over time
  // (≤ 0 ⇒ 0; an auto lookahead that falls below what is already in flight is no breach).
  unsigned max_pipeline_over_lookahead = 0;
  timeline::aggregator_t timeline{size_t(1) << 24};  // events in simulated nanoseconds
};

sim_result_t run_simulation(const sim_config_t& config);

}  // namespace zk::node
