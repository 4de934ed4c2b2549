// The scheduler policy's queries: a job's status, a partition's state and placement, a node's
// accounts (node/scheduler/policy.hpp).
#include <stdexcept>

#include "node/scheduler/policy.hpp"

namespace zk::node {

job_status_t scheduler_policy_t::status(job_id_t job) const {
  auto it = jobs_.find(job);
  if (it == jobs_.end()) throw std::invalid_argument("unknown job " + std::to_string(job));
  return it->second.status;
}

part_state_t scheduler_policy_t::state(job_id_t job, uint32_t part) const {
  auto it = jobs_.find(job);
  if (it == jobs_.end() || part >= it->second.parts.size())
    throw std::invalid_argument("unknown partition " + std::to_string(job) + "/" +
                                std::to_string(part));
  return it->second.parts[part].st;
}

unsigned scheduler_policy_t::attempts(job_id_t job, uint32_t part) const {
  state(job, part);  // throws for an unknown partition
  return jobs_.at(job).parts[part].attempts;
}
node_id_t scheduler_policy_t::synth_of(job_id_t job, uint32_t part) const {
  state(job, part);
  return jobs_.at(job).parts[part].synth;
}
node_id_t scheduler_policy_t::prover_of(job_id_t job, uint32_t part) const {
  state(job, part);
  return jobs_.at(job).parts[part].prover;
}

uint64_t scheduler_policy_t::reserved(node_id_t n) const {
  return nodes_.at(n).reserved + nodes_.at(n).working;
}
uint64_t scheduler_policy_t::peak_reserved(node_id_t n) const { return nodes_.at(n).peak; }
uint64_t scheduler_policy_t::budget(node_id_t n) const { return nodes_.at(n).spec.memory_budget; }
unsigned scheduler_policy_t::pipeline(node_id_t n) const { return nodes_.at(n).pipeline; }
unsigned scheduler_policy_t::synthesizing(node_id_t n) const { return nodes_.at(n).synthesizing; }

}  // namespace zk::node
