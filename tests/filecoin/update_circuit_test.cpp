// The SnapDeals update's circuit (zk/filecoin/update/circuit.hpp): its counts against the Rust
// code's, its prove mode over the partition Filecoin's own 19.1.0 code proved
// (tests/fixtures/filecoin/snap-2k: vanilla-0.bin and the commitments in golden.txt), and its
// refusals. The constraint-by-constraint comparison with the Rust circuit is
// tests/filecoin/circuit_ref.sh (filecoin/circuit-vs-ref).
#include <doctest/doctest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "zk/base/files.hpp"
#include "zk/base/hex.hpp"
#include "zk/filecoin/api/dev_params.hpp"
#include "zk/filecoin/api/prove_update.hpp"
#include "zk/filecoin/api/registry.hpp"
#include "zk/filecoin/api/verify_update.hpp"
#include "zk/filecoin/update/circuit.hpp"
#include "zk/filecoin/update/public_inputs.hpp"
#include "zk/filecoin/update/vanilla_proof.hpp"
#include "zk/groth16/prove_verified.hpp"

using namespace zk::filecoin;
using zk::bellperson::counts_t;

namespace {

std::string fixture(const std::string& name) {
  return std::string(ZK_SOURCE_DIR) + "/tests/fixtures/filecoin/" + name;
}

// The commitments of tests/fixtures/filecoin/snap-2k/golden.txt (Filecoin's update of the 2 KiB
// sector it sealed there).
update_commitments_t snap_2k_commitments() {
  update_commitments_t c;
  c.comm_r_old = zk::parse_hex32("e5d9578ecfaf9d28827d4c3227dbfd84e5c437f5c4d0db22be7fc647e6107b04",
                                 "comm_r_old");
  c.comm_d_new = zk::parse_hex32("41fdf05a41f856b4db1deaac41209a85337b1d18b2cf6b739c23f091c854e00b",
                                 "comm_d_new");
  c.comm_r_new = zk::parse_hex32("087c88f7c3ebd1f21d5f29b0d4728eaba7fae111bc29e719daed8848d2031121",
                                 "comm_r_new");
  return c;
}

update_config_t config_2k() { return update_config(registered_update_proof("StackedDrg2KiBV1")); }

update_partition_witness_t snap_2k_witness() {
  const update_config_t c = config_2k();
  const auto proofs = read_update_vanilla_file(fixture("snap-2k/vanilla-0.bin"), c);
  return update_witness_from_vanilla(c, 0, snap_2k_commitments(), proofs.at(0));
}

struct expected_counts_t {
  const char* proof;
  uint32_t constraints, aux;  // the whole circuit (aux without ONE)
  uint32_t prefix_constraints, per_challenge;
};

// The Rust circuit's figures: storage-proofs-update 19.1.0 tests/circuit.rs asserts 1,705,039
// constraints at 2 KiB and 81,049,499 for the 32 GiB blank circuit; every row (and the aux
// counts, and the shared part / per-challenge split) is EmptySectorUpdateCircuit::blank
// synthesized into a counting constraint system, as tests/filecoin-ref's `update-count` prints
// them (gadgets.rs's own tests: gen_challenge_bits 568 / 4544 / 5680, apex_por 317,654 at 8
// apex leaves).
const expected_counts_t expected_counts[] = {
    {"StackedDrg2KiBV1", 1'705'039, 1'703'569, 319'169, 138'587},
    {"StackedDrg8MiBV1", 10'007'503, 9'998'039, 5'855'413, 415'209},
    {"StackedDrg512MiBV1", 57'450'479, 57'401'314, 5'950'153, 598'841},
    {"StackedDrg32GiBV1", 81'049'499, 80'978'488, 5'951'289, 873'235},
    {"StackedDrg64GiBV1", 85'006'101, 84'931'220, 5'951'289, 919'242},
};

}  // namespace

TEST_CASE("update circuit: constraint and variable counts equal the Rust circuit's, every size") {
  for (const auto& e : expected_counts) {
    CAPTURE(e.proof);
    const update_config_t c = update_config(registered_update_proof(e.proof));
    const circuit_layout_t& L = update_circuit_layout(c);
    CHECK(L.prefix.constraints == e.prefix_constraints);
    CHECK(L.prefix.inputs == 5);  // ONE and the four public inputs
    CHECK(L.per_challenge.constraints == e.per_challenge);
    CHECK(L.per_challenge.inputs == 0);
    CHECK(L.challenges == c.challenges);
    CHECK(L.total.constraints == e.constraints);
    CHECK(L.total.aux == e.aux);
    CHECK(L.total.inputs == 5);
  }
}

TEST_CASE("update circuit: every size synthesized whole in count mode equals the layout") {
  // 85 M constraints at 64 GiB: ~2 s (count mode keeps nothing).
  for (const auto& e : expected_counts) {
    CAPTURE(e.proof);
    const update_config_t c = update_config(registered_update_proof(e.proof));
    zk::bellperson::count_cs_t cs;
    synthesize_update_circuit(cs, c, update_blank_witness(c));
    CHECK(cs.counts() == update_circuit_layout(c).total);
    CHECK(cs.counts().constraints == e.constraints);
  }
}

TEST_CASE("update circuit: the 2 KiB shape (counts, densities, cached per size)") {
  const update_config_t c = config_2k();
  const auto s = update_circuit_shape(c, true);
  CHECK(s->counts == update_circuit_layout(c).total);
  CHECK(s->prover_constraints() == 1'705'044);
  CHECK(s->domain_size() == (uint64_t(1) << 21));
  CHECK(s->b_input.count() == 1);                          // ONE only: no public input is in a B
  CHECK(update_circuit_shape(c, true).get() == s.get());   // kept
  CHECK(update_circuit_shape(c, false).get() == s.get());  // the one with matrices serves too
  CHECK(s->region_of_constraint(1'705'038) ==
        "challenge 9: the apex leaf, leaf_d_new under it in tree D");
}

namespace {

// The shape synthesized whole, every challenge (what the cached shape's copies must equal).
zk::bellperson::r1cs_shape_t full_shape(const update_config_t& c, bool matrices) {
  zk::bellperson::shape_cs_t cs(matrices);
  synthesize_update_circuit(cs, c, update_blank_witness(c));
  return cs.finish();
}

void check_same_shape(const char* proof, bool matrices) {
  CAPTURE(proof);
  const update_config_t c = update_config(registered_update_proof(proof));
  const auto copied = synthesize_update_shape(c, matrices);
  const auto full = full_shape(c, matrices);
  CHECK(copied.counts == full.counts);
  CHECK(copied.terms == full.terms);
  CHECK(copied.digest_hex() == full.digest_hex());
  CHECK(copied.a_aux.count() == full.a_aux.count());
  CHECK(copied.b_aux.count() == full.b_aux.count());
  REQUIRE(copied.regions.size() == full.regions.size());
  for (size_t i = 0; i < full.regions.size(); ++i) {
    CHECK(copied.regions[i].name == full.regions[i].name);
    CHECK(copied.regions[i].start == full.regions[i].start);
  }
  if (matrices) {
    CHECK(copied.a.var == full.a.var);
    CHECK(copied.b.var == full.b.var);
    CHECK(copied.c.var == full.c.var);
    CHECK(copied.c.coeff == full.c.coeff);
  }
}

}  // namespace

TEST_CASE("update circuit: the shape's copied challenges are the full synthesis's (2 KiB, 8 MiB)") {
  check_same_shape("StackedDrg2KiBV1", true);
  check_same_shape("StackedDrg8MiBV1", false);
}

// 512 MiB: 86 challenges over 8 digests (12 a digest), so the copies read other digests' bits.
TEST_CASE("update circuit: the shape's copied challenges are the full synthesis's (512 MiB)") {
  check_same_shape("StackedDrg512MiBV1", false);
}

TEST_CASE(
    "update circuit: Filecoin's 2 KiB partition satisfies every constraint, inputs as derived") {
  const update_config_t c = config_2k();
  const update_partition_witness_t w = snap_2k_witness();
  const partition_assignment_t a = synthesize_update_partition(c, w, true);
  partition_assignment_t copy = a;
  const auto bad = first_unsatisfied_update(c, copy.view());
  CHECK_MESSAGE(!bad, (bad ? bad->where : ""));
  const auto inputs = update_public_inputs(c, 0, snap_2k_commitments());
  REQUIRE(inputs.ok());
  REQUIRE(a.inputs.size() == 5);
  CHECK(a.inputs[0] == zk::bellperson::fr_t::one());
  for (size_t i = 0; i < 4; ++i) CHECK(a.inputs[i + 1] == inputs.value()[i]);
  // One challenge after another: the same assignment.
  const partition_assignment_t s = synthesize_update_partition(c, w, false);
  CHECK(s.aux == a.aux);
  CHECK(s.a == a.a);
  CHECK(s.b == a.b);
  CHECK(s.c == a.c);
}

TEST_CASE("update circuit: a changed value breaks the constraint that checks it, by name") {
  const update_config_t c = config_2k();
  const auto one = zk::bellperson::fr_t::one();
  // Where the first unsatisfied constraint of the changed witness is ("" when all hold).
  auto first_bad = [&c](const update_partition_witness_t& w) {
    partition_assignment_t a = synthesize_update_partition(c, w);
    const auto bad = first_unsatisfied_update(c, a.view());
    return bad ? bad->where : std::string();
  };
  update_partition_witness_t w = snap_2k_witness();
  SUBCASE("an apex leaf: the apex tree's root is not in tree D") {
    w.apex_leafs[5] = w.apex_leafs[5] + one;
    CHECK(first_bad(w) == "apex tree, its root in tree D");
  }
  SUBCASE("comm_c: H(comm_c, root_r_old) is not comm_r_old") {
    w.comm_c = w.comm_c + one;
    CHECK(first_bad(w) == "comm_c, roots, apex leaves; comm_r = H(comm_c, root_r)");
  }
  SUBCASE("a sibling of tree R old in challenge 4") {
    w.challenges[4].path_r_old[1][3] = w.challenges[4].path_r_old[1][3] + one;
    CHECK(first_bad(w) == "challenge 4: leaf_r_old in tree R old");
  }
  SUBCASE("a sibling of tree D under the apex leaf in challenge 9") {
    w.challenges[9].path_d_new[0] = w.challenges[9].path_d_new[0] + one;
    CHECK(first_bad(w) == "challenge 9: the apex leaf, leaf_d_new under it in tree D");
  }
  SUBCASE("leaf_r_new not the encoding of the old leaf and the data: refused before proving") {
    w.challenges[2].leaf_r_new = w.challenges[2].leaf_r_new + one;
    CHECK_THROWS_WITH_AS(synthesize_update_partition(c, w),
                         doctest::Contains("challenge 2: leaf_r_old + leaf_d_new · rho"),
                         std::invalid_argument);
  }
}

TEST_CASE("update circuit: a witness that does not fit is refused by name") {
  const update_config_t c = config_2k();
  update_partition_witness_t w = snap_2k_witness();
  SUBCASE("partition") {
    w.k = 1;
    CHECK_THROWS_WITH_AS(check_update_witness(c, w), doctest::Contains("partition 1"),
                         std::invalid_argument);
  }
  SUBCASE("apex leaves") {
    w.apex_leafs.pop_back();
    CHECK_THROWS_WITH_AS(check_update_witness(c, w), doctest::Contains("7 apex leaves, expected 8"),
                         std::invalid_argument);
  }
  SUBCASE("siblings") {
    w.challenges[3].path_r_new[0].pop_back();
    CHECK_THROWS_WITH_AS(check_update_witness(c, w),
                         doctest::Contains("challenge 3: path_r_new level 0 has 6 siblings"),
                         std::invalid_argument);
  }
  SUBCASE("tree D levels") {
    w.challenges[0].path_d_new.pop_back();
    CHECK_THROWS_WITH_AS(check_update_witness(c, w),
                         doctest::Contains("challenge 0: path_d_new has 5 levels"),
                         std::invalid_argument);
  }
  SUBCASE("k beyond the partitions when built from the vanilla proof") {
    const auto proofs = read_update_vanilla_file(fixture("snap-2k/vanilla-0.bin"), c);
    CHECK_THROWS_AS(update_witness_from_vanilla(c, 1, snap_2k_commitments(), proofs.at(0)),
                    std::invalid_argument);
  }
}

TEST_CASE("update circuit: the partition path must be the same in every challenge (8 MiB)") {
  const update_config_t c = update_config(registered_update_proof("StackedDrg8MiBV1"));
  update_partition_witness_t w = update_blank_witness(c);
  w.challenges[7].path_d_new[c.node_bits - 1] = zk::bellperson::fr_t::one();
  CHECK_THROWS_WITH_AS(check_update_witness(c, w),
                       doctest::Contains("challenge 7: path_d_new level 17 differs"),
                       std::invalid_argument);
}

// The circuit, the one setup, the one prover and verify_update together: development parameters
// made here for the 2 KiB circuit (a 656 MB file, about 100 s on 2 busy cores), Filecoin's
// partition proved with them, the proof accepted by verify_update with the parameters' key and
// refused for comm_r_new[0] ^ 1 (the change Filecoin's own verifier refused in golden.txt).
TEST_CASE(
    "update circuit: prove_update_partition proves 2 KiB with development parameters (fixed r and "
    "s give the same bytes and refusals name the partition and the check)") {
  namespace fs = std::filesystem;
  const update_config_t c = config_2k();
  const fs::path dir =
      fs::temp_directory_path() / ("zk_update_params_" + std::to_string(uint64_t(::getpid())));
  struct cleanup_t {
    fs::path p;
    ~cleanup_t() {
      std::error_code ec;
      fs::remove_all(p, ec);
    }
  } cleanup{dir};
  const dev_params_report_t made = make_dev_params(c, 3, dir.string(), "update");
  CHECK(made.digest == update_circuit_shape(c, false)->digest_hex());

  // Made just now by this process: read as a trusted file (its points' subgroup checks are
  // bench_filecoin's and the C2 tests' business).
  const zk::bellperson::params_file_t file(made.params_path,
                                           zk::bellperson::params_file_t::mode_t::unchecked);
  CHECK(file.vk().ic.size() == 5);
  update_prover_t prover(file, c);
  const auto proofs = read_update_vanilla_file(fixture("snap-2k/snap-vproof.json"), c);
  prove_update_partition_t in;
  in.proof = &proofs.at(0);
  in.comms = snap_2k_commitments();
  in.r = zk::bytes32_t{7};
  in.s = zk::bytes32_t{9};
  std::vector<std::string> stages;
  in.observe = [&](const zk::groth16::stage_span_t& s) {
    stages.push_back(zk::groth16::stage_name(s.stage));
  };
  const auto p = prove_update_partition(prover, in);
  REQUIRE_MESSAGE(p.ok(), p.error());
  CHECK(p->synthesis.constraints == 1'705'039);
  CHECK_FALSE(stages.empty());
  CHECK(stages.back() == "verify");
  uint8_t encoded[zk::bellperson::proof_size];
  zk::bellperson::encode_proof(p->proof, encoded);
  CHECK(std::equal(p->bytes.begin(), p->bytes.end(), encoded));

  const auto ok = verify_update(file.vk(), {p->proof}, c, snap_2k_commitments());
  REQUIRE(ok.ok());
  CHECK_MESSAGE(ok->verdict.ok(), ok->verdict.reason());
  update_commitments_t other = snap_2k_commitments();
  other.comm_r_new[0] ^= 1;
  const auto bad = verify_update(file.vk(), {p->proof}, c, other);
  REQUIRE(bad.ok());
  CHECK_FALSE(bad->verdict.ok());

  // The same r and s: the same bytes (the synthesis and the prover are deterministic).
  in.observe = {};
  const auto again = prove_update_partition(prover, in);
  REQUIRE_MESSAGE(again.ok(), again.error());
  CHECK(again->bytes == p->bytes);

  // Refusals, before any proof: a commitment the vanilla proof is not of, a changed leaf (the
  // vanilla verifier; synthesize_update_into alone meets the circuit's own leaf_r_new check), a
  // partition the update does not have.
  prove_update_partition_t wrong = in;
  wrong.comms = other;
  const auto refused = prove_update_partition(prover, wrong);
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.error().rfind("partition 0: vanilla proof: ", 0) == 0);
  update_partition_proof_t tampered = proofs.at(0);
  tampered.challenge_proofs.at(4).proof_r_new.leaf[0] ^= 1;
  wrong = in;
  wrong.proof = &tampered;
  const auto tampered_refused = prove_update_partition(prover, wrong);
  REQUIRE_FALSE(tampered_refused.ok());
  CHECK_MESSAGE(tampered_refused.error().find("partition 0: vanilla proof: challenge 4") == 0,
                tampered_refused.error());
  std::vector<fr_t> witness;
  const auto synth = synthesize_update_into(prover, in.comms, tampered, 0, witness);
  REQUIRE_FALSE(synth.ok());
  CHECK_MESSAGE(synth.error().rfind("partition 0: synthesis: ", 0) == 0, synth.error());
  wrong = in;
  wrong.partition = 1;
  const auto no_partition = prove_update_partition(prover, wrong);
  REQUIRE_FALSE(no_partition.ok());
  CHECK(no_partition.error() == "partition 1: the update has 1 partition");
}
