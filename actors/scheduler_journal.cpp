// The scheduler's journal: a job restored from it, a partition's and a job's state written to it.
#include <algorithm>
#include <chrono>
#include <exception>
#include <string>
#include <vector>

#include "actors/scheduler_internal.hpp"
#include "common/util/log.hpp"
#include "node/job_spec.hpp"
#include "node/scheduler/journal.hpp"
#include "zk/base/clock.hpp"
#include "zk/base/result.hpp"

namespace zk::actors {

using namespace zk::node;  // the policy's types
using security::role_t;

void scheduler_actor_state::restore(const node::journaled_job_t& jj) {
  const bool open = jj.state == "open";
  if (!circuits.count(jj.circuit)) {
    log::warn("scheduler: journaled job " + std::to_string(jj.seq) + " is of circuit '" +
              jj.circuit + "', which this config no longer has: dropped");
    if (open)
      guarded_void("the journal", [&] {
        journal->finish_job(jj.seq, "failed", "circuit '" + jj.circuit + "' left the config",
                            unix_ms());
      });
    return;
  }
  // An open job that cannot go on fails now, saying why (its client reads it), instead of after
  // max_attempts failed syntheses: a spec of another kind than its circuit, an input gone from the
  // store. A job journaled by schema v1 whose intake made nothing yet (a Filecoin job: its C1 not
  // cut into partition inputs) is taken in now, once, before the scheduler serves anyone.
  const circuit_def_t& c = circuits.at(jj.circuit);
  node::job_spec_t spec = jj.spec;
  std::string state = jj.state, error = jj.error;
  check_t restorable;  // refused: the job fails now, saying why
  if (node::kind_of(spec) != c.kind) {
    restorable = std::string("the journal holds a ") +
                 config::circuit_kind_name(node::kind_of(spec)) + " job of circuit '" + c.id +
                 "', which is " + config::circuit_kind_name(c.kind);
  } else if (open && node::needs_intake(spec)) {
    const auto t0 = std::chrono::steady_clock::now();
    try {
      auto taken = node::take_in(c, spec, jj.partitions,
                                 node::intake_env_t{limits.input_roots, uploads.get()});
      if (!taken) {
        restorable = "taken in again at restart: " + taken.error();
      } else {
        journal->set_spec(jj.seq, taken.value());
        spec = std::move(taken.value());
      }
    } catch (const std::exception& e) {  // the store's or the journal's I/O
      restorable = std::string("taken in again at restart, but it failed: ") + e.what();
    }
    log::info("scheduler: journaled job " + std::to_string(jj.seq) +
              " (journal schema 1) taken in again in " + std::to_string(seconds_since(t0)) + " s" +
              (restorable ? std::string() : ": " + restorable.reason()));
  }
  if (restorable && open)
    for (const auto& o : node::stored_objects(spec))
      if (!uploads || !uploads->path_of(o)) {
        restorable = "its input " + o.name() + " is gone from the scheduler's store (" +
                     (uploads ? uploads->dir() : std::string("none configured")) + ")";
        break;
      }
  int64_t finished_ms = jj.finished_ms;
  if (!restorable && open) {
    log::warn("scheduler: journaled job " + std::to_string(jj.seq) +
              " fails: " + restorable.reason());
    state = "failed";
    error = restorable.reason();
    finished_ms = unix_ms();
    guarded_void("the journal", [&] { journal->finish_job(jj.seq, state, error, finished_ms); });
  }
  const bool still_open = state == "open";
  std::vector<bool> done(jj.partitions, false);
  for (const auto& p : jj.proofs)
    if (p.partition < jj.partitions) done[p.partition] = true;
  if (!policy.restore(jj.seq, jj.circuit, priority_t(jj.priority), jj.partitions, done, jj.attempts,
                      state, error)) {
    log::warn("scheduler: journaled job " + std::to_string(jj.seq) + " could not be restored");
    return;
  }
  job_ref_t& j = jobs[jj.seq];
  j.public_id = jj.public_id;
  j.owner = jj.owner;
  j.submitted_ms = jj.submitted_ms;
  j.request.circuit = jj.circuit;
  j.request.priority = priority_t(jj.priority);
  j.request.circuit_priority = jj.circuit_priority;
  j.request.partitions = jj.partitions;
  j.request.spec = std::move(spec);
  j.request.request_id = jj.request_id;
  j.request.request_digest = jj.request_digest;
  if (!jj.request_id.empty()) by_request[{jj.owner, jj.request_id}] = jj.seq;  // the newest wins
  for (const auto& p : jj.proofs) {
    j.proofs.push_back(
        {jj.seq, p.partition, 0, p.proof_json, p.public_signals, 0, p.prove_seconds, 0, ""});
    j.proved_by[p.partition] = p.prover;
  }
  if (!still_open) {
    j.finish_noted = true;
    const auto age = std::chrono::milliseconds(std::max<int64_t>(0, unix_ms() - finished_ms));
    j.finished_at = std::chrono::steady_clock::now() - age;
  } else if (rec) {
    for (uint32_t k = 0; k < jj.partitions; ++k)
      if (!done[k]) rec->begin(jj.seq, k, timeline::stage_t::queued, track);
  }
  by_public_id[j.public_id] = jj.seq;
}

bool scheduler_actor_state::journal_part(job_id_t job, uint32_t part) {
  if (!journal) return true;
  try {
    std::string where;
    auto p = parts.find({job, part});
    if (p != parts.end()) {
      auto s = nodes.find(p->second.where.synth), v = nodes.find(p->second.where.prover);
      where = (s != nodes.end() ? s->second.name : "?") + ">" +
              (v != nodes.end() ? v->second.name : "?");
    }
    journal->note_part(job, part, policy.attempts(job, part), where);
    return true;
  } catch (const std::exception& e) {
    log::error(job, part, std::string("the journal could not note the partition: ") + e.what());
    return false;
  }
}

void scheduler_actor_state::note_finish(job_id_t job) {
  auto it = jobs.find(job);
  if (it == jobs.end() || it->second.finish_noted) return;
  const job_status_t s = policy.status(job);
  if (!s.finished()) return;
  it->second.finish_noted = true;
  // One line per job's end, what an operator reads (its submission and a cancel have theirs).
  const std::string who = "job " + std::to_string(job) + " (" + it->second.public_id +
                          ", circuit " + s.circuit + ", client " + it->second.owner + ")";
  if (s.cancelled) {
    log::info(who + " ended: cancelled");
    outcomes.cancelled(s.circuit);
  } else if (s.failed) {
    log::info(who + " failed: " + s.error);
    outcomes.failed(s.circuit,
                    s.failure == node::failure_t::none ? node::failure_t::internal : s.failure);
  } else
    log::info(who + " done: " + std::to_string(s.partitions) + " partition" +
              (s.partitions == 1 ? "" : "s") + " proved");
  // Its queued partitions will never be dispatched: buffers held for them go.
  for (auto h = held.lower_bound({job, 0}); h != held.end() && h->first.first == job;) {
    policy.unhold(job, h->first.second);
    auto n = nodes.find(h->second.first);
    if (n != nodes.end() && n->second.synthesizer)
      self->send(n->second.synthesizer, release_atom::value, h->second.second);
    h = held.erase(h);
  }
  if (journal)
    guarded_void("the journal",
                 [&] { journal->finish_job(job, finish_state(s), s.error, unix_ms()); });
}

}  // namespace zk::actors
