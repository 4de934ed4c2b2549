// zk/filecoin/porep/circuit/circuit: the counts Filecoin's own tests assert, a sealed 2 KiB
// partition through prove mode (satisfied, its inputs the derived public inputs, parallel =
// sequential, the shape's matrices evaluated on its witness give its a, b, c), and refusals. The
// constraint-by-constraint comparison with Filecoin's own circuit is tests/filecoin/circuit_ref.sh.
#include "zk/filecoin/porep/circuit/circuit.hpp"

#include <doctest/doctest.h>

#include <string>

#include "zk/filecoin/api/c1.hpp"
#include "zk/filecoin/api/c2.hpp"
#include "zk/filecoin/api/registry.hpp"
#include "zk/filecoin/api/seal.hpp"
#include "zk/filecoin/core/fr32.hpp"
#include "zk/filecoin/porep/circuit/public_inputs.hpp"
#include "zk/filecoin/porep/vanilla/graph.hpp"

using namespace zk::filecoin;
using namespace zk::bellperson;
using namespace zk::neptune;
using zk::bellperson::counts_t;

namespace {

struct sealed_t {
  seal_request_t req;
  seal_result_t res;
};

const sealed_t& sealed_2k() {
  static const sealed_t s = [] {
    sealed_t s;
    s.req.config = porep_config(registered_proof("StackedDrg2KiBV1_1"));
    s.req.prover_id.fill(0x11);
    s.req.sector = 42;
    s.req.ticket.fill(0x22);
    s.req.seed.fill(0x33);
    s.req.piece = random_piece(9, fr32_unpadded_size(s.req.config.sector_size));
    s.res = seal_sector(s.req);
    return s;
  }();
  return s;
}

partition_witness_t witness_2k() {
  const sealed_t& s = sealed_2k();
  return witness_from_vanilla({s.res.replica_id, s.res.comm_d, s.res.comm_r, s.req.seed},
                              s.res.vanilla_proofs.at(0));
}

}  // namespace

// storage-proofs-porep 19.1.0 tests/stacked_circuit.rs: 22 inputs and these constraints.
TEST_CASE("circuit: the four configurations of stacked_circuit.rs count as the Rust tests assert") {
  const struct {
    tree_shape_t shape;
    uint32_t constraints;
  } cases[] = {
      {{2, 0, 0}, 1206212}, {{8, 0, 0}, 1199620}, {{8, 4, 0}, 1296576}, {{8, 4, 2}, 1346982}};
  for (const auto& k : cases) {
    const circuit_config_t c = test_circuit_config(k.shape);
    INFO(c.key());
    const auto& L = circuit_layout(c);
    CHECK(L.total.inputs == 22);
    CHECK(L.total.constraints == k.constraints);
    // Shape mode counts the same (and records the circuit).
    const auto s = circuit_shape(c, false);
    CHECK(s->counts == L.total);
  }
}

// Measured with Filecoin's own code (tests/filecoin-ref count --registered-proof NAME): 2 KiB
// 40 inputs, 2,685,673 aux, 2,687,921 constraints; 8 MiB 40, 3,842,449, 3,844,929. The densities
// are those of the reference's 2 KiB .params (a: 2,674,948 points = 40 inputs + A-dense aux;
// b_g1 = b_g2: 685,522 points = 1 input + 685,521 aux).
TEST_CASE("circuit: 2 KiB and 8 MiB counts and the 2 KiB densities") {
  const auto c2 = circuit_config(porep_config(registered_proof("StackedDrg2KiBV1_1")));
  CHECK(c2.key() == "nodes=64,layers=2,challenges=2,tree=8");
  CHECK(circuit_layout(c2).total == counts_t{40, 2685673, 2687921});
  const auto s = circuit_shape(c2, false);
  CHECK(s->counts == counts_t{40, 2685673, 2687921});
  CHECK(s->prover_constraints() == 2687961);
  CHECK(s->domain_size() == 4194304);
  CHECK(s->terms == 14934653);
  CHECK(s->a_aux.count() + s->counts.inputs == 2674948);
  CHECK(s->b_input.count() + s->b_aux.count() == 685522);
  CHECK(s->a_aux.size() == s->counts.aux);
  CHECK(s->b_input.size() == s->counts.inputs);
  const auto c8 = circuit_config(porep_config(registered_proof("StackedDrg8MiBV1_1")));
  CHECK(circuit_layout(c8).total == counts_t{40, 3842449, 3844929});
  // The V1 and V1_1 circuits of a size are one circuit (as in Filecoin: one .params file).
  CHECK(circuit_config(porep_config(registered_proof("StackedDrg2KiBV1"))) == c2);
}

