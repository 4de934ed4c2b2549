// zk/filecoin/api/partition_input: a sealed 2 KiB sector's partition input round-trips (the
// witness it yields is the one witness_from_vanilla takes from the C1, and synthesizes to the same
// assignment; its challenges and public inputs are the verifier's), its size for every sector
// size, and the reader's refusal of every bad length, every value not below r, every index byte
// not below its arity, every node or parent outside the graph, and a wrong header field, each
// naming the byte offset. The layout is walked here independently of the reader
// (partition_input.hpp's table).
#include "zk/filecoin/api/partition_input.hpp"

#include <doctest/doctest.h>

#include <cstring>
#include <string>
#include <vector>

#include "tests/filecoin/sealed_2k.hpp"
#include "tests/test_util.hpp"
#include "zk/base/error.hpp"
#include "zk/filecoin/api/c2.hpp"
#include "zk/filecoin/api/check_c1.hpp"
#include "zk/filecoin/api/registry.hpp"
#include "zk/filecoin/api/seal.hpp"

namespace fc = zk::filecoin;
using zk::test::contains;

namespace {

using zk::test::sealed_2k;

std::vector<uint8_t> blob_2k() {
  const auto& s = sealed_2k();
  const fc::graph_t g(s.pc());
  return fc::partition_input_from_c1(s.pc(), g, s.c1, s.ids, 0);
}

bool same(const fc::circuit_path_t& a, const fc::circuit_path_t& b) {
  if (a.size() != b.size()) return false;
  for (size_t e = 0; e < a.size(); ++e) {
    if (a[e].index != b[e].index || a[e].siblings.size() != b[e].siblings.size()) return false;
    for (size_t s = 0; s < a[e].siblings.size(); ++s)
      if (!(a[e].siblings[s] == b[e].siblings[s])) return false;
  }
  return true;
}

bool same(const std::vector<fc::column_opening_t>& a, const std::vector<fc::column_opening_t>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i].rows.size() != b[i].rows.size() || !same(a[i].path, b[i].path)) return false;
    for (size_t r = 0; r < a[i].rows.size(); ++r)
      if (!(a[i].rows[r] == b[i].rows[r])) return false;
  }
  return true;
}

// Every field of two witnesses equal.
bool same(const fc::partition_witness_t& a, const fc::partition_witness_t& b) {
  if (!(a.replica_id == b.replica_id && a.comm_d == b.comm_d && a.comm_r == b.comm_r &&
        a.comm_r_last == b.comm_r_last && a.comm_c == b.comm_c) ||
      a.challenges.size() != b.challenges.size())
    return false;
  for (size_t j = 0; j < a.challenges.size(); ++j) {
    const auto &x = a.challenges[j], &y = b.challenges[j];
    if (x.challenge != y.challenge || !(x.data_leaf == y.data_leaf) ||
        !same(x.comm_d_path, y.comm_d_path) || !same(x.comm_r_last_path, y.comm_r_last_path) ||
        !same(x.comm_c_path, y.comm_c_path) || !same(x.drg_parents, y.drg_parents) ||
        !same(x.exp_parents, y.exp_parents))
      return false;
  }
  return true;
}

// The fields of a 2 KiB partition input by offset, as partition_input.hpp lays them out.
struct field_t {
  enum kind_t { value, index, node, parent } kind;
  size_t offset;
  uint32_t arity = 0;  // index: its level's
};
std::vector<field_t> fields_2k(size_t* total) {
  // 64 nodes: tree D 6 binary levels; trees R and C (shape 8) 2 levels of arity 8; 2 layers; 2
  // challenges.
  std::vector<field_t> f;
  size_t at = 24;
  for (int i = 0; i < 5; ++i, at += 32) f.push_back({field_t::value, at});
  auto path = [&](int levels, uint32_t arity) {
    for (int e = 0; e < levels; ++e) {
      f.push_back({field_t::index, at++, arity});
      for (uint32_t s = 1; s < arity; ++s, at += 32) f.push_back({field_t::value, at});
    }
  };
  for (int j = 0; j < 2; ++j) {
    f.push_back({field_t::node, at});
    at += 8;
    for (int p = 0; p < 14; ++p, at += 4) f.push_back({field_t::parent, at});
    f.push_back({field_t::value, at});  // the data leaf
    at += 32;
    path(6, 2);
    path(2, 8);
    path(2, 8);
    for (int col = 0; col < 14; ++col) {
      for (int row = 0; row < 2; ++row, at += 32) f.push_back({field_t::value, at});
      path(2, 8);
    }
  }
  *total = at;
  return f;
}

std::string refusal(const fc::porep_config_t& pc, const std::vector<uint8_t>& b) {
  return zk::test::thrown<zk::format_error>(
      [&] { fc::read_partition_input(pc, b.data(), b.size(), "p0.fcp"); });
}

}  // namespace

