#pragma once
// One 2 KiB sector sealed by zkfleet (StackedDrg2KiBV1_1; prover id 0x11…, sector 42, ticket
// 0x22…, seed 0x33…, the reference tool's random piece 9), sealed once per test binary, for the
// tests that need a real C1 (tests/filecoin, tests/node, tests/actors).
#include "zk/filecoin/api/registry.hpp"
#include "zk/filecoin/api/seal.hpp"
#include "zk/filecoin/core/fr32.hpp"

namespace zk::test {

struct sealed_2k_t {
  filecoin::seal_request_t req;  // the piece moved out once sealed
  filecoin::c1_output_t c1;
  filecoin::sector_ids_t ids;
  const filecoin::porep_config_t& pc() const { return req.config; }
};

inline const sealed_2k_t& sealed_2k() {
  static const sealed_2k_t s = [] {
    namespace fc = zk::filecoin;
    sealed_2k_t s;
    s.req.config = fc::porep_config(fc::registered_proof("StackedDrg2KiBV1_1"));
    s.req.prover_id.fill(0x11);
    s.req.sector = 42;
    s.req.ticket.fill(0x22);
    s.req.seed.fill(0x33);
    s.req.piece = fc::random_piece(9, fc::fr32_unpadded_size(s.req.config.sector_size));
    s.c1 = fc::c1_of(s.req, fc::seal_sector(s.req));
    s.req.piece.clear();
    s.ids = fc::sector_ids_of(s.c1, s.req.prover_id, s.req.sector);
    return s;
  }();
  return s;
}

}  // namespace zk::test
