// The API server (node/api/server.hpp): the server, its route table and the probes.
#include <algorithm>

#include "node/api/service.hpp"
#include "node/filecoin_job.hpp"

namespace zk::node {

void api_server_t::impl_t::handle(net::http_request_t r,
                                  const std::shared_ptr<net::http_reply_t>& reply) {
  const std::string& p = r.path;
  if (p == "/healthz") return reply->respond(healthz(r));
  if (p == "/readyz") return reply->respond(readyz(r));
  if (p == "/" || p == "/index.html" || p == "/app.js" || p == "/style.css")
    return reply->respond(asset(r));
  auto who = authenticate(r);
  if (!who)
    return reply->respond(
        api_error(401,
                  "unauthenticated: present a client certificate of this cluster's "
                  "CA or an Authorization: Bearer token (zkfleet certs create-token)"));
  if (p == "/metrics") return reply->respond(metrics(r));
  if (p.rfind("/v1/uploads/", 0) == 0) return reply->respond(upload_get(r, *who));
  if (who->role != "client")
    return reply->respond(
        api_error(403, "a " + who->role + " certificate may not use " + p + ": only a client's"));
  if (p == "/v1/uploads") return reply->respond(upload_put(r, *who));
  if (p == "/v1/jobs") return reply->respond(jobs(r, *who));
  if (p.rfind("/v1/jobs/", 0) == 0) return reply->respond(job(r, *who));
  if (p == "/v1/nodes")
    return reply->respond(is(r, {"GET", "HEAD"}) ? nodes() : method_not_allowed(r.method, "GET"));
  if (p.rfind("/v1/nodes/", 0) == 0) return reply->respond(node_action(r, *who));
  if (p == "/v1/stats")
    return reply->respond(is(r, {"GET", "HEAD"}) ? stats(r) : method_not_allowed(r.method, "GET"));
  if (p == "/v1/timeline")
    return reply->respond(is(r, {"GET", "HEAD"}) ? timeline(r, *who)
                                                 : method_not_allowed(r.method, "GET"));
  if (p == "/v1/events") {
    if (r.method != "GET") return reply->respond(method_not_allowed(r.method, "GET"));
    return events(r, *who, reply);
  }
  reply->respond(api_error(404, "no route " + p.substr(0, 200) + " (docs/api.md lists them)"));
}

net::http_body_plan_t api_server_t::impl_t::body_plan(const net::http_request_t& head) {
  net::http_body_plan_t plan;  // 64 KiB in memory
  const bool upload =
      ((head.method == "PUT" || head.method == "POST") && head.path == "/v1/uploads") ||
      (head.method == "POST" && head.path == "/v1/jobs" && head.param("circuit"));
  if (head.method == "POST" && head.path == "/v1/jobs" && !upload) {  // a JSON job
    plan.limit = o.uploads ? std::min(o.uploads->max_bytes(), max_json_job_body) : plan.limit;
    plan.limit_name = "the bound of a JSON job";
    plan.hint = "send a larger input as the body of POST /v1/jobs?circuit=ID (docs/api.md)";
    return plan;
  }
  if (!upload || !o.uploads) return plan;
  // Who it is, before a byte of the body is taken.
  const auto who = authenticate(head);
  if (!who)
    plan.answer = api_error(401,
                            "unauthenticated: present a client certificate of this cluster's "
                            "CA or an Authorization: Bearer token (zkfleet certs create-token)");
  else if (who->role != "client")
    plan.answer = api_error(
        403, "a " + who->role + " certificate may not use " + head.path + ": only a client's");
  if (plan.answer) return plan;
  plan.limit = o.uploads->max_bytes();
  plan.limit_name = "scheduler.max_upload";
  plan.hint = "raise scheduler.max_upload in the scheduler's config to send it";
  try {
    // A Filecoin C2 job's body is its C1 output, JSON whatever the Content-Type says, read by the
    // C1 reader at intake (its messages name the JSON path and byte of what is wrong); a SnapDeals
    // job's is its snap-vproof.json (Curio's list of base64 partition proofs), JSON likewise.
    auto c = head.param("circuit") ? circuit(*head.param("circuit")) : std::nullopt;
    const bool c1 = c && c->kind == circuit_kind_t::filecoin_porep;
    const bool vproof = c && c->kind == circuit_kind_t::filecoin_snap;
    const bool json_type =
        head.header("content-type").rfind("application/json", 0) == 0 || c1 || vproof;
    plan.sink = std::make_shared<upload_sink_t>(o.uploads->receive(json_type, !c1));
  } catch (const std::exception& e) {
    plan.answer = api_error(500, std::string("the upload store: ") + e.what());
  }
  return plan;
}

net::http_response_t api_server_t::impl_t::healthz(const net::http_request_t& r) {
  if (!is(r, {"GET", "HEAD"})) return method_not_allowed(r.method, "GET, HEAD");
  net::http_response_t out;
  out.body = "ok\n";
  return out;
}

net::http_response_t api_server_t::impl_t::readyz(const net::http_request_t& r) {
  if (!is(r, {"GET", "HEAD"})) return method_not_allowed(r.method, "GET, HEAD");
  auto u = gateway->usage(session("admin"));
  if (!u) return api_error(503, "the scheduler does not answer: " + u.error().reason);
  bool synth = false, prover = false;
  for (const auto& n : *u) synth |= n.alive && n.synth, prover |= n.alive && n.prover;
  if (!synth || !prover)
    return api_error(503, std::string("not ready: no ") +
                              (!synth && !prover ? "synthesis node and no prover"
                               : !synth          ? "synthesis node"
                                                 : "prover") +
                              " in the cluster");
  net::http_response_t out;
  out.body = "ready\n";
  return out;
}

net::http_response_t api_server_t::impl_t::asset(const net::http_request_t& r) {
  if (!is(r, {"GET", "HEAD"})) return method_not_allowed(r.method, "GET, HEAD");
  auto a = o.assets ? o.assets(r.path == "/" ? "/index.html" : r.path) : std::nullopt;
  if (!a) return api_error(404, "this build serves no dashboard");
  net::http_response_t out;
  out.content_type = a->content_type;
  out.body = std::string(a->bytes);
  out.headers.push_back({"Cache-Control", "no-cache"});
  return out;
}

api_server_t::api_server_t(std::shared_ptr<api_gateway_t> gateway,
                           std::shared_ptr<sessions_t> sessions, api_options_t options)
    : impl_(std::make_shared<impl_t>(std::move(gateway), std::move(sessions), std::move(options))) {
  net::http_options_t h;
  h.tls = impl_->o.tls;
  h.io_timeout = impl_->o.io_timeout;
  h.json_errors = true;
  auto impl = impl_;
  h.body_plan = [impl](const net::http_request_t& head) { return impl->body_plan(head); };
  server_ = std::make_unique<net::http_server_t>(
      "http", impl_->o.host, impl_->o.port,
      [impl](net::http_request_t r, std::shared_ptr<net::http_reply_t> reply) {
        impl->handle(std::move(r), reply);
      },
      h);
  impl_->publisher = std::thread([impl] { impl->publish(); });
}

api_server_t::~api_server_t() {
  {
    std::lock_guard<std::mutex> lock(impl_->mu);
    impl_->stopping = true;
    impl_->wake.notify_all();
  }
  if (impl_->publisher.joinable()) impl_->publisher.join();
  server_.reset();  // no handler runs past here
}

uint16_t api_server_t::port() const { return server_->port(); }
bool api_server_t::tls() const { return server_->tls(); }
std::string api_server_t::url() const {
  const std::string& h = impl_->o.host;
  return std::string(tls() ? "https://" : "http://") +
         (h.find(':') != std::string::npos ? "[" + h + "]" : h) + ":" + std::to_string(port());
}

}  // namespace zk::node
