// Scheduler policy: admission by budgets, lookahead and cores; priorities; cancellation; node
// loss; `auto` lookahead — on the state directly and through the simulated workload, including
// 200 simulated nodes and the timeline stats naming the bound of three scripted farms.
#include <doctest/doctest.h>

#include <random>

#include "common/timeline/render.hpp"
#include "node/scheduler/simulation.hpp"

using namespace zk::node;

namespace {

constexpr uint64_t MiB = 1 << 20;

node_spec_t synth_node(const std::string& name, unsigned cores, uint64_t budget) {
  node_spec_t n;
  n.name = name;
  n.synth = true;
  n.cores = cores;
  n.memory_budget = budget;
  return n;
}
node_spec_t prover_node(const std::string& name, uint64_t budget, std::set<std::string> hot = {}) {
  node_spec_t n;
  n.name = name;
  n.prover = true;
  n.memory_budget = budget;
  n.hot_keys = std::move(hot);
  return n;
}

sim_config_t farm(unsigned synth_nodes, unsigned cores, double synth_s, double prove_s,
                  double uplink_mib_s, unsigned lookahead, unsigned partitions = 12) {
  sim_config_t c;
  c.lookahead.value = lookahead;
  c.circuits.push_back({{"porep", 64 * MiB, 32 * MiB}, synth_s, prove_s});
  for (unsigned i = 0; i < synth_nodes; ++i)
    c.nodes.push_back(
        {synth_node("synth-" + std::to_string(i), cores, 1024 * MiB), uplink_mib_s * MiB});
  c.nodes.push_back({prover_node("gpu-0", 1024 * MiB), 1e12});
  c.jobs.push_back({0, "porep", priority_t::normal, partitions});
  return c;
}

double prover_busy(const sim_result_t& r) {
  return zk::timeline::compute_stats(r.timeline.events(), r.timeline.names()).prover_busy;
}

}  // namespace

TEST_CASE("admission: budgets, cores and lookahead bound what is dispatched") {
  scheduler_policy_t s({false, 1});
  s.add_circuit({"c", 100, 50});
  node_id_t syn = s.add_node(synth_node("s", 4, 250));  // room for 2 buffers of 100
  node_id_t prv = s.add_node(prover_node("p", 1000));
  job_id_t j = s.submit("c", priority_t::normal, 5).value();
  auto d = s.schedule();
  // lookahead 1 and an idle prover: 2 partitions may be in its pipeline
  REQUIRE(d.size() == 2);
  CHECK(s.reserved(syn) == 200);
  CHECK(s.reserved(prv) == 200);  // two buffers; the work area counts while a proof runs
  CHECK(s.pipeline(prv) == 2);
  CHECK(s.schedule().empty());
  // Synthesis done and transferred: the synth node's share is released on the prover's ack.
  s.synth_done(j, 0, 1.0);
  CHECK(s.reserved(syn) == 200);
  s.transfer_done(j, 0, 0.1);
  CHECK(s.reserved(syn) == 100);
  s.prove_started(j, 0);
  CHECK(s.pipeline(prv) == 1);
  CHECK(s.reserved(prv) == 250);
  // One proving, one in the pipeline: lookahead 1 is full.
  CHECK(s.schedule().empty());
  s.prove_done(j, 0, 2.0);
  CHECK(s.reserved(prv) == 100);
  CHECK(s.schedule().size() == 1);
  CHECK(s.status(j).done == 1);
  CHECK(s.submit("nope", priority_t::high, 1).error() == "unknown circuit 'nope'");
  CHECK_FALSE(s.submit("c", priority_t::high, 0));
}

