// zk/filecoin/api/verify_seal: a real Filecoin proof (tests/fixtures/filecoin/polka-2kib.json: the
// filecoin-proofs 18.1 prover with polka-storage's trusted setup, StackedDrg2KiBV1_1, V1_2_0,
// porep_id 0) is accepted, and rejected when any input or one proof bit changes. Accepting it
// proves replica_id, the challenges, both graphs, the public-input order, the key and proof
// encodings and the pairing check against Filecoin's. tests/filecoin/verify_vs_ref.sh asks
// Filecoin's own verifier the same questions.
#include <doctest/doctest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "zk/base/error.hpp"
#include "zk/base/hex.hpp"
#include "zk/filecoin/api/registry.hpp"
#include "zk/filecoin/api/verify_seal.hpp"

using namespace zk::filecoin;
using zk::bytes32_t;
using zk::parse_hex32;
using namespace zk::bellperson;

namespace {

struct polka_t {
  porep_config_t config;
  sector_ids_t ids;
  std::vector<uint8_t> vk_bytes, proof_bytes;
};

std::vector<uint8_t> unhex(const std::string& h) {
  std::vector<uint8_t> out;
  for (size_t i = 0; i + 1 < h.size(); i += 2)
    out.push_back(uint8_t(std::stoi(h.substr(i, 2), nullptr, 16)));
  return out;
}

polka_t load_polka() {
  std::ifstream f(std::string(ZK_SOURCE_DIR) + "/tests/fixtures/filecoin/polka-2kib.json");
  const auto j = nlohmann::json::parse(f);
  polka_t p;
  p.config = porep_config(registered_proof(j.at("registered_proof").get<std::string>()),
                          parse_api_version(j.at("api_version").get<std::string>()),
                          parse_hex32(j.at("porep_id_hex").get<std::string>(), "porep_id"));
  p.ids.prover_id = parse_hex32(j.at("prover_id_hex").get<std::string>(), "prover_id");
  p.ids.sector = j.at("sector_id").get<uint64_t>();
  p.ids.ticket = parse_hex32(j.at("ticket_hex").get<std::string>(), "ticket");
  p.ids.seed = parse_hex32(j.at("seed_hex").get<std::string>(), "seed");
  p.ids.comm_r = parse_hex32(j.at("comm_r_hex").get<std::string>(), "comm_r");
  p.ids.comm_d = parse_hex32(j.at("comm_d_hex").get<std::string>(), "comm_d");
  p.vk_bytes = unhex(j.at("verifying_key_hex_compressed").get<std::string>());
  p.proof_bytes = unhex(j.at("proof_hex").get<std::string>());
  return p;
}

}  // namespace

