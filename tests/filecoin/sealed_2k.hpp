#pragma once
// One 2 KiB sector sealed by zkfleet (StackedDrg2KiBV1_1; prover id 0x11…, sector 42, ticket
// 0x22…, seed 0x33…, the reference tool's random piece 9), sealed once per test binary, for the
// tests that need a real C1 (tests/filecoin, tests/node, tests/actors); seal_request_2k makes the
// request of another 2 KiB sector.
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

// A StackedDrg2KiBV1_1 seal request: prover id, ticket and seed each 32 copies of one byte, the
// reference tool's random piece `piece_seed`.
inline filecoin::seal_request_t seal_request_2k(uint8_t prover, uint8_t ticket, uint8_t seed,
                                                uint64_t sector, uint64_t piece_seed) {
  namespace fc = zk::filecoin;
  fc::seal_request_t req;
  req.config = fc::porep_config(fc::registered_proof("StackedDrg2KiBV1_1"));
  req.prover_id.fill(prover);
  req.sector = sector;
  req.ticket.fill(ticket);
  req.seed.fill(seed);
  req.piece = fc::random_piece(piece_seed, fc::fr32_unpadded_size(req.config.sector_size));
  return req;
}

inline const sealed_2k_t& sealed_2k() {
  static const sealed_2k_t s = [] {
    namespace fc = zk::filecoin;
    sealed_2k_t s;
    s.req = seal_request_2k(0x11, 0x22, 0x33, 42, 9);
    s.c1 = fc::c1_of(s.req, fc::seal_sector(s.req));
    s.req.piece.clear();
    s.ids = fc::sector_ids_of(s.c1, s.req.prover_id, s.req.sector);
    return s;
  }();
  return s;
}

}  // namespace zk::test
