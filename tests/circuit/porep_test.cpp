// porep-lite: parameters, the constraint formula, satisfaction and tampering, prove mode equal
// to shape mode for every partition, and a proof on both curves through setup_circuit /
// prove_circuit (dev_setup, load_abc, prove_loaded), verified from the written files.
#include "zk/circuit/porep.hpp"

#include <doctest/doctest.h>
#include <unistd.h>

#include <filesystem>

#include "tests/circuit/circuit_util.hpp"
#include "zk/circuit/api.hpp"
#include "zk/formats/r1cs.hpp"
#include "zk/groth16/api.hpp"

using namespace zk;
using namespace zk::circuit;
namespace fs = std::filesystem;

namespace {

std::string error_of(const std::string& params) {
  try {
    porep_params_t::parse(params);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("porep-lite params") {
  auto p = porep_params_t::parse("curve=bls12-381,partitions=3,challenges=2,depth=5,seed=9");
  CHECK(p.curve == curve_id_t::bls12_381);
  CHECK(p.partitions == 3);
  CHECK(p.challenges == 2);
  CHECK(p.depth == 5);
  CHECK(p.seed == 9);
  CHECK(p.shape_key() == "porep-lite:curve=bls12-381,challenges=2,depth=5");
  CHECK(porep_params_t::parse(p.to_string()).to_string() == p.to_string());
  CHECK(error_of("depht=3").find("unknown key 'depht'") != std::string::npos);
  CHECK(error_of("depth=x").find("depth needs a non-negative integer") != std::string::npos);
  CHECK(error_of("depth=33").find("depth = 33 is out of range") != std::string::npos);
  CHECK(error_of("curve=bn128x").find("curve 'bn128x'") != std::string::npos);
  CHECK(error_of("challenges").find("'challenges' is not key=value") != std::string::npos);
  CHECK(error_of("partitions=5,challenges=4,depth=4").find("exceeds the 2^depth") !=
        std::string::npos);
  // Challenges are distinct leaves.
  auto q = porep_params_t::parse("partitions=4,challenges=4,depth=4");
  std::vector<bool> seen(16);
  for (uint32_t k = 0; k < 4; ++k)
    for (uint32_t j = 0; j < 4; ++j) {
      auto leaf = q.challenge_leaf(k, j);
      REQUIRE(leaf < 16);
      CHECK(!seen[leaf]);
      seen[leaf] = true;
    }
}

TEST_CASE_TEMPLATE("porep-lite: formula, satisfaction, tampering, prove = shape on every partition",
                   Fr, ZK_CIRCUIT_FIELDS) {
  auto p = porep_params_t::parse("partitions=3,challenges=1,depth=4,seed=5");
  porep_data_t<Fr> data(p);
  shape_cs_t<Fr> s;
  porep_lite(s, data, 0);
  auto w = s.witness();
  auto shape = s.take_shape();
  CHECK(shape.n_constraints() == p.constraints());
  CHECK(shape.n_public == 3);
  CHECK(w[1] == data.root());
  CHECK(w[2] == data.replica_id());
  CHECK(first_unsatisfied(shape, w) == -1);
  // tamper: the root, the replica id, the partition, a wire in SHA-256, the last wire (a sibling)
  for (uint32_t wire : {1u, 2u, 3u, shape.n_wires / 3, shape.n_wires - 1}) {
    auto bad = w;
    bad[wire] += Fr::one();
    CHECK_MESSAGE(first_unsatisfied(shape, bad) >= 0, "wire " << wire);
  }
  // Every partition's prove-mode witness satisfies the one shape, and a/b/c are its rows.
  for (uint32_t k = 0; k < p.partitions; ++k) {
    prove_cs_t<Fr> cs(shape.n_wires, shape.n_constraints() + 4);
    porep_lite(cs, data, k);
    cs.finish();
    REQUIRE(cs.n_wires() == shape.n_wires);
    CHECK(cs.witness()[3] == Fr::from_u64(k));
    CHECK(first_unsatisfied(shape, cs.witness()) == -1);
    bool rows_equal = true;
    for (uint32_t i = 0; i < shape.n_constraints(); i += 7)
      rows_equal = rows_equal && cs.a()[i] == shape.a.eval_row(i, cs.witness()) &&
                   cs.b()[i] == shape.b.eval_row(i, cs.witness()) &&
                   cs.c()[i] == shape.c.eval_row(i, cs.witness());
    CHECK(rows_equal);
    CHECK(cs.a().size() == shape.n_constraints() + 4);
  }
  prove_cs_t<Fr> cs(1, 1);
  CHECK_THROWS_AS(porep_lite(cs, data, 3), std::invalid_argument);
}

TEST_CASE("porep-lite proven on both curves (setup_circuit, prove_circuit, verify_files)") {
  for (const char* curve : {"bn254", "bls12-381"}) {
    const std::string params = std::string("curve=") + curve + ",partitions=2,challenges=1,depth=4";
    const fs::path dir = fs::temp_directory_path() / (std::string("zk_circuit_porep_") + curve +
                                                      "_" + std::to_string(::getpid()));
    fs::remove_all(dir);
    groth16::setup_options_t opt;
    opt.seed = 7;
    auto r = setup_circuit("porep-lite", params, dir.string(), opt);
    CHECK_FALSE(r.reused);
    CHECK(r.n_constraints == porep_params_t::parse(params).constraints());
    formats::r1cs_file_t f((dir / "circuit.r1cs").string());
    CHECK(f.header().n_constraints == r.n_constraints);
    CHECK(f.header().n_wires == r.n_wires);
    CHECK(f.header().n_public() == 3);
    // Same shape again (another seed for the data does not change it): the key is reused.
    auto again = setup_circuit("porep-lite", params + ",seed=3", dir.string(), opt);
    CHECK(again.reused);
    CHECK(again.digest == r.digest);

    for (uint32_t k : {0u, 1u}) {
      const auto proof = (dir / "proof.json").string(), pub = (dir / "public.json").string();
      auto pr = prove_circuit("porep-lite", params, k, dir.string(), proof, pub);
      CHECK(pr.n_constraints == r.n_constraints);
      auto v = groth16::verify_files((dir / "verification_key.json").string(), pub, proof);
      CHECK_MESSAGE(v.ok(), v.reason());
    }
    // A key for another shape is refused, naming both.
    CHECK_THROWS_WITH_AS(
        prove_circuit("porep-lite", std::string("curve=") + curve + ",challenges=1,depth=5", 0,
                      dir.string(), (dir / "p.json").string(), (dir / "x.json").string()),
        doctest::Contains("depth=4, not porep-lite"), std::runtime_error);
    CHECK_THROWS_AS(setup_circuit("porep-heavy", params, dir.string()), std::invalid_argument);
    fs::remove_all(dir);
  }
}
