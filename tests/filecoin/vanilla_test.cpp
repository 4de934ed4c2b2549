// The vanilla proof check on sealed sectors: a fresh 2 KiB seal (StackedDrg2KiBV1_1 and V1)
// passes; each tampering — one bit of a label in a column, a tree_c path sibling, a parent's
// column row, a labeling proof's parent, the comm_d leaf, a comm_r_last path sibling, a
// challenge's index, a wrong seed or comm_r — is refused with the partition, the challenge and
// the failing check named. The Rust reference's C1s are checked in tests/filecoin/seal_ref.sh.
#include <doctest/doctest.h>

#include <algorithm>
#include <stdexcept>
#include <string>

#include "zk/base/error.hpp"
#include "zk/base/sha256.hpp"
#include "zk/filecoin/api/c1.hpp"
#include "zk/filecoin/api/registry.hpp"
#include "zk/filecoin/api/seal.hpp"
#include "zk/filecoin/core/fr32.hpp"

using namespace zk::filecoin;
using zk::bytes32_t;
using zk::check_t;
using zk::sha256;

namespace {

struct sealed_t {
  seal_request_t req;
  seal_result_t res;
};

sealed_t seal_2k(const char* proof) {
  sealed_t s;
  s.req.config = porep_config(registered_proof(proof));
  s.req.prover_id.fill(1);
  s.req.sector = 7;
  s.req.ticket.fill(2);
  s.req.seed.fill(3);
  s.req.piece = random_piece(5, fr32_unpadded_size(s.req.config.sector_size));
  s.res = seal_sector(s.req);
  return s;
}

check_t check(const sealed_t& s, const vanilla_partitions_t& proofs) {
  return check_vanilla_proofs(s.req.config, graph_t(s.req.config),
                              {s.res.replica_id, s.res.comm_d, s.res.comm_r, s.req.seed}, proofs);
}

void expect_refused(const sealed_t& s, const vanilla_partitions_t& proofs, const char* what) {
  const check_t e = check(s, proofs);
  REQUIRE_FALSE(e);
  INFO(e.reason());
  CHECK(e.reason().find("partition 0") == 0);
  CHECK(e.reason().find(what) != std::string::npos);
}

}  // namespace

TEST_CASE("vanilla: fresh seals pass") {
  for (const char* proof : {"StackedDrg2KiBV1_1", "StackedDrg2KiBV1"}) {
    CAPTURE(proof);
    const sealed_t s = seal_2k(proof);
    REQUIRE(s.res.vanilla_proofs.size() == 1);
    CHECK(s.res.vanilla_proofs[0].size() == 2);
    CHECK(check(s, s.res.vanilla_proofs));
  }
}

