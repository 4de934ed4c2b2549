// The scheduler's workers' reports: buffers, acknowledgements, proofs, failures.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <exception>
#include <string>

#include "actors/scheduler_internal.hpp"
#include "common/util/log.hpp"
#include "node/job_spec.hpp"
#include "zk/base/clock.hpp"

namespace zk::actors {

using namespace zk::node;  // the policy's types
using security::role_t;

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
  // A kind whose intake derived the partition's public inputs (Filecoin) binds the buffer to
  // them: a synthesis node cannot put another sector's witness in its place.
  if (auto want = node::expected_public_digest(jobs.at(m.job).request.spec, m.partition);
      want && *want != m.public_digest) {
    free_unneeded();
    failed({m.job, m.partition, m.attempt, zk_errc::synth_failed,
            "the synthesized partition's public inputs are not those derived from its C1 at "
            "intake",
            m.report_token});
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
  p->buffer_bytes = m.size;
  const circuit_def_t& c = circuits.at(jobs[m.job].request.circuit);
  self->send(prover, prove_request_msg{m, p->where.wire ? node::on_wire(c, *p->where.wire) : c});
  schedule();
}

void scheduler_actor_state::acknowledged(uint64_t job, uint32_t part, uint32_t attempt,
                                         double seconds) {
  part_ref_t* p = reporter_part(job, part, attempt, false, true, "buffer acknowledgement", nullptr);
  if (!p) return;
  policy.transfer_done(job, part, seconds,
                       p->buffer_bytes ? p->buffer_bytes + buffer::synth_header_size : 0);
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
                            to_string(zk_errc::prove_failed) + ": node " + prover + ": " + *why,
                            failure_t::proof_refused);
              journal_part(m.job, m.partition);
              release_buffer(it->second);
            } else {
              policy.failed(m.job, m.partition, "the proof could not be checked: " + describe(e),
                            failure_t::internal);
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
                    std::string("the scheduler could not journal the proof: ") + e.what(),
                    failure_t::internal);
      journal_part(m.job, m.partition);
      parts.erase({m.job, m.partition});
      settle(m.job);
      schedule();
      return;
    }
  }
  policy.prove_done(m.job, m.partition, m.prove_seconds, m.build_ab_seconds);
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
    // An input no attempt can prove (its synthesis node checked the witness against the r1cs):
    // the job fails now, no prover time spent on it again.
    const bool hopeless = m.code == zk_errc::bad_input && by_synth;
    // Its category by the node's code (a fixed set): a prover's, unless synthesis failed.
    const failure_t kind = m.code == zk_errc::bad_input      ? failure_t::bad_input
                           : m.code == zk_errc::synth_failed ? failure_t::synth_failed
                           : m.code == zk_errc::node_lost    ? failure_t::node_lost
                           : m.code == zk_errc::send_failed  ? failure_t::send_failed
                           : m.code == zk_errc::internal     ? failure_t::internal
                           : by_synth                        ? failure_t::synth_failed
                                                             : failure_t::prove_failed;
    policy.failed(
        m.job, m.partition, why, kind,
        hopeless ? scheduler_policy_t::retry_t::never : scheduler_policy_t::retry_t::allowed);
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

}  // namespace zk::actors
