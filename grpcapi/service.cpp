// The eight methods of cuzk.v1.ProvingEngine (docs/api.md "gRPC: Curio's cuzk API").
#include "grpcapi/service.hpp"

#include <malloc.h>

#include <algorithm>
#include <cstdint>

#include "common/util/log.hpp"
#include "node/api/server.hpp"  // cluster_metrics
#include "node/cuzk/status.hpp"
#include "node/job_ref.hpp"
#include "zk/filecoin/update/vanilla_proof.hpp"

namespace zk::grpcapi {

namespace pb = cuzk::v1;
using grpc::Status;
using grpc::StatusCode;

namespace {

// The refusal of a failed ask: the scheduler's word where it gave one (401, 403, 404, 400,
// 409 for a conflict, 500), UNAVAILABLE when it did not answer.
cz::refusal_t refusal_of(const node::api_failure_t& f, const std::string& what) {
  switch (f.status) {
    case 400:
      return {cz::code_t::invalid_argument, f.reason};
    case 401:
      return {cz::code_t::unauthenticated, f.reason};
    case 403:
      return {cz::code_t::permission_denied, f.reason};
    case 404:
      return {cz::code_t::not_found, f.reason};
    case 409:
      return {cz::code_t::already_exists, f.reason};
    case 500:
      return {cz::code_t::internal, f.reason};
    default:
      return {cz::code_t::unavailable, "the scheduler " + f.detail + " (" + what + ")"};
  }
}

// A message's bytes as the raw methods answer them.
void write_raw(const google::protobuf::MessageLite& m, grpc::ByteBuffer* out) {
  const std::string bytes = m.SerializeAsString();
  grpc::Slice slice(bytes);
  *out = grpc::ByteBuffer(&slice, 1);
}

void write_answer(const cz::await_answer_t& a, pb::AwaitProofResponse* r) {
  r->set_job_id(a.job_id);
  r->set_status(pb::AwaitProofResponse::Status(uint8_t(a.status)));
  r->set_proof(std::string(a.proof.begin(), a.proof.end()));
  r->set_error_message(a.error);
  r->set_queue_wait_ms(a.timings.queue_wait_ms);
  r->set_srs_load_ms(a.timings.srs_load_ms);
  r->set_synthesis_ms(a.timings.synthesis_ms);
  r->set_gpu_compute_ms(a.timings.gpu_compute_ms);
  r->set_total_ms(a.timings.total_ms);
}

bool started(const node::job_status_msg& s) {
  return std::any_of(s.part_states.begin(), s.part_states.end(),
                     [](const std::string& p) { return p != "queued"; });
}

}  // namespace

// --- submit, resolve, await ----------------------------------------------------------------------

cz::answer_t<server_t::impl_t::submitted_t> server_t::impl_t::submit(const std::string& client,
                                                                     grpc::ByteBuffer& request,
                                                                     bool nested) {
  // First pass: the fields (the C1 skipped over), and what can be refused before it is stored.
  cz::submit_t s;
  if (const check_t c = read_submit(request, nested, s); !c)
    return cz::refusal_t{cz::code_t::invalid_argument, c.reason()};
  auto circuits = circuit_list();
  if (!circuits) return circuits.error();
  auto circuit = cz::check_submit(s, circuits.value());
  if (!circuit) return circuit.error();
  if (!o.uploads)
    return cz::refusal_t{cz::code_t::failed_precondition,
                         "this scheduler has no store for a C1 (scheduler.uploads)"};
  if (s.proof_kind == cz::snap_deals_update) return submit_update(client, s, circuit.value());
  // Second pass: the C1 from gRPC's slices into the store, once, Go's wrapper decoded on the way
  // (node/cuzk/c1_stream.hpp: the store keeps the C1 JSON, as the HTTP API's upload of it; the
  // intake's C1 reader checks it), a MiB at a time: nothing of it is held beside the message.
  std::unique_ptr<node::upload_receiver_t> rx = o.uploads->receive(/*json=*/true,
                                                                   /*check_json=*/false);
  std::optional<node::upload_error_t> refused;
  cz::c1_stream_t stream([&](std::string_view piece) -> check_t {
    refused = rx->write(piece);
    if (refused) return "vanilla_proof: " + refused->why;
    return {};
  });
  check_t c1_refused;  // the C1's own refusal: not the message's framing (read_submit's words)
  const std::function<check_t(std::string_view)> c1 = [&](std::string_view piece) {
    c1_refused = stream.feed(piece);
    return c1_refused;
  };
  cz::submit_t again;
  check_t read = read_submit(request, nested, again, &c1);
  if (!c1_refused) read = c1_refused;
  if (read) read = stream.finish();
  if (!read) {
    const bool too_large = refused && refused->kind == node::upload_error_t::kind_t::too_large;
    return cz::refusal_t{too_large ? cz::code_t::failed_precondition : cz::code_t::invalid_argument,
                         read.reason() + (too_large ? ": raise scheduler.max_upload" : "")};
  }
  // The message's last reference: its memory goes back to the system before the job's intake
  // reads the C1 (freed slices of gRPC's threads are not reused by the intake's thread: without
  // the trim they would stay in the process's resident memory beside what the intake takes).
  request.Clear();
  malloc_trim(0);
  // The wrapper's own fields against the request's (the C1's against both: the intake).
  if (stream.sector_num && *stream.sector_num != s.sector_number)
    return cz::refusal_t{cz::code_t::invalid_argument, "vanilla_proof: SectorNum " +
                                                           std::to_string(*stream.sector_num) +
                                                           " is not the request's sector_number " +
                                                           std::to_string(s.sector_number)};
  if (auto p = cz::seal_proof_of(s.registered_proof);
      stream.sector_size && p && *stream.sector_size != p.value()->sector_size)
    return cz::refusal_t{cz::code_t::invalid_argument,
                         "vanilla_proof: SectorSize " + std::to_string(*stream.sector_size) +
                             " is not the sector size of " + std::string(p.value()->name) + " (" +
                             std::to_string(p.value()->sector_size) + ")"};
  auto ref = rx->commit();
  if (!ref)
    return cz::refusal_t{ref.error().kind == node::upload_error_t::kind_t::io
                             ? cz::code_t::internal
                             : cz::code_t::invalid_argument,
                         "vanilla_proof: " + ref.error().why};
  s.c1 = node::parse_upload(ref.value());
  return submit_job(
      client, s, circuit.value(),
      "miner " + std::to_string(s.miner_id) + ", sector " + std::to_string(s.sector_number));
}

cz::answer_t<server_t::impl_t::submitted_t> server_t::impl_t::submit_job(
    const std::string& client, const cz::submit_t& s, const node::circuit_def_t& circuit,
    const std::string& what) {
  auto req = cz::job_request_of(s, circuit);
  if (!req) return req.error();
  auto id = gateway->submit(session(client), req.value());
  if (!id) {
    // The intake names the object the request's field went to in the store; Curio sent a field.
    node::api_failure_t f = id.error();
    const std::optional<node::stored_object_t>& stored = s.vanilla ? s.vanilla : s.c1;
    if (stored) {
      const std::string name = node::input_file_t::of(*stored).name();
      const std::string field = s.vanilla ? "vanilla_proofs" : "vanilla_proof";
      for (size_t at; (at = f.reason.find(name)) != std::string::npos;)
        f.reason.replace(at, name.size(), field);
    }
    return refusal_of(f, "the submit");
  }
  submitted_t out;
  out.public_id = id.value();
  out.job_id = s.request_id.empty() ? id.value() : s.request_id;
  out.ref = s.request_id.empty() ? id.value() : node::request_ref_prefix + s.request_id;
  log::info("gRPC: " + client + "'s " + cz::proof_kind_name(s.proof_kind) + " " + out.job_id +
            " is job " + out.public_id + " (" + req->circuit + ", " + what + ")");
  return out;
}

cz::answer_t<server_t::impl_t::submitted_t> server_t::impl_t::submit_update(
    const std::string& client, cz::submit_t& s, const node::circuit_def_t& circuit) {
  // The partitions as Curio keeps them (snap-vproof.json), one object of the store: what the
  // intake reads, checks with Filecoin's vanilla verifier and cuts into partition inputs.
  std::vector<std::vector<uint8_t>> parts;
  for (std::string& p : s.vanilla_proofs) {
    parts.emplace_back(p.begin(), p.end());
    std::string().swap(p);
  }
  std::string ref;
  try {
    ref = o.uploads->put(filecoin::snap_vproof_json(parts), /*json=*/true);
  } catch (const std::invalid_argument& e) {
    return cz::refusal_t{
        cz::code_t::failed_precondition,
        std::string("vanilla_proofs: ") + e.what() + " (raise scheduler.max_upload)"};
  } catch (const std::exception& e) {
    return cz::refusal_t{cz::code_t::internal, std::string("vanilla_proofs: ") + e.what()};
  }
  s.vanilla = node::parse_upload(ref);
  return submit_job(client, s, circuit,
                    "sector " + std::to_string(s.sector_number) + ", " +
                        std::to_string(parts.size()) + " partitions");
}

cz::answer_t<job_named_t> server_t::impl_t::resolve(const std::string& client,
                                                    const std::string& job_id) {
  const std::string token = session(client);
  const std::string not_found = "job not found: " + job_id.substr(0, 256);  // cuzk's words
  if (job_id.empty() || job_id.size() > node::max_request_id)
    return cz::refusal_t{cz::code_t::not_found, not_found};
  for (const std::string& ref : {node::request_ref_prefix + job_id, job_id}) {
    if (!node::parse_job_ref(ref)) continue;  // not an id or a number: only a request id
    auto s = gateway->status(token, ref);
    if (s) return job_named_t{ref, s.value()};
    if (s.error().status != 404 && s.error().status != 400)
      return refusal_of(s.error(), "the job's status");
  }
  return cz::refusal_t{cz::code_t::not_found, not_found};
}

void server_t::impl_t::await_job(const call_t::state_ptr_t& call, const std::string& client,
                                 const std::string& job_id, const std::string& ref, uint64_t seq,
                                 std::chrono::milliseconds wait, bool timeout_answer,
                                 std::function<void(const cz::await_answer_t&)> write) {
  const std::string token = session(client);
  // The end arrives on a thread of the actor system: the answer is made on a worker (it asks the
  // aggregator for the job's events, and the scheduler for a failed job's reason).
  auto ended = [this, call, token, job_id, ref, seq, timeout_answer,
                write](node::api_result_t<node::job_result_msg> r) {
    workers->post([this, call, token, job_id, ref, seq, timeout_answer, write, r = std::move(r)]() {
      cz::await_answer_t a;
      a.job_id = job_id;
      if (r) {
        auto events = gateway->job_events(seq);  // none: the timings stay 0
        a = cz::finished_answer(
            job_id, r.value(),
            cz::job_timings(events ? events.value() : std::vector<timeline::event_t>(), seq));
      } else if (r.error().status == 409) {  // failed or cancelled: its status says which, why
        auto s = gateway->status(token, ref);
        if (!s) return finish(call, status_of(refusal_of(s.error(), "the job's status")));
        a = cz::finished_answer(job_id, node::job_result_msg{s.value(), {}}, {});
      } else if (r.error().timed_out && timeout_answer) {
        a.status = cz::await_status_t::timeout;
        a.error = "job " + job_id + " " + r.error().detail;
      } else if (r.error().timed_out) {
        return finish(
            call, Status(StatusCode::DEADLINE_EXCEEDED, "job " + job_id + " " + r.error().detail));
      } else {
        return finish(call, status_of(refusal_of(r.error(), "the job's end")));
      }
      finish(call, [&] {
        write(a);
        return Status::OK;
      });
    });
  };
  set_wait(call, gateway->await(token, ref, wait, std::move(ended)));
}

// --- the methods ---------------------------------------------------------------------------------

grpc::ServerUnaryReactor* service_t::SubmitProof(grpc::CallbackServerContext* ctx,
                                                 const grpc::ByteBuffer* request,
                                                 grpc::ByteBuffer* response) {
  auto* call = new call_t;
  const auto st = call->state();
  // The request's slices, referenced (not copied): they outlive the call if it is cancelled, and
  // gRPC's own reference goes now (submit drops the last once the C1 is stored).
  grpc::ByteBuffer bytes(*request);
  const_cast<grpc::ByteBuffer*>(request)->Clear();
  s_.on_worker(ctx, st,
               [this, st, request = std::move(bytes), response](const std::string& client) mutable {
                 auto done = s_.submit(client, request, /*nested=*/false);
                 if (!done) return finish(st, status_of(done.error()));
                 // Its place: the unfinished jobs nothing of which was dispatched yet, submitted
                 // before it.
                 uint32_t ahead = 0;
                 if (auto jobs = s_.gateway->jobs(s_.session("admin"), 1000)) {
                   uint64_t mine = UINT64_MAX;
                   for (const auto& j : *jobs)
                     if (j.id == done->public_id) mine = j.seq;
                   for (const auto& j : *jobs) ahead += j.seq < mine && !j.finished && !started(j);
                 }
                 finish(st, [&] {
                   pb::SubmitProofResponse r;
                   r.set_job_id(done->job_id);
                   r.set_queue_position(ahead);
                   write_raw(r, response);
                   return Status::OK;
                 });
               });
  return call;
}

grpc::ServerUnaryReactor* service_t::Prove(grpc::CallbackServerContext* ctx,
                                           const grpc::ByteBuffer* request,
                                           grpc::ByteBuffer* response) {
  auto* call = new call_t;
  const auto st = call->state();
  const auto wait = wait_bound(ctx, 0);
  grpc::ByteBuffer bytes(*request);  // as SubmitProof's
  const_cast<grpc::ByteBuffer*>(request)->Clear();
  s_.on_worker(
      ctx, st,
      [this, st, request = std::move(bytes), response, wait](const std::string& client) mutable {
        auto done = s_.submit(client, request, /*nested=*/true);
        request.Clear();  // refused before the C1 was stored: its slices go now
        if (!done) return finish(st, status_of(done.error()));
        auto job = s_.resolve(client, done->job_id);
        if (!job) return finish(st, status_of(job.error()));
        s_.await_job(st, client, done->job_id, job->ref, job->status.seq, wait, false,
                     [response](const cz::await_answer_t& a) {
                       pb::ProveResponse r;
                       write_answer(a, r.mutable_result());
                       write_raw(r, response);
                     });
      });
  return call;
}

grpc::ServerUnaryReactor* service_t::AwaitProof(grpc::CallbackServerContext* ctx,
                                                const pb::AwaitProofRequest* request,
                                                pb::AwaitProofResponse* response) {
  auto* call = new call_t;
  const auto st = call->state();
  const auto wait = wait_bound(ctx, request->timeout_ms());
  const bool timeout_answer = request->timeout_ms() > 0;
  s_.on_worker(ctx, st,
               [this, st, job_id = request->job_id(), response, wait,
                timeout_answer](const std::string& client) {
                 auto job = s_.resolve(client, job_id);
                 if (!job) return finish(st, status_of(job.error()));
                 s_.await_job(
                     st, client, job_id, job->ref, job->status.seq, wait, timeout_answer,
                     [response](const cz::await_answer_t& a) { write_answer(a, response); });
               });
  return call;
}

grpc::ServerUnaryReactor* service_t::CancelProof(grpc::CallbackServerContext* ctx,
                                                 const pb::CancelProofRequest* request,
                                                 pb::CancelProofResponse* response) {
  auto* call = new call_t;
  const auto st = call->state();
  s_.on_worker(ctx, st,
               [this, st, job_id = request->job_id(), response](const std::string& client) {
                 auto job = s_.resolve(client, job_id);
                 if (!job) return finish(st, status_of(job.error()));
                 auto cancelled = s_.gateway->cancel(s_.session(client), job->ref);
                 if (!cancelled)
                   return finish(st, status_of(refusal_of(cancelled.error(), "the cancel")));
                 // Running: a partition had left the queue (the scheduler stops it on its node); a
                 // job that had already finished was not running.
                 const bool was_running = cancelled.value() && started(job->status);
                 log::info("gRPC: " + client + " cancelled " + job_id +
                           (cancelled.value() ? "" : " (it had already finished)"));
                 finish(st, [&] {
                   response->set_was_running(was_running);
                   return Status::OK;
                 });
               });
  return call;
}

grpc::ServerUnaryReactor* service_t::GetStatus(grpc::CallbackServerContext* ctx,
                                               const pb::GetStatusRequest*,
                                               pb::GetStatusResponse* response) {
  auto* call = new call_t;
  const auto st = call->state();
  s_.on_worker(ctx, st, [this, st, response](const std::string& client) {
    const std::string admin = s_.session("admin");  // the cluster's, as /metrics sees it
    auto nodes = s_.gateway->usage(admin);
    if (!nodes) return finish(st, status_of(refusal_of(nodes.error(), "its nodes")));
    auto jobs = s_.gateway->jobs(admin, 1000);
    if (!jobs) return finish(st, status_of(refusal_of(jobs.error(), "its jobs")));
    auto circuits = s_.circuit_list();
    if (!circuits) return finish(st, status_of(circuits.error()));
    const auto uptime = std::chrono::duration_cast<std::chrono::seconds>(
        std::chrono::steady_clock::now() - s_.started);
    const cz::status_t s =
        cz::cluster_status(nodes.value(), jobs.value(), circuits.value(), client, uptime);
    finish(st, [&] {
      for (const auto& g : s.gpus) {
        pb::GPUStatus* x = response->add_gpus();
        x->set_ordinal(g.ordinal);
        x->set_name(g.name);
        x->set_vram_total_bytes(g.vram_total_bytes);
        x->set_vram_free_bytes(g.vram_free_bytes);
        x->set_current_job_id(g.current_job_id);
        x->set_current_proof_kind(g.current_proof_kind);
      }
      for (const auto& k : s.loaded_srs) {
        pb::SRSStatus* x = response->add_loaded_srs();
        x->set_circuit_id(k.circuit_id);
        x->set_tier(pb::SRSStatus::Tier(k.tier));
        x->set_size_bytes(k.size_bytes);
        x->set_ref_count(k.ref_count);
      }
      for (const auto& q : s.queues) {
        pb::QueueStatus* x = response->add_queues();
        x->set_proof_kind(q.proof_kind);
        x->set_pending(q.pending);
        x->set_in_progress(q.in_progress);
      }
      response->set_total_proofs_completed(s.total_proofs_completed);
      response->set_total_proofs_failed(s.total_proofs_failed);
      response->set_uptime_seconds(s.uptime_seconds);
      response->set_pinned_memory_bytes(s.pinned_memory_bytes);
      response->set_pinned_memory_limit_bytes(s.pinned_memory_limit_bytes);
      return Status::OK;
    });
  });
  return call;
}

grpc::ServerUnaryReactor* service_t::GetMetrics(grpc::CallbackServerContext* ctx,
                                                const pb::GetMetricsRequest*,
                                                pb::GetMetricsResponse* response) {
  auto* call = new call_t;
  const auto st = call->state();
  s_.on_worker(ctx, st, [this, st, response](const std::string&) {
    auto text = node::cluster_metrics(*s_.gateway, s_.session("admin"));
    if (!text) return finish(st, Status(StatusCode::UNAVAILABLE, text.error().reason));
    finish(st, [&] {
      response->set_prometheus_text(text.value());
      return Status::OK;
    });
  });
  return call;
}

// PreloadSRS / EvictSRS: every live prover configured with the parameters of the circuits the
// id names asked to load or release them (the scheduler: actors/scheduler_params.cpp); what each
// did goes back in the trailer zkfleet-provers (and a refusal's status names it).
void service_t::move_srs(grpc::CallbackServerContext* ctx, const call_t::state_ptr_t& st,
                         const std::string& id, bool load,
                         std::function<void(const cz::srs_moved_t&)> write) {
  s_.on_worker(ctx, st, [this, ctx, st, id, load, write](const std::string& client) {
    auto circuits = s_.circuit_list();
    if (!circuits) return finish(st, status_of(circuits.error()));
    auto named = cz::circuits_named(circuits.value(), id);
    if (!named) return finish(st, status_of(named.error()));
    std::vector<node::key_outcome_msg> all;
    for (const auto& c : named.value()) {
      auto moved = s_.gateway->move_params(s_.session(client), c.id, load);
      if (!moved) return finish(st, status_of(refusal_of(moved.error(), "the provers' keys")));
      for (auto o : moved.value()) {
        if (named->size() > 1) o.node += " (" + c.id + ")";
        all.push_back(std::move(o));
      }
    }
    auto m = cz::srs_moved(all, load, id);
    log::info("gRPC: " + client + (load ? " PreloadSRS " : " EvictSRS ") + id + ": " +
              (m ? m->summary : m.error().why));
    if (!m) return finish(st, status_of(m.error()));
    finish(st, [&] {
      std::string trailer = m->summary;  // a header value: printable ASCII only
      for (char& ch : trailer)
        if (ch < 0x20 || ch > 0x7e) ch = '?';
      ctx->AddTrailingMetadata("zkfleet-provers", trailer);
      write(m.value());
      return Status::OK;
    });
  });
}

grpc::ServerUnaryReactor* service_t::PreloadSRS(grpc::CallbackServerContext* ctx,
                                                const pb::PreloadSrsRequest* request,
                                                pb::PreloadSrsResponse* response) {
  auto* call = new call_t;
  move_srs(ctx, call->state(), request->circuit_id(), true, [response](const cz::srs_moved_t& m) {
    response->set_already_loaded(m.already_loaded);
    response->set_load_time_ms(m.load_time_ms);
  });
  return call;
}

grpc::ServerUnaryReactor* service_t::EvictSRS(grpc::CallbackServerContext* ctx,
                                              const pb::EvictSrsRequest* request,
                                              pb::EvictSrsResponse* response) {
  auto* call = new call_t;
  move_srs(ctx, call->state(), request->circuit_id(), false, [response](const cz::srs_moved_t& m) {
    response->set_was_loaded(m.was_loaded);
    response->set_freed_bytes(m.freed_bytes);
  });
  return call;
}

}  // namespace zk::grpcapi
