// The cluster's state: GET /v1/nodes, /v1/stats, /v1/timeline.
#include <algorithm>

#include "node/api/service.hpp"

namespace zk::node {

api_result_t<json> api_server_t::impl_t::node_list() {
  auto u = gateway->usage(session("admin"));
  if (!u) return u.error();
  json list = json::array();
  bool scheduler_listed = false;
  for (const auto& n : *u) {
    list.push_back(node_json(n));
    if (n.name == o.scheduler_node) {  // the scheduler's own node also synthesizes or proves
      list.back()["roles"].insert(list.back()["roles"].begin(), "scheduler");
      scheduler_listed = true;
    }
  }
  if (!o.scheduler_node.empty() && !scheduler_listed) {
    node_usage_msg self;
    self.name = o.scheduler_node;
    self.alive = true;
    json j = node_json(self);
    j["roles"] = json::array({"scheduler"});
    list.insert(list.begin(), std::move(j));
  }
  return list;
}

net::http_response_t api_server_t::impl_t::nodes() {
  auto list = node_list();
  if (!list) return from_failure(list.error());
  return json_response(200, {{"nodes", *list}});
}

net::http_response_t api_server_t::impl_t::stats(const net::http_request_t& r) {
  // A recent window (window_s, default 300; 0: everything the aggregator holds).
  double window = 300;
  if (auto w = r.param("window_s")) {
    try {
      window = std::stod(*w);
    } catch (const std::exception&) {
      return api_error(400, "window_s: not a number");
    }
  }
  const int64_t since = window > 0 ? timeline::monotonic_ns() - int64_t(window * 1e9)
                                   : std::numeric_limits<int64_t>::min();
  auto agg = gateway->timeline(since);
  if (!agg) return from_failure(agg.error());
  return json_response(200, stats_json(timeline::compute_stats(agg->events(), agg->names())));
}

std::optional<json> api_server_t::impl_t::timeline_since(int64_t since) {
  // The answer trails the present by two seconds: events a node has not shipped yet (reporters
  // batch every 100 ms, a slow link takes longer) are still in the window the next ask covers.
  const int64_t now_ns = timeline::monotonic_ns() - int64_t(2e9);
  auto agg = gateway->timeline(since);
  if (!agg) return std::nullopt;
  json j = timeline::timeline_json(agg->events(), agg->names());
  j["now_ns"] = std::max(now_ns, since);
  return j;
}

net::http_response_t api_server_t::impl_t::timeline(const net::http_request_t& r) {
  int64_t since = std::numeric_limits<int64_t>::min();
  if (auto s = r.param("since")) {
    try {
      since = std::stoll(*s);
    } catch (const std::exception&) {
      return api_error(400, "since: not a number of nanoseconds");
    }
  }
  auto j = timeline_since(since);
  if (!j) return api_error(503, "the timeline aggregator does not answer");
  return json_response(200, *j);
}

}  // namespace zk::node