TEST_CASE("a prover holds its pipeline's buffers but one work area at a time") {
  scheduler_policy_t s({false, 4});
  s.add_circuit({"c", 100, 300});
  s.add_node(synth_node("s", 8, 10000));
  node_id_t prv = s.add_node(prover_node("p", 500));  // two buffers + one work area
  job_id_t j = s.submit("c", priority_t::normal, 4).value();
  CHECK(s.schedule().size() == 2);
  for (uint32_t k = 0; k < 2; ++k) s.synth_done(j, k, 1), s.transfer_done(j, k, 1);
  s.prove_started(j, 0);
  CHECK(s.reserved(prv) == 500);
  CHECK(s.schedule().empty());
  s.prove_done(j, 0, 1);
  CHECK(s.reserved(prv) == 100);
  CHECK(s.schedule().size() == 1);
  CHECK(s.reserved(prv) <= s.budget(prv));
}

TEST_CASE("a synthesis node's budget limits the buffers it may hold") {
  scheduler_policy_t s({false, 3});
  s.add_circuit({"c", 100, 0});
  node_id_t syn = s.add_node(synth_node("s", 4, 150));
  s.add_node(prover_node("p", 10000));
  job_id_t j = s.submit("c", priority_t::normal, 3).value();
  CHECK(s.schedule().size() == 1);  // a second buffer would not fit in 150 bytes
  CHECK(s.reserved(syn) == 100);
  s.synth_done(j, 0, 1);
  CHECK(s.schedule().empty());  // still held until the prover acknowledges it
  s.transfer_done(j, 0, 1);
  CHECK(s.schedule().size() == 1);
}

TEST_CASE("priorities: CRITICAL > HIGH > NORMAL > LOW, oldest first within a class") {
  scheduler_policy_t s({false, 0});
  s.add_circuit({"c", 10, 0});
  s.add_node(synth_node("s", 1, 1000));
  s.add_node(prover_node("p", 1000));
  job_id_t low = s.submit("c", priority_t::low, 2).value();
  job_id_t normal1 = s.submit("c", priority_t::normal, 1).value();
  job_id_t crit = s.submit("c", priority_t::critical, 1).value();
  job_id_t normal2 = s.submit("c", priority_t::normal, 1).value();
  std::vector<job_id_t> order;
  for (int round = 0; round < 5; ++round) {
    auto d = s.schedule();
    REQUIRE(d.size() == 1);  // one core, lookahead 0: one at a time
    order.push_back(d[0].job);
    s.synth_done(d[0].job, d[0].partition, 1);
    s.transfer_done(d[0].job, d[0].partition, 1);
    s.prove_started(d[0].job, d[0].partition);
    s.prove_done(d[0].job, d[0].partition, 1);
  }
  CHECK(order == std::vector<job_id_t>{crit, normal1, normal2, low, low});
}

TEST_CASE("cancellation frees every reservation, late reports are ignored, other jobs finish") {
  scheduler_policy_t s({false, 2});
  s.add_circuit({"c", 100, 100});
  node_id_t syn = s.add_node(synth_node("s", 2, 1000));
  node_id_t prv = s.add_node(prover_node("p", 1000));
  job_id_t a = s.submit("c", priority_t::normal, 3).value();
  job_id_t b = s.submit("c", priority_t::low, 1).value();
  auto d = s.schedule();
  REQUIRE(d.size() == 2);
  s.synth_done(a, 0, 1);
  s.transfer_done(a, 0, 1);
  s.prove_started(a, 0);
  CHECK(s.cancel(a));
  CHECK(s.reserved(syn) == 0);
  CHECK(s.reserved(prv) == 0);
  CHECK(s.status(a).cancelled);
  s.prove_done(a, 0, 1);  // late: ignored
  CHECK(s.status(a).done == 0);
  CHECK_FALSE(s.cancel(a));
  auto d2 = s.schedule();
  REQUIRE(d2.size() == 1);
  CHECK(d2[0].job == b);
}

