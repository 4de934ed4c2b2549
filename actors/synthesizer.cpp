// The synthesizer actor of a synthesis node (synthesizer.hpp): dispatches, its workers and senders,
// kept buffers.
#include "actors/synthesizer.hpp"

#include "common/util/log.hpp"
#include "node/synth/synthesize.hpp"
#include "node/verify_proof.hpp"

namespace zk::actors {

void synthesizer_state::init(synthesizer_actor::pointer s, synthesizer_config_t c) {
  self = s;
  cfg = std::move(c);
  auto cache =
      std::make_shared<node::csr_cache_t>();  // one copy of each circuit's matrices per node
  for (unsigned i = 0; i < cfg.tracks.workers; ++i)
    idle.push_back(self->spawn<caf::detached + caf::linked>(
        synth_worker, cfg.endpoint, cfg.store, cfg.recorder, cfg.tracks.worker(i), cache, cancelled,
        cfg.local, cfg.scheduler_store));
}

void synthesizer_state::dispatch(const dispatch_msg& d) {
  auto k = kept.find({d.job, d.partition});
  if (k != kept.end() && k->second.job_key == d.job_key && !d.job_key.empty()) {
    // Synthesized before (its send failed, or its scheduler went away): send it as it is.
    buffer_ready_msg m = k->second.ready;
    kept.erase(k);
    m.attempt = d.attempt;
    m.report_token = d.report_token;
    m.synth_seconds = 0;
    log::info(d.job, d.partition, "sends the buffer it kept instead of synthesizing again");
    return deliver(d, m);
  }
  queue.push_back(d);
  pump();
}

void synthesizer_state::pump() {
  while (!idle.empty() && !queue.empty()) {
    caf::actor w = idle.back();
    idle.pop_back();
    dispatch_msg d = std::move(queue.front());
    queue.pop_front();
    // Unbounded: the worker bounds the synthesis (a witness generator runs at most 10 minutes).
    self->request(w, caf::infinite, d)
        .then([this, w, d, e = epoch](const buffer_ready_msg& m) { done(w, d, m, e); },
              [this, w, d, e = epoch](const caf::error& err) { fail(w, d, err, e); });
  }
}

void synthesizer_state::done(const caf::actor& worker, const dispatch_msg& d,
                             const buffer_ready_msg& m, uint64_t of_epoch) {
  idle.push_back(worker);
  if (cancelled->has(m.job))
    cfg.store->release(m.buffer_id);
  else if (of_epoch != epoch)  // its scheduler went away meanwhile: kept for the new one
    keep(d.job_key, m);
  else
    deliver(d, m);
  pump();
}

void synthesizer_state::deliver(const dispatch_msg& d, const buffer_ready_msg& m) {
  // Same process (an embedded cluster, or a node with both roles): the prover pins it here.
  const auto prover = net::data_endpoint_t::parse(d.prover_endpoint);
  const bool remote = prover && prover->is_tcp() && d.prover_endpoint != cfg.own_prover;
  if (!remote) {
    buffers[m.job].insert(m.buffer_id);
    self->send(cfg.scheduler, m);
    return;
  }
  buffer_ready_msg notice = m;
  notice.in_transit = true;
  self->send(cfg.scheduler, notice);  // the core is free for the next synthesis
  const size_t k = sender_of.emplace(d.prover_endpoint, sender_of.size()).first->second;
  const uint16_t track = cfg.tracks.send(unsigned(k % std::max(1u, cfg.tracks.streams)));
  if (senders.size() <= k) senders.resize(k + 1);
  if (!senders[k])
    senders[k] = self->spawn<caf::detached + caf::linked>(synth_sender, cfg.store, cfg.recorder,
                                                          track, cfg.send_options);
  if (cfg.recorder)
    cfg.recorder->begin(d.job, d.partition, timeline::stage_t::chan_send, track, m.size);
  // The sender frees the local copy once the prover acknowledged it; one it could not deliver
  // stays in the store and is kept here. It is not in `buffers`, so a cancel meanwhile leaves it
  // to the sender. Unbounded: the sender bounds each send (send_options_t: connect and I/O
  // timeouts, attempts).
  self->request(senders[k], caf::infinite, d, m)
      .then(
          [this, e = epoch](const buffer_ready_msg& moved) {
            if (e == epoch) self->send(cfg.scheduler, moved);
          },
          [this, d, m, of = epoch](const caf::error& e) {
            if (cancelled->has(d.job)) {  // a cancelled job's partition is nobody's failure
              cfg.store->release(m.buffer_id);
              return;
            }
            const bool still_here = bool(cfg.store->find(m.buffer_id));
            if (still_here) keep(d.job_key, m);
            if (of != epoch) return;  // kept for the new scheduler (or freed when none wants it)
            log::warn(d.job, d.partition,
                      "sending the buffer failed" +
                          std::string(still_here ? " (kept for another prover): " : ": ") +
                          reason_of(e));
            failure_msg f{d.job,       d.partition,   d.attempt, zk_errc::send_failed,
                          describe(e), d.report_token};
            f.kept = still_here;
            self->send(cfg.scheduler, f);
          });
}

void synthesizer_state::keep(const std::string& job_key, const buffer_ready_msg& m) {
  auto& k = kept[{m.job, m.partition}];
  if (k.ready.buffer_id && k.ready.buffer_id != m.buffer_id)  // an older copy: one is enough
    cfg.store->release(k.ready.buffer_id);
  k = {job_key, m, std::chrono::steady_clock::now() + kept_for};
  if (!sweep_armed) {
    sweep_armed = true;
    self->delayed_send(self, kept_for, tick_atom::value);
  }
}

void synthesizer_state::sweep() {
  sweep_armed = false;
  const auto now = std::chrono::steady_clock::now();
  for (auto it = kept.begin(); it != kept.end();) {
    if (it->second.until > now) {
      ++it;
      continue;
    }
    log::info(it->first.first, it->first.second, "freed a kept buffer nobody sent for");
    cfg.store->release(it->second.ready.buffer_id);
    it = kept.erase(it);
  }
  if (!kept.empty()) {
    sweep_armed = true;
    self->delayed_send(self, std::chrono::seconds(5), tick_atom::value);
  }
}

std::vector<held_buffer_msg> synthesizer_state::held() const {
  std::vector<held_buffer_msg> out;
  for (const auto& [key, k] : kept)
    out.push_back({key.first, k.job_key, key.second, k.ready.buffer_id, k.ready.size});
  return out;
}

void synthesizer_state::fail(const caf::actor& worker, const dispatch_msg& d, const caf::error& e,
                             uint64_t of_epoch) {
  idle.push_back(worker);
  if (!cancelled->has(d.job) && of_epoch == epoch) {
    log::warn(d.job, d.partition, "synthesis failed: " + reason_of(e));
    // The worker's kind of failure travels on: bad_input is not retried
    // (node/synth/synthesize.hpp).
    const bool bad_input = e.category() == caf::atom("zkfleet") &&
                           static_cast<zk_errc>(e.code()) == zk_errc::bad_input;
    self->send(cfg.scheduler, failure_msg{d.job, d.partition, d.attempt,
                                          bad_input ? zk_errc::bad_input : zk_errc::synth_failed,
                                          describe(e), d.report_token});
  }
  pump();
}

void synthesizer_state::release(uint64_t buffer_id) {
  cfg.store->release(buffer_id);
  for (auto it = kept.begin(); it != kept.end(); ++it)
    if (it->second.ready.buffer_id == buffer_id) {
      kept.erase(it);
      return;
    }
  for (auto it = buffers.begin(); it != buffers.end(); ++it)
    if (it->second.erase(buffer_id)) {
      if (it->second.empty()) buffers.erase(it);
      return;
    }
}

std::vector<held_buffer_msg> synthesizer_state::rebind() {
  if (!cfg.slot) return {};
  auto v = cfg.slot->get();
  if (v.epoch == epoch) return held();  // nothing new (a repeated or stray rebind)
  log::info("synthesizer: rejoins the scheduler: " + std::to_string(queue.size()) +
            " queued dispatches dropped, " + std::to_string(kept.size()) + " buffers kept");
  cfg.scheduler = v.scheduler;
  epoch = v.epoch;
  queue.clear();
  // Buffers a prover of this process pinned are that prover's to drop (it rebinds too).
  for (const auto& [job, ids] : buffers)
    for (uint64_t id : ids) cfg.store->release(id);
  buffers.clear();
  // The new scheduler's job numbers are its own: a cancel the old one sent says nothing of them.
  cancelled->clear();
  return held();
}

void synthesizer_state::cancel(uint64_t job) {
  cancelled->add(job);           // a worker running this job's witness generator kills it
  for (const auto& s : senders)  // ahead of the sends already queued there
    if (s) caf::anon_send<caf::message_priority::high>(s, cancel_atom::value, job);
  for (auto it = queue.begin(); it != queue.end();) it = it->job == job ? queue.erase(it) : it + 1;
  for (auto it = kept.begin(); it != kept.end();) {
    if (it->first.first != job) {
      ++it;
      continue;
    }
    cfg.store->release(it->second.ready.buffer_id);
    it = kept.erase(it);
  }
  auto it = buffers.find(job);
  if (it == buffers.end()) return;
  for (uint64_t id : it->second) cfg.store->release(id);
  buffers.erase(it);
}

synthesizer_actor::behavior_type synthesizer(synthesizer_impl_t self, synthesizer_config_t cfg) {
  self->state.init(self, std::move(cfg));
  return {
      [self](const dispatch_msg& d) {
        if (from_scheduler(self))
          self->state.dispatch(d);
        else
          log::warn(d.job, d.partition, "ignored a dispatch not from the scheduler");
      },
      [self](release_atom, uint64_t buffer_id) {
        if (from_scheduler(self)) self->state.release(buffer_id);
      },
      [self](cancel_atom, uint64_t job) {
        if (from_scheduler(self)) self->state.cancel(job);
      },
      [self](rebind_atom) -> std::vector<held_buffer_msg> {
        // Only the node's own process rebinds (its slot holds the new scheduler).
        const auto& sender = self->current_sender();
        if (sender && sender->node() != self->node()) return {};
        return self->state.rebind();
      },
      [self](tick_atom) {
        if (self->current_sender() == self->ctrl()) self->state.sweep();
      },
  };
}

}  // namespace zk::actors
