// What an operator asks of the scheduler's policy: drain a node, retry a failed job, change a
// job's priority (docs/api.md, README "Operating a farm"), a prover's key loaded or released
// (PreloadSRS / EvictSRS, docs/api.md "gRPC: Curio's cuzk API").
#include <algorithm>

#include "node/scheduler/policy.hpp"

namespace zk::node {

bool scheduler_policy_t::drain(node_id_t n, bool draining) {
  auto it = nodes_.find(n);
  if (it == nodes_.end()) return false;
  it->second.draining = draining;
  return true;
}

bool scheduler_policy_t::draining(node_id_t n) const {
  auto it = nodes_.find(n);
  return it != nodes_.end() && it->second.draining;
}

bool scheduler_policy_t::alive(node_id_t n) const {
  auto it = nodes_.find(n);
  return it != nodes_.end() && it->second.alive;
}

const std::string& scheduler_policy_t::name(node_id_t n) const { return nodes_.at(n).spec.name; }

bool scheduler_policy_t::drained(node_id_t n) const {
  auto it = nodes_.find(n);
  if (it == nodes_.end() || !it->second.draining) return false;
  const node_t& x = it->second;
  return x.synthesizing == 0 && x.pipeline == 0 && x.proving == 0 && x.reserved == 0 &&
         x.working == 0;
}

result_t<job_id_t> scheduler_policy_t::retry(job_id_t job) {
  auto it = jobs_.find(job);
  if (it == jobs_.end()) return "unknown job " + std::to_string(job);
  job_t& j = it->second;
  if (j.status.cancelled) return "job " + std::to_string(job) + " was cancelled: submit it again";
  if (j.status.failed == 0)
    return "job " + std::to_string(job) + (j.status.finished() ? " is done" : " has not failed") +
           ": only a failed job is retried";
  if (check_t fits = check_fits(j.status.circuit, false); !fits) return fits.reason();
  for (auto& p : j.parts)
    if (p.st == part_state_t::failed) {
      p.st = part_state_t::queued;
      p.attempts = 0;
      p.losses = 0;
    }
  j.status.failed = 0;
  j.status.error.clear();
  j.status.failure = failure_t::none;
  return job;
}

result_t<job_id_t> scheduler_policy_t::set_priority(job_id_t job, priority_t prio) {
  auto it = jobs_.find(job);
  if (it == jobs_.end()) return "unknown job " + std::to_string(job);
  if (it->second.status.finished())
    return "job " + std::to_string(job) + " is finished: its priority no longer matters";
  it->second.status.priority = prio;
  return job;
}

bool scheduler_policy_t::set_resident(node_id_t n, const std::string& circuit, bool resident) {
  auto it = nodes_.find(n);
  if (it == nodes_.end()) return false;
  if (resident)
    it->second.spec.hot_keys.insert(circuit);
  else
    it->second.spec.hot_keys.erase(circuit);
  return true;
}

bool scheduler_policy_t::resize_budget(node_id_t n, uint64_t bytes, bool grow) {
  auto it = nodes_.find(n);
  if (it == nodes_.end()) return false;
  uint64_t& b = it->second.spec.memory_budget;
  b = grow ? b + bytes : b - std::min(b, bytes);
  return true;
}

std::optional<std::pair<job_id_t, uint32_t>> scheduler_policy_t::placed_on(
    node_id_t n, const std::string& circuit) const {
  for (const auto& [id, j] : jobs_) {
    if (j.status.finished() || j.status.circuit != circuit) continue;
    for (uint32_t k = 0; k < j.parts.size(); ++k) {
      const part_t& p = j.parts[k];
      if (p.prover == n &&
          (p.st == part_state_t::synthesizing || p.st == part_state_t::transferring ||
           p.st == part_state_t::waiting || p.st == part_state_t::proving))
        return std::make_pair(id, k);
    }
  }
  return std::nullopt;
}

std::set<std::string> scheduler_policy_t::queued_circuits() const {
  std::set<std::string> out;
  for (const auto& [id, j] : jobs_)
    if (!j.status.finished() && std::any_of(j.parts.begin(), j.parts.end(), [](const part_t& p) {
          return p.st == part_state_t::queued;
        }))
      out.insert(j.status.circuit);
  return out;
}

}  // namespace zk::node
