// The scheduler's HTTP face (node/api on the actors' gateway, actors/api_gateway) in one process,
// plain HTTP (an insecure loopback cluster: every request is admin's): an embedded cluster proves a
// job, then a plain Beast client scrapes GET /metrics and checks the exposition against what
// happened (proofs, stage counts, each node's budget), the probes, the API's own answers (HEAD,
// 404, 405, 400, 413, 429), 503 when the scheduler or the aggregator cannot answer, a stalled
// client, and a bind clash. The routes with certificates, tokens and uploads across processes:
// tests/cli/http_api.sh. Every wait is bounded.
#include <doctest/doctest.h>

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <chrono>
#include <map>
#include <sstream>

#include "actors/api_gateway.hpp"
#include "actors/node.hpp"
#include "tests/test_util.hpp"

using namespace zk::actors;
using namespace zk::node;
using namespace std::chrono_literals;

namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;

struct reply_t {
  unsigned status = 0;
  std::string content_type, allow, body;
  uint64_t content_length = 0;
};

// One request to 127.0.0.1:port, the whole exchange within 15 s (async on a private context).
reply_t fetch(uint16_t port, http::verb method, const std::string& target, std::string body = {}) {
  asio::io_context io;
  beast::tcp_stream stream(io);
  http::request<http::string_body> req{method, target, 11};
  req.set(http::field::host, "127.0.0.1");
  req.body() = std::move(body);
  req.prepare_payload();
  beast::flat_buffer buf;
  http::response_parser<http::string_body> parser;
  parser.skip(method == http::verb::head);  // a HEAD answer has a length but no body
  beast::error_code err;
  stream.expires_after(15s);
  stream.async_connect(
      tcp::endpoint(asio::ip::make_address("127.0.0.1"), port), [&](beast::error_code ec) {
        if (ec) return void(err = ec);
        http::async_write(stream, req, [&](beast::error_code ec, size_t) {
          if (ec) return void(err = ec);
          http::async_read(stream, buf, parser, [&](beast::error_code ec, size_t) { err = ec; });
        });
      });
  io.run();
  REQUIRE_MESSAGE(!err, err.message());
  const auto& res = parser.get();
  reply_t r;
  r.status = res.result_int();
  r.content_type = std::string(res[http::field::content_type]);
  r.allow = std::string(res[http::field::allow]);
  r.body = res.body();
  r.content_length = parser.content_length().value_or(0);
  return r;
}

// Writes `bytes` (may be empty) to 127.0.0.1:port and reads until the server closes, for at
// most `limit`. *closed: the server closed the connection within the limit.
std::string raw_exchange(uint16_t port, const std::string& bytes, std::chrono::milliseconds limit,
                         bool* closed) {
  asio::io_context io;
  tcp::socket sock(io);
  sock.connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), port));
  if (!bytes.empty()) asio::write(sock, asio::buffer(bytes));
  std::string got;
  *closed = false;
  asio::async_read(sock, asio::dynamic_buffer(got),
                   [&](beast::error_code ec, size_t) { *closed = ec == asio::error::eof; });
  io.run_for(limit);
  return got;
}

// Sample lines "name{labels} value" → value; # lines counted per "# TYPE name".
struct exposition_t {
  std::map<std::string, std::string> samples;
  std::map<std::string, int> types, helps;
};
exposition_t parse(const std::string& text) {
  exposition_t e;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("# TYPE ", 0) == 0) {
      ++e.types[line.substr(7, line.find(' ', 7) - 7)];
    } else if (line.rfind("# HELP ", 0) == 0) {
      ++e.helps[line.substr(7, line.find(' ', 7) - 7)];
    } else if (!line.empty()) {
      const auto sp = line.rfind(' ');
      REQUIRE_MESSAGE(sp != std::string::npos, line);
      CHECK_MESSAGE(e.samples.emplace(line.substr(0, sp), line.substr(sp + 1)).second,
                    (std::string("duplicate sample: ") + line));
    }
  }
  return e;
}

struct system_t {
  caf::actor_system_config cfg;
  std::unique_ptr<caf::actor_system> sys;
  system_t() {
    add_message_types(cfg);
    cfg.set("scheduler.max-threads", 2);
    sys = std::make_unique<caf::actor_system>(cfg);
  }
};

// A node whose name needs escaping in every format: 7 bytes reserved of 9, 1 synthesizing, 2 in
// its pipeline.
node_usage_msg weird_node() {
  node_usage_msg n;
  n.name = "we\"ird\\node\n";
  n.reserved = 7;
  n.budget = 9;
  n.synthesizing = 1;
  n.pipeline = 2;
  return n;
}

}  // namespace

