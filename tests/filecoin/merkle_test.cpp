// fr32 and the trees: fr32 against its bit-level definition and round trips; comm_d of all-zero
// pieces against lotus's published table (tests/fixtures/filecoin/zerocomm.json, from
// zerocomm.go PieceComms) — by building real trees up to 1 MiB and by the level recursion up to
// 2 TiB; tree proofs of every shape Filecoin uses recompute their roots, prove their index, and
// fail once a sibling, the leaf, an index or the shape is changed.
#include "zk/filecoin/core/merkle.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <stdexcept>
#include <string>

#include "zk/base/hex.hpp"
#include "zk/filecoin/core/fr32.hpp"
#include "zk/filecoin/core/hashers.hpp"
#include "zk/filecoin/porep/circuit/public_inputs.hpp"
#include "zk/neptune/poseidon.hpp"

using namespace zk::filecoin;
using zk::bytes32_t;
using zk::to_hex;
using namespace zk::neptune;

namespace {

nlohmann::json fixture(const char* name) {
  std::ifstream f(std::string(ZK_SOURCE_DIR) + "/tests/fixtures/filecoin/" + name);
  REQUIRE(f.good());
  return nlohmann::json::parse(f);
}

bool same(const merkle_proof_t& a, const merkle_proof_t& b) {
  auto eq = [](const inclusion_path_t& x, const inclusion_path_t& y) {
    if (x.size() != y.size()) return false;
    for (size_t i = 0; i < x.size(); ++i)
      if (x[i].index != y[i].index || x[i].hashes != y[i].hashes) return false;
    return true;
  };
  return a.kind == b.kind && a.root == b.root && a.leaf == b.leaf && eq(a.base, b.base) &&
         eq(a.sub, b.sub) && eq(a.top, b.top);
}

bool bit(const uint8_t* p, size_t i) { return (p[i / 8] >> (i % 8)) & 1; }

}  // namespace

TEST_CASE("fr32: 254 data bits per 32-byte element, LSB first, and back") {
  std::mt19937_64 rng(11);
  std::vector<uint8_t> in(127 * 5);
  for (auto& b : in) b = uint8_t(rng());
  const std::vector<uint8_t> out = fr32_pad(in);
  REQUIRE(out.size() == 128 * 5);
  // Bit j of element e is input bit 254·e + j; bits 254 and 255 are zero.
  for (size_t e = 0; e < out.size() / 32; ++e) {
    for (size_t j = 0; j < 256; ++j) {
      const bool want = j < 254 ? bit(in.data(), 254 * e + j) : false;
      if (bit(out.data() + 32 * e, j) != want) {
        FAIL("element " << e << " bit " << j);
      }
    }
  }
  CHECK(fr32_unpad(out) == in);
  CHECK_THROWS_AS(fr32_pad(std::vector<uint8_t>(100)), std::invalid_argument);
  std::vector<uint8_t> bad = out;
  bad[31] |= 0x40;
  CHECK_THROWS_WITH_AS(fr32_unpad(bad), "fr32: element 0 has its top two bits set",
                       std::invalid_argument);
}

TEST_CASE("comm_d of zero pieces equals lotus's PieceComms") {
  const nlohmann::json j = fixture("zerocomm.json");
  REQUIRE(j["piece_comms"].size() == 35);
  // The recursion: level 0 is a 32-byte zero node, each level the truncated hash of two copies.
  bytes32_t node{};
  uint64_t size = 32;
  size_t checked_trees = 0;
  for (const auto& e : j["piece_comms"]) {
    const uint64_t want_size = e["padded_size"];
    while (size < want_size) {
      node = sha256_trunc2(node, node);
      size *= 2;
    }
    CAPTURE(want_size);
    CHECK(to_hex(node) == e["comm"].get<std::string>());
    if (want_size <= (1u << 20)) {  // real trees over real zero sectors
      const std::vector<uint8_t> zeros(want_size);
      CHECK(to_hex(sha256_tree_root(zeros.data(), zeros.size())) == e["comm"].get<std::string>());
      std::vector<bytes32_t> leaves(want_size / 32);
      CHECK(to_hex(sha256_tree_t(std::move(leaves)).root()) == e["comm"].get<std::string>());
      ++checked_trees;
    }
  }
  CHECK(checked_trees == 14);
}