TEST_CASE("a lost node re-queues its partitions, repeated failures fail the job with the reason") {
  scheduler_policy_t s({false, 1}, 2);
  s.add_circuit({"c", 10, 0});
  node_id_t syn = s.add_node(synth_node("synth-7", 1, 100));
  s.add_node(prover_node("p", 100));
  job_id_t j = s.submit("c", priority_t::normal, 1).value();
  REQUIRE(s.schedule().size() == 1);
  s.remove_node(syn);
  CHECK(s.state(j, 0) == part_state_t::queued);
  CHECK(s.schedule().empty());  // no synthesis node left
  node_id_t syn2 = s.add_node(synth_node("synth-8", 1, 100));
  REQUIRE(s.schedule().size() == 1);
  s.failed(j, 0, "synthesis crashed on synth-8",
           failure_t::synth_failed);  // its first own failure: the loss was free
  CHECK(s.state(j, 0) == part_state_t::queued);
  REQUIRE(s.schedule().size() == 1);
  s.failed(j, 0, "synthesis crashed on synth-8",
           failure_t::synth_failed);  // its second: max_attempts 2
  CHECK(s.state(j, 0) == part_state_t::failed);
  CHECK(s.status(j).error == "synthesis crashed on synth-8");
  CHECK(s.status(j).failure == failure_t::synth_failed);
  CHECK(s.reserved(syn2) == 0);
}

TEST_CASE("a node loss spends no attempt, only a partition's own failures do") {
  scheduler_policy_t s({false, 1}, 2);
  s.add_circuit({"c", 10, 0});
  s.add_node(prover_node("p", 100));
  job_id_t j = s.submit("c", priority_t::normal, 1).value();
  // More node losses than max_attempts: the partition is queued again each time.
  for (int i = 0; i < 5; ++i) {
    node_id_t syn = s.add_node(synth_node("synth-" + std::to_string(i), 1, 100));
    REQUIRE(s.schedule().size() == 1);
    s.remove_node(syn);
    REQUIRE(s.state(j, 0) == part_state_t::queued);
    CHECK(s.attempts(j, 0) == 0);
    CHECK(s.reserved(syn) == 0);
  }
  node_id_t syn = s.add_node(synth_node("synth-x", 1, 100));
  REQUIRE(s.schedule().size() == 1);
  s.failed(j, 0, "bad witness", failure_t::synth_failed);
  CHECK(s.state(j, 0) == part_state_t::queued);
  CHECK(s.attempts(j, 0) == 1);
  REQUIRE(s.schedule().size() == 1);
  s.failed(j, 0, "bad witness", failure_t::synth_failed);
  CHECK(s.state(j, 0) == part_state_t::failed);
  CHECK(s.reserved(syn) == 0);
}

TEST_CASE("a partition that takes every node down with it fails after max_losses") {
  scheduler_policy_t s({false, 1}, 3);
  s.add_circuit({"c", 10, 0});
  s.add_node(prover_node("p", 100));
  job_id_t j = s.submit("c", priority_t::normal, 1).value();
  for (unsigned i = 0; i < scheduler_policy_t::max_losses; ++i) {
    node_id_t syn = s.add_node(synth_node("synth-" + std::to_string(i), 1, 100));
    REQUIRE(s.schedule().size() == 1);
    s.remove_node(syn, "node synth-" + std::to_string(i) + " left the cluster");
  }
  CHECK(s.state(j, 0) == part_state_t::failed);
  CHECK(s.status(j).error.find("left the cluster (the 20th node lost") != std::string::npos);
}

TEST_CASE("a job no live node can hold says why, and fail_queued ends it") {
  scheduler_policy_t s({false, 1});
  s.add_circuit({"c", 10, 0});
  job_id_t j = s.submit("c", priority_t::normal, 2).value();
  CHECK(s.waiting_reason(j) == "no synthesis node and no prover is in the cluster");
  node_id_t syn = s.add_node(synth_node("s", 1, 100));
  CHECK(s.waiting_reason(j) == "no prover is in the cluster");
  node_id_t prv = s.add_node(prover_node("p", 100));
  CHECK_FALSE(s.waiting_reason(j));
  REQUIRE(s.schedule().size() == 1);  // one core: the second partition waits for it, not a node
  CHECK_FALSE(s.waiting_reason(j));
  s.remove_node(prv);
  CHECK(s.waiting_reason(j) == "no prover is in the cluster");
  CHECK(s.fail_queued(j, "no prover joined within 10m"));
  CHECK(s.status(j).finished());
  CHECK(s.status(j).error == "no prover joined within 10m");
  CHECK(s.status(j).failure == failure_t::placement_timeout);
  CHECK(s.reserved(syn) == 0);
  CHECK_FALSE(s.fail_queued(j, "again"));
}

