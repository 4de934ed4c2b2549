#pragma once
// verify_update is filecoin-proofs 19.1.0's verify_empty_sector_update_proof (src/api/update.rs,
// reached through filecoin-proofs-api's update::verify_empty_sector_update_proof and filecoin-ffi)
// for a SnapDeals update proof: one 192-byte Groth16 proof a partition, the public inputs of
// every partition derived here (zk/filecoin/update/public_inputs.hpp), bellperson's batch check.
//
// Rust's outcomes are kept apart as they are there: an Err (a verifying key without exactly 5 IC
// points — MalformedVerifyingKey — a commitment that is not a field element, which panics in
// Domain → Fr, and, before this function, proof bytes that are not exactly 192 a partition or
// hold a bad point) is a refusal of the input; Ok(false) is an invalid proof. Unlike
// verify_seal, all-zero commitments are not refused: the Rust verifier does not refuse them.
#include <vector>

#include "zk/base/result.hpp"
#include "zk/bellperson/groth16/verifier.hpp"
#include "zk/filecoin/update/config.hpp"
#include "zk/filecoin/update/public_inputs.hpp"

namespace zk::filecoin {

struct update_verification_t {
  check_t verdict;                        // the proofs pass, or why they are refused
  std::vector<std::vector<fr_t>> inputs;  // the derived inputs, partition 0 first
};

// The verdict (a refusal: an invalid proof), or why the input cannot be verified at all (Rust's
// Err: bad input).
result_t<update_verification_t> verify_update(const bellperson::verifying_key_t& vk,
                                              const std::vector<bellperson::proof_t>& proofs,
                                              const update_config_t& c,
                                              const update_commitments_t& comms);

}  // namespace zk::filecoin
