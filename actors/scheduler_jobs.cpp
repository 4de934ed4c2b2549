// The scheduler's jobs: submit, the status of a job, cancel.
#include <exception>
#include <filesystem>
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
  return submit_checked(client->name, r);
}

caf::error scheduler_actor_state::refuse(const std::string& client, const std::string& circuit,
                                         refusal_t why, caf::error e) {
  log::info("submission refused: circuit " + circuit.substr(0, max_id_length) + ", client " +
            client + ": " + reason_of(e));
  outcomes.refused(circuit, circuits.count(circuit) > 0, why);
  return e;
}

caf::result<std::string> scheduler_actor_state::submit_checked(const std::string& client_name,
                                                               const job_request_msg& r) {
  auto c = circuits.find(r.circuit);
  if (c == circuits.end()) {
    std::string known;
    for (const auto& [id, def] : circuits) known += (known.empty() ? "" : ", ") + id;
    return refuse(client_name, r.circuit, refusal_t::unknown_circuit,
                  caf::make_error(zk_errc::bad_request,
                                  "unknown circuit '" + r.circuit.substr(0, max_id_length) +
                                      "' (this scheduler's circuits: " + known + ")"));
  }
  auto bad = [&](refusal_t why, const std::string& text) {
    return refuse(client_name, r.circuit, why, caf::make_error(zk_errc::bad_request, text));
  };
  if (!r.circuit_priority && uint8_t(r.priority) > uint8_t(priority_t::low))
    return bad(refusal_t::bad_request,
               "priority " + std::to_string(int(r.priority)) + " is not one of 0..3");
  if (r.partitions == 0) return bad(refusal_t::bad_request, "a job needs at least one partition");
  if (r.partitions > limits.max_partitions)
    return bad(refusal_t::limit,
               std::to_string(r.partitions) + " partitions: a job may have at most " +
                   std::to_string(limits.max_partitions) + " (scheduler.max_partitions)");
  // The spec's kind, counts and names (no file is touched here).
  if (check_t why = node::check_request(c->second, r.spec, r.partitions); !why)
    return bad(refusal_t::bad_request, why.reason());
  const std::string owner = client_name;
  uint32_t open = pending_submits[owner];
  for (const auto& [id, j] : jobs)
    if (j.owner == owner && !policy.status(id).finished()) ++open;
  if (r.request_id.size() > max_request_id || (r.request_id.empty() != r.request_digest.empty()) ||
      r.request_digest.size() > 64)
    return bad(refusal_t::bad_request, "a request_id (at most " + std::to_string(max_request_id) +
                                           " bytes) comes with the request's fingerprint");
  if (!r.request_id.empty())
    if (auto answered = submit_by_request(owner, r)) return std::move(*answered);
  if (open >= limits.max_queued_jobs) {
    const auto refused = bad(
        refusal_t::limit, "client " + owner + " has " + std::to_string(open) +
                              " unfinished jobs, the most it may have (scheduler.max_queued_jobs)");
    settle_request(owner, r, refused);
    return refused;
  }
  // The job is taken in off this actor (a slow disk, a C1 of tens of MB, must not stall the
  // cluster): its files checked, a C1 cut into its partitions' inputs in the store.
  auto rp = self->make_response_promise<std::string>();
  ++pending_submits[owner];
  // The uploads it names stay while it is taken in (another submission's refusal leaves them).
  const auto sent = node::stored_objects(r.spec);
  const int64_t since = std::filesystem::file_time_type::clock::now().time_since_epoch().count();
  for (const auto& o : sent) intake_refs.insert(o.ref());
  auto done = [this, owner, r, sent](const caf::expected<std::string>& answer) {
    if (--pending_submits[owner] == 0) pending_submits.erase(owner);
    for (const auto& o : sent)
      if (auto it = intake_refs.find(o.ref()); it != intake_refs.end()) intake_refs.erase(it);
    settle_request(owner, r, answer);
  };
  self->request(checker, check_timeout, intake_atom::value, c->second, r.spec, r.partitions,
                limits.input_roots)
      .then(
          [this, rp, r = job_request_msg(r), owner, done](job_spec_t& taken) mutable {
            r.spec = std::move(taken);
            // Every path below answers the submit, and its request's waiting submits the same.
            auto deliver = [&](caf::expected<std::string> answer) {
              done(answer);
              if (answer)
                rp.deliver(std::move(*answer));
              else
                rp.deliver(std::move(answer.error()));
            };
            bool answered = false;
            guarded_void("submit", [&] {
              const priority_t prio =
                  r.circuit_priority ? circuits.at(r.circuit).priority : r.priority;
              const auto submitted = policy.submit(r.circuit, prio, r.partitions);
              if (!submitted) {  // e.g. a job no node holds
                answered = true;
                deliver(refuse(owner, r.circuit, refusal_t::no_node,
                               caf::make_error(zk_errc::bad_request, submitted.error())));
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
                jj.request_id = r.request_id;
                jj.request_digest = r.request_digest;
                try {
                  journal->add_job(jj);
                } catch (const std::exception& e) {
                  log::error(std::string("scheduler: the journal refused a job: ") + e.what());
                  policy.cancel(id);
                  policy.forget(id);
                  answered = true;
                  deliver(refuse(owner, r.circuit, refusal_t::unavailable,
                                 caf::make_error(zk_errc::unavailable,
                                                 std::string("the scheduler could not journal "
                                                             "the job: ") +
                                                     e.what())));
                  return;
                }
              }
              job_ref_t& j = jobs[id];
              j.public_id = public_id;
              j.owner = owner;
              j.request = r;
              j.submitted_ms = submitted_ms;
              by_public_id[j.public_id] = id;
              if (!r.request_id.empty()) by_request[{owner, r.request_id}] = id;
              if (rec)
                for (uint32_t k = 0; k < r.partitions; ++k)
                  rec->begin(id, k, timeline::stage_t::queued, track);
              log::info("job " + std::to_string(id) + " (" + j.public_id + ") submitted: circuit " +
                        r.circuit + ", " + std::to_string(r.partitions) + " partition" +
                        (r.partitions == 1 ? "" : "s") + ", client " + owner);
              answered = true;
              deliver(j.public_id);
              schedule();
            });
            if (!answered)  // the handler threw (logged): the submit still gets its answer
              deliver(caf::make_error(zk_errc::internal,
                                      "submit failed (the scheduler's log says why)"));
          },
          [this, rp, done, owner, circuit = r.circuit, sent, since](caf::error& e) mutable {
            const bool input = refusal(e, zk_errc::bad_request).has_value();
            caf::error answer =
                input ? refuse(owner, circuit, refusal_t::input, std::move(e))
                      : refuse(owner, circuit, refusal_t::unavailable,
                               caf::make_error(zk_errc::unavailable,
                                               "the inputs could not be checked: " + describe(e)));
            done(answer);
            // Its inputs refused: nothing of it stays on disk (a check that failed, not the
            // inputs, keeps them for a submit again).
            if (input) drop_refused(sent, since);
            rp.deliver(std::move(answer));
          });
  return rp;
}

