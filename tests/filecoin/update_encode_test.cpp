// Making a SnapDeals update (zk/filecoin/update/encode.hpp) against the update Filecoin's own
// 19.1.0 code made of the same sector (tests/fixtures/filecoin/snap-2k: StackedDrg2KiBV1_1 sealed
// with prover id 32 × 0x01, ticket 32 × 0x02, sector 7, random_piece(1, 2032); updated with
// random_piece(2, 2032); golden.txt its log, vanilla-0.bin its bincode partition proof).
#include <doctest/doctest.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "tests/filecoin/sealed_2k.hpp"
#include "zk/base/files.hpp"
#include "zk/base/hex.hpp"
#include "zk/base/sha256.hpp"
#include "zk/filecoin/api/registry.hpp"
#include "zk/filecoin/api/seal.hpp"
#include "zk/filecoin/core/fr32.hpp"
#include "zk/filecoin/update/encode.hpp"
#include "zk/filecoin/update/vanilla.hpp"
#include "zk/filecoin/update/vanilla_proof.hpp"

using namespace zk::filecoin;
using zk::bytes32_t;
using zk::to_hex;

namespace {

std::string fixture(const std::string& name) {
  return std::string(ZK_SOURCE_DIR) + "/tests/fixtures/filecoin/" + name;
}

// The 64 hex digits after "key=" at the start of a line of snap-2k/golden.txt.
std::string golden(const std::string& key) {
  const std::string t = zk::read_text(fixture("snap-2k/golden.txt"));
  const size_t at = t.find("\n" + key + "=");
  REQUIRE_MESSAGE(at != std::string::npos, key << " not in golden.txt");
  return t.substr(at + key.size() + 2, 64);
}

std::vector<bytes32_t> nodes_of(const std::vector<uint8_t>& padded) {
  std::vector<bytes32_t> out(padded.size() / 32);
  for (size_t i = 0; i < out.size(); ++i) std::copy_n(padded.begin() + 32 * i, 32, out[i].begin());
  return out;
}

// The fixture's sector sealed by zkfleet, once: its replica is the update's sector key.
const seal_result_t& sealed() {
  static const seal_result_t r = [] {
    seal_request_t req = zk::test::seal_request_2k(0x01, 0x02, 0x03, 7, 1);
    req.keep_replica = true;
    return seal_sector(std::move(req));
  }();
  return r;
}

const update_config_t& config_2k() {
  static const update_config_t c = update_config(registered_update_proof("StackedDrg2KiBV1"));
  return c;
}

std::vector<bytes32_t> new_data(uint64_t seed) {
  return nodes_of(fr32_pad(random_piece(seed, fr32_unpadded_size(2048))));
}

update_commitments_t comms_of(const update_encoding_t& e) {
  return {e.comm_r_old, e.comm_d_new, e.comm_r_new};
}

}  // namespace

TEST_CASE("update encode: Filecoin's 2 KiB update, its commitments and its proof's bytes") {
  const seal_result_t& s = sealed();
  const update_config_t& c = config_2k();
  const update_encoding_t e = encode_update(c, s.comm_c, s.replica, new_data(2));
  CHECK(to_hex(e.comm_r_last_old) == to_hex(s.comm_r_last));
  CHECK(to_hex(e.comm_r_old) == golden("comm_r_old"));
  CHECK(to_hex(e.comm_r_old) == to_hex(s.comm_r));
  CHECK(to_hex(e.comm_d_new) == golden("comm_d_new"));
  CHECK(to_hex(e.comm_r_last_new) == golden("comm_r_last_new"));
  CHECK(to_hex(e.comm_r_new) == golden("comm_r_new"));
  CHECK(to_hex(e.comm_c) == to_hex(s.comm_c));
  REQUIRE(e.proofs.size() == 1);
  const std::string ref = zk::read_text(fixture("snap-2k/vanilla-0.bin"));
  const std::vector<uint8_t> mine = encode_update_partition_proof(e.proofs[0]);
  CHECK(mine.size() == update_partition_proof_size(c));
  CHECK(std::string(mine.begin(), mine.end()) == ref);
  CHECK(verify_update_partitions(c, comms_of(e), e.proofs).ok());
  // The new replica: the fixture's sha256 of replica-new.
  const std::string rn(reinterpret_cast<const char*>(e.replica.data()), e.replica.size() * 32);
  CHECK(to_hex(zk::sha256(rn.data(), rn.size())) ==
        "8d1fb6774e1de944d230e76264d36897c6552154e604fc3018ba6c6be0c89058");
}

TEST_CASE(
    "update encode: a changed data node changes comm_d_new, and a tampered proof is refused") {
  const seal_result_t& s = sealed();
  const update_config_t& c = config_2k();
  std::vector<bytes32_t> data = new_data(2);
  const update_encoding_t e = encode_update(c, s.comm_c, s.replica, data);
  data[37][0] ^= 1;
  const update_encoding_t f = encode_update(c, s.comm_c, s.replica, data);
  CHECK(f.comm_d_new != e.comm_d_new);
  CHECK(f.comm_r_new != e.comm_r_new);
  CHECK(f.comm_r_old == e.comm_r_old);
  CHECK(verify_update_partitions(c, comms_of(f), f.proofs).ok());

  // One proof's leaf of the new data changed: the encoding check or its path refuses it.
  std::vector<update_partition_proof_t> bad = e.proofs;
  bad[0].challenge_proofs[4].proof_d_new.leaf[3] ^= 0x10;
  const zk::check_t v = verify_update_partitions(c, comms_of(e), bad);
  REQUIRE_FALSE(v.ok());
  CHECK(v.reason().find("partition 0: challenge 4") != std::string::npos);
  // Another data's proof under this update's commitments.
  CHECK_FALSE(verify_update_partitions(c, comms_of(e), f.proofs).ok());
}

TEST_CASE(
    "update encode: values that are not field elements, another sector key, refused by name") {
  const seal_result_t& s = sealed();
  const update_config_t& c = config_2k();
  std::vector<bytes32_t> data = new_data(2);
  data[21].fill(0xff);
  CHECK_THROWS_WITH_AS(encode_update(c, s.comm_c, s.replica, data),
                       doctest::Contains("data node 21 is not a field element"),
                       std::invalid_argument);
  std::vector<bytes32_t> key = s.replica;
  key[60].fill(0xff);
  CHECK_THROWS_WITH_AS(encode_update(c, s.comm_c, key, new_data(2)),
                       doctest::Contains("sector key node 60 is not a field element"),
                       std::invalid_argument);
  bytes32_t comm_c;
  comm_c.fill(0xff);
  CHECK_THROWS_WITH_AS(encode_update(c, comm_c, s.replica, new_data(2)),
                       doctest::Contains("comm_c"), std::invalid_argument);
  // A sector key that is not the sealed sector's (the seal's comm_r_last given).
  bytes32_t other = s.comm_r_last;
  other[0] ^= 1;
  CHECK_THROWS_WITH_AS(encode_update(c, s.comm_c, s.replica, new_data(2), {}, other),
                       doctest::Contains("the sector key is not the sealed sector's replica"),
                       std::invalid_argument);
  CHECK_NOTHROW(encode_update(c, s.comm_c, s.replica, new_data(2), {}, s.comm_r_last));
  data = new_data(2);
  data.pop_back();
  CHECK_THROWS_WITH_AS(encode_update(c, s.comm_c, s.replica, data),
                       doctest::Contains("the data has 63 nodes"), std::invalid_argument);
}
