#include "zk/filecoin/api/verify_update.hpp"

#include <string>

#include "zk/filecoin/api/registry.hpp"

namespace zk::filecoin {

result_t<update_verification_t> verify_update(const bellperson::verifying_key_t& vk,
                                              const std::vector<bellperson::proof_t>& proofs,
                                              const update_config_t& c,
                                              const update_commitments_t& comms) {
  const std::string name = c.proof ? std::string(c.proof->name) : "the update";
  // MultiProof::new_from_bytes: exactly 192 bytes a partition.
  if (proofs.size() != c.partitions)
    return name + " has " + std::to_string(c.partitions) +
           " partition(s): " + std::to_string(c.proof_bytes()) + " proof bytes, got " +
           std::to_string(proofs.size() * bellperson::proof_size);
  update_verification_t out;
  for (uint32_t k = 0; k < c.partitions; ++k) {
    result_t<std::vector<fr_t>> in = update_public_inputs(c, k, comms);
    if (!in) return in.error();
    out.inputs.push_back(std::move(*in));
  }
  // bellperson verify_proofs_batch / verify_proof: Err(MalformedVerifyingKey).
  if (vk.ic.size() != out.inputs[0].size() + 1)
    return "the verifying key has " + std::to_string(vk.ic.size()) +
           " IC points; an update proof's key has " + std::to_string(out.inputs[0].size() + 1) +
           " (ONE and 4 public inputs): not the update's key";
  out.verdict = bellperson::verify_proofs_batch(vk, proofs, out.inputs);
  return out;
}

}  // namespace zk::filecoin
