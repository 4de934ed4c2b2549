#include "actors/api_http.hpp"

#include <openssl/crypto.h>

#include <algorithm>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <limits>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <thread>

#include "actors/node.hpp"  // ask
#include "actors/timeline.hpp"
#include "common/timeline/render.hpp"
#include "common/util/log.hpp"
#include "zk/formats/json.hpp"

namespace zk::actors {

using json = nlohmann::json;
using net::http_request_t;
using net::http_response_t;

// --- Prometheus gauges --------------------------------------------------------------------------

namespace {

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

// --- JSON of the API's answers (docs/api.md) -----------------------------------------------------

namespace {

const char* job_state(const job_status_msg& s) {
  if (s.cancelled) return "cancelled";
  if (s.failed > 0) return "failed";
  if (s.finished) return "done";
  for (const auto& p : s.part_states)
    if (p != "queued") return "running";
  return "queued";
}

json job_json(const job_status_msg& s, bool parts) {
  json j = {{"id", s.id},
            {"seq", s.seq},
            {"owner", s.owner},
            {"circuit", s.circuit},
            {"state", job_state(s)},
            {"priority", config::priority_name(s.priority)},
            {"done", s.done},
            {"failed", s.failed},
            {"partition_count", s.partitions},
            {"submitted_ms", s.submitted_ms}};
  if (!s.waiting.empty()) j["waiting"] = s.waiting;
  if (!s.error.empty()) j["error"] = s.error;
  if (parts) {
    json list = json::array();
    for (size_t k = 0; k < s.part_states.size(); ++k) {
      json p = {{"partition", k}, {"state", s.part_states[k]}};
      if (k < s.part_nodes.size() && !s.part_nodes[k].empty()) p["node"] = s.part_nodes[k];
      list.push_back(p);
    }
    j["partitions"] = list;
  }
  return j;
}

json node_json(const node_usage_msg& n) {
  json roles = json::array();
  if (n.synth) roles.push_back("synth");
  if (n.prover) roles.push_back("prover");
  return {{"name", n.name},
          {"roles", roles},
          {"alive", n.alive},
          {"backend", n.backend},
          {"reserved_bytes", n.reserved},
          {"peak_bytes", n.peak_reserved},
          {"budget_bytes", n.budget},
          {"synthesizing", n.synthesizing},
          {"pipeline", n.pipeline}};
}

json stats_json(const timeline::stats_t& s) {
  json tracks = json::array();
  for (const auto& t : s.tracks)
    tracks.push_back({{"name", t.name}, {"role", t.role}, {"busy", t.busy_fraction}});
  return {{"span_s", s.span_s},
          {"proofs", s.proofs},
          {"proofs_per_minute", s.proofs_per_minute},
          {"prover_idle_per_proof_s", s.prover_idle_per_proof_s},
          {"busy",
           {{"synthesis", s.synth_busy}, {"transfer", s.transfer_busy}, {"prover", s.prover_busy}}},
          {"queue_depth", {{"mean", s.mean_queue_depth}, {"max", s.max_queue_depth}}},
          {"tracks", tracks},
          {"bottleneck", s.bottleneck},
          {"verdict", s.verdict}};
}

http_response_t json_response(unsigned status, const json& body) {
  http_response_t r;
  r.status = status;
  r.content_type = "application/json";
  r.body = body.dump() + "\n";
  return r;
}

http_response_t error(unsigned status, const std::string& why) {
  return net::http_error(status, why, true);
}

// The HTTP status of an error the scheduler answered.
unsigned status_of(const caf::error& e) {
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
      return 409;
    case zk_errc::internal:
      return 500;
    default:
      return 400;
  }
}

http_response_t from_error(const caf::error& e) { return error(status_of(e), reason_of(e)); }

// "did not answer within 2000 ms" for a timeout, "failed: <the error>" otherwise.
std::string why(const caf::error& e, std::chrono::milliseconds timeout) {
  if (e == caf::sec::request_timeout)
    return "did not answer within " + std::to_string(timeout.count()) + " ms";
  return "failed: " + describe(e);
}

http_response_t method_not_allowed(const std::string& method, const char* allow) {
  auto r = error(405, "method not allowed here: " + method);
  r.headers.push_back({"Allow", allow});
  return r;
}

bool is(const http_request_t& r, std::initializer_list<const char*> methods) {
  for (const char* m : methods)
    if (r.method == m) return true;
  return false;
}

}  // namespace

// --- the server ----------------------------------------------------------------------------------

struct api_server_t::impl_t {
  caf::actor_system& sys;
  scheduler_actor scheduler;
  timeline_actor aggregator;
  std::shared_ptr<node::sessions_t> sessions;
  api_options_t o;
  bool secure = false;

