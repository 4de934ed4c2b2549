// The scheduler's jobs: submit, the status of a job, cancel.
#include <exception>
#include <optional>
#include <string>

#include "actors/scheduler_internal.hpp"
#include "common/util/log.hpp"
#include "node/job_ref.hpp"
#include "node/job_spec.hpp"
#include "node/scheduler/journal.hpp"
#include "zk/base/result.hpp"

namespace zk::actors {

using namespace zk::node;  // the policy's types
using security::role_t;

caf::result<std::string> scheduler_actor_state::submit(const std::string& token,
                                                       const job_request_msg& r) {
  auto client = who(token, role_t::client);
  if (!client) return client.error();
  auto c = circuits.find(r.circuit);
  if (c == circuits.end()) {
    std::string known;
    for (const auto& [id, def] : circuits) known += (known.empty() ? "" : ", ") + id;
    return caf::make_error(zk_errc::bad_request,
                           "unknown circuit '" + r.circuit.substr(0, max_id_length) +
                               "' (this scheduler's circuits: " + known + ")");
  }
  if (!r.circuit_priority && uint8_t(r.priority) > uint8_t(priority_t::low))
    return caf::make_error(zk_errc::bad_request,
                           "priority " + std::to_string(int(r.priority)) + " is not one of 0..3");
  if (r.partitions == 0)
    return caf::make_error(zk_errc::bad_request, "a job needs at least one partition");
  if (r.partitions > limits.max_partitions)
    return caf::make_error(zk_errc::bad_request, std::to_string(r.partitions) +
                                                     " partitions: a job may have at most " +
                                                     std::to_string(limits.max_partitions) +
                                                     " (scheduler.max_partitions)");
  // The spec's kind, counts and names (no file is touched here).
  if (check_t why = node::check_request(c->second, r.spec, r.partitions); !why)
    return caf::make_error(zk_errc::bad_request, why.reason());
  const std::string owner = client->name;
  uint32_t open = pending_submits[owner];
  for (const auto& [id, j] : jobs)
    if (j.owner == owner && !policy.status(id).finished()) ++open;
  if (open >= limits.max_queued_jobs)
    return caf::make_error(
        zk_errc::bad_request,
        "client " + owner + " has " + std::to_string(open) +
            " unfinished jobs, the most it may have (scheduler.max_queued_jobs)");
  // The job is taken in off this actor (a slow disk, a C1 of tens of MB, must not stall the
  // cluster): its files checked, a C1 cut into its partitions' inputs in the store.
  auto rp = self->make_response_promise<std::string>();
  ++pending_submits[owner];
  auto done = [this, owner] {
    if (--pending_submits[owner] == 0) pending_submits.erase(owner);
  };
  self->request(checker, check_timeout, intake_atom::value, c->second, r.spec, r.partitions,
                limits.input_roots)
      .then(
          [this, rp, r = job_request_msg(r), owner, done](job_spec_t& taken) mutable {
            done();
            r.spec = std::move(taken);
            guarded_void("submit", [&] {
              const priority_t prio =
                  r.circuit_priority ? circuits.at(r.circuit).priority : r.priority;
              const auto submitted = policy.submit(r.circuit, prio, r.partitions);
              if (!submitted) {  // e.g. a job no node holds
                rp.deliver(caf::make_error(zk_errc::bad_request, submitted.error()));
                return;
              }
              const job_id_t id = submitted.value();
              const std::string public_id = security::random_hex(16);
              const int64_t submitted_ms = unix_ms();  // one reading: journal and memory agree
              if (journal) {                           // journaled before its id is returned
                node::journaled_job_t jj;
                jj.seq = id;
                jj.public_id = public_id;
                jj.owner = owner;
                jj.circuit = r.circuit;
                jj.priority = uint8_t(prio);
                jj.circuit_priority = r.circuit_priority;
                jj.partitions = r.partitions;
                jj.spec = r.spec;
                jj.submitted_ms = submitted_ms;
                try {
                  journal->add_job(jj);
                } catch (const std::exception& e) {
                  log::error(std::string("scheduler: the journal refused a job: ") + e.what());
                  policy.cancel(id);
                  policy.forget(id);
                  rp.deliver(caf::make_error(zk_errc::unavailable,
                                             std::string("the scheduler could not journal the "
                                                         "job: ") +
                                                 e.what()));
                  return;
                }
              }
              job_ref_t& j = jobs[id];
              j.public_id = public_id;
              j.owner = owner;
              j.request = r;
              j.submitted_ms = submitted_ms;
              by_public_id[j.public_id] = id;
              if (rec)
                for (uint32_t k = 0; k < r.partitions; ++k)
                  rec->begin(id, k, timeline::stage_t::queued, track);
              rp.deliver(j.public_id);
              schedule();
            });
          },
          [rp, done](caf::error& e) mutable {
            done();
            if (refusal(e, zk_errc::bad_request))
              rp.deliver(std::move(e));
            else
              rp.deliver(caf::make_error(zk_errc::unavailable,
                                         "the inputs could not be checked: " + describe(e)));
          });
  return rp;
}

result_t<job_id_t, caf::error> scheduler_actor_state::owned_job(const std::string& token,
                                                                const std::string& typed) const {
  auto client = who(token, role_t::client);
  if (!client) return client.error();
  // Its id or its number (node/job_ref.hpp), as the user typed it.
  auto ref = node::parse_job_ref(typed);
  if (!ref) return caf::make_error(zk_errc::bad_request, ref.error());
  std::optional<job_id_t> id;
  if (!ref->id.empty()) {
    auto it = by_public_id.find(ref->id);
    if (it != by_public_id.end()) id = it->second;
  } else if (jobs.count(ref->number)) {
    id = ref->number;
  }
  // Someone else's job is answered as an unknown one: neither ids nor numbers are probed.
  if (!id || (client->name != "admin" && jobs.at(*id).owner != client->name))
    return caf::make_error(zk_errc::unknown_job, "unknown job " + typed.substr(0, max_id_length));
  return *id;
}

job_status_msg scheduler_actor_state::make_status(job_id_t job) const {
  job_status_t s = policy.status(job);
  const job_ref_t& j = jobs.at(job);
  job_status_msg m;
  m.id = j.public_id;
  m.seq = s.id;
  m.owner = j.owner;
  m.circuit = s.circuit;
  m.priority = s.priority;
  m.partitions = s.partitions;
  m.done = s.done;
  m.failed = s.failed;
  m.cancelled = s.cancelled;
  m.finished = s.finished();
  m.error = s.error;
  for (uint32_t k = 0; k < s.partitions; ++k)
    m.part_states.push_back(part_state_name(policy.state(job, k)));
  if (auto why = policy.waiting_reason(job)) m.waiting = *why;
  m.submitted_ms = j.submitted_ms;
  m.kind = node::kind_of(j.request.spec);
  m.part_nodes.resize(s.partitions);
  for (uint32_t k = 0; k < s.partitions; ++k) {
    auto name_of = [&](node_id_t n) { return nodes.count(n) ? nodes.at(n).name : std::string(); };
    const part_state_t st = policy.state(job, k);
    if (st == part_state_t::done) {
      auto it = j.proved_by.find(k);
      if (it != j.proved_by.end()) m.part_nodes[k] = it->second;
    } else if (st == part_state_t::synthesizing) {
      m.part_nodes[k] = name_of(policy.synth_of(job, k));
    } else if (st == part_state_t::transferring || st == part_state_t::waiting ||
               st == part_state_t::proving) {
      m.part_nodes[k] = name_of(policy.prover_of(job, k));
    }
  }
  return m;
}

caf::result<bool> scheduler_actor_state::cancel(const std::string& token, const std::string& pub) {
  auto id = owned_job(token, pub);
  if (!id) return id.error();
  const job_id_t job = id.value();
  if (!policy.cancel(job)) return false;  // already finished
  for (auto it = parts.begin(); it != parts.end();) {
    if (it->first.first != job) {
      ++it;
      continue;
    }
    release_buffer(it->second);
    it = parts.erase(it);
  }
  for (auto h = held.lower_bound({job, 0}); h != held.end() && h->first.first == job;)
    h = held.erase(h);  // policy.cancel released them; the synthesizers' cancel frees them
  // Work already handed out (a synthesis running, a proof queued) is dropped where it is.
  for (auto& [nid, n] : nodes) {
    if (n.synthesizer) self->send(n.synthesizer, cancel_atom::value, job);
    if (n.prover) self->send(n.prover, cancel_atom::value, job);
  }
  if (rec)
    for (uint32_t k = 0; k < jobs[job].request.partitions; ++k)
      rec->end(job, k, timeline::stage_t::queued, track);
  settle(job);
  schedule();
  return true;
}

}  // namespace zk::actors
