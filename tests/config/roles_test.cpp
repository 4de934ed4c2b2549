#include "common/config/roles.hpp"

#include <doctest/doctest.h>

#include <string>
#include <thread>

using namespace zk::config;
using namespace std::chrono_literals;

namespace {

const std::string src = ZK_SOURCE_DIR;

config_t load(const std::string& file) { return load_config(src + "/configs/" + file, {false}); }

config_t parse(const std::string& text) {
  load_options_t o;
  o.check_files = false;
  return parse_config(text, "t.yaml", src, o);
}

// A scheduler alone, a synthesis node and a node with both synth and prover roles.
const std::string three = R"(version: 1
scheduler: {endpoint: 127.0.0.1:7000}
security: {insecure: true}
nodes:
  - {name: sched, roles: [scheduler], listen: {control: 127.0.0.1:7000}}
  - name: syn
    roles: [synth]
    listen: {data: 127.0.0.1:7101}
    resources: {cores: 3, memory_budget: 1GiB}
    data_plane: {send_streams: 2, connect_timeout: 750ms, io_timeout: 3s, max_attempts: 7}
  - name: both
    roles: [synth, prover]
    listen: {data: 127.0.0.1:7102}
    resources: {memory_budget: 2GiB, prover_backend: cuda, vram: 4GiB}
    data_plane: {io_threads: 3, idle_timeout: 2m, max_payload: 1GiB}
)";

}  // namespace

TEST_CASE("a node's plan: its roles and what each needs, from its entry") {
  const config_t c = parse(three);
  const node_plan_t s = plan_node(c, "sched");
  CHECK(s.scheduler);
  CHECK_FALSE(s.joins());
  CHECK(s.publish.str() == "127.0.0.1:7000");
  CHECK(s.scheduler_timeline == 0);  // alone: the node's own timeline node and name
  CHECK(s.scheduler_name == "sched");

  const node_plan_t y = plan_node(c, "syn");
  CHECK(y.index == 1);
  CHECK((y.synth && !y.prover && !y.scheduler && y.joins()));
  CHECK(y.cores == 3);
  CHECK(y.memory_budget == (uint64_t(1) << 30));
  CHECK(y.data_listen.empty());  // only a prover receives buffers
  CHECK(y.send_streams == 2);
  CHECK(y.send.connect_timeout == 750ms);
  CHECK(y.send.io_timeout == 3s);
  CHECK(y.send.max_attempts == 7);
  CHECK(y.report_period == 200ms);

  const node_plan_t b = plan_node(c, "both");
  CHECK(b.index == 2);
  CHECK((b.synth && b.prover));
  CHECK(b.cores == std::max(1u, std::thread::hardware_concurrency()));  // cores: auto
  CHECK(b.data_listen == "127.0.0.1:7102");
  CHECK(b.prover_backend == backend_t::cuda);
  CHECK(b.vram == (uint64_t(4) << 30));
  CHECK(b.receive.io_threads == 3);
  CHECK(b.receive.idle_timeout == 2min);
  CHECK(b.receive.max_payload == (uint64_t(1) << 30));

  CHECK(plan_nodes(c).size() == 3);
  CHECK_THROWS_WITH_AS(plan_node(c, "nope"), "t.yaml: nodes: no node named \"nope\"", config_error);
}

TEST_CASE("single-host: the scheduler's node has its own timeline node beside its reporter's") {
  const config_t c = load("single-host.yaml");
  const node_plan_t p = plan_node(c, "");  // the file's only node
  CHECK(p.name == "local");
  CHECK((p.scheduler && p.synth && p.prover && p.joins()));
  CHECK(p.index == 0);
  CHECK(p.scheduler_timeline == 1);  // one past every node's
  CHECK(p.scheduler_name == "local-scheduler");
  CHECK(p.data_listen == "127.0.0.1:7500");
}

TEST_CASE(
    "readiness: every node with a synth or prover role joined, with its roles, and still there") {
  SUBCASE("single-host: the scheduler's own node must join too") {
    const config_t c = load("single-host.yaml");
    CHECK(not_joined(c, {}) ==
          std::vector<std::string>{"local"});  // the scheduler answering is not enough
    CHECK(not_joined(c, {{"local", true, false, true}}) ==
          std::vector<std::string>{"local (prover)"});
    CHECK(not_joined(c, {{"local", true, true, true}}).empty());
  }
  SUBCASE("local-cluster: the scheduler alone never joins; the others by name") {
    const config_t c = load("local-cluster.yaml");
    CHECK(not_joined(c, {}) == std::vector<std::string>{"synth-1", "synth-2", "prover-1"});
    CHECK(not_joined(c, {{"synth-1", true, false, true}, {"prover-1", false, true, true}}) ==
          std::vector<std::string>{"synth-2"});
    // A node of another file does not stand in for one of this file.
    CHECK(not_joined(c, {{"synth-1", true, false, true},
                         {"prover-1", false, true, true},
                         {"synth-9", true, false, true}}) == std::vector<std::string>{"synth-2"});
  }
  SUBCASE("a node that joined and left does not count; back again, it does") {
    const config_t c = parse(three);
    const joined_node_t syn_left{"syn", true, false, false}, syn_back{"syn", true, false, true};
    const joined_node_t both{"both", true, true, true};
    CHECK(not_joined(c, {syn_left, both}) == std::vector<std::string>{"syn"});
    CHECK(not_joined(c, {syn_left, both, syn_back}).empty());
    CHECK(not_joined(c, {{"syn", true, false, true}, {"both", true, false, true}}) ==
          std::vector<std::string>{"both (prover)"});
    CHECK(not_joined(c, {{"syn", true, false, true}, {"both", false, false, true}}) ==
          std::vector<std::string>{"both (synth, prover)"});
  }
}