TEST_CASE("tree_d proofs") {
  std::mt19937_64 rng(5);
  std::vector<bytes32_t> leaves(64);
  for (auto& l : leaves)
    for (auto& b : l) b = uint8_t(rng());
  const sha256_tree_t t(leaves);
  const merkle_shape_t shape = merkle_shape(merkle_hasher_t::sha256, tree_shape_t{}, 64);
  CHECK(shape.base_levels == 6);
  for (uint64_t i : {0u, 1u, 33u, 63u}) {
    const merkle_proof_t p = t.prove(i);
    CHECK(p.leaf == leaves[i]);
    CHECK(merkle_proof_check(p, merkle_hasher_t::sha256, shape, i, &t.root()));
    CHECK_FALSE(merkle_proof_check(p, merkle_hasher_t::sha256, shape, i ^ 1, &t.root()));
    merkle_proof_t q = p;
    q.base[3].hashes[0][0] ^= 1;
    CHECK_FALSE(merkle_proof_check(q, merkle_hasher_t::sha256, shape, i, &t.root()));
  }
  CHECK_THROWS_AS(t.prove(64), std::out_of_range);
  CHECK_THROWS_AS(sha256_tree_t(std::vector<bytes32_t>(48)), std::invalid_argument);
}

TEST_CASE("Poseidon trees of every Filecoin shape") {
  std::mt19937_64 rng(9);
  const tree_shape_t shapes[] = {{8, 0, 0}, {8, 2, 0}, {8, 4, 0}, {8, 8, 0}, {8, 8, 2}};
  for (const tree_shape_t& s : shapes) {
    CAPTURE(tree_shape_name(s));
    const uint64_t trees = std::max(s.sub_arity, 1u) * std::max(s.top_arity, 1u);
    const uint64_t n = 64 * trees;
    std::vector<fr_t> leaves(n);
    for (auto& l : leaves) l = fr_t::from_u64(rng());
    const poseidon_tree_t t(s, leaves);
    // The root by hand: base roots, then the sub and top levels.
    std::vector<fr_t> level = leaves;
    auto up = [&](unsigned a) {
      std::vector<fr_t> next(level.size() / a);
      for (size_t i = 0; i < next.size(); ++i) next[i] = poseidon_hash(a, &level[a * i]);
      level = next;
    };
    up(8);
    up(8);
    if (s.sub_arity) up(s.sub_arity);
    if (s.top_arity) up(s.top_arity);
    REQUIRE(level.size() == 1);
    CHECK(t.root() == level[0]);
    const merkle_shape_t shape = merkle_shape(merkle_hasher_t::poseidon, s, n);
    const bytes32_t root = fr_to_bytes(t.root());
    for (uint64_t i : {uint64_t(0), uint64_t(9), n / 2 + 3, n - 1}) {
      const merkle_proof_t p = t.prove(i);
      CHECK(p.base.size() == 2);
      CHECK(p.sub.size() == (s.sub_arity ? 1u : 0u));
      CHECK(p.top.size() == (s.top_arity ? 1u : 0u));
      CHECK(merkle_path_index(p) == i);
      CHECK(merkle_proof_check(p, merkle_hasher_t::poseidon, shape, i, &root));
      merkle_proof_t q = p;
      q.leaf = fr_to_bytes(fr_t::from_u64(1) + *fr_from_bytes(p.leaf));
      CHECK_FALSE(merkle_proof_check(q, merkle_hasher_t::poseidon, shape, i, &root));
      q = p;
      q.base[1].index = (q.base[1].index + 1) % 8;
      CHECK_FALSE(merkle_proof_check(q, merkle_hasher_t::poseidon, shape, i, &root));
      q = p;
      q.base.pop_back();
      CHECK(merkle_proof_check(q, merkle_hasher_t::poseidon, shape, i, &root)
                .reason()
                .find("base levels") != std::string::npos);
    }
  }
  CHECK_THROWS_AS(poseidon_tree_t(tree_shape_t{8, 0, 0}, std::vector<fr_t>(48)),
                  std::invalid_argument);
}

