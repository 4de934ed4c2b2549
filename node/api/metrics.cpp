// /metrics: the timeline aggregator's metrics, the scheduler's counts of failed, cancelled and
// refused jobs and its per-node gauges (the exposition format is written in
// common/timeline/metrics only).
#include "common/timeline/metrics.hpp"

#include "node/api/service.hpp"

namespace zk::node {

namespace {

using usage_field_t = uint64_t (*)(const node_usage_msg&);

std::string gauge(const char* name, const char* help, const std::vector<node_usage_msg>& nodes,
                  usage_field_t value) {
  std::vector<std::pair<std::string, uint64_t>> by_node;
  for (const auto& n : nodes) by_node.push_back({n.name, value(n)});
  return timeline::render_node_gauge(name, help, by_node);
}

}  // namespace

std::string render_node_gauges(const std::vector<node_usage_msg>& nodes) {
  std::string out;
  out += gauge("zkfleet_node_reserved_bytes",
               "Bytes the scheduler holds reserved on the node (buffers, proving work).", nodes,
               [](const node_usage_msg& n) { return n.reserved; });
  out += gauge("zkfleet_node_peak_reserved_bytes",
               "The most the scheduler has held reserved on the node since it joined.", nodes,
               [](const node_usage_msg& n) { return n.peak_reserved; });
  out +=
      gauge("zkfleet_node_budget_bytes", "The node's memory budget as the scheduler accounts it.",
            nodes, [](const node_usage_msg& n) { return n.budget; });
  out += gauge("zkfleet_node_synthesizing", "Partitions synthesizing on the node.", nodes,
               [](const node_usage_msg& n) { return uint64_t(n.synthesizing); });
  out += gauge("zkfleet_node_pipeline",
               "Partitions assigned to the node's prover and not yet proving.", nodes,
               [](const node_usage_msg& n) { return uint64_t(n.pipeline); });
  return out;
}

api_result_t<std::string> cluster_metrics(api_gateway_t& gateway, const std::string& session) {
  auto u = gateway.usage(session);
  if (!u) return api_failure_t{503, "the scheduler " + u.error().detail, u.error().detail};
  auto jobs = gateway.job_metrics(session);
  if (!jobs) return api_failure_t{503, "the scheduler " + jobs.error().detail, jobs.error().detail};
  auto m = gateway.metrics();
  if (!m)
    return api_failure_t{503, "the timeline aggregator " + m.error().detail, m.error().detail};
  return *m + *jobs + render_node_gauges(*u);
}

net::http_response_t api_server_t::impl_t::metrics(const net::http_request_t& r) {
  if (!is(r, {"GET", "HEAD"})) return method_not_allowed(r.method, "GET, HEAD");
  auto text = cluster_metrics(*gateway, session("admin"));
  if (!text) return api_error(503, text.error().reason);
  net::http_response_t out;
  out.content_type = "text/plain; version=0.0.4; charset=utf-8";
  out.body = std::move(text.value());
  return out;
}

}  // namespace zk::node
