#pragma once
// The scheduler's metrics endpoint (docs/design.md "Timeline": Prometheus text exposition of the
// counters and stage-duration histograms at the scheduler): a small HTTP server (Boost.Beast)
// that answers
//
//   GET|HEAD /metrics  200 text/plain; version=0.0.4 — the aggregator's cumulative metrics
//                      (metrics_atom: zkfleet_proofs_total, zkfleet_stage_duration_seconds,
//                      counted over every event ever aggregated, so they never go down) and
//                      per-node gauges from the scheduler's stats_atom answer
//                      (zkfleet_node_reserved_bytes, _budget_bytes, _synthesizing, _pipeline)
//                      503 with a one-line reason when either actor does not answer in time
//   any other path     404            any other method   405 (Allow: GET, HEAD)
//
// One connection, one request (Connection: close). Each connection has a deadline (io_timeout)
// for reading the request and writing the answer; a request whose header or body exceeds
// max_request_bytes is dropped. The server runs one io_context on its own thread; answering
// /metrics blocks that thread for at most two ask_timeouts (a scrape at a time, as Prometheus
// does). Who may use it: the node that runs the scheduler role (`zkfleet node`), and tests.
// Destroy it before the actor_system it asks.
#include <caf/all.hpp>
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "actors/messages.hpp"
#include "common/net/http_server.hpp"

namespace zk::actors {

struct metrics_options_t {
  std::chrono::milliseconds ask_timeout{2000};  // each of the two actor requests
  std::chrono::milliseconds io_timeout{5000};   // reading a request, writing an answer
  uint32_t max_request_bytes = 8192;            // header, and body (a GET has none)
};

// The per-node gauges in exposition format (with # HELP and # TYPE), one sample per node.
std::string render_node_gauges(const std::vector<node_usage_msg>& nodes);
// A label value escaped per the exposition format: backslash, double quote and newline.
std::string escape_label_value(const std::string& v);

// Asks the scheduler (stats_atom) and then the aggregator (metrics_atom), each within `timeout`,
// and answers metrics_atom with the exposition text, or an unavailable error naming who did
// not answer.
// `token`: the gateway's session at the scheduler (the scheduler node mints it in-process).
caf::behavior metrics_gateway(caf::event_based_actor* self, scheduler_actor scheduler,
                              std::string token, timeline_actor aggregator,
                              std::chrono::milliseconds timeout);

// The HTTP face (common/net/http_server) of a metrics gateway.
class metrics_server_t {
 public:
  // Binds host:port at once (port 0: an ephemeral port; port() says which) and serves on a
  // thread of its own. host: an address or a name. Throws std::runtime_error naming host:port
  // when it cannot bind.
  metrics_server_t(caf::actor_system& sys, scheduler_actor scheduler, std::string token,
                   timeline_actor aggregator, std::string host, uint16_t port,
                   metrics_options_t options = {});
  ~metrics_server_t();
  metrics_server_t(const metrics_server_t&) = delete;
  metrics_server_t& operator=(const metrics_server_t&) = delete;

  uint16_t port() const;
  const std::string& host() const;

 private:
  caf::actor_system& sys_;
  caf::actor gateway_;
  std::unique_ptr<net::http_server_t> server_;
};

}  // namespace zk::actors