TEST_CASE("trees without their lowest levels prove the same paths") {
  std::mt19937_64 rng(13);
  std::vector<bytes32_t> leaves(256);
  for (auto& l : leaves)
    for (auto& b : l) b = uint8_t(rng() & 0xff);
  const sha256_tree_t full(leaves);
  for (unsigned discard : {1u, 4u, 8u, 20u}) {
    const sha256_tree_t lean(leaves.data(), leaves.size(), discard);
    CHECK(lean.root() == full.root());
    CHECK(lean.bytes() < full.bytes());
    for (uint64_t i : {0u, 77u, 255u}) CHECK(same(lean.prove(i, leaves.data()), full.prove(i)));
    CHECK_THROWS_AS(lean.prove(0), std::logic_error);
    // The kept levels are the full tree's (the SnapDeals prover reads its apex row there); a
    // discarded one is refused, and so is one above the root (height 8).
    const unsigned first = std::min(discard, 8u);
    for (unsigned l = first; l <= 8; ++l) CHECK(lean.level(l) == full.level(l));
    CHECK_THROWS_AS(lean.level(first - 1), std::logic_error);
    CHECK_THROWS_AS(lean.level(9), std::out_of_range);
  }
  CHECK(full.level(0) == leaves);
  CHECK(full.level(8).size() == 1);
  CHECK(full.level(8)[0] == full.root());
  CHECK_THROWS_AS(full.level(9), std::out_of_range);
  std::vector<fr_t> fr_leaves(512);
  for (auto& l : fr_leaves) l = fr_t::from_u64(rng());
  const tree_shape_t shape{8, 8, 0};
  const poseidon_tree_t pfull(shape, fr_leaves);
  const poseidon_tree_t::leaf_fn_t fn = [&](uint64_t first, uint64_t count, fr_t* out) {
    for (uint64_t k = 0; k < count; ++k) out[k] = fr_leaves[first + k];
  };
  const poseidon_tree_t plean(shape, fr_leaves.size(), fn);
  CHECK(plean.root() == pfull.root());
  for (uint64_t i : {0u, 100u, 511u}) CHECK(same(plean.prove(i, fn), pfull.prove(i)));
  CHECK_THROWS_AS(plean.prove(3), std::logic_error);
}

TEST_CASE("a periodic tree_d is the tree of its repeated data") {
  std::mt19937_64 rng(17);
  std::vector<bytes32_t> block(16);
  for (auto& l : block)
    for (auto& b : l) b = uint8_t(rng() & 0x3f);
  for (uint64_t n : {16u, 32u, 256u}) {
    CAPTURE(n);
    std::vector<bytes32_t> data(n);
    for (uint64_t i = 0; i < n; ++i) data[i] = block[i % block.size()];
    const sha256_tree_t full(data);
    const periodic_sha256_tree_t periodic(block, n);
    CHECK(periodic.root() == full.root());
    for (uint64_t i : {uint64_t(0), uint64_t(5), n / 2 + 1, n - 1}) {
      CHECK(periodic.leaf(i) == data[i]);
      CHECK(same(periodic.prove(i), full.prove(i)));
    }
    CHECK_THROWS_AS(periodic.prove(n), std::out_of_range);
  }
  // 2^30 leaves (a 32 GiB sector): the root and a path at once, and they agree.
  const uint64_t big = uint64_t(1) << 30;
  const periodic_sha256_tree_t t(block, big);
  const merkle_proof_t p = t.prove(big - 3);
  const bytes32_t root = t.root();
  CHECK(merkle_proof_check(p, merkle_hasher_t::sha256,
                           merkle_shape(merkle_hasher_t::sha256, tree_shape_t{}, big), big - 3,
                           &root));
  CHECK_THROWS_AS(periodic_sha256_tree_t(block, 24), std::invalid_argument);
  CHECK_THROWS_AS(periodic_sha256_tree_t(block, 8), std::invalid_argument);
}

