// The scheduler policy's operator side: a node that rejoins under its name is one node; a failure
// no retry can fix fails its job at once; draining a node; retrying a failed job; changing a
// queued job's priority.
#include <doctest/doctest.h>

#include "node/scheduler/policy.hpp"

using namespace zk::node;

namespace {

node_spec_t node_of(const std::string& name, bool synth, bool prover, uint64_t budget = 1000) {
  node_spec_t n;
  n.name = name;
  n.synth = synth;
  n.prover = prover;
  n.cores = 2;
  n.memory_budget = budget;
  return n;
}

// Drives every dispatched partition to done.
void finish(scheduler_policy_t& s, const std::vector<dispatch_t>& d) {
  for (const auto& x : d) {
    s.synth_done(x.job, x.partition, 1);
    s.transfer_done(x.job, x.partition, 1);
    s.prove_started(x.job, x.partition);
    s.prove_done(x.job, x.partition, 1);
  }
}

}  // namespace

TEST_CASE("a node that rejoins under its name is the same node: one entry, its id kept") {
  scheduler_policy_t s({false, 1});
  s.add_circuit({"c", 100, 50});
  const node_id_t syn = s.add_node(node_of("synth-1", true, false));
  const node_id_t gpu = s.add_node(node_of("gpu-1", false, true));
  const job_id_t j = s.submit("c", priority_t::normal, 4).value();
  REQUIRE(s.schedule().size() == 2);
  // lost (a SIGSTOP past the node timeout, or a crash), then back: three times
  for (int round = 0; round < 3; ++round) {
    s.remove_node(gpu);
    CHECK_FALSE(s.alive(gpu));
    CHECK(s.reserved(syn) == 0);  // its partitions went back to the queue, freed on both sides
    CHECK(s.add_node(node_of("gpu-1", false, true)) == gpu);
    CHECK(s.alive(gpu));
    CHECK(s.nodes().size() == 2);
    CHECK(s.reserved(gpu) == 0);
    CHECK(s.pipeline(gpu) == 0);
    finish(s, {});
    CHECK(s.schedule().size() == 2);  // the same node takes work again
  }
  CHECK(s.status(j).failed == 0);
  CHECK(s.name(gpu) == "gpu-1");
  // another name is another node
  CHECK(s.add_node(node_of("gpu-2", false, true)) != gpu);
  CHECK(s.nodes().size() == 3);
}

TEST_CASE("a failure no retry can fix fails its job at once, naming why") {
  scheduler_policy_t s({false, 1}, 3);
  s.add_circuit({"c", 100, 50});
  s.add_node(node_of("synth-1", true, false));
  s.add_node(node_of("gpu-1", false, true));
  const job_id_t j = s.submit("c", priority_t::normal, 2).value();
  auto d = s.schedule();
  REQUIRE(d.size() == 2);
  s.failed(j, 0, "bad_input: the witness does not satisfy the circuit (constraint 3 ...)",
           failure_t::bad_input, scheduler_policy_t::retry_t::never);
  CHECK(s.state(j, 0) == part_state_t::failed);
  CHECK(s.status(j).finished());
  CHECK(s.status(j).failure == failure_t::bad_input);
  CHECK(s.status(j).error ==
        "bad_input: the witness does not satisfy the circuit (constraint 3 ...)");
  // a failure that a retry may fix is retried
  const job_id_t k = s.submit("c", priority_t::normal, 1).value();
  auto e = s.schedule();
  REQUIRE(e.size() == 1);
  s.failed(k, 0, "prove_failed: out of memory", failure_t::prove_failed);
  CHECK(s.state(k, 0) == part_state_t::queued);
  CHECK(s.attempts(k, 0) == 1);
}