TEST_CASE("a journaled job is restored under its id with its proofs and attempts, ids go on") {
  scheduler_policy_t s({false, 1}, 3);
  s.add_circuit({"c", 10, 0});
  CHECK(s.restore(41, "c", priority_t::high, 3, {true, false, false}, {0, 2, 0}, "open", ""));
  CHECK(s.restore(7, "c", priority_t::normal, 1, {true}, {0}, "done", ""));
  CHECK(s.restore(9, "c", priority_t::normal, 2, {false, false}, {3, 0}, "failed", "bad witness"));
  CHECK(s.restore(10, "c", priority_t::normal, 1, {false}, {0}, "cancelled", ""));
  CHECK_FALSE(s.restore(41, "c", priority_t::high, 1, {}, {}, "open", ""));     // id taken
  CHECK_FALSE(s.restore(50, "gone", priority_t::high, 1, {}, {}, "open", ""));  // no circuit
  CHECK(s.state(41, 0) == part_state_t::done);
  CHECK(s.state(41, 1) == part_state_t::queued);
  CHECK(s.attempts(41, 1) == 2);
  CHECK(s.status(41).done == 1);
  CHECK_FALSE(s.status(41).finished());
  CHECK(s.status(7).finished());
  CHECK(s.status(9).failed == 2);
  CHECK(s.status(9).error == "bad witness");
  CHECK(s.status(10).cancelled);
  s.reserve_ids(100);
  CHECK(s.submit("c", priority_t::normal, 1).value() == 100);
  s.add_node(synth_node("s", 4, 1000));
  s.add_node(prover_node("p", 1000));
  auto d = s.schedule();  // only the open job's queued partitions
  REQUIRE(d.size() >= 1);
  CHECK(d[0].job == 41);
  CHECK(d[0].partition == 1);
  // One more failure of partition 1 is its third: the job fails.
  s.failed(41, 1, "bad witness", failure_t::synth_failed);
  CHECK(s.state(41, 1) == part_state_t::failed);
}

