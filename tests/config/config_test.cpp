#include "common/config/config.hpp"

#include <doctest/doctest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "tests/test_util.hpp"

using namespace zk::config;

namespace {

const std::string src = ZK_SOURCE_DIR;

// A valid one-node file; tests change one thing at a time.
const std::string base = R"(version: 1
scheduler:
  endpoint: 127.0.0.1:7000
  lookahead: 2
circuits:
  mul:
    zkey: tests/fixtures/bn254/mulchain/circuit.zkey
    r1cs: tests/fixtures/bn254/mulchain/circuit.r1cs
node:
  name: n1
  roles: [scheduler, synth, prover]
  listen:
    control: 127.0.0.1:7000
    data: 127.0.0.1:7100
  resources:
    cores: 2
    memory_budget: 8GiB
  hot_circuits: [mul]
)";

// Every test file is on loopback: insecure, said at its end (so that no line number moves) unless
// the text has a security section of its own or says "no-security".
std::string with_security(const std::string& text) {
  if (text.find("security:") != std::string::npos) return text;
  if (text.find("# no-security") != std::string::npos) return text;
  return text + "security: {insecure: true}\n";
}

config_t parse(const std::string& text, bool check_files = true) {
  load_options_t o;
  o.check_files = check_files;
  return parse_config(with_security(text), "t.yaml", src, o);
}

std::string replace(std::string s, const std::string& from, const std::string& to) {
  const auto at = s.find(from);
  REQUIRE_MESSAGE(at != std::string::npos, from);
  return s.replace(at, from.size(), to);
}