TEST_CASE("partition input: sizes for every sector size of the registry") {
  auto size = [](const char* proof) {
    return fc::partition_input_size(fc::porep_config(fc::registered_proof(proof)));
  };
  // 24 + 160 + challenges × (64 + 32 + tree D + 2 tree R/C + 14 × (layers × 32 + tree C))
  CHECK(size("StackedDrg2KiBV1_1") ==
        24 + 160 + 2 * (64 + 32 + 6 * 33 + 2 * 450 + 14 * (64 + 450)));
  CHECK(size("StackedDrg2KiBV1_1") == 16964);
  // 32 GiB: 2^30 nodes, 11 layers, 18 challenges, tree 8-8 (9 base levels and one sub level).
  CHECK(size("StackedDrg32GiBV1_1") ==
        24 + 160 + 18 * (64 + 32 + 30 * 33 + 2 * 2250 + 14 * (11 * 32 + 2250)));
  CHECK(size("StackedDrg32GiBV1_1") == 756436);  // 738.7 KiB
  // 64 GiB: tree 8-8-2 (a top level of arity 2).
  CHECK(size("StackedDrg64GiBV1_1") == 766534);  // 748.6 KiB
}

TEST_CASE("partition input: a sealed 2 KiB partition round-trips to the C1's witness") {
  const auto& s = sealed_2k();
  REQUIRE(fc::check_c1(s.pc(), s.c1, std::nullopt, {s.ids.prover_id, 42, 1}));
  const std::vector<uint8_t> b = blob_2k();
  REQUIRE(b.size() == fc::partition_input_size(s.pc()));
  size_t walked = 0;
  fields_2k(&walked);
  CHECK(walked == b.size());
  CHECK(std::memcmp(b.data(), "ZKFP", 4) == 0);

  const fc::partition_input_t in = fc::read_partition_input(s.pc(), b.data(), b.size(), "p0.fcp");
  CHECK(in.proof == s.pc().proof);
  CHECK(in.partition == 0);
  const fc::partition_witness_t from_c1 = fc::witness_from_vanilla(
      {s.c1.replica_id, s.c1.comm_d, s.c1.comm_r, s.c1.seed}, s.c1.vanilla_proofs[0]);
  CHECK(same(in.witness, from_c1));
  // Its challenges and public inputs are the ones the verifier derives for the sector.
  const fc::graph_t g(s.pc());
  const fc::partition_inputs_t derived = fc::partition_inputs(s.pc(), g, s.ids, 0);
  REQUIRE(in.challenges.size() == derived.challenges.size());
  for (size_t j = 0; j < in.challenges.size(); ++j) {
    CHECK(in.challenges[j].node == derived.challenges[j].node);
    CHECK(std::memcmp(in.challenges[j].drg, derived.challenges[j].drg,
                      sizeof in.challenges[j].drg) == 0);
    CHECK(std::memcmp(in.challenges[j].exp, derived.challenges[j].exp,
                      sizeof in.challenges[j].exp) == 0);
  }
  const std::vector<fc::fr_t> pub = fc::public_inputs_of(in);
  REQUIRE(pub.size() == derived.inputs.size());
  for (size_t i = 0; i < pub.size(); ++i) CHECK(pub[i] == derived.inputs[i]);
  // Written again: the same bytes.
  CHECK(fc::write_partition_input(s.pc(), in.partition, in.witness, in.challenges) == b);
  // Synthesized: the same assignment as from the C1, and its input assignment is the derived
  // public inputs.
  const fc::circuit_config_t cc = fc::circuit_config(s.pc());
  auto a = fc::synthesize_partition(cc, in.witness);
  auto c = fc::synthesize_partition(s.c1, 0);
  REQUIRE(a.inputs.size() == c.inputs.size());
  REQUIRE(a.aux.size() == c.aux.size());
  bool inputs_equal = true, aux_equal = true;
  for (size_t i = 0; i < a.inputs.size(); ++i) inputs_equal &= a.inputs[i] == c.inputs[i];
  for (size_t i = 0; i < a.aux.size(); ++i) aux_equal &= a.aux[i] == c.aux[i];
  CHECK(inputs_equal);
  CHECK(aux_equal);
  REQUIRE(a.inputs.size() == pub.size() + 1);
  for (size_t i = 0; i < pub.size(); ++i) CHECK(a.inputs[i + 1] == pub[i]);
  CHECK_FALSE(fc::first_unsatisfied(cc, a.view()));
}

