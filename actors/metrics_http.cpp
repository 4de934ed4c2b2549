#include "actors/metrics_http.hpp"

#include "actors/node.hpp"  // ask

namespace zk::actors {
namespace {

constexpr const char* content_type = "text/plain; version=0.0.4; charset=utf-8";

void gauge(std::string& out, const char* name, const char* help,
           const std::vector<node_usage_msg>& nodes, uint64_t (*value)(const node_usage_msg&)) {
  out += std::string("# HELP ") + name + " " + help + "\n";
  out += std::string("# TYPE ") + name + " gauge\n";
  for (const auto& n : nodes)
    out += std::string(name) + "{node=\"" + escape_label_value(n.name) + "\"} " +
           std::to_string(value(n)) + "\n";
}

}  // namespace

std::string escape_label_value(const std::string& v) {
  std::string out;
  out.reserve(v.size());
  for (char c : v) {
    if (c == '\\')
      out += "\\\\";
    else if (c == '"')
      out += "\\\"";
    else if (c == '\n')
      out += "\\n";
    else
      out += c;
  }
  return out;
}

std::string render_node_gauges(const std::vector<node_usage_msg>& nodes) {
  std::string out;
  gauge(out, "zkfleet_node_reserved_bytes",
        "Bytes the scheduler holds reserved on the node (buffers, proving work).", nodes,
        [](const node_usage_msg& n) { return n.reserved; });
  gauge(out, "zkfleet_node_peak_reserved_bytes",
        "The most the scheduler has held reserved on the node since it joined.", nodes,
        [](const node_usage_msg& n) { return n.peak_reserved; });
  gauge(out, "zkfleet_node_budget_bytes", "The node's memory budget as the scheduler accounts it.",
        nodes, [](const node_usage_msg& n) { return n.budget; });
  gauge(out, "zkfleet_node_synthesizing", "Partitions synthesizing on the node.", nodes,
        [](const node_usage_msg& n) { return uint64_t(n.synthesizing); });
  gauge(out, "zkfleet_node_pipeline",
        "Partitions assigned to the node's prover and not yet proving.", nodes,
        [](const node_usage_msg& n) { return uint64_t(n.pipeline); });
  return out;
}

namespace {

// "did not answer within 2000 ms" for a timeout, "failed: <the error>" otherwise.
std::string why(const caf::error& e, std::chrono::milliseconds timeout) {
  if (e == caf::sec::request_timeout)
    return "did not answer within " + std::to_string(timeout.count()) + " ms";
  return "failed: " + describe(e);
}

}  // namespace

caf::behavior metrics_gateway(caf::event_based_actor* self, scheduler_actor scheduler,
                              std::string token, timeline_actor aggregator,
                              std::chrono::milliseconds t) {
  return {
      [=](metrics_atom) -> caf::result<std::string> {
        if (!scheduler || !aggregator)
          return caf::make_error(
              zk_errc::unavailable,
              std::string("no ") + (scheduler ? "timeline aggregator" : "scheduler") + " to ask");
        auto rp = self->make_response_promise<std::string>();
        self->request(scheduler, t, stats_atom::value, token)
            .then(
                [=](const std::vector<node_usage_msg>& usage) mutable {
                  self->request(aggregator, t, metrics_atom::value)
                      .then(
                          [=](const std::string& m) mutable {
                            rp.deliver(m + render_node_gauges(usage));
                          },
                          [=](caf::error& e) mutable {
                            rp.deliver(caf::make_error(zk_errc::unavailable,
                                                       "the timeline aggregator " + why(e, t)));
                          });
                },
                [=](caf::error& e) mutable {
                  rp.deliver(caf::make_error(zk_errc::unavailable, "the scheduler " + why(e, t)));
                });
        return rp;
      },
  };
}

metrics_server_t::metrics_server_t(caf::actor_system& sys, scheduler_actor scheduler,
                                   std::string token, timeline_actor aggregator, std::string host,
                                   uint16_t port, metrics_options_t options)
    : sys_(sys),
      gateway_(sys.spawn(metrics_gateway, std::move(scheduler), std::move(token),
                         std::move(aggregator), options.ask_timeout)) {
  auto handler = [this, options](const net::http_request_t& req) {
    net::http_response_t res;
    if (req.method != "GET" && req.method != "HEAD") {
      res.status = 405;
      res.body = "method not allowed: " + req.method + "\n";
      res.headers.push_back({"Allow", "GET, HEAD"});
    } else if (req.path != "/metrics") {
      res.status = 404;
      res.body = "not found: " + req.path + " (metrics are at /metrics)\n";
    } else if (auto text = ask<std::string>(sys_, gateway_,
                                            2 * options.ask_timeout + options.ask_timeout / 2,
                                            metrics_atom::value)) {
      res.content_type = content_type;
      res.body = std::move(*text);
    } else {
      res.status = 503;
      res.body = reason_of(text.error()) + "\n";
    }
    return res;
  };
  net::http_options_t o;
  o.io_timeout = options.io_timeout;
  o.max_request_bytes = options.max_request_bytes;
  try {
    server_ = std::make_unique<net::http_server_t>("metrics", std::move(host), port,
                                                   std::move(handler), o);
  } catch (...) {
    caf::anon_send_exit(gateway_, caf::exit_reason::user_shutdown);
    throw;
  }
}

metrics_server_t::~metrics_server_t() {
  server_.reset();  // no handler runs past here
  caf::anon_send_exit(gateway_, caf::exit_reason::user_shutdown);
}

uint16_t metrics_server_t::port() const { return server_->port(); }
const std::string& metrics_server_t::host() const { return server_->host(); }

}  // namespace zk::actors
