// The scheduler actor: its state's start, scheduling, settling a job and the behaviour.
#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <string>

#include "actors/scheduler_internal.hpp"
#include "common/net/ticket.hpp"
#include "common/util/log.hpp"
#include "node/job_spec.hpp"
#include "node/scheduler/journal.hpp"
#include "node/scheduler/uploads.hpp"
#include "zk/base/result.hpp"

namespace zk::actors {

using namespace zk::node;  // the policy's types
using security::role_t;

int64_t unix_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// The journal's name of a finished job's state.
const char* finish_state(const job_status_t& s) {
  return s.cancelled ? "cancelled" : s.failed ? "failed" : "done";
}

void scheduler_actor_state::init(scheduler_actor::pointer s, const scheduler_config_t& cfg) {
  self = s;
  policy = node::scheduler_policy_t(cfg.lookahead, cfg.max_attempts);
  rec = cfg.recorder;
  track = cfg.track;
  aggregator = cfg.aggregator;
  sessions = cfg.sessions;
  limits = cfg.limits;
  timing = cfg.timing;
  journal = cfg.journal;
  uploads = cfg.uploads;
  upload_key = cfg.upload_key;
  if (!sessions) throw std::invalid_argument("the scheduler needs its sessions");
  for (const auto& c : cfg.circuits) {
    if (check_t why = check_circuit(c); !why) throw std::invalid_argument(why.reason());
    circuits[c.id] = c;
    policy.add_circuit(to_spec(c));
  }
  // Attempt numbers of an earlier run of this scheduler may still travel (a late report, a
  // prover's remembered transfer): this run's start elsewhere.
  const std::string r = security::random_hex(4);
  last_attempt = uint32_t(std::stoul(r, nullptr, 16) >> 1);
  if (journal) {
    size_t open = 0, queued = 0;
    for (const auto& j : journal->replay()) {
      restore(j);
      if (jobs.count(j.seq) && !policy.status(j.seq).finished()) {
        ++open;
        queued += j.partitions - policy.status(j.seq).done;
      }
    }
    policy.reserve_ids(journal->next_seq());
    if (!journal->migration_backup().empty())
      log::info("scheduler: journal " + journal->path() + " migrated from schema version " +
                std::to_string(journal->migrated_from()) + " to " +
                std::to_string(journal_t::schema_version) + " (the version-" +
                std::to_string(journal->migrated_from()) + " file is kept at " +
                journal->migration_backup() + ")");
    log::info("scheduler: journal " + journal->path() + " (synchronous " +
              node::journal_sync_name(journal->sync()) + "): " + std::to_string(jobs.size()) +
              " jobs replayed, " + std::to_string(open) + " unfinished with " +
              std::to_string(queued) + " partitions queued again");
  }
  checker = self->spawn<caf::detached + caf::linked>(scheduler_checker, uploads);
  self->delayed_send(self, timing.tick, tick_atom::value);
}

caf::result<caf::message> scheduler_actor_state::reject(caf::message_view& m) {
  std::string what = caf::to_string(m.copy_content_to_message());
  if (what.size() > 200) what = what.substr(0, 200) + "…";
  return caf::make_error(zk_errc::bad_message, "the scheduler takes no message " + what);
}

void scheduler_actor_state::schedule() {
  // A released key that queued partitions need is loaded again first: it counts as resident from
  // the ask (the prover's worker maps it before it takes any proof), so they are placed at once.
  for (bool again = true; again; again = load_for_queued()) dispatch();
}

void scheduler_actor_state::dispatch() {
  for (const dispatch_t& d : policy.schedule()) {
    job_ref_t& j = jobs.at(d.job);
    const circuit_def_t& c = circuits.at(j.request.circuit);
    const node_ref_t& prover = nodes.at(d.prover);
    part_ref_t& p = parts[{d.job, d.partition}] = part_ref_t{};
    p.where = d;
    p.attempt = ++last_attempt;
    p.report_token = security::random_hex(16);
    held.erase({d.job, d.partition});  // a held buffer goes with the dispatch (the policy sent
                                       // the partition to its node)
    if (rec) rec->end(d.job, d.partition, timeline::stage_t::queued, track);
    // A circuit on `wire: auto`: the partition's synthesis node makes, and its prover takes, the
    // wire the policy chose (node/scheduler/wire_choice.hpp); the timeline marks it.
    const circuit_def_t wired = d.wire ? node::on_wire(c, *d.wire) : c;
    if (d.wire) {
      const bool full = *d.wire == config::wire_t::full;
      if (rec)
        rec->record({d.job, d.partition,
                     full ? timeline::stage_t::wire_full : timeline::stage_t::wire_packed,
                     timeline::phase_t::instant, 0, track, timeline::monotonic_ns(),
                     (full ? c.full_size : c.packed_size).wire_bytes});
      log::info(d.job, d.partition, "wire " + d.wire_reason);
    }
    dispatch_msg m{d.job,           d.partition, j.request.partitions,
                   p.attempt,       wired,       node::partition_spec(j.request.spec, d.partition),
                   prover.endpoint, prover.name, "",
                   j.public_id,     "",          p.report_token};
    if (const node::input_file_t* f = node::file_of(m.input); f && f->stored())
      m.input_ticket =
          node::upload_ticket(upload_key, f->object.ref(), d.job, d.partition, p.attempt);
    if (prover.transfer_key.size() == net::transfer_key_t{}.size()) {
      net::transfer_key_t key;
      std::copy(prover.transfer_key.begin(), prover.transfer_key.end(), key.begin());
      const auto mac = net::ticket_mac(key, d.job, d.partition, p.attempt, c.digest_bytes());
      m.ticket_mac.assign(mac.begin(), mac.end());
    }
    self->send(nodes.at(d.synth).synthesizer, std::move(m));
    journal_part(d.job, d.partition);
  }
}

void scheduler_actor_state::settle(job_id_t job) {
  note_finish(job);
  auto it = jobs.find(job);
  if (it == jobs.end() || it->second.waiters.empty()) return;
  job_status_msg s = make_status(job);
  if (!s.finished) return;
  for (auto& rp : it->second.waiters) {
    if (s.cancelled)
      rp.deliver(caf::make_error(zk_errc::job_cancelled, "job " + s.id + " was cancelled"));
    else if (s.failed)
      rp.deliver(caf::make_error(zk_errc::job_failed, "job " + s.id + ": " + s.error));
    else
      rp.deliver(job_result_msg{s, it->second.proofs});
  }
  it->second.waiters.clear();
}

scheduler_actor::behavior_type scheduler(scheduler_impl_t self, scheduler_config_t cfg) {
  auto& st = self->state;
  st.init(self, cfg);
  self->set_down_handler([self](caf::down_msg& m) {
    guarded_void("a node's loss", [&] { self->state.node_down(m); });
  });
  self->set_default_handler(
      [self](caf::scheduled_actor*, caf::message_view& m) { return self->state.reject(m); });
  return {
      [self](hello_atom, const std::string& nonce) {
        return guarded("hello", [&] { return self->state.hello(nonce); });
      },
      [self](login_atom, const login_msg& m) {
        return guarded("login", [&] { return self->state.login(m); });
      },
      [self](join_atom, const std::string& t, const node_join_msg& m) {
        return guarded("join", [&] { return self->state.join(t, m); });
      },
      [self](submit_atom, const std::string& t, const job_request_msg& r) {
        return guarded("submit", [&] { return self->state.submit(t, r); });
      },
      [self](status_atom, const std::string& t, const std::string& job) {
        return guarded("status", [&] { return self->state.status(t, job); });
      },
      [self](await_atom, const std::string& t, const std::string& job) {
        return guarded("await", [&] { return self->state.await(t, job); });
      },
      [self](proofs_atom, const std::string& t, const std::string& job) {
        return guarded("proofs", [&] { return self->state.proofs(t, job); });
      },
      [self](jobs_atom, const std::string& t, uint32_t limit) {
        return guarded("jobs", [&] { return self->state.job_list(t, limit); });
      },
      [self](cancel_atom, const std::string& t, const std::string& job) {
        return guarded("cancel", [&] { return self->state.cancel(t, job); });
      },
      [self](retry_atom, const std::string& t, const std::string& job) {
        return guarded("retry", [&] { return self->state.retry(t, job); });
      },
      [self](priority_atom, const std::string& t, const std::string& job, priority_t p) {
        return guarded("priority", [&] { return self->state.set_priority(t, job, p); });
      },
      [self](drain_atom, const std::string& t, const std::string& node, bool draining) {
        return guarded("drain", [&] { return self->state.drain(t, node, draining); });
      },
      [self](params_atom, const std::string& t, const std::string& circuit, bool load) {
        return guarded("params", [&] { return self->state.move_params(t, circuit, load); });
      },
      [self](stats_atom, const std::string& t) {
        return guarded("stats", [&] { return self->state.usage(t); });
      },
      [self](metrics_atom, const std::string& t) {
        return guarded("metrics", [&] { return self->state.job_metrics(t); });
      },
      [self](circuits_atom, const std::string& t) {
        return guarded("circuits", [&] { return self->state.circuit_list(t); });
      },
      [self](timeline_atom, const std::string& t) {
        return guarded("timeline", [&] { return self->state.timeline(t); });
      },
      [self](const buffer_ready_msg& m) {
        guarded_void("a buffer report", [&] { self->state.buffer_ready(m); });
      },
      [self](ack_atom, uint64_t job, uint32_t part, uint32_t attempt, double seconds) {
        guarded_void("an acknowledgement",
                     [&] { self->state.acknowledged(job, part, attempt, seconds); });
      },
      [self](started_atom, uint64_t job, uint32_t part, uint32_t attempt) {
        guarded_void("a proof start", [&] { self->state.started(job, part, attempt); });
      },
      [self](const proof_msg& m) { guarded_void("a proof", [&] { self->state.proved(m); }); },
      [self](const failure_msg& m) {
        guarded_void("a failure report", [&] { self->state.failed(m); });
      },
      [self](tick_atom) {
        // Only the scheduler's own timer (a message from elsewhere is ignored: each would start
        // another sweep chain).
        if (self->current_sender() == self->ctrl())
          guarded_void("the retention sweep", [&] { self->state.tick(); });
      },
  };
}
}  // namespace zk::actors
