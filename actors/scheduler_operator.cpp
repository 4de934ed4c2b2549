// An operator's asks of the scheduler: retry a failed job, change an unfinished job's priority,
// drain or undrain a node (docs/api.md, README "Operating a farm"). The policy decides
// (node/scheduler/policy_operator.cpp); here the caller is checked, the journal and the timeline
// told, and the cluster scheduled again.
#include <string>
#include <vector>

#include "actors/scheduler_internal.hpp"
#include "common/util/log.hpp"
#include "node/job_spec.hpp"

namespace zk::actors {

using namespace zk::node;  // the policy's types
using security::role_t;

caf::result<job_status_msg> scheduler_actor_state::retry(const std::string& token,
                                                         const std::string& typed) {
  auto id = owned_job(token, typed);
  if (!id) return id.error();
  const job_id_t job = id.value();
  std::vector<uint32_t> again;
  for (uint32_t k = 0; k < jobs.at(job).request.partitions; ++k)
    if (policy.state(job, k) == part_state_t::failed) again.push_back(k);
  const job_spec_t& spec = jobs.at(job).request.spec;
  if (node::kind_of(spec) != circuits.at(jobs.at(job).request.circuit).kind)
    return caf::make_error(zk_errc::bad_request,
                           "job " + typed.substr(0, max_id_length) + " is a " +
                               config::circuit_kind_name(node::kind_of(spec)) +
                               " job, its circuit is no longer of that kind");
  if (node::needs_intake(spec))
    return caf::make_error(zk_errc::bad_request,
                           "job " + typed.substr(0, max_id_length) +
                               " was journaled by an older zkfleet and never taken in: submit it "
                               "again");
  auto r = policy.retry(job);
  if (!r) return caf::make_error(zk_errc::bad_request, r.error());
  job_ref_t& j = jobs.at(job);
  j.finished_at.reset();
  j.unplaceable_since.reset();
  j.finish_noted = false;
  if (journal)
    guarded_void("the journal", [&] {
      journal->reopen_job(job);
      for (uint32_t k : again) journal->note_part(job, k, 0, "");
    });
  if (rec)
    for (uint32_t k : again) rec->begin(job, k, timeline::stage_t::queued, track);
  log::info("job " + std::to_string(job) + ": " + std::to_string(again.size()) +
            " failed partition(s) queued again (zkfleet retry)");
  schedule();
  return make_status(job);
}

caf::result<job_status_msg> scheduler_actor_state::set_priority(const std::string& token,
                                                                const std::string& typed,
                                                                priority_t priority) {
  auto id = owned_job(token, typed);
  if (!id) return id.error();
  if (uint8_t(priority) > uint8_t(priority_t::low))
    return caf::make_error(zk_errc::bad_request,
                           "priority " + std::to_string(int(priority)) + " is not one of 0..3");
  const job_id_t job = id.value();
  auto r = policy.set_priority(job, priority);
  if (!r) return caf::make_error(zk_errc::bad_request, r.error());
  jobs.at(job).request.priority = priority;
  jobs.at(job).request.circuit_priority = false;
  if (journal) guarded_void("the journal", [&] { journal->set_priority(job, uint8_t(priority)); });
  log::info("job " + std::to_string(job) + ": priority " + config::priority_name(priority));
  schedule();
  return make_status(job);
}

caf::result<node_usage_msg> scheduler_actor_state::drain(const std::string& token,
                                                         const std::string& name, bool draining) {
  auto client = who(token, role_t::client);
  if (!client) return client.error();
  if (client->name != "admin")
    return caf::make_error(zk_errc::forbidden,
                           "only admin drains or undrains a node (client " + client->name + ")");
  for (const auto& [nid, n] : nodes) {
    if (n.name != name) continue;
    policy.drain(nid, draining);
    log::info("node " + name +
              (draining ? " draining: it finishes what it holds and takes no new work"
                        : " undrained: it takes work again"));
    if (!draining) schedule();
    return usage_row(nid);
  }
  std::string known;
  for (const auto& [nid, n] : nodes) known += (known.empty() ? "" : ", ") + n.name;
  return caf::make_error(zk_errc::bad_request,
                         "no node named '" + name.substr(0, max_id_length) +
                             "' has joined (known: " + (known.empty() ? "none" : known) + ")");
}

}  // namespace zk::actors
