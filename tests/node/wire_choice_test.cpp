// `wire: auto` (node/scheduler/wire_choice.hpp): the rule on its own at a 32 GiB partition's sizes
// (docs/filecoin.md "Budgets at 32 GiB": 86,924,436 bytes packed, 16,672,218,624 full), and the
// policy choosing per partition, reserving the chosen wire's bytes, and following what it measures.
#include <doctest/doctest.h>

#include "node/scheduler/policy.hpp"

using namespace zk::node;
using zk::config::wire_t;

namespace {

constexpr uint64_t MiB = 1 << 20, GiB = MiB << 10;
constexpr double GbE10 = 1.25e9, GbE100 = 12.5e9;

// A 32 GiB PoRep partition: what crosses on each wire (the buffers, work areas: the figures of
// `zkfleet filecoin budget --registered-proof StackedDrg32GiBV1_1`, rounded).
wire_inputs_t at_32g(double link, double rebuild_s) {
  wire_inputs_t in;
  in.packed = {128 * MiB, 20 * GiB, 86'924'436};
  in.full = {16 * GiB, 16 * GiB, 16'672'218'624};
  in.link_bytes_per_s = link;
  in.rebuild_s = rebuild_s;
  in.synth_packed_s = in.synth_full_s = 300;
  return in;
}

node_spec_t node(const std::string& name, bool synth, uint64_t budget) {
  node_spec_t n;
  n.name = name;
  n.synth = synth;
  n.prover = !synth;
  n.cores = 2;
  n.memory_budget = budget;
  if (!synth) n.hot_keys = {"fc"};
  return n;
}

// A circuit on `wire: auto`: 1 MiB packed, 1 GiB full; its rebuild estimated at 0.1 s.
circuit_spec_t auto_circuit() {
  circuit_spec_t c{"fc", MiB, 64 * MiB, true};
  c.wire_auto = true;
  c.packed = {MiB, 64 * MiB, MiB};
  c.full = {GiB, 32 * MiB, GiB};
  c.rebuild_prior_s = 0.1;
  return c;
}

}  // namespace

TEST_CASE("wire choice: a fast link and a slow rebuild → full, and 10 GbE at 32 GiB → packed") {
  // 100 GbE: 16.7 GB cross in 1.3 s, sooner than a 6 s rebuild.
  wire_choice_t c = choose_wire(at_32g(GbE100, 6));
  CHECK(c.wire == wire_t::full);
  CHECK_FALSE(c.explored);
  CHECK(c.reason.find("full sooner") == 0);
  // 10 GbE: 13.3 s on the wire against 0.07 s + a 5 s rebuild.
  c = choose_wire(at_32g(GbE10, 5));
  CHECK(c.wire == wire_t::packed);
  CHECK(c.reason.find("packed") == 0);
  CHECK(c.reason.find("link 1.25 GB/s prior") != std::string::npos);
  // The same 100 GbE link with a rebuild of 1 s: packed again.
  CHECK(choose_wire(at_32g(GbE100, 1)).wire == wire_t::packed);
}

TEST_CASE("wire choice: the circuit's link_per_s is the link before one is measured") {
  const wire_size_t packed{128 * MiB, 20 * GiB, 86'924'436},
      full{16 * GiB, 16 * GiB, 16'672'218'624};
  wire_figures_t f;
  // The 10 GbE prior: packed at 32 GiB; a 100 GbE link_per_s: full (1.3 s against a 6 s rebuild).
  CHECK(choose_wire(wire_inputs(f, packed, full, 1, 6, true)).wire == wire_t::packed);
  const wire_inputs_t in = wire_inputs(f, packed, full, 1, 6, true, GbE100);
  CHECK(in.link_bytes_per_s == GbE100);
  CHECK_FALSE(in.link_measured);
  CHECK(choose_wire(in).wire == wire_t::full);
  // Once transfers are measured (10 GbE here) they decide, whatever the circuit assumed.
  for (int i = 0; i < 4; ++i) f.crossed_bytes.add(2.5 * GbE10), f.crossed_s.add(2.5);
  const wire_inputs_t measured = wire_inputs(f, packed, full, 1, 6, true, GbE100);
  CHECK(measured.link_measured);
  CHECK(measured.link_bytes_per_s == doctest::Approx(GbE10));
  CHECK(choose_wire(measured).wire == wire_t::packed);
}

TEST_CASE("wire choice: full that fits no budget is never chosen") {
  wire_inputs_t in = at_32g(GbE100 * 10, 60);  // full far sooner, but it does not fit
  in.full_fits = false;
  in.last = wire_t::full;
  in.streak = 1000;
  const wire_choice_t c = choose_wire(in);
  CHECK(c.wire == wire_t::packed);
  CHECK(c.reason.find("fits no budget") != std::string::npos);
}

TEST_CASE("wire choice: hysteresis keeps the wire until the other is sooner by a margin") {
  // full 1.33 s + 300 s synthesis; packed 300.07 s + rebuild: full was the last choice.
  wire_inputs_t in = at_32g(GbE100, 1.33 - 0.07 - 0.1);  // packed 0.1 s sooner: not enough
  in.last = wire_t::full;
  in.streak = 3;
  CHECK(choose_wire(in).wire == wire_t::full);
  CHECK(choose_wire(in).reason.find("kept") != std::string::npos);
  in.synth_packed_s = 100;  // packed's synthesis far quicker: sooner by more than the margin
  CHECK(choose_wire(in).wire == wire_t::packed);
}

TEST_CASE("wire choice: a long run on one wire explores the other, unless it is far slower") {
  wire_inputs_t in = at_32g(GbE10, 5);  // packed sooner: 305 s against 313 s
  in.last = wire_t::packed;
  in.streak = explore_every - 1;
  CHECK(choose_wire(in).wire == wire_t::packed);
  in.streak = explore_every;
  wire_choice_t c = choose_wire(in);
  CHECK(c.wire == wire_t::full);
  CHECK(c.explored);
  CHECK(c.reason.find("to measure it") != std::string::npos);
  // 1 GbE, no synthesis: full takes 133 s on the wire against 5 s: not worth measuring.
  in = at_32g(GbE10 / 10, 5);
  in.synth_packed_s = in.synth_full_s = 0;
  in.streak = explore_every * 4;
  CHECK(choose_wire(in).wire == wire_t::packed);
}

TEST_CASE("wire choice: the policy reserves the chosen wire and learns from what it measures") {
  scheduler_policy_t s({false, 4});
  s.add_circuit(auto_circuit());
  const node_id_t syn = s.add_node(node("s", true, 4 * GiB));
  const node_id_t prv = s.add_node(node("p", false, 8 * GiB));
  const job_id_t j = s.submit("fc", priority_t::normal, 3).value();
  // No measurement: 1 GiB at 10 GbE (0.86 s) is slower than 1 MiB + the 0.1 s estimate.
  auto d = s.schedule();
  REQUIRE(d.size() == 2);  // lookahead 4, but synthesis cores 2
  CHECK(d[0].wire == wire_t::packed);
  CHECK(d[0].wire_reason.find("link 1.25 GB/s prior, rebuild 0.1 s estimated") !=
        std::string::npos);
  CHECK(s.reserved(syn) == 2 * MiB);
  CHECK(s.reserved(prv) == 2 * MiB);
  // Partition 0 measured: 1 MiB crossed in 100 µs (10 GiB/s), its rebuild took 2 s.
  s.synth_done(j, 0, 1.0);
  s.transfer_done(j, 0, 1e-4, MiB);
  s.prove_started(j, 0);
  CHECK(s.reserved(prv) == 2 * MiB + 64 * MiB);
  s.prove_done(j, 0, 3.0, 2.0);
  CHECK(s.reserved(prv) == MiB);
  const wire_figures_t* f = s.wire_figures("fc");
  REQUIRE(f);
  CHECK(f->rebuild_s.n == 1);
  CHECK(f->rebuild_on.at(prv).get(0) == doctest::Approx(2.0));
  // Now 1 GiB crosses in 0.1 s, sooner than a 2 s rebuild: partition 2 goes full, and its
  // synthesis node and prover reserve a full buffer (and the prover its work area).
  d = s.schedule();
  REQUIRE(d.size() == 1);
  CHECK(d[0].partition == 2);
  CHECK(d[0].wire == wire_t::full);
  CHECK(d[0].wire_reason.find("full sooner") == 0);
  CHECK(d[0].wire_reason.find("measured") != std::string::npos);
  CHECK(s.wire_of(j, 2) == wire_t::full);
  CHECK(s.reserved(syn) == MiB + GiB);
  CHECK(s.reserved(prv) == MiB + GiB);
  // Its full synthesis and transfer are measured apart from packed's; all released at the end.
  s.synth_done(j, 2, 4.0);
  CHECK(s.wire_figures("fc")->synth_s[int(wire_t::full)].get(0) == doctest::Approx(4.0));
  for (uint32_t k : {1u, 2u}) {
    if (k == 1) s.synth_done(j, k, 1.0);
    s.transfer_done(j, k, 0.1);
    s.prove_started(j, k);
    s.prove_done(j, k, 3.0, k == 2 ? 0.0 : 2.0);
  }
  CHECK(s.wire_figures("fc")->rebuild_s.n == 2);  // a full partition's build_ab is no rebuild
  CHECK(s.status(j).done == 3);
  CHECK(s.reserved(syn) == 0);
  CHECK(s.reserved(prv) == 0);
}

TEST_CASE("wire choice: full goes packed where no budget holds it, or no room is free now") {
  SUBCASE("the synthesis node's budget cannot hold a full buffer: packed, always") {
    scheduler_policy_t s({false, 4});
    s.add_circuit(auto_circuit());
    s.add_node(node("s", true, 512 * MiB));
    s.add_node(node("p", false, 8 * GiB));
    const job_id_t j = s.submit("fc", priority_t::normal, 1).value();
    (void)j;
    // Measured figures that favour full (see above) cannot make it fit.
    auto d = s.schedule();
    REQUIRE(d.size() == 1);
    s.synth_done(1, 0, 1.0);
    s.transfer_done(1, 0, 1e-4, MiB);
    s.prove_started(1, 0);
    s.prove_done(1, 0, 3.0, 20.0);
    const job_id_t j2 = s.submit("fc", priority_t::normal, 1).value();
    d = s.schedule();
    REQUIRE(d.size() == 1);
    CHECK(d[0].job == j2);
    CHECK(d[0].wire == wire_t::packed);
    CHECK(d[0].wire_reason.find("fits no budget") != std::string::npos);
  }
  SUBCASE("full fits the budget but not beside what is reserved now: packed goes now") {
    scheduler_policy_t s({false, 4});
    circuit_spec_t c = auto_circuit();
    c.rebuild_prior_s = 60;  // full sooner from the first partition
    s.add_circuit(c);
    const node_id_t syn = s.add_node(node("s", true, GiB + 512 * MiB));
    s.add_node(node("p", false, 8 * GiB));
    s.submit("fc", priority_t::normal, 2).value();
    auto d = s.schedule();
    REQUIRE(d.size() == 2);
    CHECK(d[0].wire == wire_t::full);
    CHECK(d[1].wire == wire_t::packed);
    CHECK(d[1].wire_reason.find("packed: no room for a full buffer now") == 0);
    CHECK(s.reserved(syn) == GiB + MiB);
  }
}

TEST_CASE("wire choice: a held buffer goes on its own wire, and a restored job chooses again") {
  scheduler_policy_t s({false, 4});
  circuit_spec_t c = auto_circuit();
  c.rebuild_prior_s = 60;  // full sooner
  s.add_circuit(c);
  const node_id_t syn = s.add_node(node("s", true, 4 * GiB));
  s.add_node(node("p", false, 8 * GiB));
  // A job replayed from the journal: its queued partitions are placed afresh.
  REQUIRE(s.restore(7, "fc", priority_t::normal, 2, {false, false}, {0, 0}, "queued", ""));
  // Partition 1's packed buffer (1 MiB or less) outlived the scheduler on node s.
  REQUIRE(s.hold(7, 1, syn, MiB - 100));
  CHECK(s.reserved(syn) == MiB);
  auto d = s.schedule();
  REQUIRE(d.size() == 2);
  CHECK(d[0].wire == wire_t::full);    // chosen again from the figures
  CHECK(d[1].wire == wire_t::packed);  // the buffer that is there
  CHECK(d[1].synth == syn);
  CHECK(d[1].wire_reason.find("holds") != std::string::npos);
  CHECK(s.reserved(syn) == GiB + MiB);
}

TEST_CASE("wire choice: the measured means follow a change within their window") {
  mean_t m;
  for (int i = 0; i < 1000; ++i) m.add(10);  // a long history at 10 s
  CHECK(m.get(0) == doctest::Approx(10));
  CHECK(m.n <= mean_t::window);
  for (unsigned i = 0; i < mean_t::window; ++i) m.add(1);  // the prover got faster
  CHECK(m.get(0) < 4);                                     // an all-time mean would still say 9.4 s
  CHECK(mean_t{}.get(7) == 7);                             // nothing measured: the prior
}
