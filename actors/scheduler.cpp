#include "actors/scheduler.hpp"

#include <chrono>
#include <cmath>
#include <stdexcept>

#include "common/net/endpoint.hpp"
#include "common/net/ticket.hpp"
#include "common/util/log.hpp"
#include "node/job_inputs.hpp"
#include "node/verify_proof.hpp"
#include "zk/base/clock.hpp"

namespace zk::actors {

using namespace zk::node;  // the policy's types
using security::role_t;

namespace {

using check_atom = caf::atom_constant<caf::atom("check")>;
using verify_atom = caf::atom_constant<caf::atom("verify")>;
using collect_atom = caf::atom_constant<caf::atom("collect")>;

constexpr size_t max_id_length = 128;     // circuit ids, job ids, node names
constexpr size_t max_path_length = 4096;  // one input
constexpr auto check_timeout = std::chrono::seconds(60);

// The scheduler's file and proof checks, on a thread of their own (detached): input paths (they
// may sit on a slow or hung disk; an upload is checked as the file it was stored as) and the
// pairing check of every proof. Each answers nothing when the check passes, else the refusal:
// bad_request for inputs, prove_failed for a proof (any other error: the check itself failed).
caf::behavior scheduler_checker(caf::event_based_actor*,
                                std::shared_ptr<node::upload_store_t> uploads) {
  return {
      [uploads](check_atom, const circuit_def_t& c, const std::vector<std::string>& inputs,
                uint32_t partitions, const std::vector<std::string>& roots) -> caf::result<void> {
        auto refuse = [](const std::string& why) {
          return caf::make_error(zk_errc::bad_request, why);
        };
        try {
          std::vector<std::string> paths, files;  // paths: under input_roots; files: all, resolved
          for (const auto& in : inputs) {
            if (!node::is_upload(in)) {
              paths.push_back(in);
              files.push_back(in);
              continue;
            }
            auto p = uploads ? uploads->path_of(in) : std::nullopt;
            if (!p)
              return refuse("input " + in.substr(0, 100) +
                            " is not an upload this scheduler holds (PUT /v1/uploads first)");
            files.push_back(*p);
          }
          if (auto why = check_input_roots(c, paths, roots)) return refuse(*why);
          if (auto why = check_job_inputs(c, files, partitions)) return refuse(*why);
          return caf::unit;
        } catch (const std::exception& e) {
          return refuse(std::string("checking the inputs failed: ") + e.what());
        }
      },
      [uploads](collect_atom, const std::vector<std::string>& in_use) -> size_t {
        if (!uploads) return 0;
        const size_t gone = uploads->collect({in_use.begin(), in_use.end()}, std::chrono::hours(1));
        if (gone) log::info("scheduler: " + std::to_string(gone) + " uploads no job names freed");
        return gone;
      },
      [](verify_atom, const circuit_def_t& c, const std::string& proof,
         const std::vector<std::string>& pub, const std::string& expected) -> caf::result<void> {
        auto refuse = [](const std::string& why) {
          return caf::make_error(zk_errc::prove_failed, why);
        };
        try {
          if (expected.size() != 32 || public_digest(pub) != expected)
            return refuse("its public signals are not those of the witness it was sent");
          auto v = verify_proof(c, proof, pub);
          if (!v) return refuse("the proof fails the pairing check: " + v.reason);
          return caf::unit;
        } catch (const std::exception& e) {
          return refuse(std::string("the proof cannot be read: ") + e.what());
        }
      },
  };
}

// The checker's refusal (an error of zkfleet's with this code), or nullopt when the error is of
// the check itself (a timeout, the checker gone).
std::optional<std::string> refusal(const caf::error& e, zk_errc code) {
  if (e.category() != caf::atom("zkfleet") || zk_errc(e.code()) != code) return std::nullopt;
  return reason_of(e);
}

// A handler that throws answers with an internal error naming what failed (every request is
// checked before it is acted on: an exception is the scheduler's failure, not the caller's), and
// the actor lives on.
template <class F>
auto guarded(const char* what, F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const std::exception& e) {
    log::error(std::string("scheduler: ") + what + " failed: " + e.what());
    return caf::make_error(zk_errc::internal, std::string(what) + " failed: " + e.what());
  }
}
template <class F>
void guarded_void(const char* what, F&& f) {
  try {
    f();
  } catch (const std::exception& e) {
    log::error(std::string("scheduler: ") + what + " failed: " + e.what());
  }
}

int64_t unix_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// The journal's name of a finished job's state.
const char* finish_state(const job_status_t& s) {
  return s.cancelled ? "cancelled" : s.failed ? "failed" : "done";
}

constexpr size_t max_held = 4096;  // kept buffers named in one join

}  // namespace

