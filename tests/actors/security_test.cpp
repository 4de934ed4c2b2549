// The scheduler from an attacker's side, in one process (the real actors; the process-level
// attacks — certificates, TLS, the ports — are tests/security/attack.sh): requests without a
// session or with the wrong identity, other clients' jobs, oversized and out-of-root requests,
// and a prover that answers with late and forged proofs. Every refusal names its reason; the
// cluster proves afterwards. Every wait is bounded.
#include <doctest/doctest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "actors/node.hpp"
#include "tests/test_util.hpp"
#include "zk/formats/json.hpp"

using namespace zk::actors;
using namespace zk::node;
using namespace std::chrono_literals;
using zk::security::role_t;
using zk::test::contains;
using zk::test::eventually;
using zk::test::read_text;

namespace {

struct system_t {
  caf::actor_system_config cfg;
  std::unique_ptr<caf::actor_system> sys;
  system_t() {
    add_message_types(cfg);
    cfg.set("scheduler.max-threads", 2);
    sys = std::make_unique<caf::actor_system>(cfg);
  }
};

const std::string mc = zk::test::fixture_dir("bn254", "mulchain");

cluster_config_t config(std::vector<std::string> roots = {"/"}) {
  cluster_config_t cc;
  cc.synth_nodes = 1;
  cc.circuits = {describe_zkey_circuit("mulchain", mc + "/circuit.zkey")};
  cc.limits.input_roots = std::move(roots);
  cc.limits.max_partitions = 16;
  cc.max_attempts = 2;
  return cc;
}

job_request_msg mulchain_job(uint32_t partitions = 1) {
  return {"mulchain", priority_t::normal, partitions, circom_job_spec({mc + "/witness.wtns"})};
}

// The error of a request that must fail, as "code: reason".
template <class T, class... Ts>
std::string refusal(caf::actor_system& sys, const scheduler_actor& s, Ts&&... xs) {
  auto r = ask<T>(sys, s, 30s, std::forward<Ts>(xs)...);
  REQUIRE_FALSE(r);
  return describe(r.error());
}

// Whether the scheduler counts node `name` as in the cluster now (it keeps the entry of a node
// that left, not alive).
bool alive(caf::actor_system& sys, const scheduler_actor& s, const std::string& admin,
           const std::string& name) {
  auto u = ask<std::vector<node_usage_msg>>(sys, s, 10s, stats_atom::value, admin);
  REQUIRE_MESSAGE(u, describe(u.error()));
  for (const auto& n : *u)
    if (n.name == name) return n.alive;
  return false;
}

// A prover that claims to prove. For each request it answers first with a late reply (an earlier
// attempt's number), then for the right attempt with a forgery: `wrong_statement` — the fixture's
// valid proof with other public signals than the witness's; else the witness's own public signals
// with a proof that fails the pairing check (the fixture's, pi_a and pi_c swapped).
prover_actor::behavior_type forging_prover(prover_actor::pointer self, scheduler_actor sched,
                                           bool wrong_statement) {
  auto proof = zk::formats::parse_proof_json(read_text(mc + "/proof.json"), "proof");
  std::vector<std::string> pub =
      zk::formats::parse_public_json(read_text(mc + "/public.json"), "public");
  if (wrong_statement) {
    pub = {"1", "2"};
  } else {
    std::swap(proof.a, proof.c);
  }
  const std::string text = zk::formats::proof_to_json(proof);
  return {
      [=](const prove_request_msg& r) {
        const auto& b = r.buffer;
        self->send(sched, ack_atom::value, b.job, b.partition, b.attempt, 0.0);
        self->send(sched, started_atom::value, b.job, b.partition, b.attempt);
        proof_msg late{b.job, b.partition, b.attempt - 1, text, pub, 0, 0, 0, ""};
        late.report_token = b.report_token;  // a certified forger knows its attempt's token
        self->send(sched, late);
        proof_msg forged = late;
        forged.attempt = b.attempt;
        self->send(sched, forged);
      },
      [](release_atom, uint64_t) {},
      [](cancel_atom, uint64_t) {},
      [](rebind_atom) {},
      [](loaded_atom) { return std::vector<std::string>{}; },
      [](params_atom, const std::string&, bool) {  // it holds no key it could move
        return key_outcome_msg{"", "refused", "a test's prover moves no key", 0, 0};
      },
  };
}

}  // namespace