TEST_CASE("vanilla: tampered proofs are refused, naming the check") {
  const sealed_t s = seal_2k("StackedDrg2KiBV1_1");
  const vanilla_partitions_t& good = s.res.vanilla_proofs;
  {
    auto p = good;  // a bit of a label in c_x's column
    p[0][1].replica_column_proofs.c_x.column.rows[1][5] ^= 0x10;
    expect_refused(s, p, "challenge 1 (node");
    expect_refused(s, p, "column c_x");
  }
  {
    auto p = good;  // a sibling on a column's tree_c path
    p[0][0].replica_column_proofs.drg_parents[2].inclusion_proof.base[0].hashes[3][0] ^= 1;
    expect_refused(s, p, "DRG parent column 2: tree_c path");
  }
  {
    auto p = good;  // a row of an expander parent's column
    p[0][0].replica_column_proofs.exp_parents[4].column.rows[0][0] ^= 1;
    expect_refused(s, p, "expander parent column 4");
  }
  {
    auto p = good;  // a labeling proof's parent
    p[0][0].labeling_proofs[1].parents[20][7] ^= 0x80;
    expect_refused(s, p, "labeling proof of layer 2: the label recomputed");
  }
  {
    auto p = good;  // the data leaf
    p[0][1].comm_d_proofs.leaf[0] ^= 1;
    expect_refused(s, p, "comm_d proof");
  }
  {
    auto p = good;  // tree_r_last's path (the Rust vanilla verifier checks only its index)
    p[0][0].comm_r_last_proof.base[1].hashes[0][2] ^= 4;
    expect_refused(s, p, "comm_r_last proof: the path");
  }
  {
    auto p = good;  // proofs swapped: each proves the other challenge
    std::swap(p[0][0], p[0][1]);
    expect_refused(s, p, "comm_d proof: it proves leaf");
  }
  {
    auto p = good;
    p[0].pop_back();
    expect_refused(s, p, "1 proofs for 2 challenges");
  }
  {
    auto pub = vanilla_public_t{s.res.replica_id, s.res.comm_d, s.res.comm_r, s.req.seed};
    pub.seed[0] ^= 1;  // other challenges
    CHECK_FALSE(check_vanilla_proofs(s.req.config, graph_t(s.req.config), pub, good));
    pub = vanilla_public_t{s.res.replica_id, s.res.comm_d, s.res.comm_r, s.req.seed};
    pub.comm_r[3] ^= 1;
    const auto e = check_vanilla_proofs(s.req.config, graph_t(s.req.config), pub, good);
    REQUIRE_FALSE(e);
    CHECK(e.reason().find("is not Poseidon2(comm_c") != std::string::npos);
  }
  CHECK(check(s, {}).reason() == "0 partitions, expected 1");
}

TEST_CASE("seal: refuses a piece of the wrong size") {
  seal_request_t r;
  r.config = porep_config(registered_proof("StackedDrg2KiBV1_1"));
  r.piece.resize(2048);
  CHECK_THROWS_WITH_AS(
      seal_sector(r), "the piece must be exactly 2032 bytes (sector size 2048 × 127/128), got 2048",
      std::invalid_argument);
}

TEST_CASE("seal: random_piece is the reference's generator") {
  // SHA-256(seed u64 LE ‖ 0 u64 LE) with seed 5, the first block of `seal --random 5`.
  uint8_t msg[16] = {5};
  const std::vector<uint8_t> p = random_piece(5, 40);
  const bytes32_t h0 = sha256(msg, 16);
  CHECK(std::equal(h0.begin(), h0.end(), p.begin()));
  msg[8] = 1;
  const bytes32_t h1 = sha256(msg, 16);
  CHECK(std::equal(h1.begin(), h1.begin() + 8, p.begin() + 32));
}

TEST_CASE("vanilla: the sealer's C1 is valid for fc-a's reader and round-trips") {
  const sealed_t s = seal_2k("StackedDrg2KiBV1_1");
  const c1_output_t c1 = c1_of(s.req, s.res);
  CHECK_NOTHROW(validate_c1(c1));
  const std::string text = write_c1_json(c1);
  const c1_read_t back = parse_c1(text, "c1.json");
  CHECK(write_c1_json(back.c1) == text);
  CHECK(check_vanilla_proofs(s.req.config, graph_t(s.req.config),
                             {back.c1.replica_id, back.c1.comm_d, back.c1.comm_r, back.c1.seed},
                             back.c1.vanilla_proofs));
}

TEST_CASE("seal: the rvalue form gives the piece away and the same result") {
  sealed_t s = seal_2k("StackedDrg2KiBV1_1");
  seal_request_t moved = s.req;
  const seal_result_t r = seal_sector(std::move(moved));
  CHECK(moved.piece.empty());
  CHECK(moved.seed == s.req.seed);
  CHECK(r.comm_r == s.res.comm_r);
  CHECK(write_c1_json({s.req.config.proof, r.vanilla_proofs, r.comm_r, r.comm_d, r.replica_id,
                       s.req.seed, s.req.ticket}) ==
        write_c1_json({s.req.config.proof, s.res.vanilla_proofs, s.res.comm_r, s.res.comm_d,
                       s.res.replica_id, s.req.seed, s.req.ticket}));
}
