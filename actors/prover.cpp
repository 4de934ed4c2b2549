#include "actors/prover.hpp"

#include <malloc.h>

#include <algorithm>
#include <chrono>
#include <filesystem>

#include "common/util/log.hpp"

namespace zk::actors {

void prover_state::init(prover_actor::pointer s, prover_config_t c) {
  self = s;
  cfg = std::move(c);
  worker = self->spawn<caf::detached + caf::linked>(prover_worker, cfg.recorder, cfg.tracks.prove(),
                                                    cfg.tracks.prove_cpu(), cfg.accelerators,
                                                    cfg.hot, cfg.filecoin_params, cancelled);
}

void prover_state::receive(const prove_request_msg& r) {
  const auto& b = r.buffer;
  auto* rec = cfg.recorder.get();
  if (rec) rec->begin(b.job, b.partition, timeline::stage_t::xfer, cfg.tracks.receive(), b.size);
  auto t0 = timeline::monotonic_ns();
  auto pin = cfg.directory ? cfg.directory->find(b.endpoint, b.buffer_id) : std::nullopt;
  if (rec) rec->end(b.job, b.partition, timeline::stage_t::xfer, cfg.tracks.receive(), b.size);
  auto refuse = [&](const std::string& why) {
    log::warn(b.job, b.partition, "buffer refused: " + why);
    self->send(cfg.scheduler, failure_msg{b.job, b.partition, b.attempt, zk_errc::prove_failed, why,
                                          b.report_token});
  };
  if (!pin)
    return refuse("buffer " + std::to_string(b.buffer_id) + " at " + b.endpoint +
                  " is not reachable from this prover");
  if (pin->header().payload_checksum != b.checksum || pin->size() != b.size)
    return refuse("buffer " + std::to_string(b.buffer_id) + " is not the one announced");
  // Received over the data plane: claimed now (the data server frees what nobody claims), ours
  // from here: pinned, and released from the store's registry.
  if (b.moved && cfg.claim && !cfg.claim(b.buffer_id))
    return refuse("buffer " + std::to_string(b.buffer_id) + " expired before it was claimed");
  if (b.moved) release(b.buffer_id);
  self->send(cfg.scheduler, ack_atom::value, b.job, b.partition, b.attempt,
             double(timeline::monotonic_ns() - t0) * 1e-9);
  if (rec) rec->begin(b.job, b.partition, timeline::stage_t::gpu_pickup, cfg.tracks.queue());
  queue.push_back(prove_work_msg{r, std::move(*pin)});
  pump();
}

void prover_state::pump() {
  if (busy || queue.empty()) return;
  prove_work_msg w = std::move(queue.front());
  queue.pop_front();
  const auto& b = w.request.buffer;
  if (cfg.recorder)
    cfg.recorder->end(b.job, b.partition, timeline::stage_t::gpu_pickup, cfg.tracks.queue());
  self->send(cfg.scheduler, started_atom::value, b.job, b.partition, b.attempt);
  busy = true;
  running = w.request.circuit.id;
  prove_request_msg r = w.request;
  // Unbounded here: a proof takes what it takes; the scheduler's stage deadline (and the node
  // timeout) bound what the cluster waits for it.
  self->request(worker, caf::infinite, std::move(w))
      .then([this, e = epoch](const proof_msg& m) { proved(m, e); },
            [this, r, e = epoch](const caf::error& err) { failed(r, err, e); });
}

void prover_state::proved(const proof_msg& m, uint64_t of_epoch) {
  busy = false;
  running.clear();
  if (!cancelled->has(m.job) && of_epoch == epoch) self->send(cfg.scheduler, m);
  pump();
}

void prover_state::failed(const prove_request_msg& r, const caf::error& e, uint64_t of_epoch) {
  busy = false;
  running.clear();
  if (cancelled->has(r.buffer.job)) {
    log::info(r.buffer.job, r.buffer.partition, "proof stopped: " + reason_of(e));
  } else if (of_epoch == epoch) {
    log::warn(r.buffer.job, r.buffer.partition, "proof failed: " + reason_of(e));
    self->send(cfg.scheduler,
               failure_msg{r.buffer.job, r.buffer.partition, r.buffer.attempt,
                           zk_errc::prove_failed, describe(e), r.buffer.report_token});
  }
  pump();
}

void prover_state::cancel(uint64_t job) {
  cancelled->add(job);  // a running proof of the job stops at its next safe point
  for (auto it = queue.begin(); it != queue.end();) {
    if (it->request.buffer.job != job) {
      ++it;
      continue;
    }
    if (cfg.recorder)
      cfg.recorder->end(job, it->request.buffer.partition, timeline::stage_t::gpu_pickup,
                        cfg.tracks.queue());
    it = queue.erase(it);
  }
}

caf::result<key_outcome_msg> prover_state::params(const std::string& circuit, bool load) {
  key_outcome_msg refused{"", "refused", "", 0, 0};
  auto c = std::find_if(cfg.hot.begin(), cfg.hot.end(),
                        [&](const circuit_def_t& h) { return h.id == circuit; });
  if (c == cfg.hot.end() || !config::uses_filecoin_params(c->kind)) {
    refused.why = "no filecoin_params for circuit '" + circuit + "' on this prover";
    return refused;
  }
  if (!load) {  // what proves or waits here needs them: it would map them again at once
    auto waiting = std::find_if(queue.begin(), queue.end(), [&](const prove_work_msg& w) {
      return w.request.circuit.id == circuit;
    });
    if ((busy && running == circuit) || waiting != queue.end()) {
      refused.why = "a partition of circuit '" + circuit + "' is " +
                    (busy && running == circuit ? "proving" : "waiting to prove") +
                    " here: evict once it is done";
      return refused;
    }
  }
  auto rp = self->make_response_promise<key_outcome_msg>();
  // Mapping 32 GiB parameters from disk takes minutes; the worker answers once it is done.
  self->request(worker, std::chrono::minutes(30), params_atom::value, *c, load)
      .then([rp](const key_outcome_msg& o) mutable { rp.deliver(o); },
            [rp](caf::error& e) mutable { rp.deliver(std::move(e)); });
  return rp;
}

void prover_state::rebind() {
  if (!cfg.slot) return;
  auto v = cfg.slot->get();
  if (v.epoch == epoch) return;  // nothing new (a repeated or stray rebind)
  log::info("prover: rejoined the scheduler: " + std::to_string(queue.size()) +
            " queued proofs dropped");
  cfg.scheduler = v.scheduler;
  epoch = v.epoch;
  for (const auto& w : queue)
    if (cfg.recorder)
      cfg.recorder->end(w.request.buffer.job, w.request.buffer.partition,
                        timeline::stage_t::gpu_pickup, cfg.tracks.queue());
  queue.clear();
}

void prover_state::release(uint64_t buffer_id) {
  if (auto store = cfg.directory ? cfg.directory->store(cfg.endpoint) : nullptr)
    store->release(buffer_id);
}

prover_actor::behavior_type prover(prover_impl_t self, prover_config_t cfg) {
  self->state.init(self, std::move(cfg));
  return {
      [self](const prove_request_msg& r) {
        if (from_scheduler(self))
          self->state.receive(r);
        else
          log::warn(r.buffer.job, r.buffer.partition,
                    "ignored a prove request not from the scheduler");
      },
      [self](cancel_atom, uint64_t job) {
        if (from_scheduler(self)) self->state.cancel(job);
      },
      [self](release_atom, uint64_t buffer_id) {
        if (from_scheduler(self)) self->state.release(buffer_id);
      },
      [self](rebind_atom) { self->state.rebind(); },
      [self](params_atom, const std::string& circuit, bool load) -> caf::result<key_outcome_msg> {
        if (!from_scheduler(self))
          return caf::make_error(zk_errc::forbidden, "only the scheduler moves a key");
        return self->state.params(circuit, load);
      },
      [self](
          loaded_atom) -> caf::result<std::vector<std::string>> {  // the worker maps hot keys first
        auto rp = self->make_response_promise<std::vector<std::string>>();
        self->request(self->state.worker, std::chrono::minutes(10), loaded_atom::value)
            .then([rp](const std::vector<std::string>& ids) mutable { rp.deliver(ids); },
                  [rp](caf::error& e) mutable { rp.deliver(std::move(e)); });
        return rp;
      },
  };
}

namespace {

// Each prover stage on the track of the backend that ran it (cpu_track: the CPU stages of a
// prover with an accelerator; the same track without one).
caf::result<proof_msg> run_proof(node::prover_engine_t& engine, timeline::recorder_t* rec,
                                 uint16_t track, uint16_t cpu_track, const prove_work_msg& w,
                                 const node::cancelled_jobs_t& cancelled) {
  const auto& b = w.request.buffer;
  groth16::stage_observer_t observe;
  double build_ab_seconds = -1;  // reported to the scheduler (the wire's choice weighs it)
  observe = [&](const groth16::stage_span_t& s) {
    if (s.stage == groth16::prover_stage_t::build_ab)
      build_ab_seconds = double(s.end_ns - s.begin_ns) * 1e-9;
    if (rec) {
      const uint16_t on = s.backend == groth16::stage_backend_t::accelerator ? track : cpu_track;
      rec->record({b.job, b.partition, timeline::prover_stage(s.stage), timeline::phase_t::begin, 0,
                   on, int64_t(s.begin_ns), 0});
      rec->record({b.job, b.partition, timeline::prover_stage(s.stage), timeline::phase_t::end, 0,
                   on, int64_t(s.end_ns), 0});
    }
  };
  if (rec) rec->begin(b.job, b.partition, timeline::stage_t::gpu, track, b.size);
  // Whatever the proof allocated and freed (the unpacked witness, its plans, the threads' scratch)
  // goes back to the system once it ends, proved or not: between proofs a prover holds its keys.
  struct trim_t {
    ~trim_t() { malloc_trim(0); }
  } trim;
  try {
    node::proof_result_t r = engine.prove(w.request.circuit, w.pin, observe,
                                          [&cancelled, job = b.job] { return cancelled.has(job); });
    if (rec) rec->end(b.job, b.partition, timeline::stage_t::gpu, track, b.size);
    return proof_msg{
        b.job,           b.partition,     b.attempt,        r.proof_json,   r.public_signals,
        b.synth_seconds, r.prove_seconds, r.verify_seconds, b.report_token, build_ab_seconds};
  } catch (const cancelled_error& e) {  // the mark first: /metrics counts no prove stage for it
    if (rec) {
      rec->instant(b.job, b.partition, timeline::stage_t::cancelled, track);
      rec->end(b.job, b.partition, timeline::stage_t::gpu, track, b.size);
    }
    return caf::make_error(zk_errc::job_cancelled, e.what());
  } catch (const std::exception& e) {
    if (rec) rec->end(b.job, b.partition, timeline::stage_t::gpu, track, b.size);
    return caf::make_error(zk_errc::prove_failed, e.what());
  }
}

// The worker's part of params_atom: the key mapped (load) or dropped, its memory handed back to
// the system at once (the decoded parameters are large blocks: malloc_trim returns their pages).
key_outcome_msg worker_params(node::prover_engine_t& engine, const circuit_def_t& c, bool load) {
  key_outcome_msg o;
  std::error_code ec;
  const std::string path = engine.key_path(c);
  o.bytes = std::filesystem::file_size(path, ec);
  if (ec) o.bytes = 0;
  const auto now = engine.loaded();
  const bool resident = std::find(now.begin(), now.end(), c.id) != now.end();
  if (!load) {
    o.outcome = engine.unload(c.id) ? "evicted" : "not loaded";
    malloc_trim(0);
    log::info("circuit '" + c.id + "': parameters " + o.outcome + " (" + path + ")");
    return o;
  }
  if (resident) {
    o.outcome = "already loaded";
    return o;
  }
  const auto t0 = std::chrono::steady_clock::now();
  try {
    engine.load(c);
  } catch (const std::exception& e) {
    o.outcome = "refused";
    o.why = e.what();
    log::error("circuit '" + c.id + "': parameters not loaded: " + o.why);
    return o;
  }
  o.ms = uint64_t(
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0)
          .count());
  o.outcome = "loaded";
  log::info("circuit '" + c.id + "': parameters loaded in " + std::to_string(o.ms) + " ms (" +
            path + ")");
  return o;
}

}  // namespace

