// What survives what, in one process (the process-level chaos test is tests/cli/chaos.sh): a
// scheduler restarted from its journal serves the proofs it had accepted and finishes the rest
// under the same job ids, and never reuses a job number; a buffer that could not be sent to its
// prover is kept by its synthesis node and proven through another prover without being
// synthesized again, the failing prover paused meanwhile; a partition stuck past its stage's
// deadline is queued again (an attempt spent); a job no live node can take says why in its
// status, then fails after the placement timeout. Every wait is bounded.
#include <doctest/doctest.h>

#include <chrono>
#include <map>

#include "tests/actors/cluster_fixture.hpp"

using namespace zk::actors;
using namespace zk::actors::test;
using namespace zk::node;
using namespace std::chrono_literals;

namespace {

// A prover node that joins with a data endpoint nobody listens on and says it has every key
// resident (so it is preferred); it never proves.
prover_actor::behavior_type unreachable_prover(prover_actor::pointer) {
  return {
      [](const prove_request_msg&) {},
      [](release_atom, uint64_t) {},
      [](cancel_atom, uint64_t) {},
      [](rebind_atom) {},
      [](loaded_atom) { return std::vector<std::string>{}; },
      [](params_atom, const std::string&, bool) {  // it holds no key it could move
        return key_outcome_msg{"", "refused", "a test's prover moves no key", 0, 0};
      },
  };
}

// A synthesis node that takes every dispatch and never answers.
synthesizer_actor::behavior_type stuck_synthesizer(synthesizer_actor::pointer) {
  return {
      [](const dispatch_msg&) {},
      [](release_atom, uint64_t) {},
      [](cancel_atom, uint64_t) {},
      [](rebind_atom) { return std::vector<held_buffer_msg>{}; },
      [](tick_atom) {},
  };
}

caf::expected<node_id_t> join(fixture_t& f, const std::string& name, node_join_msg m) {
  m.resources.name = name;
  if (m.resources.memory_budget == 0) m.resources.memory_budget = uint64_t(1) << 30;
  return ask<node_id_t>(*f.sys, f.cluster->scheduler, 10s, join_atom::value, f.node_token(name), m);
}

// How many times each (job, partition) began synthesis, from the merged timeline.
std::map<std::pair<uint64_t, uint32_t>, int> synth_begins(fixture_t& f) {
  REQUIRE(ask<caf::ok_atom>(*f.sys, f.cluster->aggregator, 10s, flush_atom::value));
  auto snap = ask<timeline_snapshot_msg>(*f.sys, f.cluster->aggregator, 10s, snapshot_atom::value);
  REQUIRE(snap);
  std::map<std::pair<uint64_t, uint32_t>, int> n;
  for (const auto& e : snap->events)
    if (e.st == zk::timeline::stage_t::synth && e.ph == zk::timeline::phase_t::begin)
      ++n[{e.job, e.partition}];
  return n;
}

}  // namespace

TEST_CASE(
    "a scheduler restarted from its journal serves the proofs it accepted, finishes the rest "
    "under the same ids, and never reuses a job number") {
  zk::test::temp_dir_t dir("zk_journal_restart");
  const std::string path = (dir.path() / "journal.db").string();
  std::string done_id, open_id;
  uint64_t open_seq = 0;
  std::vector<proof_msg> accepted;
  {
    cluster_config_t cc;
    cc.journal = std::make_shared<journal_t>(path, journal_sync_t::full);
    fixture_t f(cc);
    auto done = f.submit({"mulchain", priority_t::normal, 2, f.wtns_job()});
    REQUIRE(done);
    auto r = f.await(*done);
    REQUIRE_MESSAGE(r, describe(r.error()));
    done_id = *done;
    accepted = r->proofs;
    // No synthesis node any more: the next job is accepted and journaled, and stays queued.
    for (auto& n : f.cluster->synth_nodes)
      caf::anon_send_exit(n.synthesizer, caf::exit_reason::kill);
    REQUIRE(f.eventually([&] {
      for (const auto& u : f.usage())
        if (u.synth && u.alive) return false;
      return true;
    }));
    auto open = f.submit({"porep", priority_t::high, 3, porep_lite_job_spec(5)});
    REQUIRE(open);
    open_id = *open;
    const auto st = f.status(open_id);
    open_seq = st.seq;
    CHECK(st.waiting == "no synthesis node is in the cluster");
    CHECK(st.done == 0);
  }  // the scheduler stops: what it promised is in the journal alone

  cluster_config_t cc;
  cc.journal = std::make_shared<journal_t>(path, journal_sync_t::full);
  fixture_t f(cc);
  // The finished job: its proofs as they were accepted, from the journal.
  auto r = f.await(done_id);
  REQUIRE_MESSAGE(r, describe(r.error()));
  REQUIRE(r->proofs.size() == accepted.size());
  for (size_t i = 0; i < accepted.size(); ++i) {
    CHECK(r->proofs[i].partition == accepted[i].partition);
    CHECK(r->proofs[i].proof_json == accepted[i].proof_json);
    CHECK(r->proofs[i].public_signals == accepted[i].public_signals);
  }
  check_proofs(f.mulchain, *r, 2);
  // The unfinished one is proven now, under its id and number.
  auto o = f.await(open_id);
  REQUIRE_MESSAGE(o, describe(o.error()));
  check_proofs(f.porep, *o, 3);
  CHECK(o->status.seq == open_seq);
  CHECK(o->status.priority == priority_t::high);
  // A new job takes a number never used before.
  auto next = f.submit({"mulchain", priority_t::normal, 1, f.wtns_job()});
  REQUIRE(next);
  CHECK(f.status(*next).seq > open_seq);
  REQUIRE(f.await(*next));
  const auto js = cc.journal->stats();
  CHECK(js.jobs == 3);
  CHECK(js.open_jobs == 0);
  CHECK(js.proofs == 6);
}