TEST_CASE("circuit: the cached shape (one challenge repeated) is the full synthesis's") {
  for (const circuit_config_t& c :
       {circuit_config(porep_config(registered_proof("StackedDrg2KiBV1_1"))),
        test_circuit_config({8, 4, 2})}) {
    INFO(c.key());
    zk::bellperson::shape_cs_t cs(true);
    synthesize_circuit(cs, c, blank_witness(c));
    const zk::bellperson::r1cs_shape_t full = cs.finish();
    const auto fast = circuit_shape(c, true);
    CHECK(fast->counts == full.counts);
    CHECK(fast->digest == full.digest);
    CHECK(fast->terms == full.terms);
    CHECK(fast->coeffs == full.coeffs);
    CHECK(fast->a.row_ptr == full.a.row_ptr);
    CHECK(fast->a.var == full.a.var);
    CHECK(fast->b.var == full.b.var);
    CHECK(fast->c.var == full.c.var);
    CHECK(fast->c.coeff == full.c.coeff);
    CHECK(fast->a_aux.words() == full.a_aux.words());
    CHECK(fast->b_aux.words() == full.b_aux.words());
    CHECK(fast->b_input.words() == full.b_input.words());
    REQUIRE(fast->regions.size() == full.regions.size());
    for (size_t i = 0; i < full.regions.size(); ++i) {
      CHECK(fast->regions[i].name == full.regions[i].name);
      CHECK(fast->regions[i].start == full.regions[i].start);
    }
  }
}

TEST_CASE(
    "circuit: a sealed 2 KiB partition satisfies the circuit with the derived public inputs") {
  const sealed_t& s = sealed_2k();
  const circuit_config_t c = circuit_config(s.req.config);
  const partition_witness_t w = witness_2k();
  partition_assignment_t a = synthesize_partition(c, w, true);
  const auto v = a.view();
  const auto bad = first_unsatisfied(c, v);
  CHECK_MESSAGE(!bad, (bad ? bad->where : std::string()));

  // The public inputs are StackedCompound::generate_public_inputs
  // (zk/filecoin/porep/vanilla/challenges).
  sector_ids_t ids;
  ids.prover_id = s.req.prover_id;
  ids.sector = s.req.sector;
  ids.ticket = s.req.ticket;
  ids.seed = s.req.seed;
  ids.comm_d = s.res.comm_d;
  ids.comm_r = s.res.comm_r;
  const partition_inputs_t pi = partition_inputs(s.req.config, graph_t(s.req.config), ids, 0);
  REQUIRE(a.inputs.size() == pi.inputs.size() + 1);
  CHECK(a.inputs[0] == fr_t::one());
  for (size_t i = 0; i < pi.inputs.size(); ++i) {
    INFO("input " << i + 1);
    CHECK(a.inputs[i + 1] == pi.inputs[i]);
  }

  // Challenges synthesized one after another give the same arrays.
  const partition_assignment_t seq = synthesize_partition(c, w, false);
  CHECK(seq.inputs == a.inputs);
  CHECK(seq.aux == a.aux);
  CHECK(seq.a == a.a);
  CHECK(seq.b == a.b);
  CHECK(seq.c == a.c);

  // The recorded matrices, evaluated on the witness, give prove mode's a, b, c (prove mode keeps
  // no terms: this ties its values to the shape that was compared with Filecoin's).
  const auto shape = circuit_shape(c, true);
  REQUIRE(shape->counts == a.counts);
  uint64_t mismatches = 0;
  for (uint64_t i = 0; i < shape->counts.constraints; ++i) {
    const auto ea = zk::bellperson::eval_row(*shape, shape->a, i, a.inputs.data(), a.aux.data());
    const auto eb = zk::bellperson::eval_row(*shape, shape->b, i, a.inputs.data(), a.aux.data());
    const auto ec = zk::bellperson::eval_row(*shape, shape->c, i, a.inputs.data(), a.aux.data());
    if (ea != a.a[i] || eb != a.b[i] || ec != a.c[i]) {
      if (mismatches++ == 0)
        FAIL_CHECK("constraint " << i << " (" << shape->region_of_constraint(i) << ")");
    }
  }
  CHECK(mismatches == 0);
  // The input constraints: A = input i, B = C = 0.
  for (uint32_t i = 0; i < a.counts.inputs; ++i) {
    CHECK(a.a[a.counts.constraints + i] == a.inputs[i]);
    CHECK(a.b[a.counts.constraints + i].is_zero());
    CHECK(a.c[a.counts.constraints + i].is_zero());
  }
}

TEST_CASE("circuit: a partition straight from a C1 (its JSON written and read back)") {
  const sealed_t& s = sealed_2k();
  const c1_output_t c1 = c1_of(s.req, s.res);
  const c1_output_t back = parse_c1(write_c1_json(c1), "c1.json").c1;
  partition_assignment_t a = synthesize_partition(back, 0);
  CHECK(!first_unsatisfied(circuit_config(s.req.config), a.view()));
  CHECK(a.aux == synthesize_partition(circuit_config(s.req.config), witness_2k()).aux);
  CHECK_THROWS_WITH_AS(synthesize_partition(back, 1), "C1: partition 1 of 1",
                       std::invalid_argument);
}

