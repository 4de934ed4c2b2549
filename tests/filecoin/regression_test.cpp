// The 124 official 2 KiB seal regression records (tests/fixtures/filecoin/
// seal-regression-2kib.jsonl, from rust-fil-proofs filecoin-proofs/tests/
// seal_regression_records-v16.json: proofs made with the official parameters for four
// porep_configs — V1_0_0, V1_1_0, V1_2_0, V1_2_0 + SyntheticPoRep). The official verifying key is
// not reachable offline, so they cannot be verified here; what can be checked is that every proof
// decodes (points on the curve and in the subgroup) and re-encodes to the same 192 bytes, and
// that the public inputs of every record derive. tests/filecoin/regression_vs_ref.sh compares
// those inputs with Filecoin's own derivation.
#include <doctest/doctest.h>

#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "zk/bellperson/groth16/files.hpp"
#include "zk/filecoin/api/registry.hpp"
#include "zk/filecoin/porep/circuit/public_inputs.hpp"

using namespace zk::filecoin;
using namespace zk::bellperson;
using zk::bytes32_t;
using ojson_t = nlohmann::ordered_json;

namespace {

bytes32_t bytes_of(const ojson_t& a) {
  REQUIRE(a.size() == 32);
  bytes32_t b{};
  for (size_t i = 0; i < 32; ++i) b[i] = a[i].get<uint8_t>();
  return b;
}

}  // namespace

TEST_CASE("regression records: 124 proofs decode and re-encode byte for byte, inputs derive") {
  std::ifstream f(std::string(ZK_SOURCE_DIR) +
                  "/tests/fixtures/filecoin/seal-regression-2kib.jsonl");
  REQUIRE(f.good());
  std::string line;
  size_t records = 0;
  std::map<std::string, size_t> configs;
  while (std::getline(f, line)) {
    if (line.empty()) continue;
    CAPTURE(records);
    const ojson_t r = ojson_t::parse(line);
    // The record itself, written again in its own (serde_json) layout, is the same line.
    CHECK(r.dump() == line);
    const ojson_t& pc = r.at("porep_config");
    const auto& features = pc.at("api_features");
    REQUIRE(features.size() <= 1);
    const feature_t feature = features.empty()                  ? feature_t::none
                              : features[0] == "SyntheticPoRep" ? feature_t::synthetic_porep
                                                                : feature_t::non_interactive_porep;
    const porep_config_t c = porep_config_for(
        pc.at("sector_size").get<uint64_t>(), feature,
        parse_api_version(pc.at("api_version").get<std::string>()), bytes_of(pc.at("porep_id")));
    CHECK(c.partitions == pc.at("partitions").get<uint32_t>());
    configs[std::string(api_version_name(c.api_version)) + "/" +
            std::string(feature_name(feature)) + "/porep_id " + std::to_string(c.porep_id[0])]++;

    std::vector<uint8_t> proof;
    for (const auto& b : r.at("proof")) proof.push_back(b.get<uint8_t>());
    REQUIRE(proof.size() == proof_size * c.partitions);
    const auto proofs = decode_proofs(proof.data(), proof.size(), "record");
    std::vector<uint8_t> again(proof.size());
    for (size_t k = 0; k < proofs.size(); ++k) encode_proof(proofs[k], &again[k * proof_size]);
    CHECK(again == proof);

    sector_ids_t s;
    s.prover_id = bytes_of(r.at("prover_id"));
    s.sector = r.at("sector_id").get<uint64_t>();
    s.ticket = bytes_of(r.at("ticket"));
    s.seed = bytes_of(r.at("seed"));
    s.comm_d = bytes_of(r.at("comm_d"));
    s.comm_r = bytes_of(r.at("comm_r"));
    const graph_t g(c);
    const auto p = partition_inputs(c, g, s, 0);
    CHECK(p.inputs.size() == 39);
    ++records;
  }
  CHECK(records == 124);
  // 31 records of each of the four configurations.
  CHECK(configs.size() == 4);
  for (const auto& [name, n] : configs) {
    CAPTURE(name);
    CHECK(n == 31);
  }
}