std::optional<std::string> check_circuit(const circuit_def_t& c) {
  if (c.id.empty() || c.id.size() > max_id_length || c.buffer_bytes == 0 || c.n_vars == 0)
    return "circuit '" + c.id.substr(0, max_id_length) +
           "' is not described (no id, size or wires)";
  if (uint8_t(c.priority) > uint8_t(priority_t::low))
    return "circuit '" + c.id + "': priority " + std::to_string(int(c.priority)) +
           " is not one of 0..3";
  return std::nullopt;
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
    if (auto why = check_circuit(c)) throw std::invalid_argument(*why);
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
    log::info("scheduler: journal " + journal->path() + " (synchronous " +
              node::journal_sync_name(journal->sync()) + "): " + std::to_string(jobs.size()) +
              " jobs replayed, " + std::to_string(open) + " unfinished with " +
              std::to_string(queued) + " partitions queued again");
  }
  checker = self->spawn<caf::detached + caf::linked>(scheduler_checker, uploads);
  self->delayed_send(self, timing.tick, tick_atom::value);
}

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
  std::vector<bool> done(jj.partitions, false);
  for (const auto& p : jj.proofs)
    if (p.partition < jj.partitions) done[p.partition] = true;
  if (!policy.restore(jj.seq, jj.circuit, priority_t(jj.priority), jj.partitions, done, jj.attempts,
                      open ? "open" : jj.state, jj.error)) {
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
  j.request.inputs = jj.inputs;
  for (const auto& p : jj.proofs) {
    j.proofs.push_back(
        {jj.seq, p.partition, 0, p.proof_json, p.public_signals, 0, p.prove_seconds, 0, ""});
    j.proved_by[p.partition] = p.prover;
  }
  if (!open) {
    j.finish_noted = true;
    const auto age = std::chrono::milliseconds(std::max<int64_t>(0, unix_ms() - jj.finished_ms));
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

// --- identities ------------------------------------------------------------------------------

util::result_t<security::identity_t, caf::error> scheduler_actor_state::who(
    const std::string& token, std::optional<role_t> role) const {
  auto id = token.size() <= max_id_length ? sessions->find(token) : std::nullopt;
  if (!id) return caf::make_error(zk_errc::unauthenticated, "no valid session: log in first");
  if (role && id->role != *role)
    return caf::make_error(zk_errc::forbidden, std::string("a ") + security::role_name(id->role) +
                                                   " may not do that (only a " +
                                                   security::role_name(*role) + ")");
  return *id;
}

caf::result<hello_msg> scheduler_actor_state::hello(const std::string& nonce) {
  auto h = sessions->hello(nonce);
  if (!h) return caf::make_error(zk_errc::bad_request, h.error());
  return hello_msg{h->challenge, sessions->secure(), h->scheduler_cert, h->signature};
}

caf::result<std::string> scheduler_actor_state::login(const login_msg& m) {
  const auto& sender = self->current_sender();
  const std::string caller = sender ? caf::to_string(sender->node()) : "";
  auto t = sessions->login(
      {m.name, m.node ? role_t::node : role_t::client, m.cert_pem, m.challenge, m.signature},
      caller);
  if (!t) {
    log::warn("refused a login from " + caller + ": " + t.error());
    return caf::make_error(zk_errc::unauthenticated, t.error());
  }
  log::info(std::string(m.node ? "node " : "client ") + m.name + " logged in");
  return t->token;
}

// --- nodes -----------------------------------------------------------------------------------

caf::result<node_id_t> scheduler_actor_state::join(const std::string& token,
                                                   const node_join_msg& m) {
  auto id_of = who(token, role_t::node);
  if (!id_of) return id_of.error();
  const auto& r = m.resources;
  if (id_of->name != r.name) {
    log::warn("refused a join as " + r.name.substr(0, max_id_length) + " from node " + id_of->name +
              ": a node joins only under its certificate's name");
    return caf::make_error(zk_errc::forbidden,
                           "node " + id_of->name + " may join only as " + id_of->name);
  }
  if (r.data_endpoint.size() > max_path_length || r.hot_keys.size() > circuits.size() ||
      r.backend.size() > max_id_length)
    return caf::make_error(zk_errc::bad_request, "the join of " + r.name + " is malformed");
  for (const auto& k : r.hot_keys)
    if (!circuits.count(k))
      return caf::make_error(zk_errc::bad_request, "node " + r.name + ": hot circuit '" +
                                                       k.substr(0, max_id_length) +
                                                       "' is not a circuit of this scheduler");
  const auto ep = net::data_endpoint_t::parse(r.data_endpoint);
  if (m.prover && (!ep || (ep->is_tcp() && r.transfer_key.size() != net::transfer_key_t{}.size())))
    return caf::make_error(
        zk_errc::bad_request,
        "node " + r.name + ": a prover needs a data endpoint and its transfer key");
  for (const auto& [id, n] : nodes)  // a second process for the same node would count twice
    if (n.name == r.name && (n.synthesizer || n.prover))
      return caf::make_error(zk_errc::bad_request, "a node named " + n.name +
                                                       " is already in the cluster: stop it first, "
                                                       "or give this one another name");
  node_spec_t spec;
  spec.name = r.name;
  spec.synth = bool(m.synthesizer);
  spec.prover = bool(m.prover);
  spec.cores = std::min(1024u, std::max(1u, r.cores));
  spec.memory_budget = r.memory_budget;
  spec.hot_keys.insert(r.hot_keys.begin(), r.hot_keys.end());
  node_id_t id = policy.add_node(spec);
  log::info("node " + spec.name + " joined" + (spec.synth ? " (synth)" : "") +
            (spec.prover ? " (prover)" : ""));
  nodes[id] = {spec.name,      m.synthesizer, m.prover,    r.data_endpoint,
               r.transfer_key, spec.synth,    spec.prover, m.prover ? r.backend : ""};
  if (m.synthesizer) self->monitor(m.synthesizer);
  if (m.prover) self->monitor(m.prover);
  // Finished buffers it kept (it outlived its scheduler, or a send failed): each goes to the
  // queued partition it is for, held there; any other is freed.
  size_t kept = 0;
  for (size_t i = 0; m.synthesizer && i < m.held.size(); ++i) {
    const held_buffer_msg& h = m.held[i];
    auto j = jobs.find(h.job);
    const bool wanted = i < max_held && j != jobs.end() && j->second.public_id == h.job_key &&
                        h.partition < j->second.request.partitions &&
                        policy.hold(h.job, h.partition, id);
    if (wanted) {
      held[{h.job, h.partition}] = {id, h.buffer_id};
      ++kept;
    } else {
      self->send(m.synthesizer, release_atom::value, h.buffer_id);
    }
  }
  if (!m.held.empty())
    log::info("node " + spec.name + " holds " + std::to_string(m.held.size()) +
              " finished buffers: " + std::to_string(kept) + " kept for their partitions");
  schedule();
  return id;
}

void scheduler_actor_state::node_down(const caf::down_msg& m) {
  for (auto& [id, n] : nodes) {
    if (n.synthesizer.address() != m.source && n.prover.address() != m.source) continue;
    log::warn("node " + n.name +
              " lost: its partitions in flight are queued again, or failed past max_attempts");
    policy.remove_node(id,
                       to_string(zk_errc::node_lost) + ": node " + n.name + " left the cluster");
    n.synthesizer = nullptr;
    n.prover = nullptr;
    for (auto h = held.begin(); h != held.end();)  // its buffers went with it
      h = h->second.first == id ? held.erase(h) : std::next(h);
    // Partitions that were on it are queued again (or failed); forget their old placement (a
    // late report of that attempt is then dropped), and free a buffer a surviving synthesis node
    // still holds for them (as failed() and cancel() do).
    for (auto it = parts.begin(); it != parts.end();) {
      const part_state_t st = policy.state(it->first.first, it->first.second);
      if (st == part_state_t::queued || st == part_state_t::failed) {
        release_buffer(it->second);
        it = parts.erase(it);
      } else {
        ++it;
      }
    }
  }
  for (auto& [id, j] : jobs) settle(id);
  schedule();
}

// --- jobs ------------------------------------------------------------------------------------

caf::result<std::string> scheduler_actor_state::submit(const std::string& token,
                                                       const job_request_msg& r) {
  auto client = who(token, role_t::client);
  if (!client) return client.error();
  auto c = circuits.find(r.circuit);
  if (c == circuits.end())
    return caf::make_error(zk_errc::bad_request,
                           "unknown circuit '" + r.circuit.substr(0, max_id_length) + "'");
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
  if (r.inputs.size() > r.partitions)
    return caf::make_error(zk_errc::bad_request, std::to_string(r.inputs.size()) + " inputs for " +
                                                     std::to_string(r.partitions) +
                                                     " partitions: at most one per partition");
  for (const auto& in : r.inputs)
    if (in.size() > max_path_length)
      return caf::make_error(
          zk_errc::bad_request,
          "an input is longer than " + std::to_string(max_path_length) + " characters");
  const std::string owner = client->name;
  uint32_t open = pending_submits[owner];
  for (const auto& [id, j] : jobs)
    if (j.owner == owner && !policy.status(id).finished()) ++open;
  if (open >= limits.max_queued_jobs)
    return caf::make_error(
        zk_errc::bad_request,
        "client " + owner + " has " + std::to_string(open) +
            " unfinished jobs, the most it may have (scheduler.max_queued_jobs)");
  // The inputs' files are checked off this actor (a slow disk must not stall the cluster).
  auto rp = self->make_response_promise<std::string>();
  ++pending_submits[owner];
  auto done = [this, owner] {
    if (--pending_submits[owner] == 0) pending_submits.erase(owner);
  };
  self->request(checker, check_timeout, check_atom::value, c->second, r.inputs, r.partitions,
                limits.input_roots)
      .then(
          [this, rp, r, owner, done]() mutable {
            done();
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
                jj.inputs = r.inputs;
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

util::result_t<job_id_t, caf::error> scheduler_actor_state::owned_job(
    const std::string& token, const std::string& public_id) const {
  auto client = who(token, role_t::client);
  if (!client) return client.error();
  auto it = by_public_id.find(public_id);
  // Someone else's job is answered as an unknown one: ids are not probed through this.
  if (it == by_public_id.end() ||
      (client->name != "admin" && jobs.at(it->second).owner != client->name))
    return caf::make_error(zk_errc::unknown_job,
                           "unknown job " + public_id.substr(0, max_id_length));
  return it->second;
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

// --- workers' reports ------------------------------------------------------------------------

scheduler_actor_state::part_ref_t* scheduler_actor_state::reporter_part(uint64_t job, uint32_t part,
                                                                        uint32_t attempt,
                                                                        bool synth, bool prover,
                                                                        const char* what,
                                                                        const std::string* token) {
  auto it = parts.find({job, part});
  if (it == parts.end()) return nullptr;  // late (cancelled, requeued, done): nothing to say
  part_ref_t& p = it->second;
  const auto& sender = self->current_sender();
  const auto from = sender ? sender->address() : caf::actor_addr{};
  auto n_synth = nodes.find(p.where.synth), n_prover = nodes.find(p.where.prover);
  const bool by_synth =
      synth && n_synth != nodes.end() && from && n_synth->second.synthesizer.address() == from;
  const bool by_prover =
      prover && n_prover != nodes.end() && from && n_prover->second.prover.address() == from;
  if (!by_synth && !by_prover) {
    log::warn(job, part,
              std::string("ignored a ") + what + " from an actor this partition is not on");
    return nullptr;
  }
  if (token && *token != p.report_token) {  // the sender's address alone is a peer's word
    log::warn(job, part, std::string("ignored a ") + what + " without this attempt's token");
    return nullptr;
  }
  if (attempt != p.attempt) {
    log::info(job, part,
              std::string("ignored a late ") + what + " (attempt " + std::to_string(attempt) +
                  ", now " + std::to_string(p.attempt) + ")");
    return nullptr;
  }
  return &p;
}

void scheduler_actor_state::release_buffer(part_ref_t& p) {
  if (!p.holds_buffer) return;
  auto n = nodes.find(p.where.synth);
  if (n != nodes.end() && n->second.synthesizer)
    self->send(n->second.synthesizer, release_atom::value, p.buffer_id);
  p.holds_buffer = false;
}

void scheduler_actor_state::buffer_ready(const buffer_ready_msg& m) {
  // A buffer nobody needs (late, cancelled, re-dispatched after a node loss) is freed where it
  // is, but only on the word of the actor that holds it: a "moved" one at the prover it names.
  auto free_unneeded = [&] {
    const auto& sender = self->current_sender();
    if (!sender) return;
    // A synthesis node's own buffer is freed on its word. A "moved" one, at a prover, is not:
    // that word would let one synthesis node free any prover's buffers; the prover's data
    // server frees what no prove request claims (net::server_options_t::unclaimed_timeout).
    for (const auto& [id, n] : nodes)
      if (!m.moved && n.synthesizer && n.synthesizer.address() == sender->address())
        self->send(n.synthesizer, release_atom::value, m.buffer_id);
  };
  auto it = parts.find({m.job, m.partition});
  if (it == parts.end()) return free_unneeded();
  part_ref_t* p =
      reporter_part(m.job, m.partition, m.attempt, true, false, "buffer report", &m.report_token);
  if (!p) return;
  const part_state_t st = policy.state(m.job, m.partition);
  if (m.public_digest.size() != 32) {  // a proof could not be bound to its witness
    free_unneeded();
    failed({m.job, m.partition, m.attempt, zk_errc::synth_failed,
            "the buffer report names no digest of the witness's public signals", m.report_token});
    return;
  }
  if (p->public_digest.empty()) p->public_digest = m.public_digest;
  if (m.in_transit) {  // the synthesis slot is free while the data plane moves the buffer
    if (st == part_state_t::synthesizing) {
      policy.synth_done(m.job, m.partition, m.synth_seconds);
      note_slowest(m.job, 0, m.synth_seconds);
      p->in_transit = true;
      p->buffer_id = m.buffer_id;  // the sender's: kept here should its send fail
      schedule();
    }
    return;
  }
  const bool announced = p->in_transit && m.moved && st == part_state_t::transferring;
  if (st != part_state_t::synthesizing && !announced) return free_unneeded();
  p->buffer_id = m.buffer_id;
  p->holds_buffer = !m.moved;  // moved: the data plane's ACK already freed the synthesizer's copy
  p->in_transit = false;
  if (!announced) {
    policy.synth_done(m.job, m.partition, m.synth_seconds);
    note_slowest(m.job, 0, m.synth_seconds);
  }
  jobs[m.job].proofs.reserve(jobs[m.job].request.partitions);
  const auto& prover = nodes.at(p->where.prover).prover;
  self->send(prover, prove_request_msg{m, circuits.at(jobs[m.job].request.circuit)});
  schedule();
}

void scheduler_actor_state::acknowledged(uint64_t job, uint32_t part, uint32_t attempt,
                                         double seconds) {
  part_ref_t* p = reporter_part(job, part, attempt, false, true, "buffer acknowledgement", nullptr);
  if (!p) return;
  policy.transfer_done(job, part, seconds);
  note_slowest(job, 1, seconds);
  release_buffer(*p);  // the prover holds it now
  schedule();
}

void scheduler_actor_state::started(uint64_t job, uint32_t part, uint32_t attempt) {
  if (reporter_part(job, part, attempt, false, true, "proof start", nullptr))
    policy.prove_started(job, part);
}

void scheduler_actor_state::proved(const proof_msg& m) {
  part_ref_t* p =
      reporter_part(m.job, m.partition, m.attempt, false, true, "proof", &m.report_token);
  if (!p || p->verifying || policy.state(m.job, m.partition) != part_state_t::proving) return;
  if (m.proof_json.size() > (1u << 20) || m.public_signals.size() > (1u << 20)) {
    failed({m.job, m.partition, m.attempt, zk_errc::prove_failed, "the proof is oversized",
            m.report_token});
    return;
  }
  // The pairing check runs off this actor; the partition stays PROVING until it answers.
  p->verifying = true;
  const std::string prover = nodes.at(p->where.prover).name;
  self->request(checker, check_timeout, verify_atom::value,
                circuits.at(jobs.at(m.job).request.circuit), m.proof_json, m.public_signals,
                p->public_digest)
      .then(
          [this, m] {
            auto it = parts.find({m.job, m.partition});
            if (it == parts.end() || it->second.attempt != m.attempt) return;  // moved on
            it->second.verifying = false;
            accept_proof(m);
          },
          [this, m, prover](caf::error& e) {
            auto it = parts.find({m.job, m.partition});
            if (it == parts.end() || it->second.attempt != m.attempt) return;  // moved on
            if (auto why = refusal(e, zk_errc::prove_failed)) {
              log::warn(m.job, m.partition, "refused the proof of node " + prover + ": " + *why);
              policy.failed(m.job, m.partition,
                            to_string(zk_errc::prove_failed) + ": node " + prover + ": " + *why);
              journal_part(m.job, m.partition);
              release_buffer(it->second);
            } else {
              policy.failed(m.job, m.partition, "the proof could not be checked: " + describe(e));
            }
            parts.erase(it);
            settle(m.job);
            schedule();
          });
}

void scheduler_actor_state::accept_proof(const proof_msg& m) {
  if (policy.state(m.job, m.partition) != part_state_t::proving) return;
  auto p = parts.find({m.job, m.partition});
  const std::string prover = p != parts.end() && nodes.count(p->second.where.prover)
                                 ? nodes.at(p->second.where.prover).name
                                 : "";
  if (journal) {  // journaled before it counts as done
    try {
      journal->add_proof(m.job, {m.partition, m.proof_json, m.public_signals,
                                 std::isfinite(m.prove_seconds) ? m.prove_seconds : 0, prover});
    } catch (const std::exception& e) {
      log::error(m.job, m.partition, std::string("the journal refused the proof: ") + e.what());
      if (p != parts.end()) release_buffer(p->second);
      policy.failed(m.job, m.partition,
                    std::string("the scheduler could not journal the proof: ") + e.what());
      journal_part(m.job, m.partition);
      parts.erase({m.job, m.partition});
      settle(m.job);
      schedule();
      return;
    }
  }
  policy.prove_done(m.job, m.partition, m.prove_seconds);
  note_slowest(m.job, 2, m.prove_seconds);
  log::info(m.job, m.partition, "proof accepted");
  parts.erase({m.job, m.partition});
  jobs[m.job].proofs.push_back(m);
  jobs[m.job].proved_by[m.partition] = prover;
  if (rec) rec->instant(m.job, m.partition, timeline::stage_t::done, track);
  settle(m.job);
  schedule();
}

void scheduler_actor_state::failed(const failure_msg& m) {
  part_ref_t* p =
      reporter_part(m.job, m.partition, m.attempt, true, true, "failure report", &m.report_token);
  if (!p) return;
  release_buffer(*p);
  const std::string code =
      to_string(m.code) + ": ";  // once: a relayed error's text may carry it already
  const std::string reason = m.reason.substr(0, 4096);
  const std::string why = reason.rfind(code, 0) == 0 ? reason : code + reason;
  const node_id_t synth = p->where.synth;
  const uint64_t buffer_id = p->buffer_id;
  // A buffer its prover did not take is the prover's failure, not the partition's: queued again
  // without an attempt spent, and sent from where it is when its synthesizer kept it.
  const bool by_synth = nodes.count(synth) && self->current_sender() &&
                        nodes.at(synth).synthesizer.address() == self->current_sender()->address();
  if (m.code == zk_errc::send_failed && by_synth &&
      policy.send_failed(m.job, m.partition, why, m.kept)) {
    const node_id_t prover = p->where.prover;
    if (!paused_until.count(prover) && nodes.count(prover))
      log::warn("scheduler: prover " + nodes.at(prover).name + " gets no new work for " +
                format_duration(timing.prover_pause) + ": a buffer could not be sent to it");
    policy.pause(prover, true);
    paused_until[prover] = std::chrono::steady_clock::now() + timing.prover_pause;
  } else {
    policy.failed(m.job, m.partition, why);
  }
  if (synth && policy.held_on(m.job, m.partition) == synth)
    held[{m.job, m.partition}] = {synth, buffer_id};
  journal_part(m.job, m.partition);
  parts.erase({m.job, m.partition});
  if (policy.state(m.job, m.partition) == part_state_t::failed)
    log::warn(m.job, m.partition,
              "failed for good, failing its job: " + policy.status(m.job).error);
  if (rec && policy.state(m.job, m.partition) == part_state_t::queued)
    rec->begin(m.job, m.partition, timeline::stage_t::queued, track);
  settle(m.job);
  schedule();
}

void scheduler_actor_state::note_slowest(job_id_t job, int stage, double seconds) {
  auto j = jobs.find(job);
  if (j == jobs.end() || !std::isfinite(seconds)) return;
  auto& s = slowest[j->second.request.circuit];
  s[stage] = std::max(s[stage], seconds);
}

// Every partition's stage has a deadline: the larger of stage_timeout and four times the slowest
// that stage has taken for its circuit. One past it is failed (an attempt spent) and queued again;
// whatever its node still does for that attempt is ignored when it reports.
void scheduler_actor_state::check_deadlines(std::chrono::steady_clock::time_point now) {
  std::vector<std::pair<std::pair<job_id_t, uint32_t>, std::string>> late;
  for (auto& [key, p] : parts) {
    const part_state_t st = policy.state(key.first, key.second);
    if (st != p.stage) {
      p.stage = st;
      p.stage_since = now;
      continue;
    }
    const int which = st == part_state_t::synthesizing   ? 0
                      : st == part_state_t::transferring ? 1
                      : st == part_state_t::proving      ? 2
                                                         : -1;
    if (which < 0 || p.verifying) continue;
    const auto& s = slowest[jobs.at(key.first).request.circuit];
    const auto deadline = std::max<std::chrono::milliseconds>(
        timing.stage_timeout, std::chrono::milliseconds(int64_t(4000 * s[which])));
    if (now - p.stage_since > deadline)
      late.push_back({key, std::string(part_state_name(st)) + " took longer than its deadline (" +
                               format_duration(deadline) + ")"});
  }
  for (const auto& [key, why] : late) {
    auto it = parts.find(key);
    log::warn(key.first, key.second, why + ": queued again");
    release_buffer(it->second);
    policy.failed(key.first, key.second, "deadline: " + why);
    journal_part(key.first, key.second);
    parts.erase(it);
    if (rec && policy.state(key.first, key.second) == part_state_t::queued)
      rec->begin(key.first, key.second, timeline::stage_t::queued, track);
    settle(key.first);
  }
}

// A job whose queued partitions no live node can hold waits (status says why), and fails after
// placement_timeout.
void scheduler_actor_state::check_placement(std::chrono::steady_clock::time_point now) {
  for (auto& [id, j] : jobs) {
    if (policy.status(id).finished()) continue;
    auto why = policy.waiting_reason(id);
    if (!why) {
      j.unplaceable_since.reset();
      continue;
    }
    if (!j.unplaceable_since) j.unplaceable_since = now;
    if (now - *j.unplaceable_since < timing.placement_timeout) continue;
    const std::string reason = "no live node could take it within scheduler.placement_timeout (" +
                               format_duration(timing.placement_timeout) + "): " + *why;
    log::warn("scheduler: job " + std::to_string(id) + " fails: " + reason);
    policy.fail_queued(id, reason);
    settle(id);
  }
}

// Finished jobs stay `retention` for status and await, then go (memory stays bounded).
void scheduler_actor_state::tick() {
  const auto now = std::chrono::steady_clock::now();
  check_deadlines(now);
  check_placement(now);
  if (uploads && ++ticks_since_collect * timing.tick >= std::chrono::minutes(1)) {
    ticks_since_collect = 0;
    std::vector<std::string> in_use;  // every input of every job still kept (retention included)
    for (const auto& [id, j] : jobs)
      in_use.insert(in_use.end(), j.request.inputs.begin(), j.request.inputs.end());
    // Off the actor (a directory scan); an upload no job names yet keeps an hour's grace.
    self->request(checker, check_timeout, collect_atom::value, in_use)
        .then([](size_t) {}, [](caf::error&) {});
  }
  for (auto it = paused_until.begin(); it != paused_until.end();) {
    if (it->second > now) {
      ++it;
      continue;
    }
    policy.pause(it->first, false);
    it = paused_until.erase(it);
  }
  for (auto it = jobs.begin(); it != jobs.end();) {
    job_ref_t& j = it->second;
    if (!policy.status(it->first).finished()) {
      ++it;
      continue;
    }
    if (!j.finished_at) j.finished_at = now;
    if (j.waiters.empty() && now - *j.finished_at >= limits.retention && policy.forget(it->first)) {
      if (journal) guarded_void("the journal", [&] { journal->forget_job(it->first); });
      by_public_id.erase(j.public_id);
      it = jobs.erase(it);
    } else {
      ++it;
    }
  }
  schedule();
  self->delayed_send(self, timing.tick, tick_atom::value);
}

// --- queries ---------------------------------------------------------------------------------

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
  for (node_id_t nid : policy.nodes()) {
    const node_ref_t& n = nodes.at(nid);
    out.push_back({n.name, policy.reserved(nid), policy.budget(nid), policy.synthesizing(nid),
                   policy.pipeline(nid), policy.peak_reserved(nid), n.joined_synth, n.joined_prover,
                   bool(n.synthesizer || n.prover), n.backend});
  }
  return out;
}

caf::result<timeline_actor> scheduler_actor_state::timeline(const std::string& token) const {
  auto id = who(token, std::nullopt);
  if (!id) return id.error();
  if (!aggregator)
    return caf::make_error(zk_errc::bad_request, "this scheduler has no timeline aggregator");
  return aggregator;
}

caf::result<caf::message> scheduler_actor_state::reject(caf::message_view& m) {
  std::string what = caf::to_string(m.copy_content_to_message());
  if (what.size() > 200) what = what.substr(0, 200) + "…";
  return caf::make_error(zk_errc::bad_message, "the scheduler takes no message " + what);
}

void scheduler_actor_state::schedule() {
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
    dispatch_msg m{d.job,           d.partition, j.request.partitions,
                   p.attempt,       c,           j.request.inputs,
                   prover.endpoint, prover.name, "",
                   j.public_id,     {},          p.report_token};
    for (const auto& in : j.request.inputs)
      m.input_tickets.push_back(
          node::is_upload(in) ? node::upload_ticket(upload_key, in, d.job, d.partition, p.attempt)
                              : "");
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
      [self](stats_atom, const std::string& t) {
        return guarded("stats", [&] { return self->state.usage(t); });
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
