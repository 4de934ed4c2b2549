#include "actors/synthesizer.hpp"

#include "common/util/log.hpp"
#include "node/job_inputs.hpp"
#include "node/synth/synthesize.hpp"
#include "node/verify_proof.hpp"

namespace zk::actors {

void synthesizer_state::init(synthesizer_actor::pointer s, synthesizer_config_t c) {
  self = s;
  cfg = std::move(c);
  auto cache =
      std::make_shared<node::csr_cache_t>();  // one copy of each circuit's matrices per node
  for (unsigned i = 0; i < cfg.tracks.workers; ++i)
    idle.push_back(self->spawn<caf::detached + caf::linked>(synth_worker, cfg.endpoint, cfg.store,
                                                            cfg.recorder, cfg.tracks.worker(i),
                                                            cache, cancelled, cfg.local));
}

void synthesizer_state::dispatch(const dispatch_msg& d) {
  queue.push_back(d);
  pump();
}

void synthesizer_state::pump() {
  while (!idle.empty() && !queue.empty()) {
    caf::actor w = idle.back();
    idle.pop_back();
    dispatch_msg d = std::move(queue.front());
    queue.pop_front();
    self->request(w, caf::infinite, d)
        .then([this, w, d](const buffer_ready_msg& m) { done(w, d, m); },
              [this, w, d](const caf::error& e) { fail(w, d, e); });
  }
}

void synthesizer_state::done(const caf::actor& worker, const dispatch_msg& d,
                             const buffer_ready_msg& m) {
  idle.push_back(worker);
  // Same process (an embedded cluster, or a node with both roles): the prover pins it here.
  const auto prover = net::data_endpoint_t::parse(d.prover_endpoint);
  const bool remote = prover && prover->is_tcp() && d.prover_endpoint != cfg.own_prover;
  if (cancelled->has(m.job)) {
    cfg.store->release(m.buffer_id);
  } else if (!remote) {
    buffers[m.job].insert(m.buffer_id);
    self->send(cfg.scheduler, m);
  } else {
    buffer_ready_msg notice = m;
    notice.in_transit = true;
    self->send(cfg.scheduler, notice);  // the core is free for the next synthesis
    const size_t k =
        stream_of.emplace(d.prover_endpoint, stream_of.size() % cfg.tracks.streams).first->second;
    const uint16_t track = cfg.tracks.send(unsigned(k));
    if (senders.size() <= k) senders.resize(k + 1);
    if (!senders[k])
      senders[k] = self->spawn<caf::detached + caf::linked>(synth_sender, cfg.store, cfg.recorder,
                                                            track, cfg.send_options);
    if (cfg.recorder)
      cfg.recorder->begin(d.job, d.partition, timeline::stage::chan_send, track, m.size);
    // The sender frees the local copy once the prover acknowledged it (or gives up): the buffer
    // is not in `buffers`, so a cancel meanwhile leaves it to the sender.
    self->request(senders[k], caf::infinite, d, m)
        .then([this](const buffer_ready_msg& moved) { self->send(cfg.scheduler, moved); },
              [this, d](const caf::error& e) {
                if (cancelled->has(d.job))
                  return;  // a cancelled job's partition is nobody's failure
                log::warn(d.job, d.partition, "sending the buffer failed: " + reason_of(e));
                self->send(cfg.scheduler,
                           failure_msg{d.job, d.partition, d.attempt, zk_errc::synth_failed,
                                       describe(e), d.report_token});
              });
  }
  pump();
}

void synthesizer_state::fail(const caf::actor& worker, const dispatch_msg& d, const caf::error& e) {
  idle.push_back(worker);
  if (!cancelled->has(d.job)) {
    log::warn(d.job, d.partition, "synthesis failed: " + reason_of(e));
    self->send(cfg.scheduler, failure_msg{d.job, d.partition, d.attempt, zk_errc::synth_failed,
                                          describe(e), d.report_token});
  }
  pump();
}

void synthesizer_state::release(uint64_t buffer_id) {
  cfg.store->release(buffer_id);
  for (auto it = buffers.begin(); it != buffers.end(); ++it)
    if (it->second.erase(buffer_id)) {
      if (it->second.empty()) buffers.erase(it);
      return;
    }
}

void synthesizer_state::cancel(uint64_t job) {
  cancelled->add(job);           // a worker running this job's witness generator kills it
  for (const auto& s : senders)  // ahead of the sends already queued there
    if (s) caf::anon_send<caf::message_priority::high>(s, cancel_atom::value, job);
  for (auto it = queue.begin(); it != queue.end();) it = it->job == job ? queue.erase(it) : it + 1;
  auto it = buffers.find(job);
  if (it == buffers.end()) return;
  for (uint64_t id : it->second) cfg.store->release(id);
  buffers.erase(it);
}

synthesizer_actor::behavior_type synthesizer(synthesizer_impl self, synthesizer_config_t cfg) {
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
  };
}