// The error message of parsing text (empty when it parses).
std::string error_of(const std::string& text, bool check_files = true) {
  try {
    parse(text, check_files);
  } catch (const config_error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("the example files parse and say what they should") {
  const auto single = load_config(src + "/configs/single-host.yaml");
  REQUIRE(single.nodes.size() == 1);
  CHECK(single.single_node);
  const node_t& n = select_node(single, "");
  CHECK(n.has(node_role_t::scheduler));
  CHECK(n.has(node_role_t::synth));
  CHECK(n.has(node_role_t::prover));
  CHECK(n.resources.memory_budget == (uint64_t(2) << 30));
  CHECK_FALSE(n.resources.cores.has_value());
  CHECK(single.circuits.size() == 4);
  CHECK(single.find_circuit("porep-lite")->kind == zk::config::circuit_kind_t::porep_lite);
  CHECK(single.find_circuit("porep-lite")->key_dir.empty());  // the user's cache
  CHECK(single.find_circuit("poseidon-bn254")->shape == shape_t::witness_only);
  CHECK(single.find_circuit("mulchain-bn254")->zkey ==
        src + "/tests/fixtures/bn254/mulchain/circuit.zkey");

  const auto local = load_config(src + "/configs/local-cluster.yaml");
  REQUIRE(local.nodes.size() == 4);
  CHECK(local.scheduler.lookahead.automatic);
  CHECK(local.scheduler.lookahead.max == 4);
  unsigned synth = 0, prover = 0, sched = 0;
  for (const auto& nd : local.nodes) {
    synth += nd.has(node_role_t::synth);
    prover += nd.has(node_role_t::prover);
    sched += nd.has(node_role_t::scheduler);
    if (nd.has(node_role_t::synth) || nd.has(node_role_t::prover))
      CHECK(nd.data->host == "127.0.0.1");
  }
  CHECK(synth == 2);
  CHECK(prover == 1);
  CHECK(sched == 1);
  CHECK(select_node(local, "synth-2").data->port == 7512);
  CHECK(local.find_circuit("poseidon-bn254")->priority == priority_t::high);
  CHECK_THROWS_WITH_AS(select_node(local, ""), doctest::Contains("choose one with --node"),
                       config_error);
  CHECK_THROWS_WITH_AS(select_node(local, "gpu-9"), doctest::Contains("no node named \"gpu-9\""),
                       config_error);

  load_options_t no_files;
  no_files.check_files = false;  // its paths are on the farm's hosts
  const auto farm = load_config(src + "/configs/farm.yaml", no_files);
  CHECK(farm.nodes.size() == 7);
  const node_t& g2 = select_node(farm, "gpu-2b");
  CHECK(g2.resources.prover_backend == backend_t::cuda);
  CHECK(*g2.resources.gpus == 1);
  CHECK(*g2.resources.vram == uint64_t(141) << 30);
  CHECK(g2.data->port == 7601);
  CHECK(select_node(farm, "synth-3").data_plane.max_attempts == 6);
  CHECK(select_node(farm, "synth-1").data_plane.send_streams == 3);
  CHECK(select_node(farm, "synth-3").data_plane.send_streams == 1);
  CHECK(farm.find_circuit("window-post")->witness_generator.size() == 3);
  CHECK(farm.find_circuit("porep-lite")->params == "curve=bls12-381,challenges=4,depth=20");
  CHECK(farm.find_circuit("porep-lite")->key_dir == "/var/cache/zkfleet/keys/porep-lite-c4-d20");
  CHECK_FALSE(farm.simulation.enabled);
  REQUIRE(farm.simulation.nodes.size() == 2);
  CHECK(farm.simulation.nodes[0].count == 100);
  CHECK(farm.simulation.nodes[0].uplink_per_s == uint64_t(3) << 30);
  CHECK(farm.simulation.circuits[0].buffer_size == uint64_t(12) << 30);
  CHECK(farm.simulation.jobs[0].partitions == 10);
}

TEST_CASE("the base document parses, with defaults filled in") {
  const auto c = parse(base);
  CHECK(c.scheduler.lookahead.value == 2);
  CHECK_FALSE(c.scheduler.lookahead.automatic);
  CHECK(c.scheduler.max_attempts == 3);
  CHECK(c.scheduler.default_priority == priority_t::normal);
  const node_t& n = c.nodes[0];
  CHECK(*n.resources.cores == 2);
  CHECK(n.resources.prover_backend == backend_t::automatic);
  CHECK_FALSE(n.resources.gpus.has_value());
  CHECK(n.data_plane.io_timeout.count() == 10000);
  CHECK(n.data_plane.max_attempts == 4);
  CHECK(c.circuits[0].shape == shape_t::automatic);
  CHECK(c.circuits[0].witness_generator.empty());
}

TEST_CASE("sizes, durations and endpoints") {
  CHECK(parse_size("8GiB") == uint64_t(8) << 30);
  CHECK(parse_size("4096") == 4096u);
  CHECK(parse_size("512KiB") == 512u * 1024);
  CHECK(parse_size("1.5GiB") == uint64_t(3) << 29);
  CHECK(parse_size("100B") == 100u);
  CHECK_FALSE(parse_size("8 GB").has_value());
  CHECK_FALSE(parse_size("8GB").has_value());
  CHECK_FALSE(parse_size("8 GiB").has_value());
  CHECK_FALSE(parse_size("-1").has_value());
  CHECK_FALSE(parse_size("1.5").has_value());
  CHECK_FALSE(parse_size("99999999999TiB").has_value());
  CHECK(parse_duration("250ms")->count() == 250);
  CHECK(parse_duration("1.5s")->count() == 1500);
  CHECK(parse_duration("2m")->count() == 120000);
  CHECK_FALSE(parse_duration("10").has_value());
  CHECK(parse_endpoint("[::1]:7000")->host == "::1");
  CHECK(parse_endpoint("[::1]:7000")->str() == "[::1]:7000");
  CHECK(parse_endpoint("gpu-1.farm:80")->port == 80);
  CHECK_FALSE(parse_endpoint("127.0.0.1").has_value());
  CHECK_FALSE(parse_endpoint("127.0.0.1:0").has_value());
  CHECK_FALSE(parse_endpoint("127.0.0.1:70000").has_value());
}

TEST_CASE("each kind of error names the key path (and the line)") {
  // A size that is not one: the message the issue asks for.
  CHECK(error_of(replace(base, "memory_budget: 8GiB", "memory_budget: \"8 GB\"")) ==
        "t.yaml:17:20: node.resources.memory_budget: \"8 GB\" is not a size (use e.g. 8GiB)");
  // Unknown keys, at every level.
  CHECK(error_of(replace(base, "    cores: 2", "    corse: 2")) ==
        "t.yaml:16:5: node.resources.corse: unknown key (known: cores, memory_budget, "
        "prover_backend, gpus, vram)");
  CHECK(error_of(base + "extra: 1\n").find("t.yaml:19:1: extra: unknown key") == 0);
  CHECK(error_of(replace(base, "  lookahead: 2", "  look_ahead: 2"))
            .find("scheduler.look_ahead: unknown key") != std::string::npos);
  CHECK(error_of(replace(base, "    r1cs: tests", "    rics: tests"))
            .find("circuits.mul.rics: unknown key") != std::string::npos);
  // Wrong types.
  CHECK(error_of(replace(base, "  roles: [scheduler, synth, prover]", "  roles: scheduler")) ==
        "t.yaml:11:10: node.roles: is \"scheduler\"; expected a list");
  CHECK(error_of(replace(base, "    cores: 2", "    cores: two"))
            .find("node.resources.cores: \"two\" is not a whole number") != std::string::npos);
  CHECK(error_of(replace(base, "  resources:\n    cores: 2\n    memory_budget: 8GiB\n",
                         "  resources: 5\n"))
            .find("node.resources: is \"5\"; expected a mapping") != std::string::npos);
  // Wrong values.
  CHECK(error_of(replace(base, "    cores: 2", "    cores: 0"))
            .find("node.resources.cores: 0 is out of range [1, 4096]") != std::string::npos);
  CHECK(error_of(replace(base, "[scheduler, synth, prover]", "[scheduler, gpu]"))
            .find("node.roles[1]: \"gpu\" is not one of: scheduler, synth, prover") !=
        std::string::npos);
  CHECK(error_of(replace(base, "[scheduler, synth, prover]", "[synth, synth, prover, scheduler]"))
            .find("node.roles[1]: role synth is listed twice") != std::string::npos);
  CHECK(error_of(replace(base, "  lookahead: 2", "  lookahead: soon"))
            .find("scheduler.lookahead: \"soon\" is not a number or \"auto\"") !=
        std::string::npos);
  CHECK(error_of(replace(base, "  lookahead: 2", "  lookahead: 20"))
            .find("scheduler.lookahead: 20 is out of range [0, 8]") != std::string::npos);
  CHECK(error_of(replace(base, "  endpoint: 127.0.0.1:7000", "  endpoint: localhost"))
            .find("scheduler.endpoint: \"localhost\" is not host:port") != std::string::npos);
  CHECK(error_of(replace(base, "    cores: 2", "    cores: 2\n    prover_backend: opencl"))
            .find("node.resources.prover_backend: \"opencl\" is not one of: cpu, cuda, auto") !=
        std::string::npos);
  CHECK(
      error_of(replace(base, "    cores: 2", "    cores: 2\n    prover_backend: cpu\n    gpus: 1"))
          .find("node.resources.prover_backend: is cpu, but gpus/vram are given") !=
      std::string::npos);
  CHECK(error_of(replace(base, "    cores: 2", "    cores: 2\n    gpus: 2"))
            .find("node.resources.gpus: is 2: a prover node drives one GPU; run one prover node "
                  "per GPU") != std::string::npos);
  CHECK(error_of(base + "  data_plane: {io_timeout: 10}\n")
            .find("node.data_plane.io_timeout: \"10\" is not a positive duration") !=
        std::string::npos);
  // 3 000 000 h overflowed the I/O deadlines into timeouts that fire at once.
  CHECK(error_of(base + "  data_plane: {idle_timeout: 3000000h}\n")
            .find("node.data_plane.idle_timeout: \"3000000h\" is longer than a week") !=
        std::string::npos);
  CHECK(error_of(replace(base, "version: 1", "version: 2"))
            .find("version: 2 is out of range [1, 1]") != std::string::npos);
  // Missing keys.
  CHECK(
      error_of(replace(base, "    memory_budget: 8GiB\n", ""))
          .find("node.resources.memory_budget: missing (required for the synth and prover roles") !=
      std::string::npos);
  CHECK(error_of(replace(base, "  endpoint: 127.0.0.1:7000\n", ""))
            .find("scheduler.endpoint: missing (required)") != std::string::npos);
  CHECK(error_of(replace(base, "    data: 127.0.0.1:7100\n", ""))
            .find("node.listen.data: missing (required for the synth and prover roles)") !=
        std::string::npos);
  // Circuits.
  CHECK(error_of(replace(base, "    r1cs: tests/fixtures/bn254/mulchain/circuit.r1cs",
                         "    r1cs: nowhere.r1cs"))
            .find("circuits.mul.r1cs: " + src + "/nowhere.r1cs does not exist") !=
        std::string::npos);
  CHECK(error_of(replace(base, "    r1cs: tests/fixtures/bn254/mulchain/circuit.r1cs",
                         "    r1cs: nowhere.r1cs"),
                 false)
            .empty());
  CHECK(
      error_of(replace(base, "circuit.r1cs\n",
                       "circuit.r1cs\n    witness_generator: \"snarkjs wtns calculate c.wasm "
                       "in.json out.wtns\"\n"))
          .find("circuits.mul.witness_generator: is a string; give the command as an argv list") !=
      std::string::npos);
  CHECK(error_of(replace(base, "circuit.r1cs\n",
                         "circuit.r1cs\n    witness_generator: [gen, in.json, \"{output}\"]\n"))
            .find("must name \"{input}\"") != std::string::npos);
  CHECK(error_of(replace(base, "circuit.r1cs\n",
                         "circuit.r1cs\n    witness_generator: [gen, \"{input}\", \"{output}\"]\n"))
            .empty());
  CHECK(error_of(replace(base, "  hot_circuits: [mul]", "  hot_circuits: [mul, sha]"))
            .find("node.hot_circuits[1]: \"sha\" is not in circuits") != std::string::npos);
  // Structure.
  CHECK(error_of(base + "nodes: []\n").find("node: give either node or nodes, not both") !=
        std::string::npos);
  CHECK(error_of(replace(base, "  lookahead: 2\n", "  lookahead: 2\n  lookahead: 3\n"))
            .find("scheduler.lookahead: given twice") != std::string::npos);
  CHECK(
      error_of(replace(base, "    control: 127.0.0.1:7000", "    control: 127.0.0.1:7001"))
          .find(
              "node.listen.control: 127.0.0.1:7001 does not listen on scheduler.endpoint's port") !=
      std::string::npos);
  CHECK(error_of("scheduler: [unclosed\n# no-security\n").find("t.yaml:3:1: not valid YAML") == 0);
  CHECK(error_of("# no-security\n").find("t.yaml: the file is empty") == 0);
  CHECK_THROWS_WITH_AS(load_config(src + "/configs/no-such.yaml"),
                       doctest::Contains("cannot open the file"), config_error);
}

TEST_CASE("scheduler.http: an endpoint, port 0 for any free port, uploads beside the journal") {
  CHECK_FALSE(parse(base).scheduler.http);
  auto c = parse(replace(base, "  lookahead: 2\n", "  lookahead: 2\n  http: 127.0.0.1:9410\n"));
  REQUIRE(c.scheduler.http);
  CHECK(c.scheduler.http->str() == "127.0.0.1:9410");
  auto z = parse(replace(base, "  lookahead: 2\n", "  lookahead: 2\n  http: \"[::1]:0\"\n"));
  REQUIRE(z.scheduler.http);
  CHECK(z.scheduler.http->host == "::1");
  CHECK(z.scheduler.http->port == 0);
  CHECK(error_of(replace(base, "  lookahead: 2\n", "  lookahead: 2\n  http: 9410\n"))
            .find("scheduler.http: \"9410\" is not host:port") != std::string::npos);
  CHECK(c.scheduler.uploads == src + "/t.state/uploads");
  CHECK(c.scheduler.max_upload == uint64_t(1) << 30);
  auto u = parse(
      replace(base, "  lookahead: 2\n", "  lookahead: 2\n  uploads: up\n  max_upload: 64MiB\n"));
  CHECK(u.scheduler.uploads == src + "/up");
  CHECK(u.scheduler.max_upload == uint64_t(64) << 20);
  CHECK(error_of(replace(base, "  lookahead: 2\n", "  lookahead: 2\n  max_upload: 0\n"))
            .find("scheduler.max_upload") != std::string::npos);
  // metrics is gone: http serves /metrics.
  CHECK(error_of(replace(base, "  lookahead: 2\n", "  lookahead: 2\n  metrics: 127.0.0.1:1\n"))
            .find("metrics") != std::string::npos);
}

TEST_CASE("native circuits: porep-lite with its shape parameters") {
  const std::string native =
      replace(base, "  mul:\n",
              "  porep:\n    native: porep-lite\n    params: "
              "curve=bls12-381,challenges=2,depth=12\n    key_dir: keys/porep\n  mul:\n");
  auto c = parse(native);
  const auto* p = c.find_circuit("porep");
  REQUIRE(p != nullptr);
  CHECK(p->kind == zk::config::circuit_kind_t::porep_lite);
  CHECK(p->params == "curve=bls12-381,challenges=2,depth=12");
  CHECK(p->key_dir == src + "/keys/porep");  // relative to the file's directory
  CHECK(p->zkey.empty());
  CHECK(c.find_circuit("mul")->kind == zk::config::circuit_kind_t::circom);
  auto with = [&](const std::string& line) {
    return replace(native, "    key_dir: keys/porep\n", "    key_dir: keys/porep\n" + line);
  };
  CHECK(error_of(replace(native, "native: porep-lite", "native: winning-post"))
            .find("circuits.porep.native: \"winning-post\" is not a native circuit (known: "
                  "porep-lite, filecoin-porep, filecoin-snap)") != std::string::npos);
  CHECK(error_of(replace(native, "depth=12", "depth=x")).find("circuits.porep.params: ") !=
        std::string::npos);
  CHECK(error_of(replace(native, "depth=12", "depth=12,partitions=10"))
            .find("circuits.porep.params: partitions belongs to jobs") != std::string::npos);
  CHECK(error_of(with("    zkey: tests/fixtures/bn254/mulchain/circuit.zkey\n"))
            .find("circuits.porep.zkey: not for a native circuit") != std::string::npos);
  CHECK(error_of(with("    shape: witness_only\n"))
            .find("circuits.porep.shape: a native circuit's buffers are abc_witness") !=
        std::string::npos);
  CHECK(error_of(with("    shape: abc_witness\n")).empty());
  CHECK(error_of(
            replace(base, "    r1cs: tests/fixtures/bn254/mulchain/circuit.r1cs\n",
                    "    r1cs: tests/fixtures/bn254/mulchain/circuit.r1cs\n    params: depth=4\n"))
            .find("circuits.mul.params: only for native circuits") != std::string::npos);
}

TEST_CASE("cluster-wide checks over a nodes list") {
  const std::string cluster = R"(scheduler: {endpoint: 127.0.0.1:7000}
nodes:
  - {name: s, roles: [scheduler], listen: {control: 127.0.0.1:7000}}
  - {name: a, roles: [synth], listen: {data: 127.0.0.1:7101}, resources: {memory_budget: 1GiB}}
  - {name: b, roles: [prover], listen: {data: 127.0.0.1:7102}, resources: {memory_budget: 1GiB, prover_backend: cpu}}
)";
  CHECK(parse(cluster).nodes.size() == 3);
  CHECK(error_of(replace(cluster, "name: b", "name: a"))
            .find("nodes[2].name: \"a\" is used by another node") != std::string::npos);
  CHECK(error_of(replace(cluster, "7102", "7101"))
            .find("nodes[2].listen: 127.0.0.1:7101 is used twice") != std::string::npos);
  CHECK(error_of(replace(cluster,
                         "  - {name: s, roles: [scheduler], listen: {control: 127.0.0.1:7000}}\n",
                         ""))
            .find("nodes: 0 nodes have the scheduler role (exactly one must)") !=
        std::string::npos);
  CHECK(error_of(replace(cluster, "resources: {memory_budget: 1GiB}}\n  - {name: b",
                         "resources: {cores: 2}}\n  - {name: b"))
            .find("nodes[1].resources.memory_budget: missing") != std::string::npos);
  CHECK(error_of(replace(cluster, "memory_budget: 1GiB}}\n  - {name: b",
                         "memory_budget: 1GiB, gpus: 1}}\n  - {name: b"))
            .find("nodes[1].resources: gives prover_backend/gpus/vram to a node without the prover "
                  "role") != std::string::npos);
  CHECK(error_of(replace(cluster, "[prover]", "[prover, sched]"))
            .find("nodes[2].roles[1]: \"sched\" is not one of") != std::string::npos);
}

TEST_CASE("security: certificates, or insecure said explicitly and on loopback only") {
  const std::string insecure = base + "security:\n  insecure: true\n";
  CHECK(parse(insecure).security.insecure);
  CHECK_FALSE(parse(insecure).security.tls());
  CHECK(error_of(base + "# no-security\n").find("security: missing: set security.certs_dir") !=
        std::string::npos);
  CHECK(error_of(replace(insecure, "  insecure: true\n", "  insecure: false\n"))
            .find("security: set certs_dir (mutual TLS") != std::string::npos);
  CHECK(error_of(replace(insecure, "  insecure: true\n", "  insecure: true\n  certs_dir: c\n"))
            .find("give certs_dir (mutual TLS) or insecure: true, not both") != std::string::npos);
  const auto tls = parse(replace(insecure, "  insecure: true\n", "  certs_dir: certs\n"));
  CHECK(tls.security.tls());
  CHECK(tls.security.certs_dir == src + "/certs");  // relative to the file's directory
  CHECK_FALSE(tls.security.dev_certs);              // zkfleet up makes no certificate unless told
  // A trailing '/' is dropped: paths joined to it never print "//" (issue 27 item 9).
  CHECK(
      parse(replace(insecure, "  insecure: true\n", "  certs_dir: certs/\n")).security.certs_dir ==
      src + "/certs");
  CHECK(parse(replace(insecure, "  insecure: true\n", "  certs_dir: certs\n  dev_certs: true\n"))
            .security.dev_certs);
  CHECK(error_of(replace(insecure, "  insecure: true\n", "  insecure: true\n  dev_certs: true\n"))
            .find("security.dev_certs: is for certs_dir") != std::string::npos);
  // Insecure with a listener anyone on the network reaches: refused, naming it.
  CHECK(error_of(replace(insecure, "data: 127.0.0.1:7100", "data: 0.0.0.0:7100"))
            .find("security.insecure: refused: node n1 listens on 0.0.0.0:7100") !=
        std::string::npos);
  CHECK(error_of(replace(replace(insecure, "control: 127.0.0.1:7000", "control: 10.0.0.5:7000"),
                         "endpoint: 127.0.0.1:7000", "endpoint: 10.0.0.5:7000"))
            .find("scheduler.endpoint listens on 10.0.0.5:7000, which is not loopback") !=
        std::string::npos);
  // With certificates any address may listen.
  CHECK(parse(replace(replace(insecure, "  insecure: true\n", "  certs_dir: certs\n"),
                      "data: 127.0.0.1:7100", "data: 0.0.0.0:7100"))
            .security.tls());
}

TEST_CASE("scheduler limits and input roots") {
  const auto d = parse(base);
  CHECK(d.scheduler.max_partitions == 1024);
  CHECK(d.scheduler.max_queued_jobs == 1000);
  CHECK(d.scheduler.retention == std::chrono::hours(1));
  CHECK(d.scheduler.input_roots.empty());
  const auto l = parse(replace(base, "  lookahead: 2\n",
                               "  lookahead: 2\n  max_partitions: 16\n  max_queued_jobs: 3\n"
                               "  retention: 10m\n  input_roots: [tests/fixtures, /tmp]\n"));
  CHECK(l.scheduler.max_partitions == 16);
  CHECK(l.scheduler.max_queued_jobs == 3);
  CHECK(l.scheduler.retention == std::chrono::minutes(10));
  REQUIRE(l.scheduler.input_roots.size() == 2);
  CHECK(l.scheduler.input_roots[0] == src + "/tests/fixtures");
  CHECK(error_of(replace(base, "  lookahead: 2\n", "  lookahead: 2\n  input_roots: [nowhere]\n"))
            .find("scheduler.input_roots[0]: " + src + "/nowhere is not a directory") !=
        std::string::npos);
  CHECK(error_of(replace(base, "  lookahead: 2\n", "  lookahead: 2\n  max_partitions: 0\n"))
            .find("scheduler.max_partitions") != std::string::npos);
}

TEST_CASE("scheduler durability and liveness: journal, sync, heartbeat and timeouts") {
  const auto d = parse(base);
  CHECK(d.scheduler.journal == src + "/t.state/journal.db");  // beside the config, named after it
  CHECK(d.scheduler.journal_sync_full);
  CHECK(d.scheduler.heartbeat == std::chrono::seconds(2));
  CHECK(d.scheduler.node_timeout == std::chrono::seconds(10));
  CHECK(d.scheduler.placement_timeout == std::chrono::minutes(10));
  CHECK(d.scheduler.stage_timeout == std::chrono::minutes(2));
  const auto j = parse(replace(base, "  lookahead: 2\n",
                               "  lookahead: 2\n  journal: state/j.db\n  journal_sync: normal\n"
                               "  heartbeat: 500ms\n  node_timeout: 3s\n  stage_timeout: 30s\n"
                               "  placement_timeout: 1h\n"));
  CHECK(j.scheduler.journal == src + "/state/j.db");
  // Uploads are kept beside the journal, wherever it is (issue 27 item 5: they went to the
  // config's state folder while farm.yaml and docs/api.md said "beside the journal").
  CHECK(j.scheduler.uploads == src + "/state/uploads");
  CHECK(parse(replace(base, "  lookahead: 2\n", "  lookahead: 2\n  journal: off\n"))
            .scheduler.uploads == src + "/t.state/uploads");
  CHECK_FALSE(j.scheduler.journal_sync_full);
  CHECK(j.scheduler.heartbeat == std::chrono::milliseconds(500));
  CHECK(j.scheduler.node_timeout == std::chrono::seconds(3));
  CHECK(j.scheduler.stage_timeout == std::chrono::seconds(30));
  CHECK(j.scheduler.placement_timeout == std::chrono::hours(1));
  CHECK(parse(replace(base, "  lookahead: 2\n", "  lookahead: 2\n  journal: off\n"))
            .scheduler.journal.empty());
  CHECK(error_of(replace(base, "  lookahead: 2\n", "  lookahead: 2\n  journal_sync: always\n"))
            .find("scheduler.journal_sync") != std::string::npos);
  CHECK(error_of(replace(base, "  lookahead: 2\n",
                         "  lookahead: 2\n  heartbeat: 2s\n  node_timeout: 3s\n"))
            .find("scheduler.node_timeout: must be at least twice scheduler.heartbeat") !=
        std::string::npos);
  load_options_t no_files;
  no_files.check_files = false;
  const auto farm = load_config(src + "/configs/farm.yaml", no_files);
  CHECK(farm.scheduler.journal == "/var/lib/zkfleet/scheduler/journal.db");
  CHECK(farm.scheduler.uploads == "/var/lib/zkfleet/scheduler/uploads");
  CHECK(farm.scheduler.stage_timeout == std::chrono::minutes(30));
}

TEST_CASE("simulation section") {
  const std::string sim = base + R"(simulation:
  enabled: true
  seed: 9
  jitter: 0.25
  circuits: [{id: c, buffer_size: 256MiB, synth_seconds: 2, prove_seconds: 1.5}]
  nodes:
    - {name_prefix: s, count: 150, roles: [synth], memory_budget: 4GiB}
    - {name_prefix: p, count: 50, roles: [prover], memory_budget: 8GiB, hot_circuits: [c]}
  jobs: [{circuit: c, count: 30, partitions: 10, priority: high, every_seconds: 0.5}]
)";
  const auto c = parse(sim);
  CHECK(c.simulation.enabled);
  CHECK(c.simulation.seed == 9);
  CHECK(c.simulation.jitter == doctest::Approx(0.25));
  CHECK(error_of(replace(sim, "jitter: 0.25", "jitter: 1.5"))
            .find("simulation.jitter: \"1.5\" is not a fraction in [0, 1)") != std::string::npos);
  CHECK(c.simulation.nodes[0].count + c.simulation.nodes[1].count == 200);
  CHECK(c.simulation.circuits[0].prove_seconds == doctest::Approx(1.5));
  CHECK(c.simulation.jobs[0].priority == priority_t::high);
  CHECK(error_of(replace(sim, "circuit: c, count: 30", "circuit: d, count: 30"))
            .find("simulation.jobs[0].circuit: \"d\" is not in simulation.circuits") !=
        std::string::npos);
  CHECK(error_of(replace(sim, "synth_seconds: 2,", "synth_seconds: fast,"))
            .find("simulation.circuits[0].synth_seconds: \"fast\" is not a number of seconds") !=
        std::string::npos);
  CHECK(error_of(replace(sim, "  enabled: true", "  enabled: yes"))
            .find("simulation.enabled: \"yes\" is not true or false") != std::string::npos);
  CHECK(error_of(replace(sim,
                         "    - {name_prefix: p, count: 50, roles: [prover], memory_budget: 8GiB, "
                         "hot_circuits: [c]}\n",
                         ""))
            .find("simulation: is enabled but lacks synth nodes, prover nodes or jobs") !=
        std::string::npos);
}