TEST_CASE(
    "a buffer that could not be sent is kept by its synthesis node and proven through another "
    "prover without a second synthesis, the failing prover gets no new work") {
  cluster_config_t cc;
  cc.synth_nodes = 1;
  cc.prover_data_listen = "127.0.0.1:0";  // the live prover receives over the data plane
  fixture_t f(cc);
  node_join_msg m;
  m.resources.hot_keys = {"mulchain"};  // preferred over prover-0
  m.resources.data_endpoint = "tcp:127.0.0.1:1";
  m.resources.transfer_key = std::string(32, 'k');
  m.prover = f.sys->spawn(unreachable_prover);
  REQUIRE(join(f, "prover-unreachable", m));

  auto job = f.submit({"mulchain", priority_t::normal, 1, f.wtns_job()});
  REQUIRE(job);
  auto r = f.await(*job);
  REQUIRE_MESSAGE(r, describe(r.error()));
  check_proofs(f.mulchain, *r, 1);
  const uint64_t seq = f.status(*job).seq;
  CHECK(synth_begins(f)[{seq, 0}] == 1);  // synthesized once, sent twice
  CHECK(f.cluster->prover_node.data_server->stats().frames_accepted == 1);
  // Paused, the unreachable prover gets no new work: the next job goes to prover-0 at once.
  auto again = f.submit({"mulchain", priority_t::normal, 1, f.wtns_job()});
  REQUIRE(again);
  REQUIRE(f.await(*again));
  CHECK(synth_begins(f)[{f.status(*again).seq, 0}] == 1);
  CHECK(f.eventually([&] { return f.buffers_held() == 0; }, 5s));
  for (const auto& u : f.usage()) CHECK_MESSAGE(u.reserved == 0, u.name);
  caf::anon_send_exit(m.prover, caf::exit_reason::user_shutdown);
}

TEST_CASE(
    "a partition stuck past its stage deadline is queued again (an attempt spent), a job no live "
    "node can take says why, then fails after the placement timeout") {
  cluster_config_t cc;
  cc.synth_nodes = 0;
  cc.max_attempts = 2;
  cc.timing.stage_timeout = 300ms;
  cc.timing.placement_timeout = 800ms;
  cc.timing.tick = 50ms;
  fixture_t f(cc);
  node_join_msg m;
  m.synthesizer = f.sys->spawn(stuck_synthesizer);
  REQUIRE(join(f, "synth-stuck", m));

  auto stuck = f.submit({"mulchain", priority_t::normal, 1, f.wtns_job()});
  REQUIRE(stuck);
  auto r = f.await(*stuck);  // two dispatches, each abandoned at its deadline
  REQUIRE_FALSE(r);
  CHECK(r.error() == caf::make_error(zk_errc::job_failed));
  CHECK(describe(r.error()).find("deadline: synthesizing took longer than its deadline") !=
        std::string::npos);
  for (const auto& u : f.usage()) CHECK_MESSAGE(u.reserved == 0, u.name);

  caf::anon_send_exit(m.synthesizer, caf::exit_reason::kill);
  REQUIRE(f.eventually([&] {
    for (const auto& u : f.usage())
      if (u.name == "synth-stuck") return !u.alive;
    return false;
  }));
  auto unplaced = f.submit({"mulchain", priority_t::normal, 2, f.wtns_job()});
  REQUIRE(unplaced);
  CHECK(f.status(*unplaced).waiting == "no synthesis node is in the cluster");
  auto u = f.await(*unplaced);
  REQUIRE_FALSE(u);
  CHECK(describe(u.error()).find("no live node could take it within "
                                 "scheduler.placement_timeout") != std::string::npos);
  CHECK(f.status(*unplaced).failed == 2);
}
