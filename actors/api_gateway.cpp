#include "actors/api_gateway.hpp"

#include "actors/node.hpp"  // ask
#include "actors/timeline.hpp"

namespace zk::actors {

using node::api_failure_t;
using node::api_result_t;

unsigned http_status_of(const caf::error& e) {
  if (e.category() != caf::atom("zkfleet"))
    return 503;  // a timeout, or the scheduler gone: not the request's fault
  switch (static_cast<zk_errc>(e.code())) {
    case zk_errc::unknown_job:
      return 404;
    case zk_errc::unauthenticated:
      return 401;
    case zk_errc::forbidden:
      return 403;
    case zk_errc::unavailable:
      return 503;
    case zk_errc::job_failed:
    case zk_errc::job_cancelled:
    case zk_errc::conflict:
      return 409;
    case zk_errc::internal:
      return 500;
    default:
      return 400;
  }
}

namespace {

// Why an ask bounded by `timeout` got no answer.
api_failure_t failure_of(const caf::error& e, std::chrono::milliseconds timeout) {
  const bool timed_out = e == caf::sec::request_timeout;
  return {http_status_of(e), reason_of(e),
          timed_out ? "did not answer within " + std::to_string(timeout.count()) + " ms"
                    : "failed: " + describe(e),
          timed_out};
}

class actor_gateway_t final : public node::api_gateway_t {
 public:
  actor_gateway_t(caf::actor_system& sys, scheduler_actor scheduler, timeline_actor aggregator,
                  std::chrono::milliseconds timeout)
      : sys_(sys),
        scheduler_(std::move(scheduler)),
        aggregator_(std::move(aggregator)),
        timeout_(timeout) {}

