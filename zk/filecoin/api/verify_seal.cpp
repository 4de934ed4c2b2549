#include "zk/filecoin/api/verify_seal.hpp"

#include <string>

#include "zk/filecoin/api/registry.hpp"
#include "zk/filecoin/porep/vanilla/graph.hpp"

namespace zk::filecoin {

seal_verification_t verify_seal(const bellperson::verifying_key_t& vk,
                                const std::vector<bellperson::proof_t>& proofs,
                                const porep_config_t& c, const sector_ids_t& s) {
  seal_verification_t out;
  auto refuse = [&out](std::string why) {
    out.verdict = check_t(std::move(why));
    return out;
  };
  if (!fr_from_bytes(s.comm_d)) return refuse("comm_d is not a field element (not below r)");
  if (!fr_from_bytes(s.comm_r)) return refuse("comm_r is not a field element (not below r)");
  const graph_t g(c);
  std::vector<std::vector<fr_t>> inputs;
  for (uint32_t k = 0; k < c.partitions; ++k) {
    out.partitions.push_back(partition_inputs(c, g, s, k));
    inputs.push_back(out.partitions.back().inputs);
  }
  if (c.challenge_kind == challenge_kind_t::non_interactive)
    return refuse(
        "NonInteractivePoRep proofs are SnarkPack aggregates, not one Groth16 proof per "
        "partition: not supported");
  const bytes32_t zero{};
  if (s.comm_d == zero) return refuse("comm_d is all zeros (filecoin-proofs refuses it)");
  if (s.comm_r == zero) return refuse("comm_r is all zeros (filecoin-proofs refuses it)");
  if (proofs.size() != c.partitions)
    return refuse(std::string(c.proof->name) + " has " + std::to_string(c.partitions) +
                  " partition(s): " + std::to_string(c.partitions * bellperson::proof_size) +
                  " proof bytes, got " + std::to_string(proofs.size() * bellperson::proof_size));
  out.verdict = bellperson::verify_proofs_batch(vk, proofs, inputs);
  return out;
}

}  // namespace zk::filecoin