TEST_CASE("sparse Poseidon trees: every leaf known is the full tree, paths that meet agree") {
  std::mt19937_64 rng(19);
  auto filler = [](size_t level, uint64_t index) {
    return fr_t::from_u64(1000003 * (level + 1) + index);
  };
  for (const tree_shape_t& s :
       {tree_shape_t{8, 0, 0}, tree_shape_t{8, 8, 0}, tree_shape_t{8, 8, 2}}) {
    CAPTURE(tree_shape_name(s));
    const uint64_t n = 64 * std::max(s.sub_arity, 1u) * std::max(s.top_arity, 1u);
    std::vector<fr_t> leaves(n);
    std::vector<std::pair<uint64_t, fr_t>> all;
    for (auto& l : leaves) l = fr_t::from_u64(rng());
    for (uint64_t i = 0; i < n; ++i) all.emplace_back(n - 1 - i, leaves[n - 1 - i]);  // any order
    const poseidon_tree_t full(s, leaves);
    const sparse_poseidon_tree_t every(s, n, all, filler);
    CHECK(every.root() == full.root());
    CHECK(every.computed_nodes() == full.bytes() / sizeof(fr_t));
    for (uint64_t i : {uint64_t(0), uint64_t(9), n - 1}) CHECK(same(every.prove(i), full.prove(i)));

    // Three known leaves, two of them siblings: each path proves its leaf to the one root, and
    // the siblings' paths show each other's leaf.
    const sparse_poseidon_tree_t some(
        s, n, {{3, leaves[3]}, {5, leaves[5]}, {n - 2, leaves[n - 2]}}, filler);
    const bytes32_t root = fr_to_bytes(some.root());
    const merkle_shape_t shape = merkle_shape(merkle_hasher_t::poseidon, s, n);
    for (uint64_t i : {uint64_t(3), uint64_t(5), n - 2}) {
      const merkle_proof_t p = some.prove(i);
      CHECK(p.leaf == fr_to_bytes(leaves[i]));
      CHECK(merkle_proof_check(p, merkle_hasher_t::poseidon, shape, i, &root));
    }
    CHECK(some.prove(3).base[0].hashes[4] == fr_to_bytes(leaves[5]));
    CHECK(some.prove(3).base[0].hashes[0] == fr_to_bytes(filler(0, 0)));
    CHECK(some.computed_nodes() < n);
    CHECK_THROWS_AS(some.prove(4), std::out_of_range);
  }
  CHECK_THROWS_AS(sparse_poseidon_tree_t(tree_shape_t{8, 0, 0}, 64, {{64, fr_t{}}}, filler),
                  std::invalid_argument);
  CHECK_THROWS_AS(
      sparse_poseidon_tree_t(tree_shape_t{8, 0, 0}, 64, {{1, fr_t{}}, {1, fr_t{}}}, filler),
      std::invalid_argument);
  // A 64 GiB tree (2^31 leaves, 8-8-2) with a few known leaves: at once.
  const uint64_t big = uint64_t(1) << 31;
  const tree_shape_t s64{8, 8, 2};
  const sparse_poseidon_tree_t t(s64, big, {{7, fr_t::from_u64(7)}, {big - 1, fr_t::from_u64(9)}},
                                 filler);
  const bytes32_t root = fr_to_bytes(t.root());
  CHECK(merkle_proof_check(t.prove(big - 1), merkle_hasher_t::poseidon,
                           merkle_shape(merkle_hasher_t::poseidon, s64, big), big - 1, &root));
}
