#pragma once
// The scheduler node's HTTP face (docs/api.md): the job API, uploads, the cluster's state, the
// merged timeline (also live, as server-sent events), the dashboard's files, health probes and
// Prometheus metrics, on the HTTP server of common/net (plain, or HTTPS with the node's
// certificate). It runs beside the scheduler in the scheduler node's process and talks to the
// scheduler and the timeline aggregator through a gateway (node/api/gateway.hpp; the actors'
// one: actors/api_gateway.hpp) as any client does: each request with the session of its
// caller's identity (a client certificate, a bearer token, or admin on an insecure loopback
// cluster), each answer awaited for at most ask_timeout (503 past it).
//
//   GET  /healthz /readyz /metrics          probes (open) and Prometheus text
//   GET  / /index.html /app.js /style.css   the dashboard (files from `assets`)
//   POST /v1/jobs    GET /v1/jobs[?limit]   GET|DELETE /v1/jobs/ID[?wait=S]   GET
//   /v1/jobs/ID/proofs POST /v1/jobs/ID/retry   POST /v1/jobs/ID/priority?priority=P   (ID: the
//   job's id or number) POST /v1/nodes/NAME/drain   POST /v1/nodes/NAME/undrain         (admin) PUT
//   /v1/uploads                        GET /v1/uploads/REF (synthesis nodes, with a ticket) GET
//   /v1/nodes /v1/stats /v1/timeline[?since=NS] /v1/events (text/event-stream)
//
// The files: server.cpp (the server, its routes, the probes), auth.cpp (identities, sessions),
// views.cpp (the JSON of the answers, errors), jobs.cpp, uploads.cpp, cluster.cpp (nodes, stats,
// timeline), events.cpp (/v1/events and its publisher thread), metrics.cpp; service.hpp is
// their shared state.
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/net/http_server.hpp"
#include "common/security/tokens.hpp"
#include "node/api/gateway.hpp"
#include "node/scheduler/sessions.hpp"
#include "node/scheduler/uploads.hpp"

namespace zk::node {

// The per-node gauges in exposition format (with # HELP and # TYPE), one sample per node.
std::string render_node_gauges(const std::vector<node_usage_msg>& nodes);
// The scheduler node's Prometheus text (GET /metrics, and the gRPC face's GetMetrics): the
// timeline aggregator's metrics and the per-node gauges; when either does not answer, the failure
// with its reason ("the scheduler did not answer within …").
api_result_t<std::string> cluster_metrics(api_gateway_t& gateway, const std::string& session);

struct api_asset_t {
  std::string content_type;
  std::string_view bytes;
};

struct api_options_t {
  std::string host = "127.0.0.1";
  uint16_t port = 0;  // 0: any free port (port() says which)
  // HTTPS with these files (the scheduler node's certificate, its key, the CA); empty: plain HTTP,
  // where every request acts as admin (the config allows that on loopback only).
  net::tls_files_t tls;
  std::shared_ptr<security::token_store_t> tokens;  // bearer tokens (HTTPS); null: none
  std::shared_ptr<upload_store_t> uploads;          // null: no uploads
  std::string upload_key;                           // the scheduler's, for the fetch tickets
  // The node that runs the scheduler: listed in /v1/nodes with the scheduler role (the other
  // nodes are listed as they joined); empty: not listed.
  std::string scheduler_node;
  // The scheduler's lookahead setting: the stats' advice fits it (timeline::compute_stats).
  std::optional<config::lookahead_t> lookahead;
  // The dashboard's file at a path ("/" → "/index.html"); empty function or nullopt: none.
  std::function<std::optional<api_asset_t>(std::string_view path)> assets;
  std::chrono::milliseconds ask_timeout{10000};  // the gateway's bound on each answer
  std::chrono::milliseconds event_period{1000};  // /v1/events
  std::chrono::milliseconds io_timeout{10000};
  unsigned max_streams = 32;
  // GET /v1/jobs/ID?wait=S: S at most max_wait, at most max_waits such requests at once (each
  // holds one of the server's handler threads); more are answered 429.
  std::chrono::seconds max_wait{60};
  unsigned max_waits = 2;
};

class api_server_t {
 public:
  // Binds at once and serves on threads of its own. Throws std::runtime_error naming host:port
  // (or a TLS file) when it cannot. Destroy it before what the gateway asks.
  api_server_t(std::shared_ptr<api_gateway_t> gateway, std::shared_ptr<sessions_t> sessions,
               api_options_t options);
  ~api_server_t();
  api_server_t(const api_server_t&) = delete;
  api_server_t& operator=(const api_server_t&) = delete;

  uint16_t port() const;
  bool tls() const;
  // "http://127.0.0.1:9410" or "https://…": where it serves.
  std::string url() const;

  struct impl_t;

 private:
  std::shared_ptr<impl_t> impl_;
  std::unique_ptr<net::http_server_t> server_;
};

}  // namespace zk::node
