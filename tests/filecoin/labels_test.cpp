// SDR labels: rust-fil-proofs' four golden last labels (tests/fixtures/filecoin/sdr-labels.json,
// from create_label/multi.rs test_create_labels: 11 layers of 2 KiB and 4 KiB graphs, both
// ApiVersion orders of the DRG parents), the block-level hash equal to the streaming hash of the
// labeling proof's message, and node 0's label (the header alone). The labels of real sectors are
// compared with the Rust reference's `labels` and `seal` in tests/filecoin/seal_ref.sh.
#include "zk/filecoin/porep/vanilla/labels.hpp"

#include <doctest/doctest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "zk/base/hex.hpp"
#include "zk/filecoin/api/registry.hpp"
#include "zk/filecoin/core/hashers.hpp"

using namespace zk::filecoin;
using zk::bytes32_t;
using zk::parse_hex32;
using zk::to_hex;

namespace {

nlohmann::json fixture(const char* name) {
  std::ifstream f(std::string(ZK_SOURCE_DIR) + "/tests/fixtures/filecoin/" + name);
  REQUIRE(f.good());
  return nlohmann::json::parse(f);
}

}  // namespace

TEST_CASE("labels: rust-fil-proofs' golden last labels") {
  const nlohmann::json j = fixture("sdr-labels.json");
  const bytes32_t replica = parse_hex32(j["replica_id"].get<std::string>(), "replica_id");
  REQUIRE(j["vectors"].size() == 4);
  for (const auto& v : j["vectors"]) {
    const uint64_t size = v["sector_size"];
    CAPTURE(size);
    CAPTURE(v["api_version"].get<std::string>());
    const graph_t g(size / 32, parse_hex32(v["porep_id"].get<std::string>(), "porep_id"),
                    parse_api_version(v["api_version"].get<std::string>()));
    const auto layers = sdr_labels(g, replica, v["layers"]);
    bytes32_t expected{};
    for (int l = 0; l < 4; ++l) {
      const uint64_t limb = std::stoull(v["last_label_u64s_le"][l].get<std::string>(), nullptr, 16);
      for (int b = 0; b < 8; ++b) expected[8 * l + b] = uint8_t(limb >> (8 * b));
    }
    CHECK(to_hex(layers.back().back()) == to_hex(expected));
  }
}

TEST_CASE("labels: each label equals the labeling proof's hash of its 37 parents") {
  const graph_t g(64, bytes32_t{5}, api_version_t::v1_1_0);
  bytes32_t replica{};
  for (int i = 0; i < 32; ++i) replica[i] = uint8_t(3 * i + 1);
  replica[31] &= 0x3f;
  const auto layers = sdr_labels(g, replica, 3);
  const parent_table_t parents(g);
  for (uint32_t layer = 1; layer <= 3; ++layer) {
    for (uint64_t v = 1; v < 64; v += 7) {
      bytes32_t ps[label_parents];
      sdr_label_parents(parents, layer, v, layers[layer - 1].data(),
                        layer > 1 ? layers[layer - 2].data() : nullptr, ps);
      CHECK(sdr_label_from_parents(replica, layer, v, ps, label_parents) == layers[layer - 1][v]);
    }
    // Node 0 hashes the header alone: replica_id ‖ layer ‖ 0 ‖ 20 zeros.
    uint8_t hdr[64] = {};
    std::memcpy(hdr, replica.data(), 32);
    hdr[35] = uint8_t(layer);
    CHECK(layers[layer - 1][0] == sha256_trunc(hdr, 64));
  }
}

TEST_CASE("labels: the parent table cached on disk") {
  const std::string dir = std::string(ZK_BINARY_DIR) + "/filecoin-parent-cache-test";
  std::filesystem::remove_all(dir);
  const graph_t g(256, bytes32_t{7}, api_version_t::v1_1_0);
  const parent_table_t direct(g);
  bool loaded = true;
  const parent_table_t first = parent_table_t::cached(g, dir, &loaded);
  CHECK_FALSE(loaded);
  const parent_table_t second = parent_table_t::cached(g, dir, &loaded);
  CHECK(loaded);
  for (uint64_t v = 0; v < 256; ++v)
    CHECK(std::memcmp(second[v], direct[v], graph_degree * 4) == 0);
  // Another graph of the same size gets its own file; a damaged file is rebuilt.
  const graph_t other(256, bytes32_t{7}, api_version_t::v1_0_0);
  parent_table_t::cached(other, dir, &loaded);
  CHECK_FALSE(loaded);
  size_t files = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    ++files;
    std::fstream f(e.path(), std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(200);
    f.put(char(0x55));
  }
  CHECK(files == 2);
  const parent_table_t rebuilt = parent_table_t::cached(g, dir, &loaded);
  CHECK_FALSE(loaded);
  CHECK(std::memcmp(rebuilt[255], direct[255], graph_degree * 4) == 0);
  std::filesystem::remove_all(dir);
}
