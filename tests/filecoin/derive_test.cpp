// zk/filecoin/porep/vanilla/graph and derive: properties that hold whatever the reference computes.
// The values themselves are compared with Filecoin's own code, node for node, by
// tests/filecoin/derive_vs_ref.sh (every registered proof and ApiVersion, random ids).
#include <doctest/doctest.h>

#include <set>
#include <stdexcept>

#include "zk/filecoin/api/registry.hpp"
#include "zk/filecoin/porep/circuit/public_inputs.hpp"

using namespace zk::filecoin;
using zk::bytes32_t;

namespace {
bytes32_t filled(uint8_t v) {
  bytes32_t b;
  b.fill(v);
  return b;
}
}  // namespace

TEST_CASE("graph: DRG parents precede their node, the predecessor's place depends on the version") {
  const bytes32_t porep_id = registered_proof("StackedDrg2KiBV1_1").porep_id();
  const graph_t legacy(64, porep_id, api_version_t::v1_0_0),
      current(64, porep_id, api_version_t::v1_1_0);
  uint32_t a[drg_degree], b[drg_degree];
  for (uint64_t node = 0; node < 64; ++node) {
    legacy.drg_parents(node, a);
    current.drg_parents(node, b);
    for (unsigned i = 0; i < drg_degree; ++i) {
      CHECK(a[i] < std::max<uint64_t>(node, 1));
      if (node < 2) CHECK(a[i] == 0);
    }
    if (node >= 2) {
      // Same random draws, V1_0_0 puts node − 1 last, V1_1_0 first.
      CHECK(a[5] == node - 1);
      CHECK(b[0] == node - 1);
      for (unsigned i = 0; i < 5; ++i) CHECK(a[i] == b[i + 1]);
    }
  }
  CHECK_THROWS_AS(current.drg_parents(64, a), std::out_of_range);
}

TEST_CASE("graph: the Feistel permutation is a bijection of 0 … 8·nodes − 1") {
  const graph_t g(64, filled(3), api_version_t::v1_2_0);
  std::set<uint64_t> seen;
  for (uint64_t i = 0; i < 512; ++i) {
    const uint64_t p = g.feistel_permute(i);
    CHECK(p < 512);
    seen.insert(p);
  }
  CHECK(seen.size() == 512);
  uint32_t exp[exp_degree];
  g.exp_parents(17, exp);
  for (unsigned i = 0; i < exp_degree; ++i) CHECK(exp[i] == g.feistel_permute(17 * 8 + i) / 8);
}

TEST_CASE("graph: V1_0_0 truncates the expander index to 32 bits (64 GiB)") {
  const uint64_t nodes = uint64_t(1) << 31;  // 64 GiB: 8·nodes = 2^34
  const graph_t legacy(nodes, filled(9), api_version_t::v1_0_0),
      current(nodes, filled(9), api_version_t::v1_1_0);
  bool saw_difference = false;
  for (uint64_t node = nodes - 1; node > nodes - 200 && !saw_difference; --node) {
    uint32_t a[exp_degree], b[exp_degree];
    legacy.exp_parents(node, a);
    current.exp_parents(node, b);
    for (unsigned i = 0; i < exp_degree; ++i) {
      const uint64_t t = current.feistel_permute(node * 8 + i);
      CHECK(b[i] == t / 8);
      CHECK(a[i] == uint32_t(t) / 8);
      if (a[i] != b[i]) saw_difference = true;
    }
  }
  CHECK(saw_difference);
}

TEST_CASE("derive: challenges are nodes 1 … nodes−1 of the right count, for every kind") {
  for (const char* name : {"StackedDrg2KiBV1", "StackedDrg8MiBV1_1_Feat_SyntheticPoRep",
                           "StackedDrg2KiBV1_2_Feat_NonInteractivePoRep", "StackedDrg32GiBV1_1"}) {
    CAPTURE(name);
    const auto c = porep_config(registered_proof(name));
    for (uint32_t k = 0; k<c.partitions; k += c.partitions> 4 ? 5 : 1) {
      const auto ch = porep_challenges(c, filled(1), filled(2), filled(3), k);
      CHECK(ch.size() == c.challenges_per_partition);
      for (uint64_t n : ch) {
        CHECK(n >= 1);
        CHECK(n < c.nodes);
      }
    }
    CHECK_THROWS_AS(porep_challenges(c, filled(1), filled(2), filled(3), c.partitions),
                    std::out_of_range);
  }
  // The synthetic set of a small sector covers every node (2^18 cap not reached).
  CHECK(synthetic_challenge_set(64, filled(1), filled(2)).size() == 64);
}

TEST_CASE("derive: the public inputs' layout") {
  const auto c = porep_config(registered_proof("StackedDrg2KiBV1_1"));
  const graph_t g(c);
  sector_ids_t s;
  s.prover_id = filled(1);
  s.sector = 42;
  s.ticket = filled(2);
  s.seed = filled(3);
  s.comm_d = filled(4);
  s.comm_r = filled(5);
  const auto p = partition_inputs(c, g, s, 0);
  REQUIRE(p.inputs.size() == 39);
  CHECK(fr_to_bytes(p.inputs[0]) == replica_id(s.prover_id, 42, s.ticket, s.comm_d, c.porep_id));
  CHECK(fr_to_bytes(p.inputs[1]) == s.comm_d);
  CHECK(fr_to_bytes(p.inputs[2]) == s.comm_r);
  for (size_t i = 0; i < 2; ++i) {
    const auto& ch = p.challenges[i];
    const size_t at = 3 + 18 * i;
    CHECK(p.inputs[at] == fr_t::from_u64(ch.node));
    for (unsigned j = 0; j < 6; ++j) CHECK(p.inputs[at + 1 + j] == fr_t::from_u64(ch.drg[j]));
    for (unsigned j = 0; j < 8; ++j) CHECK(p.inputs[at + 7 + j] == fr_t::from_u64(ch.exp[j]));
    for (unsigned j = 15; j < 18; ++j) CHECK(p.inputs[at + j] == fr_t::from_u64(ch.node));
  }
  // replica_id has its top two bits cleared.
  CHECK((replica_id(filled(0xff), ~0ull, filled(0xff), filled(0xff), filled(0xff))[31] & 0xc0) ==
        0);
}

TEST_CASE("derive: commitments must be field elements") {
  bytes32_t r_bytes = fr_to_bytes(fr_t::zero() - fr_t::one());  // r − 1
  CHECK(fr_from_bytes(r_bytes).has_value());
  r_bytes[0] += 1;  // r
  CHECK(!fr_from_bytes(r_bytes).has_value());
  const auto c = porep_config(registered_proof("StackedDrg2KiBV1"));
  const graph_t g(c);
  sector_ids_t s;
  s.comm_r = r_bytes;
  CHECK_THROWS_WITH_AS(partition_inputs(c, g, s, 0), doctest::Contains("comm_r"),
                       std::invalid_argument);
  s.comm_r = {};
  s.comm_d = filled(0xff);
  CHECK_THROWS_WITH_AS(partition_inputs(c, g, s, 0), doctest::Contains("comm_d"),
                       std::invalid_argument);
}