TEST_CASE("sessions: no session, a wrong role or another node's name is refused") {
  system_t s;
  embedded_cluster_t cluster(*s.sys, config());
  auto& sys = *s.sys;
  const auto sched = cluster.scheduler;
  CHECK(
      contains(refusal<std::string>(sys, sched, submit_atom::value, std::string(), mulchain_job()),
               "unauthenticated: no valid session"));
  CHECK(contains(
      refusal<std::string>(sys, sched, submit_atom::value, std::string(32, 'a'), mulchain_job()),
      "unauthenticated"));
  // A node's session may not submit; a client's may not join; a node joins only as itself.
  const std::string node_s = cluster.sessions->add({role_t::node, "synth-9"});
  const std::string client_s = cluster.sessions->add({role_t::client, "alice"});
  CHECK(contains(refusal<std::string>(sys, sched, submit_atom::value, node_s, mulchain_job()),
                 "forbidden: a node may not do that (only a client)"));
  node_join_msg j;
  j.resources.name = "synth-9";
  CHECK(contains(refusal<uint32_t>(sys, sched, join_atom::value, client_s, j),
                 "forbidden: a client may not do that (only a node)"));
  j.resources.name = "synth-0";  // a live node's name, with another node's session
  CHECK(contains(refusal<uint32_t>(sys, sched, join_atom::value, node_s, j),
                 "node synth-9 may join only as synth-9"));
  // Insecure sessions (this embedded cluster) take a login at its word, but a challenge is still
  // single-use and must have been issued.
  auto h = ask<hello_msg>(sys, sched, 10s, hello_atom::value, std::string("nonce"));
  REQUIRE(h);
  CHECK_FALSE(h->secure);
  login_msg l{"bob", false, "", h->challenge, ""};
  auto t = ask<std::string>(sys, sched, 10s, login_atom::value, l);
  REQUIRE_MESSAGE(t, describe(t.error()));
  CHECK(t->size() == 32);
  CHECK(contains(refusal<std::string>(sys, sched, login_atom::value, l),
                 "the challenge is unknown, used or expired"));
  l.challenge = "made-up";
  CHECK(contains(refusal<std::string>(sys, sched, login_atom::value, l), "challenge"));
}

TEST_CASE("jobs belong to their client: ids are random, others' jobs are unknown, admin sees all") {
  system_t s;
  embedded_cluster_t cluster(*s.sys, config());
  auto& sys = *s.sys;
  const auto sched = cluster.scheduler;
  const std::string alice = cluster.sessions->add({role_t::client, "alice"});
  const std::string bob = cluster.sessions->add({role_t::client, "bob"});
  auto a = ask<std::string>(sys, sched, 30s, submit_atom::value, alice, mulchain_job());
  auto b = ask<std::string>(sys, sched, 30s, submit_atom::value, alice, mulchain_job());
  REQUIRE(a);
  REQUIRE(b);
  CHECK(a->size() == 32);
  CHECK(*a != *b);
  CHECK(contains(refusal<job_status_msg>(sys, sched, status_atom::value, bob, *a),
                 "unknown_job: unknown job " + *a));
  CHECK(contains(refusal<bool>(sys, sched, cancel_atom::value, bob, *a), "unknown_job"));
  CHECK(contains(refusal<job_result_msg>(sys, sched, await_atom::value, bob, *a), "unknown_job"));
  auto mine = ask<job_result_msg>(sys, sched, 120s, await_atom::value, alice, *a);
  REQUIRE_MESSAGE(mine, describe(mine.error()));
  CHECK(mine->status.owner == "alice");
  auto seen = ask<job_status_msg>(sys, sched, 10s, status_atom::value, cluster.admin, *b);
  REQUIRE(seen);
  CHECK(seen->owner == "alice");
}