TEST_CASE("a buffer its prover could not take is held on its synthesis node and sent from there") {
  scheduler_policy_t s({false, 2}, 2);
  s.add_circuit({"c", 10, 5});
  const node_id_t syn1 = s.add_node(synth_node("s1", 1, 100));
  const node_id_t syn2 = s.add_node(synth_node("s2", 1, 100));
  const node_id_t bad = s.add_node(prover_node("bad", 100, {"c"}));  // hot: preferred
  const node_id_t good = s.add_node(prover_node("good", 100));
  job_id_t j = s.submit("c", priority_t::normal, 1).value();
  auto d = s.schedule();
  REQUIRE(d.size() == 1);
  CHECK(d[0].prover == bad);
  const node_id_t holder = d[0].synth;
  s.synth_done(j, 0, 0.1);
  // The send failed, the buffer kept: queued, held (still reserved) on its node, no attempt spent.
  CHECK(s.send_failed(j, 0, "send_failed: connection refused", true));
  CHECK(s.state(j, 0) == part_state_t::queued);
  CHECK(s.held_on(j, 0) == holder);
  CHECK(s.attempts(j, 0) == 0);
  CHECK(s.reserved(holder) == 10);
  CHECK(s.reserved(bad) == 0);
  // Paused, the failing prover takes nothing new; the partition goes back to its holder, whose
  // reservation carries over (10 bytes, not 20), even with its core free or not.
  s.pause(bad, true);
  d = s.schedule();
  REQUIRE(d.size() == 1);
  CHECK(d[0].synth == holder);
  CHECK(d[0].prover == good);
  CHECK(s.held_on(j, 0) == 0);
  CHECK(s.reserved(holder) == 10);
  s.synth_done(j, 0, 0.1);
  s.transfer_done(j, 0, 0.1);
  CHECK(s.reserved(holder) == 0);
  s.prove_started(j, 0);
  s.prove_done(j, 0, 0.2);
  CHECK(s.status(j).done == 1);
  CHECK(s.reserved(good) == 0);
  s.pause(bad, false);

  // Held buffers go with their node, their job's cancel, or unhold; a job holding one is not
  // forgotten.
  job_id_t k = s.submit("c", priority_t::normal, 3).value();
  CHECK(s.hold(k, 0, syn1));
  CHECK(s.hold(k, 1, syn2));
  CHECK_FALSE(s.hold(k, 1, syn1));  // held already
  CHECK_FALSE(s.hold(k, 5, syn1));  // no such partition
  CHECK_FALSE(s.hold(k, 2, good));  // not a synthesis node
  CHECK(s.reserved(syn1) == 10);
  s.remove_node(syn1);
  CHECK(s.held_on(k, 0) == 0);
  CHECK(s.reserved(syn1) == 0);
  CHECK(s.unhold(k, 1));
  CHECK_FALSE(s.unhold(k, 1));
  CHECK(s.reserved(syn2) == 0);
  CHECK(s.hold(k, 2, syn2));
  CHECK(s.cancel(k));
  CHECK(s.reserved(syn2) == 0);
  CHECK(s.forget(k));
  // Not kept (the buffer is gone): queued again, nothing held, still no attempt spent.
  job_id_t m = s.submit("c", priority_t::normal, 1).value();
  d = s.schedule();
  REQUIRE(d.size() == 1);
  CHECK(s.send_failed(m, 0, "send_failed: the buffer is gone", false));
  CHECK(s.held_on(m, 0) == 0);
  CHECK(s.attempts(m, 0) == 0);
  CHECK(s.reserved(d[0].synth) == 0);
  CHECK_FALSE(s.send_failed(m, 0, "again", true));  // not in flight
}

TEST_CASE("a job no live node could ever hold is refused at submit, and never blocks the others") {
  scheduler_policy_t s({false, 1});
  s.add_circuit({"big", 300, 0});
  s.add_circuit({"work", 10, 500});  // small buffer, large prover work area
  s.add_circuit({"small", 10, 0});
  // Before any node joined nothing is known: accepted, it waits for nodes.
  job_id_t early = s.submit("big", priority_t::critical, 1).value();
  node_id_t syn = s.add_node(synth_node("synth-1", 1, 100));
  node_id_t prv = s.add_node(prover_node("gpu-1", 400));
  CHECK(s.submit("big", priority_t::normal, 1).error() ==
        "circuit 'big': a partition's 300 B buffer fits no synthesis node (the largest "
        "memory_budget is synth-1's 100 B)");
  CHECK(s.submit("work", priority_t::normal, 1).error() ==
        "circuit 'work': a partition's buffer + work area, 510 B, fits no prover (the largest "
        "memory_budget is "
        "gpu-1's 400 B)");
  // The early job (critical, first in the order) no longer blocks a small one behind it.
  job_id_t small = s.submit("small", priority_t::low, 1).value();
  auto d = s.schedule();
  REQUIRE(d.size() == 1);
  CHECK(d[0].job == small);
  CHECK(s.state(early, 0) == part_state_t::queued);
  // A synthesis node big enough joins: the early job runs there.
  node_id_t syn2 = s.add_node(synth_node("synth-2", 1, 1000));
  d = s.schedule();
  REQUIRE(d.size() == 1);
  CHECK(d[0].job == early);
  CHECK(d[0].synth == syn2);
  CHECK(d[0].prover == prv);
  CHECK(s.reserved(syn) == 10);  // the small job's buffer
  // The big node away (restarting): its jobs are still accepted, and wait for it.
  s.remove_node(syn2);
  job_id_t later = s.submit("big", priority_t::normal, 1).value();
  CHECK(s.schedule().empty());
  CHECK(s.state(later, 0) == part_state_t::queued);
}