TEST_CASE("simulation: synthesis from a measured rate, wires") {
  const std::string sim = base + R"(simulation:
  circuits:
    - id: c
      buffer_size: 16GiB
      constraints: 130278541
      synth_rate: 15400000
      prove_seconds: 1.8
      wires: [{name: today, bytes: 16672218624}, {name: packed, bytes: 86701519, rebuild_seconds: 2}]
    - {id: d, buffer_size: 1GiB, synth_seconds: 1, prove_seconds: 1, wires: [{name: today, bytes: 1GiB}, {name: packed, bytes: 1MiB}]}
  nodes:
    - {name_prefix: s, roles: [synth], memory_budget: 200GiB}
    - {name_prefix: p, roles: [prover], memory_budget: 200GiB}
  jobs: [{circuit: c}]
)";
  const auto c = parse(sim);
  const auto& ci = c.simulation.circuits[0];
  CHECK(ci.synth_seconds == doctest::Approx(130278541.0 / 15400000.0));
  REQUIRE(ci.wires.size() == 2);
  CHECK(ci.wires[0].name == "today");
  CHECK(ci.wires[0].bytes == 16672218624ull);
  CHECK(ci.wires[0].rebuild_seconds == 0);
  CHECK(ci.wires[1].rebuild_seconds == doctest::Approx(2.0));
  CHECK(error_of(replace(sim, "      synth_rate: 15400000\n", ""))
            .find("simulation.circuits[0].synth_rate: missing") != std::string::npos);
  CHECK(error_of(replace(sim, "      synth_rate: 15400000\n",
                         "      synth_rate: 15400000\n      synth_seconds: 8\n"))
            .find("simulation.circuits[0].synth_seconds: give synth_seconds or constraints and "
                  "synth_rate, not both") != std::string::npos);
  CHECK(error_of(replace(sim, "{name: packed, bytes: 1MiB}", "{name: faster, bytes: 1MiB}"))
            .find("simulation.circuits[1].wires: names the wires today, faster, circuit \"c\" "
                  "names today, packed") != std::string::npos);
  CHECK(error_of(replace(sim, "{name: packed, bytes: 86701519", "{name: today, bytes: 86701519"))
            .find("simulation.circuits[0].wires[1].name: \"today\" is defined twice") !=
        std::string::npos);
  // The 32 GiB farms of configs/ read.
  load_options_t no_files;
  no_files.check_files = false;
  for (const char* f : {"/configs/simulate-32g-10gbe.yaml", "/configs/simulate-32g-25gbe.yaml"}) {
    const auto farm = load_config(src + f, no_files);
    CAPTURE(f);
    CHECK(farm.simulation.enabled);
    REQUIRE(farm.simulation.circuits.size() == 1);
    CHECK(farm.simulation.circuits[0].wires.size() == 2);
  }
}