TEST_CASE(
    "HTTP: GET /metrics after a 2-partition job shows the proofs, the stages and every "
    "node") {
  system_t s;
  cluster_config_t cc;
  cc.synth_budget = uint64_t(3) << 29;  // 1.5 GiB: distinct from the prover's 2 GiB
  const std::string mc = zk::test::fixture_dir("bn254", "mulchain");
  cc.circuits = {describe_zkey_circuit("mulchain", mc + "/circuit.zkey")};
  auto cluster = std::make_unique<embedded_cluster_t>(*s.sys, cc);
  auto job = ask<std::string>(
      *s.sys, cluster->scheduler, 30s, submit_atom::value, cluster->admin,
      job_request_msg{"mulchain", priority_t::normal, 2, circom_job_spec({mc + "/witness.wtns"})});
  REQUIRE(job);
  auto result = ask<job_result_msg>(*s.sys, cluster->scheduler, 120s, await_atom::value,
                                    cluster->admin, *job);
  REQUIRE_MESSAGE(result, describe(result.error()));
  REQUIRE(result->proofs.size() == 2);
  // Every reporter's events at the aggregator before the scrape (the server does not flush).
  REQUIRE(ask<caf::ok_atom>(*s.sys, cluster->aggregator, 10s, flush_atom::value));
  {
    auto server = serve_api(*s.sys, cluster->scheduler, cluster->aggregator, cluster->sessions, {});
    REQUIRE(server->port() != 0);
    CHECK(server->url() == "http://127.0.0.1:" + std::to_string(server->port()));
    auto hz = fetch(server->port(), http::verb::get, "/healthz");
    CHECK(hz.status == 200);
    CHECK(hz.body == "ok\n");
    auto rz = fetch(server->port(), http::verb::get, "/readyz");
    CHECK_MESSAGE(rz.status == 200, rz.body);

    auto r = fetch(server->port(), http::verb::get, "/metrics");
    REQUIRE_MESSAGE(r.status == 200, r.body);
    CHECK(r.content_type.rfind("text/plain; version=0.0.4", 0) == 0);
    auto e = parse(r.body);
    // The timeline's counter and histogram: both partitions proven, each through SYNTH and GPU.
    CHECK(e.samples["zkfleet_proofs_total"] == "2");
    CHECK(e.samples["zkfleet_stage_duration_seconds_count{stage=\"SYNTH\"}"] == "2");
    CHECK(e.samples["zkfleet_stage_duration_seconds_count{stage=\"GPU\"}"] == "2");
    CHECK(e.samples["zkfleet_stage_duration_seconds_bucket{stage=\"GPU\",le=\"+Inf\"}"] == "2");
    // A gauge per node with the scheduler's account of it: three nodes, the budgets configured,
    // nothing reserved or in flight once the job is done.
    const std::map<std::string, uint64_t> budgets = {
        {"synth-0", cc.synth_budget}, {"synth-1", cc.synth_budget}, {"prover-0", cc.prover_budget}};
    uint64_t prover_peak = 0, synth_peaks = 0;
    for (const auto& [node, budget] : budgets) {
      const std::string lab = "{node=\"" + node + "\"}";
      CHECK_MESSAGE(e.samples["zkfleet_node_budget_bytes" + lab] == std::to_string(budget), node);
      CHECK_MESSAGE(e.samples["zkfleet_node_reserved_bytes" + lab] == "0", node);
      CHECK_MESSAGE(e.samples["zkfleet_node_synthesizing" + lab] == "0", node);
      CHECK_MESSAGE(e.samples["zkfleet_node_pipeline" + lab] == "0", node);
      // The peak: never more than the budget; the prover and some synthesis node held the job.
      const uint64_t peak = std::stoull(e.samples["zkfleet_node_peak_reserved_bytes" + lab]);
      CHECK_MESSAGE(peak <= budget, node);
      (node == "prover-0" ? prover_peak : synth_peaks) += peak;
    }
    CHECK(prover_peak > 0);
    CHECK(synth_peaks > 0);
    size_t budget_lines = 0;
    for (const auto& [k, v] : e.samples)
      budget_lines += k.rfind("zkfleet_node_budget_bytes{", 0) == 0;
    CHECK(budget_lines == 3);
    // Each metric family is described once (no name clashes between the two sources).
    for (const char* name :
         {"zkfleet_proofs_total", "zkfleet_stage_duration_seconds", "zkfleet_node_reserved_bytes",
          "zkfleet_node_budget_bytes", "zkfleet_node_synthesizing", "zkfleet_node_pipeline",
          "zkfleet_node_peak_reserved_bytes", "zkfleet_partitions_stopped_total",
          "zkfleet_jobs_failed_total", "zkfleet_jobs_cancelled_total",
          "zkfleet_jobs_refused_total"}) {
      CHECK_MESSAGE(e.types[name] == 1, name);
      CHECK_MESSAGE(e.helps[name] == 1, name);
    }
    CHECK(e.types.size() == 11);  // with zkfleet_partitions_stopped_total

    // Refused submissions, each counted under its circuit and a reason of the fixed set: a circuit
    // the scheduler does not have (its name is not a label), no partition, an input intake refuses.
    // (After the stage counts above: a cancelled job's partitions may have synthesized.)
    auto submit = [&](const std::string& circuit, uint32_t partitions, const std::string& wtns) {
      return ask<std::string>(
          *s.sys, cluster->scheduler, 30s, submit_atom::value, cluster->admin,
          job_request_msg{circuit, priority_t::normal, partitions, circom_job_spec({wtns})});
    };
    CHECK_FALSE(submit("no-such-circuit", 1, mc + "/witness.wtns"));
    CHECK_FALSE(submit("no-such-circuit-either", 1, mc + "/witness.wtns"));
    CHECK_FALSE(submit("mulchain", 0, mc + "/witness.wtns"));
    CHECK_FALSE(submit("mulchain", 1, mc + "/no-such-witness.wtns"));
    // A cancelled job, counted once however often it is cancelled.
    auto gone = submit("mulchain", 16, mc + "/witness.wtns");  // not all proven before the cancel
    REQUIRE(gone);
    auto cancel = [&] {
      auto c =
          ask<bool>(*s.sys, cluster->scheduler, 10s, cancel_atom::value, cluster->admin, *gone);
      REQUIRE(c);
      return *c;
    };
    CHECK(cancel());
    CHECK_FALSE(cancel());  // already finished
    e = parse(fetch(server->port(), http::verb::get, "/metrics").body);
    // The scheduler's counts of the jobs that ended without proofs, by circuit and reason.
    CHECK(
        e.samples["zkfleet_jobs_refused_total{circuit=\"(unknown)\",reason=\"unknown_circuit\"}"] ==
        "2");
    CHECK(e.samples["zkfleet_jobs_refused_total{circuit=\"mulchain\",reason=\"bad_request\"}"] ==
          "1");
    CHECK(e.samples["zkfleet_jobs_refused_total{circuit=\"mulchain\",reason=\"input\"}"] == "1");
    CHECK(e.samples["zkfleet_jobs_cancelled_total{circuit=\"mulchain\"}"] == "1");
    size_t outcome_lines = 0;
    for (const auto& [k, v] : e.samples) outcome_lines += k.rfind("zkfleet_jobs_", 0) == 0;
    CHECK(outcome_lines == 4);  // no job failed; no refusal counted twice

    // HEAD: GET's headers, no body.
    auto h = fetch(server->port(), http::verb::head, "/metrics");
    CHECK(h.status == 200);
    CHECK(h.body.empty());
    CHECK(h.content_length > 0);
    CHECK(h.content_type.rfind("text/plain; version=0.0.4", 0) == 0);
    // A query string is not part of the path.
    CHECK(fetch(server->port(), http::verb::get, "/metrics?x=1").status == 200);

    auto nf = fetch(server->port(), http::verb::get, "/nope");
    CHECK(nf.status == 404);
    CHECK(nf.content_type == "application/json");
    CHECK(nf.body.find("\"error\":\"no route /nope") != std::string::npos);
    auto post = fetch(server->port(), http::verb::post, "/metrics", "x=1");
    CHECK(post.status == 405);
    CHECK(post.allow == "GET, HEAD");
    // No dashboard compiled into this server: said so. A body over the JSON bound: 413 unread.
    CHECK(fetch(server->port(), http::verb::get, "/").status == 404);
    auto big = fetch(server->port(), http::verb::post, "/v1/nodes", std::string(70000, 'x'));
    CHECK(big.status == 413);
    // The job routes answer for the embedded cluster's job, in the API's JSON.
    auto st = fetch(server->port(), http::verb::get, "/v1/jobs/" + *job);
    CHECK(st.status == 200);
    CHECK(st.body.find("\"state\":\"done\"") != std::string::npos);
    auto pr = fetch(server->port(), http::verb::get, "/v1/jobs/" + *job + "/proofs");
    CHECK(pr.status == 200);
    CHECK(pr.body.find("\"pi_a\"") != std::string::npos);
    CHECK(fetch(server->port(), http::verb::get, "/v1/jobs/0123456789abcdef0123456789abcdef")
              .status == 404);
  }
  cluster->stop();
  cluster.reset();
}

