#include "actors/scheduler.hpp"

#include <stdexcept>

#include "common/util/log.hpp"
#include "node/job_inputs.hpp"

namespace zk::actors {

using namespace zk::node;  // the policy's types

void scheduler_actor_state::init(scheduler_actor::pointer s, const scheduler_config_t& cfg) {
  self = s;
  policy = node::scheduler_policy_t(cfg.lookahead, cfg.max_attempts);
  rec = cfg.recorder;
  track = cfg.track;
  aggregator = cfg.aggregator;
}

caf::result<timeline_actor> scheduler_actor_state::timeline() const {
  if (!aggregator)
    return caf::make_error(zk_errc::bad_request, "this scheduler has no timeline aggregator");
  return aggregator;
}

caf::result<node_id> scheduler_actor_state::join(const node_join_msg& m) {
  for (const auto& [id, n] :
       nodes)  // a second process started for the same node would be counted twice
    if (n.name == m.resources.name && (n.synthesizer || n.prover))
      return caf::make_error(zk_errc::bad_request, "a node named " + n.name +
                                                       " is already in the cluster: stop it first, "
                                                       "or give this one another name");
  node_spec_t spec;
  spec.name = m.resources.name;
  spec.synth = bool(m.synthesizer);
  spec.prover = bool(m.prover);
  spec.cores = std::max(1u, m.resources.cores);
  spec.memory_budget = m.resources.memory_budget;
  spec.hot_keys.insert(m.resources.hot_keys.begin(), m.resources.hot_keys.end());
  node_id id = policy.add_node(spec);
  log::info("node " + spec.name + " joined" + (spec.synth ? " (synth)" : "") +
            (spec.prover ? " (prover)" : ""));
  nodes[id] = {spec.name,  m.synthesizer, m.prover, m.resources.data_endpoint,
               spec.synth, spec.prover};
  if (m.synthesizer) self->monitor(m.synthesizer);
  if (m.prover) self->monitor(m.prover);
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
    // Partitions that were on it are queued again (or failed); forget their old placement, and
    // free a buffer a surviving synthesis node still holds for them (as failed() and cancel() do).
    for (auto it = parts.begin(); it != parts.end();) {
      if (policy.state(it->first.first, it->first.second) == part_state::queued ||
          policy.state(it->first.first, it->first.second) == part_state::failed) {
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

caf::result<caf::ok_atom> scheduler_actor_state::add_circuit(const circuit_def_t& c) {
  if (c.id.empty() || c.buffer_bytes == 0 || c.n_vars == 0)
    return caf::make_error(zk_errc::bad_request,
                           "circuit '" + c.id + "' is not described (no id, size or wires)");
  if (uint8_t(c.priority) > uint8_t(priority_t::low))
    return caf::make_error(zk_errc::bad_request, "circuit '" + c.id + "': priority " +
                                                     std::to_string(int(c.priority)) +
                                                     " is not one of 0..3");
  circuits[c.id] = c;
  policy.add_circuit(to_spec(c));
  return caf::ok_atom::value;
}

caf::result<uint64_t> scheduler_actor_state::submit(const job_request& r) {
  auto c = circuits.find(r.circuit);
  if (c == circuits.end())
    return caf::make_error(zk_errc::bad_request, "unknown circuit '" + r.circuit + "'");
  if (!r.circuit_priority && uint8_t(r.priority) > uint8_t(priority_t::low))
    return caf::make_error(zk_errc::bad_request,
                           "priority " + std::to_string(int(r.priority)) + " is not one of 0..3");
  if (auto why = check_job_inputs(c->second, r.inputs, r.partitions))
    return caf::make_error(zk_errc::bad_request, *why);
  const priority_t prio = r.circuit_priority ? c->second.priority : r.priority;
  const auto submitted = policy.submit(r.circuit, prio, r.partitions);
  if (!submitted)
    return caf::make_error(zk_errc::bad_request, submitted.error());  // e.g. a job no node holds
  const job_id id = submitted.value();
  jobs[id].request = r;
  if (rec)
    for (uint32_t k = 0; k < r.partitions; ++k) rec->begin(id, k, timeline::stage::queued, track);
  schedule();
  return id;
}

job_status_msg scheduler_actor_state::make_status(job_id job) const {
  job_status_t s = policy.status(job);
  job_status_msg m;
  m.id = s.id;
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
  return m;
}

caf::result<job_status_msg> scheduler_actor_state::status(uint64_t job) const {
  if (!jobs.count(job))
    return caf::make_error(zk_errc::unknown_job, "unknown job " + std::to_string(job));
  return make_status(job);
}

caf::result<job_result_msg> scheduler_actor_state::await(uint64_t job) {
  auto it = jobs.find(job);
  if (it == jobs.end())
    return caf::make_error(zk_errc::unknown_job, "unknown job " + std::to_string(job));
  auto rp = self->make_response_promise<job_result_msg>();
  it->second.waiters.push_back(rp);
  settle(job);
  return rp;
}

caf::result<bool> scheduler_actor_state::cancel(uint64_t job) {
  if (!jobs.count(job))
    return caf::make_error(zk_errc::unknown_job, "unknown job " + std::to_string(job));
  if (!policy.cancel(job)) return false;  // already finished
  for (auto it = parts.begin(); it != parts.end();) {
    if (it->first.first != job) {
      ++it;
      continue;
    }
    release_buffer(it->second);
    it = parts.erase(it);
  }
  // Work already handed out (a synthesis running, a proof queued) is dropped where it is.
  for (auto& [id, n] : nodes) {
    if (n.synthesizer) self->send(n.synthesizer, cancel_atom::value, job);
    if (n.prover) self->send(n.prover, cancel_atom::value, job);
  }
  if (rec)
    for (uint32_t k = 0; k < jobs[job].request.partitions; ++k)
      rec->end(job, k, timeline::stage::queued, track);
  settle(job);
  schedule();
  return true;
}

void scheduler_actor_state::release_buffer(part_ref_t& p) {
  if (!p.holds_buffer) return;
  auto n = nodes.find(p.where.synth);
  if (n != nodes.end() && n->second.synthesizer)
    self->send(n->second.synthesizer, release_atom::value, p.buffer_id);
  p.holds_buffer = false;
}

void scheduler_actor_state::buffer_ready(const buffer_ready_msg& m) {
  auto it = parts.find({m.job, m.partition});
  const bool live = it != parts.end();
  const part_state st = live ? policy.state(m.job, m.partition) : part_state::cancelled;
  if (m.in_transit) {  // the synthesis slot is free while the data plane moves the buffer
    if (live && st == part_state::synthesizing) {
      policy.synth_done(m.job, m.partition, m.synth_seconds);
      it->second.in_transit = true;
      schedule();
    }
    return;
  }
  const bool announced = live && it->second.in_transit && m.moved && st == part_state::transferring;
  if (!live || (st != part_state::synthesizing && !announced)) {
    // Late (cancelled, or re-dispatched after a node loss): nobody needs this buffer.
    if (!m.moved) {
      if (auto sender = caf::actor_cast<synthesizer_actor>(self->current_sender()))
        self->send(sender, release_atom::value, m.buffer_id);
    } else {
      for (const auto& [id, n] : nodes)
        if (n.prover && n.endpoint == m.endpoint)
          self->send(n.prover, release_atom::value, m.buffer_id);
    }
    return;
  }
  part_ref_t& p = it->second;
  p.buffer_id = m.buffer_id;
  p.holds_buffer = !m.moved;  // moved: the data plane's ACK already freed the synthesizer's copy
  p.in_transit = false;
  if (!announced) policy.synth_done(m.job, m.partition, m.synth_seconds);
  jobs[m.job].proofs.reserve(jobs[m.job].request.partitions);
  const auto& prover = nodes.at(p.where.prover).prover;
  self->send(prover, prove_request{m, circuits.at(jobs[m.job].request.circuit)});
  schedule();
}

void scheduler_actor_state::acknowledged(uint64_t job, uint32_t part, double seconds) {
  auto it = parts.find({job, part});
  if (it == parts.end()) return;
  policy.transfer_done(job, part, seconds);
  release_buffer(it->second);  // the prover holds it now
  schedule();
}

void scheduler_actor_state::started(uint64_t job, uint32_t part) {
  if (parts.count({job, part})) policy.prove_started(job, part);
}

void scheduler_actor_state::proved(const proof_msg& m) {
  auto it = parts.find({m.job, m.partition});
  if (it == parts.end() || policy.state(m.job, m.partition) != part_state::proving) return;
  policy.prove_done(m.job, m.partition, m.prove_seconds);
  parts.erase(it);
  jobs[m.job].proofs.push_back(m);
  if (rec) rec->instant(m.job, m.partition, timeline::stage::done, track);
  settle(m.job);
  schedule();
}

void scheduler_actor_state::failed(const failure_msg& m) {
  auto it = parts.find({m.job, m.partition});
  if (it == parts.end()) return;
  release_buffer(it->second);
  const std::string code =
      to_string(m.code) + ": ";  // once: a relayed error's text may carry it already
  policy.failed(m.job, m.partition, m.reason.rfind(code, 0) == 0 ? m.reason : code + m.reason);
  parts.erase(it);
  if (policy.state(m.job, m.partition) == part_state::failed)
    log::warn(m.job, m.partition,
              "failed for good, failing its job: " + policy.status(m.job).error);
  if (rec && policy.state(m.job, m.partition) == part_state::queued)
    rec->begin(m.job, m.partition, timeline::stage::queued, track);
  settle(m.job);
  schedule();
}

std::vector<circuit_def_t> scheduler_actor_state::circuit_list() const {
  std::vector<circuit_def_t> out;
  for (const auto& [id, c] : circuits) out.push_back(c);
  return out;
}

std::vector<node_usage_msg> scheduler_actor_state::usage() const {
  std::vector<node_usage_msg> out;
  for (node_id id : policy.nodes()) {
    const node_ref_t& n = nodes.at(id);
    out.push_back({n.name, policy.reserved(id), policy.budget(id), policy.synthesizing(id),
                   policy.pipeline(id), policy.peak_reserved(id), n.joined_synth, n.joined_prover,
                   bool(n.synthesizer || n.prover)});
  }
  return out;
}

caf::result<caf::message> scheduler_actor_state::reject(caf::message_view& m) {
  return caf::make_error(zk_errc::bad_message, "the scheduler takes no message " +
                                                   caf::to_string(m.copy_content_to_message()));
}

void scheduler_actor_state::schedule() {
  for (const dispatch_t& d : policy.schedule()) {
    job_ref_t& j = jobs.at(d.job);
    parts[{d.job, d.partition}] = part_ref_t{d};
    if (rec) rec->end(d.job, d.partition, timeline::stage::queued, track);
    self->send(
        nodes.at(d.synth).synthesizer,
        dispatch_msg{d.job, d.partition, j.request.partitions, circuits.at(j.request.circuit),
                     j.request.inputs, nodes.at(d.prover).endpoint});
  }
}

void scheduler_actor_state::settle(job_id job) {
  auto it = jobs.find(job);
  if (it == jobs.end() || it->second.waiters.empty()) return;
  job_status_msg s = make_status(job);
  if (!s.finished) return;
  for (auto& rp : it->second.waiters) {
    if (s.cancelled)
      rp.deliver(
          caf::make_error(zk_errc::job_cancelled, "job " + std::to_string(job) + " was cancelled"));
    else if (s.failed)
      rp.deliver(
          caf::make_error(zk_errc::job_failed, "job " + std::to_string(job) + ": " + s.error));
    else
      rp.deliver(job_result_msg{s, it->second.proofs});
  }
  it->second.waiters.clear();
}

scheduler_actor::behavior_type scheduler(scheduler_impl self, scheduler_config_t cfg) {
  self->state.init(self, cfg);
  self->set_down_handler([self](caf::down_msg& m) { self->state.node_down(m); });
  self->set_default_handler(
      [self](caf::scheduled_actor*, caf::message_view& m) { return self->state.reject(m); });
  return {
      [self](join_atom, const node_join_msg& m) { return self->state.join(m); },
      [self](register_atom, const circuit_def_t& c) { return self->state.add_circuit(c); },
      [self](submit_atom, const job_request& r) { return self->state.submit(r); },
      [self](status_atom, uint64_t job) { return self->state.status(job); },
      [self](await_atom, uint64_t job) { return self->state.await(job); },
      [self](cancel_atom, uint64_t job) { return self->state.cancel(job); },
      [self](stats_atom) { return self->state.usage(); },
      [self](circuits_atom) { return self->state.circuit_list(); },
      [self](timeline_atom) { return self->state.timeline(); },
      [self](const buffer_ready_msg& m) { self->state.buffer_ready(m); },
      [self](ack_atom, uint64_t job, uint32_t part, double seconds) {
        self->state.acknowledged(job, part, seconds);
      },
      [self](started_atom, uint64_t job, uint32_t part) { self->state.started(job, part); },
      [self](const proof_msg& m) { self->state.proved(m); },
      [self](const failure_msg& m) { self->state.failed(m); },
  };
}

}  // namespace zk::actors
