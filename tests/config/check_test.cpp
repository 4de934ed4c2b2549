// zkfleet config check (common/config/check.hpp): every problem of a file in one report, each
// section's own; the files of the nodes that run here only (--host, or loopback), the files of
// other hosts left alone and named as not checked. The command's output and exit status:
// tests/cli/operator_cli.sh.
#include "common/config/check.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <string>

#include "common/config/config.hpp"
#include "common/security/certs.hpp"
#include "tests/test_util.hpp"

using zk::config::check_config;
using zk::config::check_options_t;
using zk::test::contains;
using zk::test::temp_dir_t;
using zk::test::write_text;

namespace {

const std::string src = ZK_SOURCE_DIR;

// How many problems mention `part`.
size_t count(const std::vector<std::string>& problems, const std::string& part) {
  size_t n = 0;
  for (const auto& p : problems) n += contains(p, part) ? 1 : 0;
  return n;
}

std::string joined(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += x + "\n";
  return s;
}

// A farm of three hosts (none on loopback) whose circuits' files are nowhere.
std::string farm(const std::string& extra_scheduler = "") {
  return "version: 1\n"
         "scheduler:\n"
         "  endpoint: 10.0.0.10:7400\n" +
         extra_scheduler +
         "security: {insecure: false, certs_dir: /nonexistent/certs}\n"
         "circuits:\n"
         "  a: {zkey: /nonexistent/a.zkey, r1cs: /nonexistent/a.r1cs}\n"
         "  b: {zkey: /nonexistent/b.zkey, r1cs: /nonexistent/b.r1cs}\n"
         "nodes:\n"
         "  - {name: scheduler, roles: [scheduler], listen: {control: 10.0.0.10:7400}}\n"
         "  - {name: synth-1, roles: [synth], listen: {data: 10.0.0.21:7500}, resources: "
         "{memory_budget: 1GiB}}\n"
         "  - {name: gpu-1, roles: [prover], listen: {data: 10.0.0.31:7600}, resources: "
         "{memory_budget: 1GiB}}\n";
}

}  // namespace

TEST_CASE("config check: a problem in each of three sections, all three reported") {
  temp_dir_t d("zk_config_check");
  const std::string f = d.file("three.yaml");
  // A size that is not one (scheduler), an unknown key (circuit b), a bad role (node synth-1).
  std::string text = farm("  max_upload: 4 GB\n");
  text.replace(text.find("  b: {zkey"), 10, "  b: {zkye");
  text.replace(text.find("roles: [synth]"), 14, "roles: [synthesis]");
  write_text(f, text);
  const auto r = check_config(f);
  CHECK_FALSE(r.ok());
  INFO(joined(r.problems));
  CHECK(count(r.problems, "scheduler.max_upload: \"4 GB\" is not a size") == 1);
  CHECK(count(r.problems, "circuits.b.zkye: unknown key") == 1);
  CHECK(count(r.problems, "nodes[1].roles[0]: \"synthesis\" is not one of") == 1);
  // Each names the file, line and column.
  CHECK(count(r.problems, f + ":") == r.problems.size());
  // The first problem alone is what loading stops at (a node would say only that).
  CHECK_THROWS_WITH(zk::config::load_config(f), doctest::Contains("scheduler.max_upload"));
}

TEST_CASE("config check: other hosts' files are not looked at unless asked, then every one") {
  temp_dir_t d("zk_config_check");
  const std::string f = d.file("farm.yaml");
  write_text(f, farm());
  // No node listens on loopback: none runs here, no file problem, and the report says so.
  const auto r = check_config(f);
  CHECK(r.ok());
  CHECK(r.checked.empty());
  CHECK(r.not_checked == std::vector<std::string>{"scheduler", "synth-1", "gpu-1"});
  // --host gpu-1: the prover's files, every missing one (both circuits' zkey and r1cs, the
  // certificates), none of another node's.
  check_options_t o;
  o.hosts = {"gpu-1"};
  const auto g = check_config(f, o);
  INFO(joined(g.problems));
  CHECK(g.checked == std::vector<std::string>{"gpu-1"});
  CHECK(count(g.problems, "node gpu-1: circuits.a.zkey: /nonexistent/a.zkey does not exist") == 1);
  CHECK(count(g.problems, "node gpu-1: circuits.b.zkey: /nonexistent/b.zkey does not exist") == 1);
  CHECK(count(g.problems, "node gpu-1: circuits.b.r1cs") == 1);
  CHECK(count(g.problems, "security.certs_dir: /nonexistent/certs does not exist") == 1);
  CHECK(count(g.problems, "node synth-1") == 0);
  CHECK(count(g.problems, "node scheduler") == 0);
  // An unknown --host is a problem naming the file's nodes.
  o.hosts = {"gpu-9"};
  const auto u = check_config(f, o);
  CHECK(count(u.problems, "--host gpu-9: ") == 1);
  CHECK(count(u.problems, "its nodes: scheduler, synth-1, gpu-1") == 1);
}

TEST_CASE("config check: a loopback cluster's files, certificates and writable folders") {
  temp_dir_t d("zk_config_check");
  const std::string certs = d.file("certs");
  zk::security::create_ca(certs);
  zk::security::create_cert(certs, zk::security::role_t::node, "n1");
  const std::string good =
      "version: 1\n"
      "scheduler: {endpoint: 127.0.0.1:7000, journal: " +
      d.file("state/journal.db") +
      "}\n"
      "security: {certs_dir: " +
      certs +
      "}\n"
      "circuits:\n"
      "  mul: {zkey: " +
      src + "/tests/fixtures/bn254/mulchain/circuit.zkey, r1cs: " + src +
      "/tests/fixtures/bn254/mulchain/circuit.r1cs}\n"
      "nodes:\n"
      "  - {name: n1, roles: [scheduler, synth, prover], listen: {control: "
      "127.0.0.1:7000, data: 127.0.0.1:7100}, resources: {memory_budget: "
      "1GiB}}\n";
  write_text(d.file("good.yaml"), good);
  const auto r = check_config(d.file("good.yaml"));
  INFO(joined(r.problems));
  CHECK(r.ok());
  CHECK(r.checked == std::vector<std::string>{"n1"});
  // A second node of the file whose certificate was never made, and a missing zkey.
  std::string bad = good +
                    "  - {name: n2, roles: [synth], listen: {data: 127.0.0.1:7101}, "
                    "resources: {memory_budget: 1GiB}}\n";
  bad.replace(bad.find("mulchain/circuit.zkey"), 21, "mulchain/circuit.zkex");
  write_text(d.file("bad.yaml"), bad);
  const auto b = check_config(d.file("bad.yaml"));
  INFO(joined(b.problems));
  CHECK(count(b.problems,
              "node n2: security.certs_dir: " + certs + "/node.n2.crt does not exist") == 1);
  CHECK(count(b.problems, "node n1: circuits.mul.zkey: ") == 1);
  CHECK(count(b.problems, "node n2: circuits.mul.zkey") == 0);  // a synth node reads no zkey
  CHECK(count(b.problems, "//") == 0);
}
