// Clock correction over real loopback TCP (docs/design.md "Timeline"): three actor systems in
// one process, each with its own middleman. A publishes the timeline aggregator on 127.0.0.1
// (ephemeral port) and runs a reporter with no skew; B and C reach the aggregator with
// remote_actor and run reporters whose clocks are off by a known amount (reporter_config_t's
// clock_skew_ns, both signs). A causal sequence recorded across the nodes in real time order
// must come back from the aggregator in that order, every event within 1 ms of the true time,
// and every estimated offset within 1 ms of the injected skew. Every wait is bounded.
//
// All three systems share one physical clock (steady_clock of this process), so the truth is
// known: the offset the aggregator should find for a node is exactly its injected skew
// (aggregator_t's convention: offset = node clock − aggregator clock).
#include <doctest/doctest.h>

#include <caf/io/all.hpp>
#include <chrono>
#include <cstdlib>
#include <map>
#include <set>
#include <thread>
#include <tuple>

#include "actors/node.hpp"
#include "tests/test_util.hpp"

using namespace zk::actors;
using namespace zk::node;
using namespace std::chrono_literals;
namespace tl = zk::timeline;

namespace {

constexpr int64_t ms_ns = 1'000'000;
constexpr int64_t s_ns = 1'000'000'000;

// One actor system with the middleman and zkfleet's messages (as `zkfleet node` builds it).
struct net_system_t {
  caf::actor_system_config cfg;
  std::unique_ptr<caf::actor_system> sys;
  net_system_t() {
    add_message_types(cfg);
    cfg.load<caf::io::middleman>();
    cfg.set("scheduler.max-threads", 2);
    sys = std::make_unique<caf::actor_system>(cfg);
  }
};

struct node_t {
  uint16_t id;
  int64_t skew_ns;
  std::shared_ptr<tl::recorder_t> recorder;
  reporter_actor reporter;
};

// An event's identity (everything but its time).
using key_t = std::tuple<uint64_t, uint32_t, tl::stage_t, tl::phase_t, uint16_t>;
key_t key(const tl::event_t& e) { return {e.job, e.partition, e.st, e.ph, e.node}; }

// Runs the scenario with skews for B (node 1) and C (node 2); A (node 0) holds the aggregator.
void run_scenario(int64_t skew_b, int64_t skew_c) {
  net_system_t a, b, c;
  auto aggregator = a.sys->spawn(timeline_aggregator);
  auto port = a.sys->middleman().publish(aggregator, 0, "127.0.0.1", true);
  REQUIRE_MESSAGE(port, a.sys->render(port.error()));
  REQUIRE(*port != 0);

  std::vector<node_t> nodes;
  auto add_node = [&](caf::actor_system& sys, const timeline_actor& agg, uint16_t id,
                      int64_t skew) {
    node_t n{id, skew, std::make_shared<tl::recorder_t>(id), {}};
    reporter_config_t rc;
    rc.node = id;
    rc.name = "node" + std::to_string(id);
    rc.tracks = {{0, "work"}};
    rc.recorder = n.recorder;
    rc.aggregator = agg;
    rc.period = 100ms;
    rc.clock_skew_ns = skew;
    n.reporter = sys.spawn(timeline_reporter, rc);
    nodes.push_back(std::move(n));
  };
  add_node(*a.sys, aggregator, 0, 0);
  for (auto [sys, id, skew] : {std::tuple{b.sys.get(), uint16_t(1), skew_b},
                               std::tuple{c.sys.get(), uint16_t(2), skew_c}}) {
    auto remote = sys->middleman().remote_actor<timeline_actor>("127.0.0.1", *port);
    REQUIRE_MESSAGE(remote, sys->render(remote.error()));
    add_node(*sys, *remote, id, skew);
  }

  // Every node joined and synced (its ping round trips done) before the workload.
  auto snapshot = [&] {
    return ask<timeline_snapshot_msg>(*a.sys, aggregator, 5s, snapshot_atom::value);
  };
  size_t joined = 0, synced = 0;
  REQUIRE_MESSAGE(zk::test::eventually(
                      [&] {
                        auto s = snapshot();
                        REQUIRE_MESSAGE(s, describe(s.error()));
                        joined = s->nodes.size(), synced = s->offsets.size();
                        return joined == 3 && synced == 3;
                      },
                      15s, 20ms),
                  "nodes joined: ", joined, ", synced: ", synced);

  // A pipelined causal sequence over four partitions: B synthesizes, C receives the buffer,
  // A proves; the next partition's synthesis overlaps the previous one's transfer and proof.
  // Steps a few ms apart in real time; each stamped (on its node's true clock) at its step.
  struct step_t {
    uint16_t node;
    uint32_t part;
    tl::stage_t st;
    tl::phase_t ph;
  };
  std::vector<step_t> steps;
  constexpr uint32_t parts = 4;
  for (uint32_t r = 0; r < parts + 2; ++r) {
    if (r < parts) steps.push_back({1, r, tl::stage_t::synth, tl::phase_t::begin});
    if (r >= 1 && r - 1 < parts) steps.push_back({2, r - 1, tl::stage_t::xfer, tl::phase_t::begin});
    if (r >= 2) steps.push_back({0, r - 2, tl::stage_t::gpu, tl::phase_t::begin});
    if (r < parts) steps.push_back({1, r, tl::stage_t::synth, tl::phase_t::end});
    if (r >= 1 && r - 1 < parts) steps.push_back({2, r - 1, tl::stage_t::xfer, tl::phase_t::end});
    if (r >= 2) steps.push_back({0, r - 2, tl::stage_t::gpu, tl::phase_t::end});
    if (r >= 2) steps.push_back({0, r - 2, tl::stage_t::done, tl::phase_t::instant});
  }
  constexpr uint64_t job = 42;
  std::vector<key_t> truth_order;
  std::map<key_t, int64_t> truth_time;  // the one physical clock
  for (const auto& s : steps) {
    tl::event_t e;
    e.job = job;
    e.partition = s.part;
    e.st = s.st;
    e.ph = s.ph;
    e.node = s.node;
    e.t_ns = tl::monotonic_ns();
    nodes[s.node].recorder->record(e);
    truth_order.push_back(key(e));
    truth_time[key(e)] = e.t_ns;
    std::this_thread::sleep_for(3ms);  // steps apart in real time: the order to be recovered
  }

  REQUIRE(ask<caf::ok_atom>(*a.sys, aggregator, 10s, flush_atom::value));
  caf::expected<timeline_snapshot_msg> snap{caf::error{}};
  // The remote batches travel ahead of the flush answers; this only bounds the wait (the checks
  // below say what is missing).
  zk::test::eventually(
      [&] {
        snap = snapshot();
        REQUIRE_MESSAGE(snap, describe(snap.error()));
        return snap->events.size() >= steps.size();
      },
      10s, 20ms);

  // The estimated offsets: within 1 ms of the injected skews (node clock − aggregator clock).
  std::map<uint16_t, int64_t> expected{{0, 0}, {1, skew_b}, {2, skew_c}};
  REQUIRE(snap->offsets.size() == 3);
  std::string errors;
  for (const auto& [node, off] : snap->offsets) {
    REQUIRE(expected.count(node));
    const int64_t err = off - expected[node];
    errors += " node" + std::to_string(node) + " " + std::to_string(err) + " ns";
    CHECK_MESSAGE(std::llabs(err) < ms_ns, "node ", node, ": skew ", expected[node],
                  " ns, estimated ", off, " ns");
  }

  MESSAGE("estimated offset − injected skew:", errors);

  // Events from all three nodes, in the true causal order, each at its true time within 1 ms.
  std::set<uint16_t> seen;
  std::vector<key_t> got_order;
  for (const auto& e : snap->events) {
    seen.insert(e.node);
    got_order.push_back(key(e));
    auto it = truth_time.find(key(e));
    REQUIRE(it != truth_time.end());
    CHECK_MESSAGE(std::llabs(e.t_ns - it->second) < ms_ns, "node ", e.node,
                  " event off its true time by ", e.t_ns - it->second, " ns");
  }
  CHECK(seen == std::set<uint16_t>{0, 1, 2});
  REQUIRE(got_order.size() == truth_order.size());
  CHECK(got_order == truth_order);
  // Without the correction the order would be wrong (the skews are seconds).
  std::vector<std::pair<int64_t, key_t>> raw;
  for (const auto& e : snap->events) raw.emplace_back(e.t_ns + expected[e.node], key(e));
  std::stable_sort(raw.begin(), raw.end(),
                   [](const auto& x, const auto& y) { return x.first < y.first; });
  std::vector<key_t> raw_order;
  for (const auto& r : raw) raw_order.push_back(r.second);
  CHECK(raw_order != truth_order);

  // Shut down: the actors first, the published port, then the clients' systems before A's
  // (each destructor waits for its actors and stops its middleman).
  for (auto& n : nodes) caf::anon_send_exit(n.reporter, caf::exit_reason::user_shutdown);
  caf::anon_send_exit(aggregator, caf::exit_reason::user_shutdown);
  a.sys->middleman().unpublish(aggregator, *port);
  nodes.clear();
  aggregator = nullptr;
  c.sys.reset();
  b.sys.reset();
  a.sys.reset();
}

}  // namespace

TEST_CASE("timeline clock correction over loopback: skews +5 s (B) and -3 s (C)") {
  run_scenario(5 * s_ns, -3 * s_ns);
}

TEST_CASE("timeline clock correction over loopback: skews -5 s (B) and +3 s (C)") {
  run_scenario(-5 * s_ns, 3 * s_ns);
}