  api_result_t<std::vector<circuit_def_t>> circuits(const std::string& session) override {
    return from(
        ask<std::vector<circuit_def_t>>(sys_, scheduler_, timeout_, circuits_atom::value, session));
  }
  api_result_t<std::vector<node_usage_msg>> usage(const std::string& session) override {
    return from(
        ask<std::vector<node_usage_msg>>(sys_, scheduler_, timeout_, stats_atom::value, session));
  }
  api_result_t<std::string> job_metrics(const std::string& session) override {
    return from(ask<std::string>(sys_, scheduler_, timeout_, metrics_atom::value, session));
  }
  api_result_t<std::vector<job_status_msg>> jobs(const std::string& session,
                                                 uint32_t limit) override {
    return from(ask<std::vector<job_status_msg>>(sys_, scheduler_, timeout_, jobs_atom::value,
                                                 session, limit));
  }
  api_result_t<job_status_msg> status(const std::string& session, const std::string& job) override {
    return from(ask<job_status_msg>(sys_, scheduler_, timeout_, status_atom::value, session, job));
  }
  api_result_t<job_result_msg> proofs(const std::string& session, const std::string& job) override {
    return from(ask<job_result_msg>(sys_, scheduler_, timeout_, proofs_atom::value, session, job));
  }
  api_result_t<bool> cancel(const std::string& session, const std::string& job) override {
    return from(ask<bool>(sys_, scheduler_, timeout_, cancel_atom::value, session, job));
  }
  api_result_t<std::string> submit(const std::string& session,
                                   const job_request_msg& request) override {
    return from(ask<std::string>(sys_, scheduler_, timeout_, submit_atom::value, session, request));
  }
  api_result_t<job_status_msg> wait(const std::string& session, const std::string& job,
                                    std::chrono::seconds wait) override {
    // The await answers when the job finishes (a failed or cancelled one with an error); past
    // `wait` its status, unfinished.
    auto done = ask<job_result_msg>(sys_, scheduler_, std::chrono::milliseconds(wait),
                                    await_atom::value, session, job);
    if (done) return std::move(done->status);
    const auto e = done.error();
    const bool ended = e == caf::sec::request_timeout ||
                       (e.category() == caf::atom("zkfleet") &&
                        (static_cast<zk_errc>(e.code()) == zk_errc::job_failed ||
                         static_cast<zk_errc>(e.code()) == zk_errc::job_cancelled));
    if (!ended) return failure(e);
    return status(session, job);
  }
  api_result_t<job_status_msg> retry(const std::string& session, const std::string& job) override {
    return from(ask<job_status_msg>(sys_, scheduler_, timeout_, retry_atom::value, session, job));
  }
  api_result_t<job_status_msg> set_priority(const std::string& session, const std::string& job,
                                            priority_t priority) override {
    return from(ask<job_status_msg>(sys_, scheduler_, timeout_, priority_atom::value, session, job,
                                    priority));
  }
  api_result_t<node_usage_msg> drain(const std::string& session, const std::string& node,
                                     bool draining) override {
    return from(ask<node_usage_msg>(sys_, scheduler_, timeout_, drain_atom::value, session, node,
                                    draining));
  }
  api_result_t<std::vector<key_outcome_msg>> move_params(const std::string& session,
                                                         const std::string& circuit,
                                                         bool load) override {
    return from(ask<std::vector<key_outcome_msg>>(sys_, scheduler_, std::chrono::minutes(31),
                                                  params_atom::value, session, circuit, load));
  }
  api_result_t<std::string> metrics() override {
    return from(ask<std::string>(sys_, aggregator_, timeout_, metrics_atom::value));
  }
  api_result_t<timeline::aggregator_t> timeline(int64_t since) override {
    auto snap =
        ask<timeline_snapshot_msg>(sys_, aggregator_, timeout_, snapshot_atom::value, since);
    if (!snap) return failure(snap.error());
    return to_aggregator(*snap);
  }
  api_result_t<std::vector<timeline::event_t>> job_events(uint64_t job) override {
    auto snap =
        ask<timeline_snapshot_msg>(sys_, aggregator_, timeout_, job_events_atom::value, job);
    if (!snap) return failure(snap.error());
    return std::move(snap->events);
  }
  node::api_cancel_t await(const std::string& session, const std::string& job,
                           std::chrono::milliseconds wait,
                           node::api_callback_t<job_result_msg> done) override {
    // The failure's words name the wait, not the gateway's ask bound.
    const caf::actor helper = ask_async<job_result_msg>(
        sys_, scheduler_, wait,
        [done = std::move(done), wait](caf::expected<job_result_msg> x) {
          if (x) return done(std::move(*x));
          api_failure_t f = failure_of(x.error(), wait);
          if (f.timed_out)
            f.detail = "did not finish within " + std::to_string(wait.count()) + " ms";
          done(std::move(f));
        },
        await_atom::value, session, job);
    return [helper] {
      if (helper) caf::anon_send_exit(helper, caf::exit_reason::user_shutdown);
    };
  }

 private:
  api_failure_t failure(const caf::error& e) const { return failure_of(e, timeout_); }
  template <class T>
  api_result_t<T> from(caf::expected<T>&& x) const {
    if (!x) return failure(x.error());
    return std::move(*x);
  }

  caf::actor_system& sys_;
  scheduler_actor scheduler_;
  timeline_actor aggregator_;
  std::chrono::milliseconds timeout_;
};

}  // namespace

std::shared_ptr<node::api_gateway_t> api_gateway(caf::actor_system& sys, scheduler_actor scheduler,
                                                 timeline_actor aggregator,
                                                 std::chrono::milliseconds ask_timeout) {
  return std::make_shared<actor_gateway_t>(sys, std::move(scheduler), std::move(aggregator),
                                           ask_timeout);
}

std::unique_ptr<node::api_server_t> serve_api(caf::actor_system& sys, scheduler_actor scheduler,
                                              timeline_actor aggregator,
                                              std::shared_ptr<node::sessions_t> sessions,
                                              node::api_options_t options) {
  auto gateway = api_gateway(sys, std::move(scheduler), std::move(aggregator), options.ask_timeout);
  return std::make_unique<node::api_server_t>(std::move(gateway), std::move(sessions),
                                              std::move(options));
}

}  // namespace zk::actors
