#pragma once
// A C1 output checked for the sector it claims to be, before anything is proved of it: the one
// check every consumer runs (the scheduler at a job's intake, `zkfleet filecoin check-c1`,
// `zkfleet filecoin prove` and prove_partition).
//
//   registered proof  the C1's is the one expected (a circuit's, or a --registered-proof)
//   partitions        as many vanilla proof partitions as expected (when a count is given)
//   SectorNum         a lotus-bench / curio wrapper's, when it gives one, is the sector
//   replica_id        the one prover_id, sector, ticket, comm_d and the porep_id derive (§2)
//   vanilla proofs    every partition's pass check_vanilla_proofs (§11)
#include <cstdint>
#include <optional>
#include <string>

#include "zk/base/result.hpp"
#include "zk/filecoin/api/c1.hpp"

namespace zk::filecoin {

struct c1_expected_t {
  bytes32_t prover_id{};
  uint64_t sector = 0;
  std::optional<uint32_t> partitions;  // the job's partition count; nullopt: any
};

// Passes when the C1 (with its wrapper's fields, when it had one) is of the sector for the
// configuration `pc`, else refuses with the reason in words ("the C1's replica_id … : wrong prover
// id or sector", "the vanilla proofs do not verify: partition 0, challenge 1 (node 17): …").
check_t check_c1(const porep_config_t& pc, const c1_output_t& c1,
                 const std::optional<c1_wrapper_t>& wrapper, const c1_expected_t& expected);

}  // namespace zk::filecoin