void scheduler_actor_state::drop_refused(const std::vector<node::stored_object_t>& sent,
                                         int64_t since) {
  if (!uploads || sent.empty()) return;
  std::set<std::string> named(intake_refs.begin(), intake_refs.end());
  for (const auto& [id, j] : jobs)
    for (const auto& o : node::stored_objects(j.request.spec)) named.insert(o.ref());
  std::vector<std::string> refs;
  for (const auto& o : sent)
    if (!named.count(o.ref())) refs.push_back(o.ref());
  if (!refs.empty()) caf::anon_send(checker, drop_atom::value, std::move(refs), since);
}

std::optional<caf::result<std::string>> scheduler_actor_state::submit_by_request(
    const std::string& owner, const job_request_msg& r) {
  const request_key_t key{owner, r.request_id};
  const std::string named = "request_id '" + r.request_id.substr(0, 64) + "'";
  if (auto it = by_request.find(key); it != by_request.end()) {
    const job_ref_t& j = jobs.at(it->second);
    const job_status_t st = policy.status(it->second);
    const bool same = j.request.request_digest == r.request_digest;
    const bool given_up = st.finished() && (st.cancelled || st.failed > 0);
    // The same request again (a client's retry, before or after a restart): its job, unfinished
    // or done; a failed or cancelled one gives way to a new job, as does any finished job of
    // another request (a sector sealed again).
    if (same && !given_up) return caf::result<std::string>(j.public_id);
    if (!same && !st.finished())
      return caf::result<std::string>(refuse(
          owner, r.circuit, refusal_t::conflict,
          caf::make_error(zk_errc::conflict,
                          named + " names job " + std::to_string(it->second) + " (" + j.public_id +
                              "), unfinished, of another request (another C1, sector, miner or "
                              "proof): cancel it first, or give this request another id")));
  }
  if (auto p = pending_requests.find(key); p != pending_requests.end()) {
    if (p->second.digest != r.request_digest)
      return caf::result<std::string>(refuse(
          owner, r.circuit, refusal_t::conflict,
          caf::make_error(zk_errc::conflict, named + " is being taken in for another request "
                                                     "(another C1, sector, miner or proof)")));
    auto rp = self->make_response_promise<std::string>();
    p->second.waiters.push_back(rp);
    return caf::result<std::string>(rp);
  }
  pending_requests[key].digest = r.request_digest;
  return std::nullopt;
}

void scheduler_actor_state::settle_request(const std::string& owner, const job_request_msg& r,
                                           const caf::expected<std::string>& answer) {
  if (r.request_id.empty()) return;
  auto p = pending_requests.find({owner, r.request_id});
  if (p == pending_requests.end() || p->second.digest != r.request_digest) return;
  for (auto& w : p->second.waiters) {
    if (answer)
      w.deliver(*answer);
    else
      w.deliver(answer.error());
  }
  pending_requests.erase(p);
}

result_t<job_id_t, caf::error> scheduler_actor_state::owned_job(const std::string& token,
                                                                const std::string& typed) const {
  auto client = who(token, role_t::client);
  if (!client) return client.error();
  // Its id or its number (node/job_ref.hpp), as the user typed it.
  auto ref = node::parse_job_ref(typed);
  if (!ref) return caf::make_error(zk_errc::bad_request, ref.error());
  std::optional<job_id_t> id;
  if (!ref->request_id.empty()) {
    auto it = by_request.find({client->name, ref->request_id});
    if (it != by_request.end()) {
      id = it->second;
    } else if (client->name == "admin") {  // admin sees every client's: the newest of the id
      for (const auto& [key, job] : by_request)
        if (key.second == ref->request_id && (!id || job > *id)) id = job;
    }
  } else if (!ref->id.empty()) {
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
  m.request_id = j.request.request_id;
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
  if (auto j = jobs.find(job); j != jobs.end())
    log::info("job " + std::to_string(job) + " (" + j->second.public_id + ", circuit " +
              j->second.request.circuit + ", client " + j->second.owner + ") cancelled");
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
