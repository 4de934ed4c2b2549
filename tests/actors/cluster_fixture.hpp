#pragma once
// The in-process cluster of the actor tests (actors/node.hpp embedded_cluster_t) with the bundled
// circuits, and the requests a test makes of it. Every wait is bounded.
#include <doctest/doctest.h>

#include <chrono>
#include <set>
#include <thread>

#include "actors/node.hpp"
#include "node/verify_proof.hpp"
#include "tests/test_util.hpp"

namespace zk::actors::test {

using namespace zk::node;
using namespace std::chrono_literals;
constexpr auto await_timeout = std::chrono::milliseconds(120000);

// One porep-lite key for the whole suite (dev setup, ~0.5 s; cached by digest in the dir).
inline const zk::test::temp_dir_t& key_dir() {
  static zk::test::temp_dir_t d("zk_actors_keys");
  return d;
}

struct fixture_t {
  caf::actor_system_config cfg;
  std::unique_ptr<caf::actor_system> sys;
  std::unique_ptr<embedded_cluster_t> cluster;
  circuit_def_t mulchain, porep, mulchain_abc, poseidon_bls_abc;

  // `extra`: circuits the scheduler knows besides the four (variants of these).
  explicit fixture_t(cluster_config_t cc = {}, std::vector<circuit_def_t> extra = {}) {
    add_message_types(cfg);
    cfg.set("scheduler.max-threads", 2);
    sys = std::make_unique<caf::actor_system>(cfg);
    mulchain = describe_zkey_circuit("mulchain",
                                     zk::test::fixture_dir("bn254", "mulchain") + "/circuit.zkey");
    porep = describe_porep_lite_circuit("porep", "curve=bn254,challenges=1,depth=8",
                                        key_dir().path().string());
    const std::string mc = zk::test::fixture_dir("bn254", "mulchain"),
                      pb = zk::test::fixture_dir("bls12_381", "poseidon");
    mulchain_abc =
        describe_zkey_circuit("mulchain-abc", mc + "/circuit.zkey", mc + "/circuit.r1cs");
    poseidon_bls_abc =
        describe_zkey_circuit("poseidon-bls-abc", pb + "/circuit.zkey", pb + "/circuit.r1cs");
    cc.circuits = {mulchain, porep, mulchain_abc, poseidon_bls_abc};
    for (auto& c : extra) {
      if (c.zkey.empty() && c.kind == circuit_kind_t::circom) c = variant(c.id, mulchain, c);
      cc.circuits.push_back(c);
    }
    cluster = std::make_unique<embedded_cluster_t>(*sys, cc);
  }
  // The mulchain circuit under another id, with `like`'s buffer size and priority when set.
  static circuit_def_t variant(const std::string& id, circuit_def_t base,
                               const circuit_def_t& like) {
    base.id = id;
    if (like.buffer_bytes) base.buffer_bytes = like.buffer_bytes;
    base.priority = like.priority;
    return base;
  }
  ~fixture_t() {
    cluster->stop();
    cluster.reset();
    sys.reset();  // waits for every actor to exit
  }

  std::string wtns() const { return zk::test::fixture_dir("bn254", "mulchain") + "/witness.wtns"; }
  // A job of the mulchain fixture's witness (one for every partition).
  job_spec_t wtns_job() const { return circom_job_spec({wtns()}); }

  caf::expected<std::string> submit(const job_request_msg& r) {
    return ask<std::string>(*sys, cluster->scheduler, 30s, submit_atom::value, cluster->admin, r);
  }
  caf::expected<job_result_msg> await(const std::string& job) {
    return ask<job_result_msg>(*sys, cluster->scheduler, await_timeout, await_atom::value,
                               cluster->admin, job);
  }
  job_status_msg status(const std::string& job) {
    auto s =
        ask<job_status_msg>(*sys, cluster->scheduler, 5s, status_atom::value, cluster->admin, job);
    REQUIRE(s);
    return *s;
  }
  caf::expected<bool> cancel(const std::string& job) {
    return ask<bool>(*sys, cluster->scheduler, 5s, cancel_atom::value, cluster->admin, job);
  }
  // A node session of `name` (as a node's login would make).
  std::string node_token(const std::string& name) {
    return cluster->sessions->add({zk::security::role_t::node, name});
  }
  std::vector<node_usage_msg> usage() {
    auto u = ask<std::vector<node_usage_msg>>(*sys, cluster->scheduler, 5s, stats_atom::value,
                                              cluster->admin);
    REQUIRE(u);
    return *u;
  }
  uint64_t buffers_held() const {
    uint64_t n = 0;
    for (const auto& s : cluster->synth_nodes) n += s.store->stats().registered;
    return n;
  }
  // zk::test::eventually, polling every 20 ms for at most `limit` (a cluster's waits are long).
  template <class F>
  bool eventually(F cond, std::chrono::milliseconds limit = 30s) {
    return zk::test::eventually(cond, limit, 20ms);
  }
};

inline void check_proofs(const circuit_def_t& c, const job_result_msg& r, uint32_t partitions) {
  REQUIRE(r.proofs.size() == partitions);
  std::set<uint32_t> seen;
  for (const auto& p : r.proofs) {
    const auto v = zk::node::verify_proof(c, p.proof_json, p.public_signals);
    CHECK_MESSAGE(v.ok(), v.reason());
    CHECK(p.public_signals.size() == c.n_public);
    seen.insert(p.partition);
  }
  CHECK(seen.size() == partitions);
}

}  // namespace zk::actors::test
