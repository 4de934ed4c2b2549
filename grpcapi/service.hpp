#pragma once
// The gRPC face's shared parts (grpcapi/server.hpp), private to grpcapi/: a call in progress, the
// worker threads, the service and the server's state. server.cpp builds and runs the server and
// decides who a call is; service.cpp answers the eight methods; wire.cpp reads the requests whose
// C1 is streamed.
#include <grpcpp/grpcpp.h>

#include <chrono>
#include <condition_variable>
#include <deque>
#include <map>
#include <mutex>
#include <thread>

#include "common/net/networks.hpp"
#include "cuzk/v1/proving.grpc.pb.h"
#include "grpcapi/server.hpp"
#include "node/cuzk/answer.hpp"
#include "node/cuzk/c1_stream.hpp"
#include "node/cuzk/request.hpp"
#include "node/cuzk/status.hpp"
#include "zk/base/result.hpp"

namespace zk::grpcapi {

namespace cz = node::cuzk;

// gRPC's status of a refusal (its code one to one).
grpc::Status status_of(const cz::refusal_t& r);

// One call in progress: the reactor gRPC holds until it is done, finished exactly once by
// whoever answers first (a worker, the job's end, a cancellation). Workers and callbacks hold the
// call's state, never the reactor: the state says whether the reactor is still there.
class call_t : public grpc::ServerUnaryReactor {
 public:
  struct state_t {
    std::mutex mu;
    call_t* call = nullptr;  // null once gRPC is done with it
    bool finished = false;
    node::api_cancel_t stop_wait;  // the wait for the job's end, when one runs
  };
  using state_ptr_t = std::shared_ptr<state_t>;

  call_t() : state_(std::make_shared<state_t>()) { state_->call = this; }
  const state_ptr_t& state() const { return state_; }
  // The client left or its deadline passed: the wait stops (the job goes on: the same request_id
  // finds it again) and the call ends.
  void OnCancel() override;
  void OnDone() override;

 private:
  state_ptr_t state_;
};

// Finishes the call once: `fill` writes its response (while the call surely exists) and says the
// status. Later finishes do nothing.
void finish(const call_t::state_ptr_t& s, const std::function<grpc::Status()>& fill);
void finish(const call_t::state_ptr_t& s, const grpc::Status& status);
// The wait for a job's end, stopped at once when the call has already ended.
void set_wait(const call_t::state_ptr_t& s, node::api_cancel_t stop);

// A few threads for the blocking parts of calls (a C1 written to the store, an ask of the
// scheduler): never gRPC's threads, never the actor system's.
class workers_t {
 public:
  explicit workers_t(unsigned n);
  ~workers_t();  // runs what is queued, then joins
  void post(std::function<void()> f);

 private:
  std::mutex mu_;
  std::condition_variable wake_;
  std::deque<std::function<void()>> queue_;
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

// The service: C1-carrying methods read raw (their request's bytes streamed from gRPC's slices),
// the others as messages.
using engine_t = cuzk::v1::ProvingEngine;
using service_base_t = engine_t::WithRawCallbackMethod_SubmitProof<
    engine_t::WithCallbackMethod_AwaitProof<engine_t::WithRawCallbackMethod_Prove<
        engine_t::WithCallbackMethod_CancelProof<engine_t::WithCallbackMethod_GetStatus<
            engine_t::WithCallbackMethod_GetMetrics<engine_t::WithCallbackMethod_PreloadSRS<
                engine_t::WithCallbackMethod_EvictSRS<engine_t::Service>>>>>>>>;

class service_t final : public service_base_t {
 public:
  explicit service_t(server_t::impl_t& server) : s_(server) {}
  grpc::ServerUnaryReactor* SubmitProof(grpc::CallbackServerContext* ctx,
                                        const grpc::ByteBuffer* request,
                                        grpc::ByteBuffer* response) override;
  grpc::ServerUnaryReactor* AwaitProof(grpc::CallbackServerContext* ctx,
                                       const cuzk::v1::AwaitProofRequest* request,
                                       cuzk::v1::AwaitProofResponse* response) override;
  grpc::ServerUnaryReactor* Prove(grpc::CallbackServerContext* ctx, const grpc::ByteBuffer* request,
                                  grpc::ByteBuffer* response) override;
  grpc::ServerUnaryReactor* CancelProof(grpc::CallbackServerContext* ctx,
                                        const cuzk::v1::CancelProofRequest* request,
                                        cuzk::v1::CancelProofResponse* response) override;
  grpc::ServerUnaryReactor* GetStatus(grpc::CallbackServerContext* ctx,
                                      const cuzk::v1::GetStatusRequest* request,
                                      cuzk::v1::GetStatusResponse* response) override;
  grpc::ServerUnaryReactor* GetMetrics(grpc::CallbackServerContext* ctx,
                                       const cuzk::v1::GetMetricsRequest* request,
                                       cuzk::v1::GetMetricsResponse* response) override;
  grpc::ServerUnaryReactor* PreloadSRS(grpc::CallbackServerContext* ctx,
                                       const cuzk::v1::PreloadSrsRequest* request,
                                       cuzk::v1::PreloadSrsResponse* response) override;
  grpc::ServerUnaryReactor* EvictSRS(grpc::CallbackServerContext* ctx,
                                     const cuzk::v1::EvictSrsRequest* request,
                                     cuzk::v1::EvictSrsResponse* response) override;

