#pragma once
// verify_seal is filecoin-proofs' verify_seal (src/api/seal.rs) for the interactive and
// synthetic proofs: commitments non-zero and below r, one 192-byte proof per partition, the
// public inputs of every partition derived here (zk/filecoin/derive.hpp). Non-interactive PoRep
// proofs are SnarkPack aggregates (not Groth16 proofs per partition): refused.
#include <vector>

#include "zk/bellperson/groth16/verifier.hpp"
#include "zk/filecoin/porep/circuit/public_inputs.hpp"
#include "zk/filecoin/porep/config.hpp"
#include "zk/filecoin/porep/vanilla/challenges.hpp"

namespace zk::filecoin {

struct seal_verification_t {
  check_t verdict;  // set on every path: the proofs pass, or the reason they are refused
  std::vector<partition_inputs_t> partitions;  // the derived inputs (empty when refused early)
};
seal_verification_t verify_seal(const bellperson::verifying_key_t& vk,
                                const std::vector<bellperson::proof_t>& proofs,
                                const porep_config_t& c, const sector_ids_t& s);

}  // namespace zk::filecoin