caf::behavior prover_worker(prover_worker_actor* self,
                            std::shared_ptr<timeline::recorder_t> recorder, uint16_t track,
                            uint16_t cpu_track, node::accelerators_t accelerators,
                            std::vector<circuit_def_t> hot,
                            std::vector<std::pair<std::string, std::string>> filecoin_params,
                            std::shared_ptr<const node::cancelled_jobs_t> cancelled) {
  self->state.engine.set_accelerators(accelerators);
  self->state.engine.set_filecoin_params(std::move(filecoin_params));
  for (const auto& c : hot) {
    try {
      self->state.engine.load(c);
      log::info("proving key of circuit '" + c.id + "' mapped (" + self->state.engine.key_path(c) +
                ")");
    } catch (const std::exception& e) {
      log::error("hot circuit '" + c.id + "': its proving key cannot be loaded: " + e.what());
    }
  }
  return {
      [self](loaded_atom) { return self->state.engine.loaded(); },
      [self](params_atom, const circuit_def_t& c, bool load) {
        return worker_params(self->state.engine, c, load);
      },
      [self, recorder, track, cpu_track, cancelled](const prove_work_msg& w) {
        return run_proof(self->state.engine, recorder.get(), track, cpu_track, w, *cancelled);
      },
  };
}

}  // namespace zk::actors