 private:
  // PreloadSRS (load) and EvictSRS: the circuits `id` names, their keys moved, `write` fills the
  // response.
  void move_srs(grpc::CallbackServerContext* ctx, const call_t::state_ptr_t& st,
                const std::string& id, bool load,
                std::function<void(const cz::srs_moved_t&)> write);
  server_t::impl_t& s_;
};

// A job a call names, as the scheduler resolved it.
struct job_named_t {
  std::string ref;  // what to ask the scheduler with: "request:<id>" or the job's id
  node::job_status_msg status;
};

struct server_t::impl_t {
  std::shared_ptr<node::api_gateway_t> gateway;
  std::shared_ptr<node::sessions_t> sessions;
  server_options_t o;
  std::vector<net::network_t> networks;  // o.insecure_networks parsed
  std::chrono::steady_clock::time_point started = std::chrono::steady_clock::now();
  service_t service{*this};
  std::unique_ptr<grpc::Server> server;
  std::string address;
  int tunnel_port = 0;
  std::unique_ptr<workers_t> workers;

  std::mutex mu;
  std::map<std::string, std::string> session_of;  // client name → its session
  std::vector<node::circuit_def_t> circuits;
  std::chrono::steady_clock::time_point circuits_at{};

  // --- server.cpp
  // The client a call acts as (see server.hpp), or why it may not call.
  cz::answer_t<std::string> identify(grpc::CallbackServerContext* ctx) const;
  std::string session(const std::string& client);
  // The scheduler's circuits (asked again after a minute), or why not.
  cz::answer_t<std::vector<node::circuit_def_t>> circuit_list();

  // --- service.cpp
  // What a submit answers: the job's name for the client and its public id.
  struct submitted_t {
    std::string job_id;  // the request_id, or the job's id without one
    std::string ref;     // the scheduler's name of it
    std::string public_id;
  };
  // A SubmitProofRequest (its bytes in `request`, a ProveRequest's field when nested) checked,
  // its C1 stored and the job submitted, on a worker. `request` is cleared once the C1 is stored
  // (before the job's intake reads it back).
  cz::answer_t<submitted_t> submit(const std::string& client, grpc::ByteBuffer& request,
                                   bool nested);
  // A checked SNAP_DEALS_UPDATE submit: its partitions (read in the first pass; released here)
  // stored as one snap-vproof.json and the job submitted.
  cz::answer_t<submitted_t> submit_update(const std::string& client, cz::submit_t& s,
                                          const node::circuit_def_t& circuit);
  // A checked submit whose inputs are stored: its job request submitted for `client`, the answer
  // (logged with `what`: the sector it is of).
  cz::answer_t<submitted_t> submit_job(const std::string& client, const cz::submit_t& s,
                                       const node::circuit_def_t& circuit, const std::string& what);
  // The job `job_id` names for `client`: its request id first, then its id or number.
  cz::answer_t<job_named_t> resolve(const std::string& client, const std::string& job_id);
  // Waits (without a thread) for the job's end, then answers it: into `out` by `write`. `wait`:
  // how long; `timeout_ms`: whether its passing is a TIMEOUT answer (AwaitProof's timeout_ms) or
  // the call's deadline.
  void await_job(const call_t::state_ptr_t& call, const std::string& client,
                 const std::string& job_id, const std::string& ref, uint64_t seq,
                 std::chrono::milliseconds wait, bool timeout_answer,
                 std::function<void(const cz::await_answer_t&)> write);
  // A call run on a worker (after its caller is known): `work` answers it.
  template <class F>
  void on_worker(grpc::CallbackServerContext* ctx, const call_t::state_ptr_t& call, F&& work) {
    auto who = identify(ctx);
    if (!who) return finish(call, status_of(who.error()));
    workers->post([this, call, client = who.value(), work = std::forward<F>(work)]() mutable {
      try {
        work(client);
      } catch (const std::exception& e) {
        finish(call, grpc::Status(grpc::StatusCode::INTERNAL, e.what()));
      }
    });
  }
};

// The longest a call may wait for a job when its client set no deadline and asked no timeout.
inline constexpr std::chrono::hours forever_wait{24 * 30};
// How long the wait for a job's end may be, from the call's deadline (none: forever_wait) and
// a timeout asked for (0: none).
std::chrono::milliseconds wait_bound(grpc::CallbackServerContext* ctx, uint64_t timeout_ms);

// --- wire.cpp: a SubmitProofRequest read straight off the wire ---------------------------------

// Reads the request (a SubmitProofRequest; with `nested`, a ProveRequest's `submit` field): every
// field the face uses into `out`, vanilla_proof's length into out.vanilla_proof_bytes and, when
// `c1` is given, its bytes handed to it a piece at a time as they lie in gRPC's slices (never
// gathered into one string). The refusal when the bytes are not such a request or `c1` refuses a
// piece (its words).
check_t read_submit(const grpc::ByteBuffer& request, bool nested, cz::submit_t& out,
                    const std::function<check_t(std::string_view)>* c1 = nullptr);

}  // namespace zk::grpcapi
