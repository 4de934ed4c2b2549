// The scheduler's queries: a job's status and proofs, the job list, circuits, nodes, the timeline.
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "actors/scheduler_internal.hpp"

namespace zk::actors {

using namespace zk::node;  // the policy's types
using security::role_t;

caf::result<job_status_msg> scheduler_actor_state::status(const std::string& token,
                                                          const std::string& job) const {
  auto id = owned_job(token, job);
  if (!id) return id.error();
  return make_status(id.value());
}

caf::result<job_result_msg> scheduler_actor_state::await(const std::string& token,
                                                         const std::string& job) {
  auto id = owned_job(token, job);
  if (!id) return id.error();
  auto rp = self->make_response_promise<job_result_msg>();
  jobs.at(id.value()).waiters.push_back(rp);
  settle(id.value());
  return rp;
}

caf::result<job_result_msg> scheduler_actor_state::proofs(const std::string& token,
                                                          const std::string& job) const {
  auto id = owned_job(token, job);
  if (!id) return id.error();
  return job_result_msg{make_status(id.value()), jobs.at(id.value()).proofs};
}

caf::result<std::vector<job_status_msg>> scheduler_actor_state::job_list(const std::string& token,
                                                                         uint32_t limit) const {
  auto client = who(token, role_t::client);
  if (!client) return client.error();
  std::vector<job_status_msg> out;
  for (auto it = jobs.rbegin(); it != jobs.rend() && out.size() < std::min(limit, 1000u); ++it)
    if (client->name == "admin" || it->second.owner == client->name)
      out.push_back(make_status(it->first));
  return out;
}

caf::result<std::vector<circuit_def_t>> scheduler_actor_state::circuit_list(
    const std::string& token) const {
  auto id = who(token, std::nullopt);
  if (!id) return id.error();
  std::vector<circuit_def_t> out;
  for (const auto& [cid, c] : circuits) out.push_back(c);
  return out;
}

caf::result<std::vector<node_usage_msg>> scheduler_actor_state::usage(
    const std::string& token) const {
  auto id = who(token, std::nullopt);
  if (!id) return id.error();
  std::vector<node_usage_msg> out;
  for (node_id_t nid : policy.nodes()) out.push_back(usage_row(nid));
  return out;
}

caf::result<std::string> scheduler_actor_state::job_metrics(const std::string& token) const {
  auto id = who(token, std::nullopt);
  if (!id) return id.error();
  return outcomes.render_prometheus();
}

node_usage_msg scheduler_actor_state::usage_row(node_id_t nid) const {
  const node_ref_t& n = nodes.at(nid);
  node_usage_msg u{n.name,
                   policy.reserved(nid),
                   policy.budget(nid),
                   policy.synthesizing(nid),
                   policy.pipeline(nid),
                   policy.peak_reserved(nid),
                   n.joined_synth,
                   n.joined_prover,
                   bool(n.synthesizer || n.prover),
                   n.backend};
  u.draining = policy.draining(nid);
  u.drained = policy.drained(nid);
  u.hot_circuits = n.hot;
  return u;
}

caf::result<timeline_actor> scheduler_actor_state::timeline(const std::string& token) const {
  auto id = who(token, std::nullopt);
  if (!id) return id.error();
  if (!aggregator)
    return caf::make_error(zk_errc::bad_request, "this scheduler has no timeline aggregator");
  return aggregator;
}

}  // namespace zk::actors