TEST_CASE("a draining node finishes its work, takes no more, and takes work again undrained") {
  scheduler_policy_t s({false, 4});
  s.add_circuit({"c", 100, 50});
  const node_id_t syn = s.add_node(node_of("synth-1", true, false));
  const node_id_t g1 = s.add_node(node_of("gpu-1", false, true));
  const job_id_t j = s.submit("c", priority_t::normal, 2).value();
  auto d = s.schedule();
  REQUIRE(d.size() == 2);
  CHECK(s.drain(g1, true));
  CHECK(s.draining(g1));
  CHECK_FALSE(s.drained(g1));  // it still holds two partitions
  CHECK_FALSE(s.drain(999, true));
  const job_id_t k = s.submit("c", priority_t::normal, 2).value();
  CHECK(s.schedule().empty());  // no other prover: the new job waits, and says why
  CHECK(s.waiting_reason(k) ==
        "every prover is draining (zkfleet undrain NODE gives one work again)");
  finish(s, d);
  CHECK(s.status(j).done == 2);
  CHECK(s.drained(g1));
  // a second prover takes the work while gpu-1 stays drained
  const node_id_t g2 = s.add_node(node_of("gpu-2", false, true));
  auto e = s.schedule();
  REQUIRE(e.size() == 2);
  for (const auto& x : e) CHECK(x.prover == g2);
  finish(s, e);
  CHECK(s.status(k).done == 2);
  // the drain outlives a rejoin under the same name
  s.remove_node(g1);
  CHECK(s.add_node(node_of("gpu-1", false, true)) == g1);
  CHECK(s.draining(g1));
  CHECK(s.drain(g1, false));
  CHECK_FALSE(s.drained(g1));
  const job_id_t m = s.submit("c", priority_t::normal, 1).value();
  auto f = s.schedule();
  REQUIRE(f.size() == 1);
  CHECK(f[0].job == m);
  CHECK(f[0].prover == g1);  // undrained, idle, first in order: it takes work again
  CHECK(s.reserved(syn) > 0);
}

TEST_CASE("retrying a failed job queues its failed partitions with fresh attempts") {
  scheduler_policy_t s({false, 1}, 2);
  s.add_circuit({"c", 100, 50});
  s.add_node(node_of("synth-1", true, false));
  s.add_node(node_of("gpu-1", false, true));
  const job_id_t j = s.submit("c", priority_t::normal, 2).value();
  for (int i = 0; i < 2; ++i) {
    auto d = s.schedule();
    for (const auto& x : d)
      if (x.partition == 0)
        s.failed(j, 0, "prove_failed: the device fell off the bus", failure_t::prove_failed);
      else
        finish(s, {x});
  }
  REQUIRE(s.status(j).finished());
  REQUIRE(s.status(j).failed == 1);
  CHECK(s.status(j).done == 1);
  auto r = s.retry(j);
  REQUIRE(r.ok());
  CHECK(s.status(j).failed == 0);
  CHECK(s.status(j).error.empty());
  CHECK(s.state(j, 0) == part_state_t::queued);
  CHECK(s.attempts(j, 0) == 0);
  CHECK(s.state(j, 1) == part_state_t::done);  // the finished proof stays
  finish(s, s.schedule());
  CHECK(s.status(j).done == 2);
  // refused: a done job, an unknown one, a cancelled one
  CHECK(s.retry(j).error() == "job 1 is done: only a failed job is retried");
  CHECK(s.retry(77).error() == "unknown job 77");
  const job_id_t k = s.submit("c", priority_t::normal, 1).value();
  s.cancel(k);
  CHECK(s.retry(k).error() == "job 2 was cancelled: submit it again");
}

TEST_CASE("a queued job's new priority orders it from the next round") {
  scheduler_policy_t s({false, 0});
  s.add_circuit({"c", 100, 50});
  s.add_node(node_of("synth-1", true, false, 100));  // one buffer at a time
  s.add_node(node_of("gpu-1", false, true));
  const job_id_t a = s.submit("c", priority_t::normal, 1).value();
  const job_id_t b = s.submit("c", priority_t::low, 1).value();
  const job_id_t c = s.submit("c", priority_t::normal, 1).value();
  auto first = s.schedule();
  REQUIRE(first.size() == 1);
  CHECK(first[0].job == a);
  CHECK(s.set_priority(b, priority_t::critical).ok());
  CHECK(s.status(b).priority == priority_t::critical);
  finish(s, first);
  auto second = s.schedule();
  REQUIRE(second.size() == 1);
  CHECK(second[0].job == b);  // not c, submitted before b was raised
  finish(s, second);
  CHECK(s.set_priority(a, priority_t::high).error() ==
        "job 1 is finished: its priority no longer matters");
  CHECK(s.set_priority(99, priority_t::high).error() == "unknown job 99");
  CHECK(s.status(c).done == 0);
}