TEST_CASE("verify: the polka-storage 2 KiB proof") {
  const polka_t p = load_polka();
  const vk_read_t vk = parse_vk(p.vk_bytes.data(), p.vk_bytes.size(), "polka vk", true,
                                vk_encoding_t::uncompressed, true);
  CHECK(vk.encoding == vk_encoding_t::compressed);
  CHECK(vk.vk.ic.size() == 40);
  CHECK(encode_vk(vk.vk, vk_encoding_t::compressed) == p.vk_bytes);
  const auto proofs = decode_proofs(p.proof_bytes.data(), p.proof_bytes.size(), "polka proof");
  uint8_t again[proof_size];
  encode_proof(proofs[0], again);
  CHECK(std::vector<uint8_t>(again, again + proof_size) == p.proof_bytes);

  const auto ok = verify_seal(vk.vk, proofs, p.config, p.ids);
  CHECK(ok.verdict.ok());
  CHECK(ok.verdict.reason().empty());
  REQUIRE(ok.partitions.size() == 1);
  CHECK(ok.partitions[0].inputs.size() == 39);

  // Each input changed alone is rejected.
  auto rejected = [&](sector_ids_t s, porep_config_t c) {
    return !verify_seal(vk.vk, proofs, c, s).verdict.ok();
  };
  sector_ids_t s = p.ids;
  s.prover_id[0] ^= 1;
  CHECK(rejected(s, p.config));
  s = p.ids;
  s.sector += 1;
  CHECK(rejected(s, p.config));
  s = p.ids;
  s.ticket[31] ^= 0x80;
  CHECK(rejected(s, p.config));
  s = p.ids;
  s.seed[7] ^= 2;
  CHECK(rejected(s, p.config));
  s = p.ids;
  s.comm_r[0] ^= 1;
  CHECK(rejected(s, p.config));
  s = p.ids;
  s.comm_d[5] ^= 4;
  CHECK(rejected(s, p.config));
  // porep_id and ApiVersion change the graph (the default porep_id is 5; V1_0_0 moves the
  // predecessor), so the proof no longer verifies.
  CHECK(rejected(p.ids, porep_config(*p.config.proof, api_version_t::v1_2_0)));
  CHECK(rejected(p.ids, porep_config(*p.config.proof, api_version_t::v1_0_0, bytes32_t{})));
  // V1_1_0 and V1_2_0 build the same graphs, and the V1 proof the same circuit (as in Filecoin).
  CHECK(!rejected(p.ids, porep_config(*p.config.proof, api_version_t::v1_1_0, bytes32_t{})));
  CHECK(!rejected(p.ids, porep_config(registered_proof("StackedDrg2KiBV1"), api_version_t::v1_2_0,
                                      bytes32_t{})));

  // One bit of the proof: either it no longer decodes (format_error naming the part) or it
  // decodes to another valid point and the pairing check fails.
  int decoded = 0, refused = 0;
  for (size_t bit = 0; bit < 8 * proof_size; bit += 5) {
    std::vector<uint8_t> b = p.proof_bytes;
    b[bit / 8] ^= uint8_t(1 << (bit % 8));
    try {
      const auto q = decode_proofs(b.data(), b.size(), "proof");
      ++decoded;
      CHECK(!verify_seal(vk.vk, q, p.config, p.ids).verdict.ok());
    } catch (const zk::format_error&) {
      ++refused;
    }
  }
  CHECK(decoded > 0);
  CHECK(refused > 0);
}

TEST_CASE("verify: batches, counts, refusals") {
  const polka_t p = load_polka();
  const vk_read_t vk = parse_vk(p.vk_bytes.data(), p.vk_bytes.size(), "polka vk", true,
                                vk_encoding_t::uncompressed, true);
  const auto proofs = decode_proofs(p.proof_bytes.data(), p.proof_bytes.size(), "polka proof");
  const auto inputs = verify_seal(vk.vk, proofs, p.config, p.ids).partitions[0].inputs;

  // The random-weight batch of three valid proofs holds; one bad partition is named.
  CHECK(
      verify_proofs_batch(vk.vk, {proofs[0], proofs[0], proofs[0]}, {inputs, inputs, inputs}).ok());
  auto wrong = inputs;
  wrong[7] += fr_t::one();
  const auto v =
      verify_proofs_batch(vk.vk, {proofs[0], proofs[0], proofs[0]}, {inputs, inputs, wrong});
  CHECK(!v.ok());
  CHECK(v.reason() == "the pairing check failed for partition 2");
  CHECK(verify_proof(vk.vk, proofs[0], std::vector<fr_t>(inputs.begin(), inputs.end() - 1))
            .reason() == "the key expects 39 public inputs, got 38");

  // Two proofs for a one-partition sector; all-zero commitments; non-interactive.
  const auto two = verify_seal(vk.vk, {proofs[0], proofs[0]}, p.config, p.ids);
  CHECK(two.verdict.reason() == "StackedDrg2KiBV1_1 has 1 partition(s): 192 proof bytes, got 384");
  sector_ids_t zero = p.ids;
  zero.comm_d = {};
  CHECK(verify_seal(vk.vk, proofs, p.config, zero).verdict.reason().find("comm_d is all zeros") ==
        0);
  const auto ni = porep_config(registered_proof("StackedDrg2KiBV1_2_Feat_NonInteractivePoRep"));
  const auto r = verify_seal(vk.vk, proofs, ni, p.ids);
  CHECK(!r.verdict.ok());
  CHECK(r.verdict.reason().find("SnarkPack") != std::string::npos);
  CHECK(r.partitions.size() == 13);  // the inputs are still derived
}