TEST_CASE("circuit: a tampered witness fails at the constraint that checks it, named") {
  const sealed_t& s = sealed_2k();
  const circuit_config_t c = circuit_config(s.req.config);
  {
    partition_witness_t w = witness_2k();
    w.challenges[1].exp_parents[3].rows[0] += fr_t::one();  // a parent label of layer 1
    partition_assignment_t a = synthesize_partition(c, w);
    const auto bad = first_unsatisfied(c, a.view());
    REQUIRE(bad);
    CHECK(bad->where == "challenge 1: expander parent 3: column, hash, inclusion in tree C");
  }
  {
    partition_witness_t w = witness_2k();
    w.challenges[0].data_leaf += fr_t::one();
    partition_assignment_t a = synthesize_partition(c, w);
    const auto bad = first_unsatisfied(c, a.view());
    REQUIRE(bad);
    CHECK(bad->where == "challenge 0: data leaf, inclusion in tree D");
  }
  {
    partition_witness_t w = witness_2k();
    w.comm_r += fr_t::one();
    partition_assignment_t a = synthesize_partition(c, w);
    const auto bad = first_unsatisfied(c, a.view());
    REQUIRE(bad);
    CHECK(bad->where == "replica_id, comm_d, comm_r, comm_r = H(comm_c, comm_r_last)");
  }
}

TEST_CASE("circuit: witness-only synthesis writes the same witness and finds the same failure") {
  const sealed_t& s = sealed_2k();
  const circuit_config_t c = circuit_config(s.req.config);
  const counts_t total = circuit_layout(c).total;
  auto witness_only = [&](const partition_witness_t& w, bool check) {
    partition_assignment_t a;
    a.inputs.assign(total.inputs, fr_t{});
    a.aux.assign(total.aux, fr_t{});
    const auto bad = synthesize_partition_witness(c, w, a.inputs.data(), a.aux.data(), check);
    return std::make_pair(std::move(a), bad);
  };
  const partition_assignment_t full = synthesize_partition(c, witness_2k());
  const auto [a, bad] = witness_only(witness_2k(), true);
  CHECK(!bad);
  CHECK(a.inputs == full.inputs);
  CHECK(a.aux == full.aux);
  // Tampered in the shared part, in challenge 0 and in challenge 1: the constraint the full
  // synthesis's first_unsatisfied names, by index and place; unchecked, no failure reported.
  for (int what = 0; what < 3; ++what) {
    CAPTURE(what);
    partition_witness_t w = witness_2k();
    if (what == 0) w.comm_r += fr_t::one();
    if (what == 1) w.challenges[0].data_leaf += fr_t::one();
    if (what == 2) w.challenges[1].exp_parents[3].rows[0] += fr_t::one();
    partition_assignment_t f = synthesize_partition(c, w);
    const auto want = first_unsatisfied(c, f.view());
    REQUIRE(want);
    const auto got = witness_only(w, true).second;
    REQUIRE(got);
    CHECK(got->constraint == want->constraint);
    CHECK(got->where == want->where);
    CHECK(!witness_only(w, false).second);
  }
}

TEST_CASE("circuit: witnesses and arrays that do not fit are refused by name") {
  const sealed_t& s = sealed_2k();
  const circuit_config_t c = circuit_config(s.req.config);
  {
    partition_witness_t w = witness_2k();
    w.challenges.pop_back();
    CHECK_THROWS_WITH_AS(check_witness(c, w), "witness: 1 challenges, the circuit takes 2",
                         std::invalid_argument);
  }
  {
    partition_witness_t w = witness_2k();
    w.challenges[1].drg_parents[2].path[1].index = 8;
    CHECK_THROWS_WITH_AS(
        check_witness(c, w),
        "witness: challenge 1: DRG parent 2 inclusion path: path element 1 has index 8 ≥ arity 8",
        std::invalid_argument);
  }
  {
    partition_witness_t w = witness_2k();
    w.challenges[0].comm_d_path.pop_back();
    CHECK_THROWS_WITH_AS(
        check_witness(c, w),
        "witness: challenge 0: tree D path: 5 path elements, the tree has 6 levels",
        std::invalid_argument);
  }
  {
    partition_witness_t w = witness_2k();
    w.challenges[0].exp_parents[7].rows.push_back(fr_t{});
    CHECK_THROWS_WITH_AS(check_witness(c, w),
                         "witness: challenge 0: expander parent 7: column of 3 rows, expected 2 "
                         "(the layers)",
                         std::invalid_argument);
  }
  {
    partition_assignment_t a;
    a.counts = circuit_layout(c).total;
    a.counts.aux -= 1;
    CHECK_THROWS_AS(synthesize_partition(c, witness_2k(), a.view()), std::length_error);
  }
  {
    vanilla_partitions_t p = sealed_2k().res.vanilla_proofs;
    p[0][1].comm_d_proofs.leaf.fill(0xff);  // not below r
    CHECK_THROWS_WITH_AS(
        witness_from_vanilla({s.res.replica_id, s.res.comm_d, s.res.comm_r, s.req.seed}, p[0]),
        "witness: challenge 1: data leaf is not a canonical field element "
        "(ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff)",
        std::invalid_argument);
  }
  CHECK_THROWS_AS(test_circuit_config({8, 3, 0}), std::invalid_argument);
  CHECK_THROWS_AS(
      circuit_config(porep_config(registered_proof("StackedDrg2KiBV1_2_Feat_NonInteractivePoRep"))),
      std::invalid_argument);
}