TEST_CASE("auto lookahead follows measured synthesis, transfer and prove times") {
  scheduler_policy_t s({true, 1, 8});
  s.add_circuit({"c", 1, 0});
  s.add_node(synth_node("s", 8, 1000));
  node_id_t p = s.add_node(prover_node("p", 1000));
  CHECK(s.lookahead(p) == 1);  // nothing measured yet
  job_id_t j = s.submit("c", priority_t::normal, 1).value();
  s.schedule();
  s.synth_done(j, 0, 3.0);
  s.transfer_done(j, 0, 0.5);
  s.prove_started(j, 0);
  s.prove_done(j, 0, 1.0);
  CHECK(s.lookahead(p) == 4);  // ceil((3 + 0.5) / 1)
}

TEST_CASE("SIMULATED: lookahead keeps the prover busy, lookahead is never exceeded") {
  // Synthesis 1 s on 2 cores, proving 1 s: with lookahead 0 synthesis and proving alternate.
  auto r0 = run_simulation(farm(1, 2, 1.0, 1.0, 10000, 0));
  auto r1 = run_simulation(farm(1, 2, 1.0, 1.0, 10000, 1));
  auto r2 = run_simulation(farm(1, 2, 1.0, 1.0, 10000, 2));
  for (auto* r : {&r0, &r1, &r2}) {
    CHECK(r->proofs == 12);
    CHECK(r->max_pipeline_over_lookahead == 0);
    CHECK_FALSE(r->budget_exceeded);
  }
  CHECK(prover_busy(r0) < 0.6);
  CHECK(prover_busy(r1) >= 0.90);
  CHECK(prover_busy(r2) >= 0.90);
  CHECK(r1.makespan_s < r0.makespan_s * 0.7);
}

TEST_CASE(
    "SIMULATED: jitter draws from the seed: the same seed gives the same run, another seed "
    "another") {
  auto with = [](double jitter, uint64_t seed) {
    sim_config_t c = farm(1, 2, 1.0, 1.0, 10000, 1);
    c.jitter = jitter;
    c.seed = seed;
    return run_simulation(c);
  };
  const auto exact = with(0, 1), exact2 = with(0, 2), a = with(0.3, 1), a2 = with(0.3, 1),
             b = with(0.3, 2);
  CHECK(exact.makespan_s == exact2.makespan_s);  // no jitter: the seed does nothing
  CHECK(a.makespan_s == a2.makespan_s);
  CHECK(a.makespan_s != b.makespan_s);
  CHECK(a.makespan_s != exact.makespan_s);
  for (const auto* r : {&a, &b}) {
    CHECK(r->proofs == 12);
    CHECK_FALSE(r->budget_exceeded);
    CHECK(r->max_pipeline_over_lookahead == 0);
    // 12 partitions of 0.7–1.3 s proving, one prover: the makespan stays within those bounds
    CHECK(r->makespan_s > 12 * 0.7);
    CHECK(r->makespan_s < 12 * 1.3 + 1.3 + 1.0);
  }
  sim_config_t bad = farm(1, 2, 1.0, 1.0, 10000, 1);
  bad.jitter = 1.0;
  CHECK_THROWS_WITH_AS(run_simulation(bad), doctest::Contains("jitter"), std::invalid_argument);
}