  std::mutex mu;
  std::map<std::string, std::string> session_of;  // client name → its session at the scheduler
  std::vector<node::circuit_def_t> circuits;
  std::chrono::steady_clock::time_point circuits_at{};

  struct stream_t {
    std::shared_ptr<net::http_stream_t> out;
    std::string token;  // the jobs it may see
    int64_t since = std::numeric_limits<int64_t>::min();
  };
  std::vector<stream_t> streams;
  std::condition_variable wake;
  bool stopping = false;
  std::thread publisher;

  impl_t(caf::actor_system& s, scheduler_actor sc, timeline_actor ag,
         std::shared_ptr<node::sessions_t> se, api_options_t opt)
      : sys(s),
        scheduler(std::move(sc)),
        aggregator(std::move(ag)),
        sessions(std::move(se)),
        o(std::move(opt)),
        secure(o.tls.enabled()) {}

  // --- identities
  struct who_t {
    std::string role, name;
  };
  std::optional<who_t> authenticate(const http_request_t& r) {
    if (!secure) return who_t{"client", "admin"};
    if (!r.cert_role.empty()) return who_t{r.cert_role, r.cert_name};
    const std::string auth = r.header("authorization");
    if (o.tokens && auth.rfind("Bearer ", 0) == 0)
      if (auto name = o.tokens->identify(auth.substr(7))) return who_t{"client", *name};
    return std::nullopt;
  }
  std::string session(const std::string& client) {
    std::lock_guard<std::mutex> lock(mu);
    auto& t = session_of[client];
    if (t.empty()) t = sessions->add({security::role_t::client, client});
    return t;
  }

  template <class T, class... Ts>
  caf::expected<T> ask_scheduler(Ts&&... xs) {
    return ask<T>(sys, scheduler, o.ask_timeout, std::forward<Ts>(xs)...);
  }

  std::optional<node::circuit_def_t> circuit(const std::string& id) {
    {
      std::lock_guard<std::mutex> lock(mu);
      if (std::chrono::steady_clock::now() - circuits_at < std::chrono::minutes(1))
        for (const auto& c : circuits)
          if (c.id == id) return c;
    }
    auto list =
        ask_scheduler<std::vector<node::circuit_def_t>>(circuits_atom::value, session("admin"));
    if (!list) return std::nullopt;
    std::lock_guard<std::mutex> lock(mu);
    circuits = *list;
    circuits_at = std::chrono::steady_clock::now();
    for (const auto& c : circuits)
      if (c.id == id) return c;
    return std::nullopt;
  }