TEST_CASE("partition input: every bad length is refused before anything is read") {
  const auto& s = sealed_2k();
  const std::vector<uint8_t> b = blob_2k();
  for (size_t n = 0; n <= b.size() + 64; ++n) {
    if (n == b.size()) continue;
    std::vector<uint8_t> cut(b.begin(), b.begin() + std::min(n, b.size()));
    cut.resize(n, 0);
    const std::string why = refusal(s.pc(), cut);
    if (!contains(why, "p0.fcp: at byte 0: " + std::to_string(n) +
                           " bytes, a partition input of "
                           "StackedDrg2KiBV1_1 has 16964"))
      FAIL_CHECK("length " << n << ": " << why);
  }
  // From a file: refused by its size.
  zk::test::temp_dir_t dir("zk_fcp");
  const std::string path = (dir.path() / "short.fcp").string();
  zk::test::write_text(path, std::string(b.begin(), b.end() - 1));
  CHECK(contains(
      zk::test::thrown<zk::format_error>([&] { fc::read_partition_input_file(s.pc(), path); }),
      "short.fcp: at byte 0: 16963 bytes"));
  const std::string whole = (dir.path() / "p0.fcp").string();
  zk::test::write_text(whole, std::string(b.begin(), b.end()));
  CHECK(fc::read_partition_input_file(s.pc(), whole).partition == 0);
  // Another sector size's input is refused by its length too.
  const auto pc32 = fc::porep_config(fc::registered_proof("StackedDrg32GiBV1_1"));
  CHECK(contains(refusal(pc32, b),
                 "16964 bytes, a partition input of StackedDrg32GiBV1_1 has 756436"));
}

TEST_CASE("partition input: every header field, value, index, node and parent is checked") {
  const auto& s = sealed_2k();
  const std::vector<uint8_t> b = blob_2k();
  auto with = [&](size_t at, std::initializer_list<uint8_t> bytes) {
    std::vector<uint8_t> x = b;
    std::copy(bytes.begin(), bytes.end(), x.begin() + long(at));
    return x;
  };
  CHECK(
      contains(refusal(s.pc(), with(0, {'Z', 'K', 'F', 'Q'})), "at byte 0: not a partition input"));
  CHECK(contains(refusal(s.pc(), with(4, {2, 0})), "at byte 4: version 2"));
  CHECK(contains(refusal(s.pc(), with(6, {1})), "at byte 6: the reserved field is not 0"));
  // StackedDrg2KiBV1's id (0) in the header of a StackedDrg2KiBV1_1 input (id 5).
  CHECK(contains(refusal(s.pc(), with(8, {0})),
                 "at byte 8: registered proof id 0, the circuit's (StackedDrg2KiBV1_1) is 5"));
  CHECK(contains(refusal(s.pc(), with(16, {1})),
                 "at byte 16: partition 1, StackedDrg2KiBV1_1 has 1"));
  CHECK(contains(refusal(s.pc(), with(20, {3})), "at byte 20: 3 challenges"));

  size_t total = 0;
  const auto fields = fields_2k(&total);
  size_t values = 0, indices = 0, nodes = 0, parents = 0;
  for (const field_t& f : fields) {
    std::vector<uint8_t> x = b;
    std::string want;
    switch (f.kind) {
      case field_t::value:  // 2^256 − 1: not below r
        std::fill(x.begin() + long(f.offset), x.begin() + long(f.offset) + 32, 0xff);
        want = "value not below the field modulus";
        ++values;
        break;
      case field_t::index:
        x[f.offset] = uint8_t(f.arity);
        want = "is not below the arity " + std::to_string(f.arity);
        ++indices;
        break;
      case field_t::node:  // 64: past the graph; 0 is never challenged
        std::fill(x.begin() + long(f.offset), x.begin() + long(f.offset) + 8, 0);
        x[f.offset] = 64;
        want = "is not below the graph's 64 nodes";
        ++nodes;
        break;
      case field_t::parent:
        std::fill(x.begin() + long(f.offset), x.begin() + long(f.offset) + 4, 0xff);
        want = "parent 4294967295 is not below the graph's 64 nodes";
        ++parents;
        break;
    }
    const std::string why = refusal(s.pc(), x);
    if (!contains(why, "p0.fcp: at byte " + std::to_string(f.offset) + ": ") ||
        !contains(why, want))
      FAIL_CHECK("field at " << f.offset << ": " << why);
  }
  CHECK(values == 5 + 2 * (1 + 6 + 2 * 7 * 2 + 14 * (2 + 2 * 7)));
  CHECK(indices == 2 * (6 + 2 + 2 + 14 * 2));
  CHECK(nodes == 2);
  CHECK(parents == 2 * 14);
  // Node 0 is never challenged.
  std::vector<uint8_t> zero = b;
  std::fill(zero.begin() + 184, zero.begin() + 192, 0);
  CHECK(contains(refusal(s.pc(), zero), "at byte 184: challenge 0: node 0 is never challenged"));
}
