// A synthesizer's worker: one core's synthesis, detached (synthesizer.hpp).
#include <chrono>
#include <filesystem>

#include "actors/synthesizer.hpp"
#include "common/util/log.hpp"
#include "node/job_spec.hpp"
#include "node/synth/synthesize.hpp"
#include "node/verify_proof.hpp"
#include "zk/base/stop.hpp"

namespace zk::actors {

namespace {

caf::result<buffer_ready_msg> run_synthesis(synth_worker_state& st, const std::string& endpoint,
                                            buffer::buffer_store_t& store,
                                            timeline::recorder_t* rec, uint16_t track,
                                            const dispatch_msg& d) {
  if (rec) rec->begin(d.job, d.partition, timeline::stage_t::synth, track);
  try {
    node::circuit_def_t circuit = d.circuit;
    if (node::kind_of(d.input) != circuit.kind)
      throw std::runtime_error(std::string("a dispatch of a ") +
                               config::circuit_kind_name(node::kind_of(d.input)) +
                               " partition for circuit '" + circuit.id + "', which is " +
                               config::circuit_kind_name(circuit.kind));
    // The partition's one file, if it names one: an object of the scheduler's store (read where
    // the scheduler runs in this process, else fetched from its HTTP endpoint with the dispatch's
    // ticket), or a path that must lie under this node's input roots.
    std::string file, name;
    if (const node::input_file_t* f = node::file_of(d.input)) {
      name = f->name();
      if (!f->stored()) {
        file = f->path;
        if (st.local)
          if (check_t why = node::check_input_root(file, st.local->input_roots); !why)
            throw std::runtime_error(why.reason());
      } else if (st.scheduler_store) {
        auto p = st.scheduler_store->path_of(f->object);
        if (!p) throw std::runtime_error(name + " is not in the scheduler's store");
        file = *p;
      } else {
        if (!st.local || !st.local->uploads || !st.local->fetch)
          throw std::runtime_error("input " + f->object.ref() +
                                   " is an upload, and this node cannot fetch uploads "
                                   "(its config sets no scheduler.http)");
        const std::string ticket = std::to_string(d.job) + "." + std::to_string(d.partition) + "." +
                                   std::to_string(d.attempt) + "." + d.input_ticket;
        bool fetched = false;  // else a copy this node kept
        const auto t0 = std::chrono::steady_clock::now();
        const std::string upload = f->object.ref();
        file =
            st.local->uploads->fetch(upload, [&](const std::string& in, const std::string& path) {
              fetched = true;
              return st.local->fetch(in, ticket, path);
            });
        if (fetched) {
          std::error_code ec;
          const auto bytes = std::filesystem::file_size(file, ec);
          const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                              std::chrono::steady_clock::now() - t0)
                              .count();
          log::info("job " + std::to_string(d.job) + " partition " + std::to_string(d.partition) +
                    ": fetched " + upload + " (" + (ec ? std::string("?") : std::to_string(bytes)) +
                    " bytes) in " + std::to_string(ms) + " ms");
        }
      }
    }
    if (st.local) {
      auto gen = st.local->witness_generators.find(circuit.id);
      if (gen == st.local->witness_generators.end())
        throw std::runtime_error("circuit '" + circuit.id + "' is not in this node's config");
      circuit.witness_generator = gen->second;  // the node's own, never the message's
    }
    // A Filecoin partition's stages (porep_* or snap_*: witness, synthesize, check) nest in SYNTH.
    node::synth_stage_observer_t observe;
    if (rec)
      observe = [&](timeline::stage_t s, int64_t t0, int64_t t1) {
        rec->record({d.job, d.partition, s, timeline::phase_t::begin, 0, track, t0, 0});
        rec->record({d.job, d.partition, s, timeline::phase_t::end, 0, track, t1, 0});
      };
    node::synth_result_t r = node::synthesize(
        circuit, d.input, file, name, d.partitions, d.job, d.partition, store, *st.cache,
        [&cancelled = *st.cancelled, job = d.job] { return cancelled.has(job); }, observe);
    if (rec) rec->end(d.job, d.partition, timeline::stage_t::synth, track, r.payload_bytes);
    buffer_ready_msg m;
    m.job = d.job;
    m.partition = d.partition;
    m.attempt = d.attempt;
    m.buffer_id = r.buffer_id;
    m.size = r.payload_bytes;
    m.checksum = r.checksum;
    m.endpoint = endpoint;
    m.synth_seconds = r.seconds;
    auto pin = store.find(r.buffer_id);  // the public signals the proof must be of
    if (!pin) throw std::runtime_error("the buffer just made is gone from the store");
    m.public_digest = node::public_digest(pin->header(), pin->data());
    m.report_token = d.report_token;
    return m;
  } catch (const cancelled_error& e) {  // the mark first: /metrics counts no SYNTH for it
    if (rec) {
      rec->instant(d.job, d.partition, timeline::stage_t::cancelled, track);
      rec->end(d.job, d.partition, timeline::stage_t::synth, track);
    }
    log::info(d.job, d.partition, "synthesis stopped: " + std::string(e.what()));
    return caf::make_error(zk_errc::job_cancelled, e.what());
  } catch (const node::bad_input_error& e) {  // no attempt can prove it: said so, not retried
    if (rec) rec->end(d.job, d.partition, timeline::stage_t::synth, track);
    return caf::make_error(zk_errc::bad_input, e.what());
  } catch (const std::exception& e) {
    if (rec) rec->end(d.job, d.partition, timeline::stage_t::synth, track);
    return caf::make_error(zk_errc::synth_failed, e.what());
  }
}

}  // namespace

caf::behavior synth_worker(synth_worker_actor* self, std::string endpoint,
                           std::shared_ptr<buffer::buffer_store_t> store,
                           std::shared_ptr<timeline::recorder_t> recorder, uint16_t track,
                           std::shared_ptr<node::csr_cache_t> cache,
                           std::shared_ptr<const cancelled_jobs_t> cancelled,
                           std::optional<synth_local_t> local,
                           std::shared_ptr<const node::upload_store_t> scheduler_store) {
  self->state.scheduler_store = std::move(scheduler_store);
  self->state.cache = std::move(cache);
  self->state.cancelled = std::move(cancelled);
  self->state.local = std::move(local);
  return {
      [=](const dispatch_msg& d) {
        return run_synthesis(self->state, endpoint, *store, recorder.get(), track, d);
      },
  };
}

}  // namespace zk::actors
