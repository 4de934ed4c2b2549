#pragma once
// What the HTTP API (node/api) and the gRPC face (grpcapi/) ask of the cluster, and nothing else:
// the scheduler's answers to a session and the timeline aggregator's. The actors layer implements
// it on the scheduler and aggregator actors (actors/api_gateway.hpp); the API sees plain values
// and, when there is no answer, why not with the HTTP status that says so.
#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "common/timeline/aggregator.hpp"
#include "node/circuit.hpp"
#include "node/scheduler/requests.hpp"
#include "zk/base/result.hpp"

namespace zk::node {

// Why an ask got no answer.
struct api_failure_t {
  // The HTTP status it maps to (docs/api.md): 404 unknown job, 401 no session, 403 forbidden,
  // 409 a job failed or cancelled, 500 the scheduler's own failure, 400 any other refusal; 503
  // when the peer did not answer in time or is gone (not the request's fault).
  unsigned status = 503;
  std::string reason;  // the reason text alone ("unknown job 'x'")
  // "did not answer within 2000 ms" for a timeout, "failed: <the error>" otherwise.
  std::string detail;
  bool timed_out = false;  // no answer within the ask's bound (status 503)
};

template <class T>
using api_result_t = result_t<T, api_failure_t>;
// Where an answer that comes later goes (a thread of the actor system calls it, once).
template <class T>
using api_callback_t = std::function<void(api_result_t<T>)>;
// Stops waiting: the callback is then never called (nothing happens once it was).
using api_cancel_t = std::function<void()>;

class api_gateway_t {
 public:
  virtual ~api_gateway_t() = default;
  // The scheduler, each ask with the caller's session token.
  virtual api_result_t<std::vector<circuit_def_t>> circuits(const std::string& session) = 0;
  virtual api_result_t<std::vector<node_usage_msg>> usage(const std::string& session) = 0;
  // The scheduler's counts of failed, cancelled and refused jobs (Prometheus text).
  virtual api_result_t<std::string> job_metrics(const std::string& session) = 0;
  virtual api_result_t<std::vector<job_status_msg>> jobs(const std::string& session,
                                                         uint32_t limit) = 0;
  virtual api_result_t<job_status_msg> status(const std::string& session,
                                              const std::string& job) = 0;
  virtual api_result_t<job_result_msg> proofs(const std::string& session,
                                              const std::string& job) = 0;
  // true: cancelled; false: the job had already finished.
  virtual api_result_t<bool> cancel(const std::string& session, const std::string& job) = 0;
  virtual api_result_t<std::string> submit(const std::string& session,
                                           const job_request_msg& request) = 0;
  // The job's status once it has finished, or after `wait` when it has not (finished false).
  virtual api_result_t<job_status_msg> wait(const std::string& session, const std::string& job,
                                            std::chrono::seconds wait) = 0;
  // The job's proofs once it has finished, to `done` and without holding the caller's thread
  // (the gRPC face waits so for jobs of hours): a failed or cancelled job answers status 409, no
  // end within `wait` a failure with timed_out.
  virtual api_cancel_t await(const std::string& session, const std::string& job,
                             std::chrono::milliseconds wait,
                             api_callback_t<job_result_msg> done) = 0;
  // An operator's asks: a failed job retried, an unfinished job's priority, a node drained or
  // undrained (admin only).
  virtual api_result_t<job_status_msg> retry(const std::string& session,
                                             const std::string& job) = 0;
  virtual api_result_t<job_status_msg> set_priority(const std::string& session,
                                                    const std::string& job,
                                                    priority_t priority) = 0;
  virtual api_result_t<node_usage_msg> drain(const std::string& session, const std::string& node,
                                             bool draining) = 0;
  // A Filecoin circuit's parameters loaded (load) or released on every live prover configured
  // with them, and what each did (PreloadSRS / EvictSRS); none: no such prover. A load of large
  // parameters takes minutes: the ask waits up to half an hour.
  virtual api_result_t<std::vector<key_outcome_msg>> move_params(const std::string& session,
                                                                 const std::string& circuit,
                                                                 bool load) = 0;
  // The timeline aggregator: its Prometheus text, and its events after `since` (ns, its time).
  virtual api_result_t<std::string> metrics() = 0;
  virtual api_result_t<timeline::aggregator_t> timeline(int64_t since) = 0;
  // The events of one job (its number), clock-corrected, sorted.
  virtual api_result_t<std::vector<timeline::event_t>> job_events(uint64_t job) = 0;
};

}  // namespace zk::node