TEST_CASE(
    "HTTP: 503 naming the actor that does not answer, a taken port is refused by "
    "name") {
  system_t s;
  // An aggregator that never answers for its metrics (the promise is never delivered), and a
  // scheduler that answers stats with one node whose name needs escaping.
  auto silent = s.sys->spawn([](caf::event_based_actor* self) -> caf::behavior {
    return {[self](metrics_atom) { return self->make_response_promise<std::string>(); }};
  });
  auto sched = s.sys->spawn([]() -> caf::behavior {
    return {
        [](stats_atom, const std::string&) { return std::vector<node_usage_msg>{weird_node()}; },
        [](metrics_atom, const std::string&) { return std::string(); }};
  });
  // A scheduler that has exited.
  auto gone = s.sys->spawn([]() -> caf::behavior {
    return {[](stats_atom, const std::string&) { return std::vector<node_usage_msg>{}; }};
  });
  caf::anon_send_exit(gone, caf::exit_reason::user_shutdown);
  auto sessions = std::make_shared<sessions_t>(std::nullopt, std::nullopt);
  {
    api_options_t o;
    o.ask_timeout = 300ms;
    o.io_timeout = 300ms;
    auto server = serve_api(*s.sys, caf::actor_cast<scheduler_actor>(sched),
                            caf::actor_cast<timeline_actor>(silent), sessions, o);
    auto r = fetch(server->port(), http::verb::get, "/metrics");
    CHECK(r.status == 503);
    CHECK_MESSAGE(
        r.body == "{\"error\":\"the timeline aggregator did not answer within 300 ms\"}\n", r.body);

    // A connection that sends nothing is dropped after io_timeout and does not hold up others.
    {
      asio::io_context io;
      tcp::socket idle(io);
      idle.connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), server->port()));
      CHECK(fetch(server->port(), http::verb::get, "/nope").status == 404);
    }
    bool closed = false;
    const auto t0 = std::chrono::steady_clock::now();
    CHECK(raw_exchange(server->port(), "", 10s, &closed).empty());
    CHECK(closed);
    CHECK(std::chrono::steady_clock::now() - t0 < 5s);
    // Not HTTP: 400, and the connection is closed.
    CHECK(raw_exchange(server->port(), "HELLO THERE\r\n\r\n", 10s, &closed)
              .rfind("HTTP/1.1 400", 0) == 0);
    CHECK(closed);

    auto down = serve_api(*s.sys, caf::actor_cast<scheduler_actor>(gone),
                          caf::actor_cast<timeline_actor>(silent), sessions, o);
    auto d = fetch(down->port(), http::verb::get, "/metrics");
    CHECK(d.status == 503);
    CHECK_MESSAGE(d.body.rfind("{\"error\":\"the scheduler ", 0) == 0, d.body);
    // Over the request rate of one address (burst 100, then 50 a second): 429, said in JSON.
    unsigned refused = 0;
    for (int i = 0; i < 150; ++i)
      refused += fetch(server->port(), http::verb::get, "/healthz").status == 429;
    CHECK(refused > 0);

    const std::string where = "127.0.0.1:" + std::to_string(server->port());
    try {
      api_options_t taken = o;
      taken.port = server->port();
      auto clash = serve_api(*s.sys, caf::actor_cast<scheduler_actor>(sched),
                             caf::actor_cast<timeline_actor>(silent), sessions, taken);
      FAIL("bound a port already taken");
    } catch (const std::runtime_error& e) {
      CHECK_MESSAGE(std::string(e.what()).find(where) != std::string::npos, e.what());
    }
  }
  CHECK(render_node_gauges({weird_node()})
            .find("zkfleet_node_reserved_bytes{node=\"we\\\"ird\\\\node\\n\"} 7\n") !=
        std::string::npos);
  CHECK(zk::timeline::escape_label_value("plain-1") == "plain-1");
  for (const auto& a : {silent, sched}) caf::anon_send_exit(a, caf::exit_reason::user_shutdown);
}