namespace {

// Sends a committed buffer to the prover's data server; on its ACK the local copy is freed and
// the answer names the buffer in the prover's store. CHAN_SEND (begun by the synthesizer at the
// hand-off) ends at the receiver's READY; XFER runs from there to the ACK.
caf::result<buffer_ready_msg> send_buffer(synth_sender_state& st, buffer::buffer_store_t& store,
                                          timeline::recorder_t* rec, uint16_t track,
                                          const net::send_options_t& options, const dispatch_msg& d,
                                          buffer_ready_msg m) {
  if (st.cancelled.has(d.job)) {  // freed unsent; CHAN_SEND (begun at the hand-off) ends here
    if (rec) rec->end(d.job, d.partition, timeline::stage::chan_send, track, m.size);
    store.release(m.buffer_id);
    return caf::make_error(
        zk_errc::job_cancelled,
        "job " + std::to_string(d.job) + " was cancelled before this buffer was sent");
  }
  const auto tcp =
      *net::data_endpoint_t::parse(d.prover_endpoint);  // the synthesizer sends only tcp ones here
  // One client per prover endpoint; with TLS the prover's certificate must name that node.
  auto& client = st.clients[d.prover_endpoint + "\n" + d.prover_name];
  if (!client) {
    net::send_options_t o = options;
    o.expected_peer = d.prover_name;
    client = std::make_unique<net::data_client_t>(tcp.host, tcp.port, o);
  }
  std::optional<net::transfer_ticket_t> ticket;
  if (d.ticket_mac.size() == net::transfer_key_t{}.size()) {
    ticket = net::transfer_ticket_t{d.job, d.partition, d.attempt, {}};
    std::copy(d.ticket_mac.begin(), d.ticket_mac.end(), ticket->mac.begin());
  }
  auto pin = store.find(m.buffer_id);
  net::send_result_t sent = pin ? client->send(*pin, ticket) : net::send_result_t{};
  const int64_t finished = timeline::monotonic_ns();
  if (rec) {
    const int64_t ready = sent.ready_ns ? sent.ready_ns : finished;
    const uint16_t node = rec->node();
    rec->record({d.job, d.partition, timeline::stage::chan_send, timeline::phase::end, node, track,
                 ready, m.size});
    if (sent.ok) {
      rec->record({d.job, d.partition, timeline::stage::xfer, timeline::phase::begin, node, track,
                   ready, m.size});
      rec->record({d.job, d.partition, timeline::stage::xfer, timeline::phase::end, node, track,
                   finished, m.size});
    }
  }
  pin.reset();
  store.release(m.buffer_id);
  if (!sent.ok)
    return caf::make_error(zk_errc::synth_failed,
                           "sending the buffer to " + d.prover_endpoint + " failed: " +
                               (sent.error.empty() ? "the buffer is gone" : sent.error));
  m.buffer_id = sent.buffer_id;
  m.endpoint = d.prover_endpoint;
  m.moved = true;
  return m;
}

caf::result<buffer_ready_msg> run_synthesis(synth_worker_state& st, const std::string& endpoint,
                                            buffer::buffer_store_t& store,
                                            timeline::recorder_t* rec, uint16_t track,
                                            const dispatch_msg& d) {
  if (rec) rec->begin(d.job, d.partition, timeline::stage::synth, track);
  try {
    node::circuit_def_t circuit = d.circuit;
    if (st.local) {
      auto gen = st.local->witness_generators.find(circuit.id);
      if (gen == st.local->witness_generators.end())
        throw std::runtime_error("circuit '" + circuit.id + "' is not in this node's config");
      circuit.witness_generator = gen->second;  // the node's own, never the message's
      if (auto why = node::check_input_roots(circuit, d.inputs, st.local->input_roots))
        throw std::runtime_error(*why);
    }
    node::synth_result_t r =
        node::synthesize(circuit, d.inputs, d.partitions, d.job, d.partition, store, *st.cache,
                         [&cancelled = *st.cancelled, job = d.job] { return cancelled.has(job); });
    if (rec) rec->end(d.job, d.partition, timeline::stage::synth, track, r.payload_bytes);
    buffer_ready_msg m{d.job,      d.partition, d.attempt, r.buffer_id, r.payload_bytes,
                       r.checksum, endpoint,    r.seconds, false};
    auto pin = store.find(r.buffer_id);  // the public signals the proof must be of
    if (!pin) throw std::runtime_error("the buffer just made is gone from the store");
    m.public_digest = node::public_digest(pin->data(), d.circuit.n_public);
    m.report_token = d.report_token;
    return m;
  } catch (const std::exception& e) {
    if (rec) rec->end(d.job, d.partition, timeline::stage::synth, track);
    return caf::make_error(zk_errc::synth_failed, e.what());
  }
}

}  // namespace

caf::behavior synth_worker(synth_worker_actor* self, std::string endpoint,
                           std::shared_ptr<buffer::buffer_store_t> store,
                           std::shared_ptr<timeline::recorder_t> recorder, uint16_t track,
                           std::shared_ptr<node::csr_cache_t> cache,
                           std::shared_ptr<const cancelled_jobs_t> cancelled,
                           std::optional<synth_local_t> local) {
  self->state.cache = std::move(cache);
  self->state.cancelled = std::move(cancelled);
  self->state.local = std::move(local);
  return {
      [=](const dispatch_msg& d) {
        return run_synthesis(self->state, endpoint, *store, recorder.get(), track, d);
      },
  };
}

caf::behavior synth_sender(synth_sender_actor* self, std::shared_ptr<buffer::buffer_store_t> store,
                           std::shared_ptr<timeline::recorder_t> recorder, uint16_t track,
                           net::send_options_t options) {
  return {
      [=](const dispatch_msg& d, const buffer_ready_msg& m) {
        return send_buffer(self->state, *store, recorder.get(), track, options, d, m);
      },
      [=](cancel_atom, uint64_t job) { self->state.cancelled.add(job); },
  };
}

}  // namespace zk::actors