  // --- routes
  void handle(http_request_t r, const std::shared_ptr<net::http_reply_t>& reply);
  http_response_t healthz(const http_request_t& r);
  http_response_t readyz(const http_request_t& r);
  http_response_t asset(const http_request_t& r);
  http_response_t metrics(const http_request_t& r);
  http_response_t jobs(const http_request_t& r, const who_t& who);
  http_response_t job(const http_request_t& r, const who_t& who);
  http_response_t submit(const http_request_t& r, const who_t& who);
  http_response_t upload_put(const http_request_t& r, const who_t& who);
  http_response_t upload_get(const http_request_t& r, const who_t& who);
  http_response_t nodes();
  http_response_t stats(const http_request_t& r);
  http_response_t timeline(const http_request_t& r);
  void events(const http_request_t& r, const who_t& who,
              const std::shared_ptr<net::http_reply_t>& reply);
  void publish();  // the /v1/events thread
  // The timeline after `since` with its "now_ns" (where the next ask starts); nullopt when the
  // aggregator does not answer.
  std::optional<json> timeline_since(int64_t since);
  caf::expected<json> node_list();  // /v1/nodes's list, or why the scheduler did not give it
};

void api_server_t::impl_t::handle(http_request_t r,
                                  const std::shared_ptr<net::http_reply_t>& reply) {
  const std::string& p = r.path;
  if (p == "/healthz") return reply->respond(healthz(r));
  if (p == "/readyz") return reply->respond(readyz(r));
  if (p == "/" || p == "/index.html" || p == "/app.js" || p == "/style.css")
    return reply->respond(asset(r));
  auto who = authenticate(r);
  if (!who)
    return reply->respond(
        error(401,
              "unauthenticated: present a client certificate of this cluster's "
              "CA or an Authorization: Bearer token (zkfleet certs create-token)"));
  if (p == "/metrics") return reply->respond(metrics(r));
  if (p.rfind("/v1/uploads/", 0) == 0) return reply->respond(upload_get(r, *who));
  if (who->role != "client")
    return reply->respond(
        error(403, "a " + who->role + " certificate may not use " + p + ": only a client's"));
  if (p == "/v1/uploads") return reply->respond(upload_put(r, *who));
  if (p == "/v1/jobs") return reply->respond(jobs(r, *who));
  if (p.rfind("/v1/jobs/", 0) == 0) return reply->respond(job(r, *who));
  if (p == "/v1/nodes")
    return reply->respond(is(r, {"GET", "HEAD"}) ? nodes() : method_not_allowed(r.method, "GET"));
  if (p == "/v1/stats")
    return reply->respond(is(r, {"GET", "HEAD"}) ? stats(r) : method_not_allowed(r.method, "GET"));
  if (p == "/v1/timeline")
    return reply->respond(is(r, {"GET", "HEAD"}) ? timeline(r)
                                                 : method_not_allowed(r.method, "GET"));
  if (p == "/v1/events") {
    if (r.method != "GET") return reply->respond(method_not_allowed(r.method, "GET"));
    return events(r, *who, reply);
  }
  reply->respond(error(404, "no route " + p.substr(0, 200) + " (docs/api.md lists them)"));
}

http_response_t api_server_t::impl_t::healthz(const http_request_t& r) {
  if (!is(r, {"GET", "HEAD"})) return method_not_allowed(r.method, "GET, HEAD");
  http_response_t out;
  out.body = "ok\n";
  return out;
}

http_response_t api_server_t::impl_t::readyz(const http_request_t& r) {
  if (!is(r, {"GET", "HEAD"})) return method_not_allowed(r.method, "GET, HEAD");
  auto u = ask_scheduler<std::vector<node_usage_msg>>(stats_atom::value, session("admin"));
  if (!u) return error(503, "the scheduler does not answer: " + reason_of(u.error()));
  bool synth = false, prover = false;
  for (const auto& n : *u) synth |= n.alive && n.synth, prover |= n.alive && n.prover;
  if (!synth || !prover)
    return error(503, std::string("not ready: no ") +
                          (!synth && !prover ? "synthesis node and no prover"
                           : !synth          ? "synthesis node"
                                             : "prover") +
                          " in the cluster");
  http_response_t out;
  out.body = "ready\n";
  return out;
}

http_response_t api_server_t::impl_t::asset(const http_request_t& r) {
  if (!is(r, {"GET", "HEAD"})) return method_not_allowed(r.method, "GET, HEAD");
  auto a = o.assets ? o.assets(r.path == "/" ? "/index.html" : r.path) : std::nullopt;
  if (!a) return error(404, "this build serves no dashboard");
  http_response_t out;
  out.content_type = a->content_type;
  out.body = std::string(a->bytes);
  out.headers.push_back({"Cache-Control", "no-cache"});
  return out;
}

http_response_t api_server_t::impl_t::metrics(const http_request_t& r) {
  if (!is(r, {"GET", "HEAD"})) return method_not_allowed(r.method, "GET, HEAD");
  auto u = ask_scheduler<std::vector<node_usage_msg>>(stats_atom::value, session("admin"));
  if (!u) return error(503, "the scheduler " + why(u.error(), o.ask_timeout));
  auto m = ask<std::string>(sys, aggregator, o.ask_timeout, metrics_atom::value);
  if (!m) return error(503, "the timeline aggregator " + why(m.error(), o.ask_timeout));
  http_response_t out;
  out.content_type = "text/plain; version=0.0.4; charset=utf-8";
  out.body = *m + render_node_gauges(*u);
  return out;
}

http_response_t api_server_t::impl_t::jobs(const http_request_t& r, const who_t& who) {
  if (r.method == "POST") return submit(r, who);
  if (!is(r, {"GET", "HEAD"})) return method_not_allowed(r.method, "GET, POST");
  uint32_t limit = 100;
  if (auto l = r.param("limit")) {
    try {
      limit = uint32_t(std::clamp<unsigned long>(std::stoul(*l), 1, 1000));
    } catch (const std::exception&) {
      return error(400, "limit: '" + l->substr(0, 40) + "' is not a number");
    }
  }
  auto list =
      ask_scheduler<std::vector<job_status_msg>>(jobs_atom::value, session(who.name), limit);
  if (!list) return from_error(list.error());
  json out = json::array();
  for (const auto& s : *list) out.push_back(job_json(s, false));
  return json_response(200, {{"jobs", out}});
}

http_response_t api_server_t::impl_t::job(const http_request_t& r, const who_t& who) {
  std::string rest = r.path.substr(std::string("/v1/jobs/").size());
  const bool proofs = rest.size() > 7 && rest.substr(rest.size() - 7) == "/proofs";
  if (proofs) rest.resize(rest.size() - 7);
  if (rest.empty() || rest.find('/') != std::string::npos)
    return error(404, "no route " + r.path.substr(0, 200));
  const std::string token = session(who.name);
  if (r.method == "DELETE" && !proofs) {
    auto c = ask_scheduler<bool>(cancel_atom::value, token, rest);
    if (!c) return from_error(c.error());
    if (!*c) return error(409, "job " + rest + " is already finished");
    return json_response(200, {{"cancelled", true}});
  }
  if (!is(r, {"GET", "HEAD"})) return method_not_allowed(r.method, proofs ? "GET" : "GET, DELETE");
  if (!proofs) {
    auto s = ask_scheduler<job_status_msg>(status_atom::value, token, rest);
    if (!s) return from_error(s.error());
    return json_response(200, job_json(*s, true));
  }
  auto got = ask_scheduler<job_result_msg>(proofs_atom::value, token, rest);
  if (!got) return from_error(got.error());
  json out = json::array();
  auto sorted = got->proofs;
  std::sort(sorted.begin(), sorted.end(),
            [](const proof_msg& a, const proof_msg& b) { return a.partition < b.partition; });
  for (const auto& p : sorted)
    out.push_back({{"partition", p.partition},
                   {"proof", json::parse(p.proof_json)},
                   {"public", p.public_signals}});
  return json_response(200, out);
}

http_response_t api_server_t::impl_t::submit(const http_request_t& r, const who_t& who) {
  const std::string type = r.header("content-type");
  const bool json_type = type.rfind("application/json", 0) == 0;
  job_request_msg req;
  std::string circuit_id, priority;
  uint64_t partitions = 1;
  json input;  // JSON form
  try {
    if (json_type && !r.param("circuit")) {
      const json body = json::parse(r.body);
      if (!body.is_object()) return error(400, "the body must be a JSON object");
      if (!body.contains("circuit") || !body["circuit"].is_string())
        return error(400, "\"circuit\" (a string) is required");
      circuit_id = body["circuit"];
      if (body.contains("partitions")) {
        if (!body["partitions"].is_number_unsigned())
          return error(400, "\"partitions\" must be a positive integer");
        partitions = body["partitions"];
      }
      if (body.contains("priority")) {
        if (!body["priority"].is_string()) return error(400, "\"priority\" must be a string");
        priority = body["priority"];
      }
      if (body.contains("input")) input = body["input"];
    } else {
      auto c = r.param("circuit");
      if (!c || c->empty()) return error(400, "the query needs circuit=ID");
      circuit_id = *c;
      if (auto p = r.param("partitions")) partitions = std::stoull(*p);
      if (auto p = r.param("priority")) priority = *p;
    }
  } catch (const json::exception& e) {
    return error(400, std::string("the body is not JSON: ") + e.what());
  } catch (const std::exception&) {
    return error(400, "partitions: not a number");
  }
  if (partitions == 0 || partitions > 0xffffffffull)
    return error(400, "partitions must be between 1 and 4294967295");
  req.circuit = circuit_id;
  req.partitions = uint32_t(partitions);
  if (priority.empty()) {
    req.circuit_priority = true;
  } else if (auto p = config::parse_priority(priority)) {
    req.priority = *p;
  } else {
    return error(400, "priority is one of critical, high, normal, low (got '" +
                          priority.substr(0, 40) + "')");
  }
  auto c = circuit(circuit_id);
  if (!c) return error(400, "unknown circuit '" + circuit_id.substr(0, 100) + "'");
  const bool native = c->kind == node::circuit_kind_t::native;
  const bool generator = !c->witness_generator.empty();
  try {
    if (json_type && !r.param("circuit")) {  // the input inside the JSON body
      if (native) {
        if (!input.is_null()) {
          if (!input.is_object() || !input.contains("seed") || !input["seed"].is_number_unsigned())
            return error(400, "circuit '" + circuit_id +
                                  "' is native: its input is {\"seed\": N} (or none)");
          req.inputs.push_back("seed=" + std::to_string(input["seed"].get<uint64_t>()));
        }
      } else if (generator) {
        if (!input.is_object())
          return error(400, "circuit '" + circuit_id + "' takes an input.json object as \"input\"");
        if (!o.uploads) return error(400, "this scheduler takes no uploads");
        req.inputs.push_back(o.uploads->put(input.dump(), true));
      } else {
        return error(400, "circuit '" + circuit_id +
                              "' takes a .wtns: POST it as application/octet-stream to "
                              "/v1/jobs?circuit=" +
                              circuit_id + "&partitions=N");
      }
    } else {  // the body is the input
      if (native) return error(400, "circuit '" + circuit_id + "' is native: its input is JSON");
      if (!o.uploads) return error(400, "this scheduler takes no uploads");
      if (json_type && !generator)
        return error(400, "circuit '" + circuit_id + "' has no witness generator: send its .wtns");
      req.inputs.push_back(o.uploads->put(r.body, json_type));
    }
  } catch (const std::invalid_argument& e) {
    return error(std::string(e.what()).find("max_upload") != std::string::npos ? 413 : 400,
                 e.what());
  }
  auto id = ask_scheduler<std::string>(submit_atom::value, session(who.name), req);
  if (!id) return from_error(id.error());
  return json_response(201, {{"id", *id}});
}

http_response_t api_server_t::impl_t::upload_put(const http_request_t& r, const who_t&) {
  if (r.method != "PUT" && r.method != "POST") return method_not_allowed(r.method, "PUT");
  if (!o.uploads) return error(404, "this scheduler takes no uploads");
  try {
    const bool json_type = r.header("content-type").rfind("application/json", 0) == 0;
    const std::string ref = o.uploads->put(r.body, json_type);
    return json_response(201, {{"upload", ref.substr(std::string("upload:").size())},
                               {"input", ref},
                               {"bytes", r.body.size()}});
  } catch (const std::invalid_argument& e) {
    return error(std::string(e.what()).find("max_upload") != std::string::npos ? 413 : 400,
                 e.what());
  }
}

http_response_t api_server_t::impl_t::upload_get(const http_request_t& r, const who_t& who) {
  if (!is(r, {"GET"})) return method_not_allowed(r.method, "GET");
  if (secure && who.role != "node")
    return error(403, "uploads are fetched by synthesis nodes, with their node certificate");
  const std::string input = "upload:" + r.path.substr(std::string("/v1/uploads/").size());
  // The ticket the scheduler gave the dispatch: job.partition.attempt.mac
  const std::string t = r.header("x-zkfleet-ticket");
  uint64_t job = 0;
  unsigned long part = 0, attempt = 0;
  char mac[65] = {};
  if (!o.uploads || t.size() > 200 ||
      std::sscanf(t.c_str(), "%lu.%lu.%lu.%64s", &job, &part, &attempt, mac) != 4)
    return error(403, "no valid ticket for this upload (X-Zkfleet-Ticket)");
  const std::string want =
      node::upload_ticket(o.upload_key, input, job, uint32_t(part), uint32_t(attempt));
  if (want.size() != std::strlen(mac) || CRYPTO_memcmp(want.data(), mac, want.size()) != 0)
    return error(403, "the ticket is not for this upload");
  auto path = o.uploads->path_of(input);
  if (!path) return error(404, "no upload " + input.substr(0, 100));
  std::ifstream in(*path, std::ios::binary);
  http_response_t out;
  out.content_type = "application/octet-stream";
  out.body.assign(std::istreambuf_iterator<char>(in), {});
  if (!in.good() && !in.eof()) return error(503, "the upload could not be read");
  return out;
}

caf::expected<json> api_server_t::impl_t::node_list() {
  auto u = ask_scheduler<std::vector<node_usage_msg>>(stats_atom::value, session("admin"));
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

http_response_t api_server_t::impl_t::nodes() {
  auto list = node_list();
  if (!list) return from_error(list.error());
  return json_response(200, {{"nodes", *list}});
}

http_response_t api_server_t::impl_t::stats(const http_request_t& r) {
  // A recent window (window_s, default 300; 0: everything the aggregator holds).
  double window = 300;
  if (auto w = r.param("window_s")) {
    try {
      window = std::stod(*w);
    } catch (const std::exception&) {
      return error(400, "window_s: not a number");
    }
  }
  const int64_t since = window > 0 ? timeline::monotonic_ns() - int64_t(window * 1e9)
                                   : std::numeric_limits<int64_t>::min();
  auto snap =
      ask<timeline_snapshot_msg>(sys, aggregator, o.ask_timeout, snapshot_atom::value, since);
  if (!snap) return from_error(snap.error());
  const auto agg = to_aggregator(*snap);
  return json_response(200, stats_json(timeline::compute_stats(agg.events(), agg.names())));
}

std::optional<json> api_server_t::impl_t::timeline_since(int64_t since) {
  // The answer trails the present by two seconds: events a node has not shipped yet (reporters
  // batch every 100 ms, a slow link takes longer) are still in the window the next ask covers.
  const int64_t now_ns = timeline::monotonic_ns() - int64_t(2e9);
  auto snap =
      ask<timeline_snapshot_msg>(sys, aggregator, o.ask_timeout, snapshot_atom::value, since);
  if (!snap) return std::nullopt;
  const auto agg = to_aggregator(*snap);
  json j = timeline::timeline_json(agg.events(), agg.names());
  j["now_ns"] = std::max(now_ns, since);
  return j;
}

http_response_t api_server_t::impl_t::timeline(const http_request_t& r) {
  int64_t since = std::numeric_limits<int64_t>::min();
  if (auto s = r.param("since")) {
    try {
      since = std::stoll(*s);
    } catch (const std::exception&) {
      return error(400, "since: not a number of nanoseconds");
    }
  }
  auto j = timeline_since(since);
  if (!j) return error(503, "the timeline aggregator does not answer");
  return json_response(200, *j);
}

void api_server_t::impl_t::events(const http_request_t&, const who_t& who,
                                  const std::shared_ptr<net::http_reply_t>& reply) {
  std::unique_lock<std::mutex> lock(mu);
  streams.erase(std::remove_if(streams.begin(), streams.end(),
                               [](const stream_t& s) { return !s.out->open(); }),
                streams.end());
  if (streams.size() >= o.max_streams) {
    lock.unlock();
    return reply->respond(error(503, "too many event streams open; try again later"));
  }
  lock.unlock();
  auto out = reply->stream("text/event-stream", {{"X-Accel-Buffering", "no"}});
  if (!out) return;
  out->write(": zkfleet events\n\n");
  const std::string token = session(who.name);
  lock.lock();
  streams.push_back({std::move(out), token});
  wake.notify_all();
}

void api_server_t::impl_t::publish() {
  std::unique_lock<std::mutex> lock(mu);
  while (!stopping) {
    wake.wait_for(lock, o.event_period, [this] { return stopping; });
    if (stopping) break;
    streams.erase(std::remove_if(streams.begin(), streams.end(),
                                 [](const stream_t& s) { return !s.out->open(); }),
                  streams.end());
    if (streams.empty()) {
      wake.wait(lock, [this] { return stopping || !streams.empty(); });
      continue;
    }
    auto batch = streams;  // asked for without the lock held
    lock.unlock();
    auto message = [](const char* event, const json& data) {
      return std::string("event: ") + event + "\ndata: " + data.dump() + "\n\n";
    };
    std::string shared;
    if (auto list = node_list()) shared += message("nodes", {{"nodes", *list}});
    http_request_t window;
    auto st = stats(window);
    if (st.status == 200)
      shared += "event: stats\ndata: " + st.body.substr(0, st.body.size() - 1) + "\n\n";
    for (auto& s : batch) {
      std::string text = shared;
      if (auto list = ask_scheduler<std::vector<job_status_msg>>(jobs_atom::value, s.token, 100u)) {
        json out = json::array();
        for (const auto& j : *list) out.push_back(job_json(j, false));
        text += message("jobs", {{"jobs", out}});
      }
      if (auto t = timeline_since(s.since)) {
        text += message("timeline", *t);
        s.since = (*t)["now_ns"].get<int64_t>();
      }
      s.out->write(std::move(text));
    }
    lock.lock();
    for (const auto& s : batch)  // keep each stream's place in the timeline
      for (auto& live : streams)
        if (live.out == s.out) live.since = s.since;
  }
  for (auto& s : streams) s.out->close();
  streams.clear();
}

api_server_t::api_server_t(caf::actor_system& sys, scheduler_actor scheduler,
                           timeline_actor aggregator, std::shared_ptr<node::sessions_t> sessions,
                           api_options_t options)
    : impl_(std::make_shared<impl_t>(sys, std::move(scheduler), std::move(aggregator),
                                     std::move(sessions), std::move(options))) {
  net::http_options_t h;
  h.tls = impl_->o.tls;
  h.io_timeout = impl_->o.io_timeout;
  h.json_errors = true;
  const uint64_t max_upload = impl_->o.uploads ? impl_->o.uploads->max_bytes() : 0;
  h.body_limit = [max_upload](const std::string& method, const std::string& path) -> uint64_t {
    const bool upload = (method == "PUT" && path == "/v1/uploads") ||
                        (method == "POST" && (path == "/v1/jobs" || path == "/v1/uploads"));
    return upload ? std::max<uint64_t>(max_upload, 64 << 10) : uint64_t(64) << 10;
  };
  auto impl = impl_;
  server_ = std::make_unique<net::http_server_t>(
      "http", impl_->o.host, impl_->o.port,
      [impl](http_request_t r, std::shared_ptr<net::http_reply_t> reply) {
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

}  // namespace zk::actors