TEST_CASE("SIMULATED: 200 nodes under a burst of jobs never exceed a budget") {
  sim_config_t c;
  c.lookahead.value = 2;
  c.circuits.push_back({{"small", 40 * MiB, 20 * MiB}, 2.0, 0.5});
  c.circuits.push_back({{"large", 300 * MiB, 100 * MiB}, 8.0, 2.0});
  // 40 synthesis nodes whose budgets hold two large buffers at most, 160 provers wanting up to
  // lookahead + 1 partitions each: the synthesis budgets are what binds.
  for (int i = 0; i < 40; ++i)
    c.nodes.push_back({synth_node("s" + std::to_string(i), 4, 650 * MiB), 500.0 * MiB});
  for (int i = 0; i < 160; ++i)
    c.nodes.push_back(
        {prover_node("g" + std::to_string(i), 900 * MiB, {i % 2 ? "small" : "large"}), 1e12});
  std::mt19937 rng(7);
  for (int j = 0; j < 300; ++j)
    c.jobs.push_back({double(rng() % 100) / 10.0, j % 3 ? "small" : "large", priority_t(rng() % 4),
                      uint32_t(1 + rng() % 10)});
  auto r = run_simulation(c);
  CHECK_FALSE(r.budget_exceeded);
  CHECK(r.max_pipeline_over_lookahead == 0);
  for (size_t i = 0; i < c.nodes.size(); ++i)
    CHECK(r.peak_reserved[i] <= c.nodes[i].spec.memory_budget);
  size_t done = 0;
  for (const auto& j : r.jobs) done += j.done == j.partitions;
  CHECK(done == c.jobs.size());
  uint64_t synth_peak = 0;
  for (size_t i = 0; i < 40; ++i) synth_peak = std::max(synth_peak, r.peak_reserved[i]);
  CHECK(synth_peak > 300 * MiB);  // the budgets were under pressure
}

TEST_CASE("SIMULATED: two synthesis nodes feed one prover ~2x faster when synthesis bounds") {
  // 2 cores × 4 s synthesis per node against a 0.5 s prover: synthesis-bound with one node or two.
  auto one = run_simulation(farm(1, 2, 4.0, 0.5, 10000, 8, 48));
  auto two = run_simulation(farm(2, 2, 4.0, 0.5, 10000, 8, 48));
  MESSAGE("simulated throughput: 1 synth node " << one.proofs_per_minute << "/min, 2 nodes "
                                                << two.proofs_per_minute << "/min");
  CHECK(two.proofs_per_minute >= 1.8 * one.proofs_per_minute);
}

TEST_CASE("SIMULATED: cancelling a job mid-way frees it, the others finish") {
  auto c = farm(1, 2, 1.0, 1.0, 10000, 1, 6);
  c.jobs.push_back({0.5, "porep", priority_t::high, 6, 2.5});
  auto r = run_simulation(c);
  REQUIRE(r.jobs.size() == 2);
  CHECK(r.jobs[0].done == 6);
  CHECK(r.jobs[1].cancelled);
  CHECK(r.jobs[1].done < 6);
  CHECK_FALSE(r.budget_exceeded);
}

TEST_CASE("SIMULATED: the stats name the bound of three scripted farms") {
  auto name = [](const sim_result_t& r) {
    return zk::timeline::compute_stats(r.timeline.events(), r.timeline.names()).bottleneck;
  };
  // synthesis 6 s on 1 core vs proving 1 s: synthesis-bound
  CHECK(name(run_simulation(farm(1, 1, 6.0, 1.0, 10000, 2))) == "synthesis");
  // synthesis 1 s on 4 cores vs proving 3 s: prover-bound
  CHECK(name(run_simulation(farm(1, 4, 1.0, 3.0, 10000, 2))) == "prover");
  // 64 MiB buffers over 16 MiB/s (4 s) vs synthesis 1 s on 4 cores, proving 1 s: transfer-bound
  CHECK(name(run_simulation(farm(1, 4, 1.0, 1.0, 16, 4))) == "transfer");
  // balanced stages but lookahead 0: nothing saturated, the prover waits — pipeline-bound
  CHECK(name(run_simulation(farm(1, 2, 1.0, 1.0, 10000, 0))) == "pipeline");
}
