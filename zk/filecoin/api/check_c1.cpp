#include "zk/filecoin/api/check_c1.hpp"

#include <stdexcept>

#include "zk/base/hex.hpp"
#include "zk/filecoin/porep/vanilla/graph.hpp"
#include "zk/filecoin/porep/vanilla/proof.hpp"

namespace zk::filecoin {

check_t check_c1(const porep_config_t& pc, const c1_output_t& c1,
                 const std::optional<c1_wrapper_t>& wrapper, const c1_expected_t& want) {
  if (!pc.proof || !c1.registered_proof) return std::string("the C1 names no registered proof");
  if (c1.registered_proof != pc.proof)
    return "the C1 is for " + std::string(c1.registered_proof->name) + ", not " +
           std::string(pc.proof->name);
  if (want.partitions && c1.vanilla_proofs.size() != *want.partitions)
    return "the C1 has " + std::to_string(c1.vanilla_proofs.size()) + " partition(s) (" +
           std::string(pc.proof->name) + "), the job asks for " + std::to_string(*want.partitions);
  if (wrapper && wrapper->sector_num >= 0 && uint64_t(wrapper->sector_num) != want.sector)
    return "the wrapper's SectorNum is " + std::to_string(wrapper->sector_num) + ", not sector " +
           std::to_string(want.sector);
  const bytes32_t derived =
      replica_id(want.prover_id, want.sector, c1.ticket, c1.comm_d, pc.porep_id);
  if (derived != c1.replica_id)
    return "the C1's replica_id " + to_hex(c1.replica_id) + " is not the one prover id " +
           to_hex(want.prover_id) + ", sector " + std::to_string(want.sector) +
           ", the ticket, comm_d and the porep_id of " + std::string(pc.proof->name) + " give (" +
           to_hex(derived) + "): wrong prover id or sector";
  try {
    const graph_t g(pc);
    if (check_t why = check_vanilla_proofs(pc, g, {c1.replica_id, c1.comm_d, c1.comm_r, c1.seed},
                                           c1.vanilla_proofs);
        !why)
      return "the vanilla proofs do not verify: " + why.reason();
  } catch (const std::exception& e) {
    return std::string("the vanilla proofs cannot be checked: ") + e.what();
  }
  return {};
}

}  // namespace zk::filecoin
