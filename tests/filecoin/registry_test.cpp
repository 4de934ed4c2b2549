// zk/filecoin/api/registry: the 20 RegisteredSealProofs of filecoin-proofs-api 19.1.0 and their
// configurations. Every value here is also compared with Filecoin's own code by
// tests/filecoin/derive_vs_ref.sh (the reference's `derive` prints the same fields).
#include "zk/filecoin/api/registry.hpp"

#include <doctest/doctest.h>

#include <set>
#include <stdexcept>
#include <string>

#include "zk/base/hex.hpp"

using namespace zk::filecoin;
using zk::bytes32_t;
using zk::parse_hex32;
using zk::to_hex;

TEST_CASE("registry: twenty proofs, ids in enum order, names unique") {
  const auto& all = registered_proofs();
  REQUIRE(all.size() == 20);
  std::set<std::string> names;
  for (size_t i = 0; i < all.size(); ++i) {
    CHECK(all[i].id == i);
    names.insert(std::string(all[i].name));
    CHECK(&registered_proof(all[i].name) == &all[i]);
    CHECK(&registered_proof_by_id(i) == &all[i]);
  }
  CHECK(names.size() == 20);
  CHECK(registered_proof("StackedDrg2KiBV1").id == 0);
  CHECK(registered_proof("StackedDrg64GiBV1").id == 4);
  CHECK(registered_proof("StackedDrg2KiBV1_1").id == 5);
  CHECK(registered_proof("StackedDrg32GiBV1_1").id == 8);
  CHECK(registered_proof("StackedDrg2KiBV1_1_Feat_SyntheticPoRep").id == 10);
  CHECK(registered_proof("StackedDrg64GiBV1_2_Feat_NonInteractivePoRep").id == 19);
}

TEST_CASE("registry: versions, features and variants") {
  const auto& a = registered_proof("StackedDrg8MiBV1");
  CHECK(a.api_version == api_version_t::v1_0_0);
  CHECK(a.feature == feature_t::none);
  CHECK(a.sector_size == 8u << 20);
  CHECK(a.vanilla_variant == "StackedDrg8MiBV1");
  const auto& b = registered_proof("StackedDrg512MiBV1_1");
  CHECK(b.api_version == api_version_t::v1_1_0);
  CHECK(b.vanilla_variant == "StackedDrg512MiBV1");
  // The synthetic proofs carry V1_1 in their name but are ApiVersion 1.2.0 (registry.rs).
  const auto& s = registered_proof("StackedDrg32GiBV1_1_Feat_SyntheticPoRep");
  CHECK(s.api_version == api_version_t::v1_2_0);
  CHECK(s.feature == feature_t::synthetic_porep);
  CHECK(s.vanilla_variant == "StackedDrg32GiBV1");
  const auto& n = registered_proof("StackedDrg2KiBV1_2_Feat_NonInteractivePoRep");
  CHECK(n.api_version == api_version_t::v1_2_0);
  CHECK(n.feature == feature_t::non_interactive_porep);
}

TEST_CASE("registry: porep_id is id LE, nonce LE, zeros") {
  const bytes32_t p = registered_proof("StackedDrg2KiBV1_1").porep_id();
  CHECK(p[0] == 5);
  for (size_t i = 1; i < 32; ++i) CHECK(p[i] == 0);
  const bytes32_t q = registered_proof("StackedDrg64GiBV1_2_Feat_NonInteractivePoRep").porep_id();
  CHECK(q[0] == 19);
}

TEST_CASE("registry: porep configs") {
  SUBCASE("2 KiB interactive") {
    const auto c = porep_config(registered_proof("StackedDrg2KiBV1_1"));
    CHECK(c.nodes == 64);
    CHECK(c.layers == 2);
    CHECK(c.partitions == 1);
    CHECK(c.challenges_per_partition == 2);
    CHECK(c.challenge_kind == challenge_kind_t::interactive);
    CHECK(c.shape == tree_shape_t{8, 0, 0});
    CHECK(c.public_inputs_per_partition() == 39);
    CHECK(c.api_version_is_default);
    CHECK(c.porep_id_is_default);
  }
  SUBCASE("32 GiB: 10 partitions of 18 challenges, shape 8-8, 11 layers") {
    const auto c = porep_config(registered_proof("StackedDrg32GiBV1"));
    CHECK(c.partitions == 10);
    CHECK(c.minimum_challenges == 176);
    CHECK(c.challenges_per_partition == 18);
    CHECK(c.layers == 11);
    CHECK(tree_shape_name(c.shape) == "8-8");
    CHECK(c.public_inputs_per_partition() == 327);
  }
  SUBCASE("64 GiB: shape 8-8-2") {
    CHECK(tree_shape_name(porep_config(registered_proof("StackedDrg64GiBV1_1")).shape) == "8-8-2");
  }
  SUBCASE("non-interactive: 13 / 126 partitions") {
    const auto c = porep_config(registered_proof("StackedDrg2KiBV1_2_Feat_NonInteractivePoRep"));
    CHECK(c.partitions == 13);
    CHECK(c.challenges_per_partition == 2);
    CHECK(c.challenge_kind == challenge_kind_t::non_interactive);
    const auto d = porep_config(registered_proof("StackedDrg32GiBV1_2_Feat_NonInteractivePoRep"));
    CHECK(d.partitions == 126);
    CHECK(d.minimum_challenges == 2253);
    CHECK(d.challenges_per_partition == 18);
  }
  SUBCASE("overrides keep the feature") {
    bytes32_t zero{};
    const auto c = porep_config(registered_proof("StackedDrg2KiBV1_1_Feat_SyntheticPoRep"),
                                api_version_t::v1_1_0, zero);
    CHECK(c.api_version == api_version_t::v1_1_0);
    CHECK(!c.api_version_is_default);
    CHECK(!c.porep_id_is_default);
    CHECK(c.porep_id == zero);
    CHECK(c.challenge_kind == challenge_kind_t::synthetic);
  }
}

TEST_CASE("registry: parse errors name what is known") {
  try {
    registered_proof("StackedDrg2KiBV2");
    FAIL("accepted an unknown name");
  } catch (const std::invalid_argument& e) {
    const std::string m = e.what();
    CHECK(m.find("'StackedDrg2KiBV2'") != std::string::npos);
    CHECK(m.find("StackedDrg2KiBV1_1") != std::string::npos);
    CHECK(m.find("StackedDrg64GiBV1_2_Feat_NonInteractivePoRep") != std::string::npos);
  }
  CHECK(parse_api_version("V1_2_0") == api_version_t::v1_2_0);
  CHECK(parse_api_version("1.1.0") == api_version_t::v1_1_0);
  CHECK_THROWS_WITH_AS(parse_api_version("V1_3_0"), doctest::Contains("V1_0_0, V1_1_0, V1_2_0"),
                       std::invalid_argument);
  CHECK_THROWS_AS(registered_proof_by_id(20), std::invalid_argument);
  CHECK_THROWS_AS(tree_shape_for(3000), std::invalid_argument);
}

TEST_CASE("registry: hex") {
  const bytes32_t b =
      parse_hex32("0c0C0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0cff", "--ticket");
  CHECK(b[0] == 0x0c);
  CHECK(b[31] == 0xff);
  CHECK(to_hex(b).substr(0, 4) == "0c0c");
  CHECK_THROWS_WITH_AS(parse_hex32("00", "--seed"), doctest::Contains("--seed: needs 64"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(
      parse_hex32("zz0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c", "--seed"),
      doctest::Contains("not a hex byte"), std::invalid_argument);
}