TEST_CASE("limits: partitions, inputs, input roots (symlinks followed) are refused by name") {
  namespace fs = std::filesystem;
  zk::test::temp_dir_t root("zk_roots");
  const fs::path inside = root.path() / "job.wtns", link = root.path() / "escape.wtns";
  fs::copy_file(mc + "/witness.wtns", inside);
  fs::create_symlink(mc + "/witness.wtns", link);  // points out of the root
  system_t s;
  embedded_cluster_t cluster(*s.sys, config({root.path().string()}));
  auto& sys = *s.sys;
  const auto sched = cluster.scheduler;
  const std::string& admin = cluster.admin;
  job_request_msg huge = mulchain_job(4294967295u);
  CHECK(contains(refusal<std::string>(sys, sched, submit_atom::value, admin, huge),
                 "4294967295 partitions: a job may have at most 16 (scheduler.max_partitions)"));
  job_request_msg many = mulchain_job(2);
  many.spec = circom_job_spec({inside.string(), inside.string(), inside.string()});
  CHECK(contains(refusal<std::string>(sys, sched, submit_atom::value, admin, many),
                 "3 inputs for 2 partitions"));
  job_request_msg outside = mulchain_job();
  CHECK(contains(refusal<std::string>(sys, sched, submit_atom::value, admin, outside),
                 "not under any of scheduler.input_roots"));
  outside.spec = circom_job_spec({link.string()});
  CHECK(contains(refusal<std::string>(sys, sched, submit_atom::value, admin, outside),
                 "escape.wtns: not under any of scheduler.input_roots"));
  outside.spec = circom_job_spec({(root.path() / ".." / "etc" / "passwd").string()});
  CHECK(contains(refusal<std::string>(sys, sched, submit_atom::value, admin, outside), "input "));
  outside.spec = circom_job_spec({"/" + std::string(5000, 'x')});
  CHECK(contains(refusal<std::string>(sys, sched, submit_atom::value, admin, outside),
                 "longer than 4096"));
  // The cluster still proves a job whose input is inside the root.
  job_request_msg ok = mulchain_job();
  ok.spec = circom_job_spec({inside.string()});
  auto id = ask<std::string>(sys, sched, 30s, submit_atom::value, admin, ok);
  REQUIRE_MESSAGE(id, describe(id.error()));
  auto r = ask<job_result_msg>(sys, sched, 120s, await_atom::value, admin, *id);
  REQUIRE_MESSAGE(r, describe(r.error()));
  CHECK(r->proofs.size() == 1);
}

TEST_CASE("a prover's late replies and forged proofs are not accepted, nor proofs from elsewhere") {
  system_t s;
  embedded_cluster_t cluster(*s.sys, config());
  auto& sys = *s.sys;
  const auto sched = cluster.scheduler;
  // The honest prover leaves (the scheduler has dropped it); forging ones join in its place.
  caf::anon_send_exit(cluster.prover_node.prover, caf::exit_reason::kill);
  REQUIRE(eventually([&] { return !alive(sys, sched, cluster.admin, cluster.prover_node.name); }));
  for (bool wrong_statement : {true, false}) {
    const std::string name = wrong_statement ? "forger-statement" : "forger-pairing";
    auto forger = sys.spawn(forging_prover, sched, wrong_statement);
    node_join_msg j;
    j.resources.name = name;
    j.resources.memory_budget = uint64_t(1) << 30;
    j.resources.data_endpoint = "local:" + name;
    j.prover = forger;
    REQUIRE(ask<uint32_t>(sys, sched, 10s, join_atom::value,
                          cluster.sessions->add({role_t::node, name}), j));
    auto id = ask<std::string>(sys, sched, 30s, submit_atom::value, cluster.admin, mulchain_job());
    REQUIRE(id);
    // Someone who is not the prover sends a "proof" for every attempt number it might guess.
    auto st = ask<job_status_msg>(sys, sched, 10s, status_atom::value, cluster.admin, *id);
    REQUIRE(st);
    for (uint32_t attempt = 0; attempt < 8; ++attempt)
      caf::anon_send(sched, proof_msg{st->seq, 0, attempt, "{}", {"1", "2"}, 0, 0, 0, ""});
    // Each attempt's forgery is refused: the job fails after max_attempts naming why and the
    // node, and no proof is ever accepted.
    auto r = ask<job_result_msg>(sys, sched, 120s, await_atom::value, cluster.admin, *id);
    REQUIRE_FALSE(r);
    const std::string why = describe(r.error());
    CHECK_MESSAGE(contains(why, wrong_statement
                                    ? "its public signals are not those of the witness it was sent"
                                    : "fails the pairing check"),
                  why);
    CHECK_MESSAGE(contains(why, "node " + name), why);
    auto after = ask<job_status_msg>(sys, sched, 10s, status_atom::value, cluster.admin, *id);
    REQUIRE(after);
    CHECK(after->done == 0);
    caf::anon_send_exit(forger, caf::exit_reason::kill);
    REQUIRE(eventually([&] { return !alive(sys, sched, cluster.admin, name); }));
  }
}
