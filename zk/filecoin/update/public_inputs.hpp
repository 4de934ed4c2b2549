#pragma once
// The public inputs of partition k of the update's circuit, as storage-proofs-update 19.1.0
// derives them (src/circuit.rs PublicInputs::new and to_vec, src/compound.rs
// generate_public_inputs with Some(k); filecoin-proofs get_sector_update_inputs returns the same
// vectors): four field elements after ONE, in this order
//   k_and_h_select = k | (h_select << partition_bits)   (Fr::from(u64))
//   comm_r_old, comm_d_new, comm_r_new                  (the 32 bytes as little-endian elements)
// At 2 KiB (one partition, hs all ones) k_and_h_select is 1; at 8 MiB 0x20 + k; at 512 MiB,
// 32 GiB and 64 GiB 0x80 + k. The verifying key therefore has 5 IC points.
#include <cstdint>
#include <string>
#include <vector>

#include "zk/base/bytes.hpp"
#include "zk/base/result.hpp"
#include "zk/filecoin/core/fr32.hpp"
#include "zk/filecoin/update/config.hpp"

namespace zk::filecoin {

// The three commitments of an update, as Curio's CIDs and Rust's Commitment hold them.
struct update_commitments_t {
  bytes32_t comm_r_old{}, comm_d_new{}, comm_r_new{};
};

// k | (h_select << partition_bits); std::invalid_argument when k ≥ partitions.
uint64_t update_k_and_h_select(const update_config_t& c, uint32_t k);

// The four inputs of partition k (ONE excluded), or the reason naming the commitment that is not
// a canonical field element (Rust's Domain → Fr panics there: an error, not a verdict);
// std::invalid_argument when k ≥ partitions.
result_t<std::vector<fr_t>> update_public_inputs(const update_config_t& c, uint32_t k,
                                                 const update_commitments_t& comms);

}  // namespace zk::filecoin