TEST_CASE("configs/README.md documents every key the parser accepts") {
  std::ifstream in(src + "/configs/README.md");
  REQUIRE(in.good());
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string doc = ss.str();
  size_t keys = 0;
  for (const auto& section : schema()) {
    for (const auto& key : section.keys) {
      ++keys;
      // As a table key: `key`, `listen.key`, `resources.key`, `data_plane.key`, ...
      const bool found = doc.find("`" + key + "`") != std::string::npos ||
                         doc.find("." + key + "`") != std::string::npos;
      CHECK_MESSAGE(found, "configs/README.md does not document " << section.section << "." << key);
    }
  }
  CHECK(keys > 50);
}

TEST_CASE("filecoin-porep circuits and the provers' filecoin_params") {
  using zk::test::contains;
  load_options_t no_files;
  no_files.check_files = false;
  const auto farm = load_config(src + "/configs/filecoin-farm.yaml", no_files);
  const circuit_t* c = farm.find_circuit("c2-32g");
  REQUIRE(c);
  CHECK(c->kind == zk::config::circuit_kind_t::filecoin_porep);
  CHECK(c->registered_proof == "StackedDrg32GiBV1_1");
  REQUIRE(select_node(farm, "gpu-2").filecoin_params.size() == 1);
  CHECK(select_node(farm, "gpu-2").filecoin_params[0].first == "c2-32g");

  const std::string base = R"(version: 1
scheduler: {endpoint: 127.0.0.1:7000}
circuits:
  fc: {native: filecoin-porep, registered_proof: StackedDrg2KiBV1_1, vk: /x/a.vk}
nodes:
  - {name: s, roles: [scheduler, synth], listen: {control: 127.0.0.1:7000, data: 127.0.0.1:7001}, resources: {memory_budget: 1GiB}}
  - {name: p, roles: [prover], listen: {data: 127.0.0.1:7002}, resources: {memory_budget: 4GiB}, filecoin_params: {fc: /x/a.params}}
)";
  CHECK(error_of(base, false).empty());
  CHECK(contains(error_of(replace(base, "StackedDrg2KiBV1_1", "StackedDrg3KiB"), false),
                 "circuits.fc.registered_proof: unknown registered seal proof"));
  CHECK(contains(
      error_of(replace(base, "StackedDrg2KiBV1_1", "StackedDrg2KiBV1_2_Feat_NonInteractivePoRep"),
               false),
      "non-interactive"));
  CHECK(contains(error_of(replace(base, ", vk: /x/a.vk", ""), false), "circuits.fc.vk"));
  CHECK(contains(error_of(base, true), "circuits.fc.vk: /x/a.vk does not exist"));
  CHECK(contains(error_of(replace(base, "vk: /x/a.vk", "vk: /x/a.vk, params: \"a=1\""), false),
                 "circuits.fc.params: not for a filecoin-porep circuit"));
  // The wire: packed unless the circuit says full; nothing else, and only for Filecoin.
  CHECK(c->wire == zk::config::wire_t::packed);
  const auto full = parse(replace(base, "vk: /x/a.vk}", "vk: /x/a.vk, wire: full}"), false);
  REQUIRE(full.find_circuit("fc"));
  CHECK(full.find_circuit("fc")->wire == zk::config::wire_t::full);
  CHECK(contains(error_of(replace(base, "vk: /x/a.vk}", "vk: /x/a.vk, wire: fast}"), false),
                 "circuits.fc.wire"));
  // auto: the scheduler picks packed or full per partition (node/scheduler/wire_choice.hpp).
  const auto wire_auto = parse(replace(base, "vk: /x/a.vk}", "vk: /x/a.vk, wire: auto}"), false);
  REQUIRE(wire_auto.find_circuit("fc"));
  CHECK(wire_auto.find_circuit("fc")->wire == zk::config::wire_t::automatic);
  CHECK(std::string(zk::config::wire_name(zk::config::wire_t::automatic)) == "auto");
  CHECK(wire_auto.find_circuit("fc")->link_per_s == 0);  // the 10 GbE prior
  // link_per_s: the link auto assumes before it measures; only with auto, never 0.
  const auto fast = parse(
      replace(base, "vk: /x/a.vk}", "vk: /x/a.vk, wire: auto, link_per_s: 12500000000}"), false);
  REQUIRE(fast.find_circuit("fc"));
  CHECK(fast.find_circuit("fc")->link_per_s == 12'500'000'000u);
  CHECK(contains(
      error_of(replace(base, "vk: /x/a.vk}", "vk: /x/a.vk, link_per_s: 12500000000}"), false),
      "circuits.fc.link_per_s: link_per_s is the link rate `wire: auto` assumes"));
  CHECK(contains(
      error_of(replace(base, "vk: /x/a.vk}", "vk: /x/a.vk, wire: auto, link_per_s: 0}"), false),
      "circuits.fc.link_per_s: \"0\" is too small"));
  CHECK(contains(
      error_of(
          replace(base, "native: filecoin-porep, registered_proof: StackedDrg2KiBV1_1, vk: /x/a.vk",
                  "native: porep-lite, wire: full"),
          false),
      "circuits.fc.wire: only for native: filecoin-porep"));
  // A SnapDeals update circuit: a RegisteredUpdateProof's name, the full wire only.
  const std::string snap =
      replace(base, "native: filecoin-porep, registered_proof: StackedDrg2KiBV1_1",
              "native: filecoin-snap, registered_proof: StackedDrg2KiBV1");
  const auto sc = parse(snap, false);
  REQUIRE(sc.find_circuit("fc"));
  CHECK(sc.find_circuit("fc")->kind == zk::config::circuit_kind_t::filecoin_snap);
  CHECK(sc.find_circuit("fc")->wire == zk::config::wire_t::full);
  CHECK(contains(error_of(replace(snap, "StackedDrg2KiBV1,", "StackedDrg2KiBV1_1,"), false),
                 "circuits.fc.registered_proof: unknown registered update proof "
                 "'StackedDrg2KiBV1_1'"));
  CHECK(contains(error_of(replace(snap, "vk: /x/a.vk}", "vk: /x/a.vk, wire: packed}"), false),
                 "circuits.fc.wire: a filecoin-snap circuit's partitions cross the data plane as "
                 "`wire: full` only"));
  CHECK(contains(error_of(replace(snap, "vk: /x/a.vk}", "vk: /x/a.vk, wire: auto}"), false),
                 "circuits.fc.wire: a filecoin-snap circuit's partitions cross the data plane as "
                 "`wire: full` only"));
  CHECK(contains(error_of(replace(snap, "vk: /x/a.vk}", "vk: /x/a.vk, params: \"a=1\"}"), false),
                 "circuits.fc.params: not for a filecoin-snap circuit"));
  CHECK(
      contains(error_of(replace(base, "filecoin_params: {fc:", "filecoin_params: {other:"), false),
               "nodes[1].filecoin_params.other: \"other\" is not in circuits"));
  CHECK(contains(error_of(replace(base, ", filecoin_params: {fc: /x/a.params}", ""), false),
                 "circuits.fc: no prover node has filecoin_params"));
  CHECK(contains(error_of(replace(base, "resources: {memory_budget: 1GiB}}",
                                  "resources: {memory_budget: 1GiB}, filecoin_params: {fc: /a}}"),
                          false),
                 "nodes[0].filecoin_params: only a prover"));
  CHECK(contains(
      error_of(replace(base, "native: filecoin-porep, registered_proof: StackedDrg2KiBV1_1",
                       "native: porep-lite, registered_proof: StackedDrg2KiBV1_1"),
               false),
      "circuits.fc.registered_proof: only for native: filecoin-porep"));
  // Its synthesis beside the scheduler reads the store itself; one elsewhere fetches over HTTP.
  const std::string apart =
      replace(replace(base, "roles: [scheduler, synth], ", "roles: [scheduler], "), "  - {name: p,",
              "  - {name: y, roles: [synth], listen: {data: 127.0.0.1:7003}, "
              "resources: {memory_budget: 1GiB}}\n  - {name: p,");
  CHECK(
      contains(error_of(apart, false),
               "circuits.fc: a filecoin-porep circuit needs scheduler.http: synthesis node \"y\""));
  CHECK(error_of(replace(apart, "scheduler: {endpoint: 127.0.0.1:7000}",
                         "scheduler: {endpoint: 127.0.0.1:7000, http: 127.0.0.1:7010}"),
                 false)
            .empty());
}
