// The sparse seal (zk/filecoin/api/sparse_seal.hpp): its C1s pass the vanilla check at 2 KiB,
// 8 MiB and 512 MiB (32 and 64 GiB: tests/filecoin/sparse_seal.sh, beside Filecoin's own check),
// up to 8 MiB with the comm_d, replica_id and challenges of a full seal of the same random piece,
// and the 2 KiB circuit is satisfied by it; the same seed gives the same C1, another seed another;
// synthetic and non-interactive PoRep are refused with the reason.
#include "zk/filecoin/api/sparse_seal.hpp"

#include <doctest/doctest.h>

#include <string>

#include "zk/filecoin/api/c1.hpp"
#include "zk/filecoin/api/c2.hpp"
#include "zk/filecoin/api/registry.hpp"
#include "zk/filecoin/api/seal.hpp"
#include "zk/filecoin/core/fr32.hpp"
#include "zk/filecoin/porep/circuit/circuit.hpp"

using namespace zk::filecoin;

namespace {

sparse_seal_request_t request(const char* proof, uint64_t random = 5) {
  sparse_seal_request_t q;
  q.config = porep_config(registered_proof(proof));
  q.prover_id.fill(1);
  q.sector = 7;
  q.ticket.fill(2);
  q.seed.fill(3);
  q.random = random;
  return q;
}

zk::check_t check(const sparse_seal_request_t& q, const sparse_seal_result_t& r) {
  return check_vanilla_proofs(q.config, graph_t(q.config),
                              {r.replica_id, r.comm_d, r.comm_r, q.seed}, r.vanilla_proofs);
}

}  // namespace

TEST_CASE("sparse seal: the vanilla check accepts it, up to 8 MiB with the ids of a full seal") {
  for (const char* proof :
       {"StackedDrg2KiBV1_1", "StackedDrg2KiBV1", "StackedDrg8MiBV1_1", "StackedDrg512MiBV1_1"}) {
    CAPTURE(proof);
    const sparse_seal_request_t q = request(proof);
    const sparse_seal_result_t r = sparse_seal_sector(q);
    const zk::check_t e = check(q, r);
    CHECK_MESSAGE(e.ok(), e.reason());
    CHECK_NOTHROW(validate_c1(c1_of(q, r)));
    CHECK(r.block_nodes == std::min<uint64_t>(q.config.nodes, 1 << 18));
    CHECK(r.labels_computed == r.challenged_nodes * q.config.layers);
  }
  // 2 KiB: the full sealer of the same piece has the same comm_d, replica_id and challenges.
  const sparse_seal_request_t q = request("StackedDrg2KiBV1_1");
  const sparse_seal_result_t r = sparse_seal_sector(q);
  seal_request_t full;
  full.config = q.config;
  full.prover_id = q.prover_id;
  full.sector = q.sector;
  full.ticket = q.ticket;
  full.seed = q.seed;
  full.piece = random_piece(q.random, fr32_unpadded_size(q.config.sector_size));
  const seal_result_t f = seal_sector(full);
  CHECK(r.comm_d == f.comm_d);
  CHECK(r.replica_id == f.replica_id);
  CHECK(r.challenges == f.challenges);
  CHECK(r.comm_c != f.comm_c);  // the parents' labels are not the sector's
}

TEST_CASE("sparse seal: the 2 KiB circuit is satisfied by it") {
  const sparse_seal_request_t q = request("StackedDrg2KiBV1_1", 11);
  const sparse_seal_result_t r = sparse_seal_sector(q);
  const c1_output_t c1 = c1_of(q, r);
  partition_assignment_t a = synthesize_partition(c1, 0);
  CHECK(!first_unsatisfied(circuit_config(q.config), a.view()));
}

TEST_CASE("sparse seal: one seed, one C1, another seed, other values") {
  const sparse_seal_request_t q = request("StackedDrg2KiBV1_1", 21);
  const sparse_seal_result_t a = sparse_seal_sector(q), b = sparse_seal_sector(q);
  CHECK(write_c1_json(c1_of(q, a)) == write_c1_json(c1_of(q, b)));
  const sparse_seal_result_t c = sparse_seal_sector(request("StackedDrg2KiBV1_1", 22));
  CHECK(c.comm_d != a.comm_d);
  CHECK(c.comm_c != a.comm_c);
}

TEST_CASE("sparse seal: only interactive PoRep") {
  for (const char* proof :
       {"StackedDrg2KiBV1_1_Feat_SyntheticPoRep", "StackedDrg2KiBV1_2_Feat_NonInteractivePoRep"}) {
    CAPTURE(proof);
    try {
      sparse_seal_sector(request(proof));
      FAIL("not refused");
    } catch (const std::invalid_argument& e) {
      CHECK(std::string(e.what()).find("comm_r") != std::string::npos);
    }
  }
}
