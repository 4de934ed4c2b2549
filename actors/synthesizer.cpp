#include "actors/synthesizer.hpp"

namespace zk::actors {

void synthesizer_state::init(caf::event_based_actor* s, synthesizer_config_t c) {
  self = s;
  cfg = std::move(c);
  for (unsigned i = 0; i < std::max(1u, cfg.workers); ++i)
    idle.push_back(self->spawn<caf::detached + caf::linked>(synth_worker, cfg.endpoint, cfg.store, cfg.recorder,
                                                            uint16_t(cfg.first_track + i)));
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
        .then([this, w](const buffer_ready_msg& m) { done(w, m); },
              [this, w, d](const caf::error& e) { fail(w, d, e); });
  }
}

void synthesizer_state::done(const caf::actor& worker, const buffer_ready_msg& m) {
  idle.push_back(worker);
  if (cancelled.count(m.job)) {
    cfg.store->release(m.buffer_id);
  } else {
    buffers[m.job].insert(m.buffer_id);
    self->send(cfg.scheduler, m);
  }
  pump();
}

void synthesizer_state::fail(const caf::actor& worker, const dispatch_msg& d, const caf::error& e) {
  idle.push_back(worker);
  if (!cancelled.count(d.job)) self->send(cfg.scheduler, failure_msg{d.job, d.partition, zk_errc::synth_failed, describe(e)});
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
  cancelled.insert(job);
  for (auto it = queue.begin(); it != queue.end();) it = it->job == job ? queue.erase(it) : it + 1;
  auto it = buffers.find(job);
  if (it == buffers.end()) return;
  for (uint64_t id : it->second) cfg.store->release(id);
  buffers.erase(it);
}

caf::behavior synthesizer(synthesizer_actor* self, synthesizer_config_t cfg) {
  self->state.init(self, std::move(cfg));
  return {
    [self](const dispatch_msg& d) { self->state.dispatch(d); },
    [self](release_atom, uint64_t buffer_id) { self->state.release(buffer_id); },
    [self](cancel_atom, uint64_t job) { self->state.cancel(job); },
  };
}

namespace {

caf::result<buffer_ready_msg> run_synthesis(const std::string& endpoint, buffer::buffer_store_t& store,
                                            synth_cache_t& cache, timeline::recorder_t* rec, uint16_t track,
                                            const dispatch_msg& d) {
  if (rec) rec->begin(d.job, d.partition, timeline::stage::synth, track);
  try {
    synth_result_t r = synthesize(d.circuit, d.inputs, d.partitions, d.job, d.partition, store, cache);
    if (rec) rec->end(d.job, d.partition, timeline::stage::synth, track, r.payload_bytes);
    return buffer_ready_msg{d.job, d.partition, r.buffer_id, r.payload_bytes, r.checksum, endpoint, r.seconds};
  } catch (const std::exception& e) {
    if (rec) rec->end(d.job, d.partition, timeline::stage::synth, track);
    return make_error(zk_errc::synth_failed, e.what());
  }
}

}  // namespace

caf::behavior synth_worker(synth_worker_actor* self, std::string endpoint, std::shared_ptr<buffer::buffer_store_t> store,
                           std::shared_ptr<timeline::recorder_t> recorder, uint16_t track) {
  return {
    [=](const dispatch_msg& d) { return run_synthesis(endpoint, *store, self->state.cache, recorder.get(), track, d); },
  };
}

}  // namespace zk::actors
