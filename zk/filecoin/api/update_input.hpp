#pragma once
// One partition of a SnapDeals update proof as its synthesis needs it: the partition's vanilla
// proof (zk/filecoin/update/vanilla_proof.hpp, filecoin-ffi's bincode bytes) with the three
// commitments and the partition's number, so that a synthesis node needs nothing else (a
// scheduler reads and checks the sector's vanilla proofs once, at intake, and stores one of these
// per partition: 15,184 bytes at 2 KiB, 43,984 at 8 MiB).
//
// Layout, little-endian:
//   offset  size
//        0     4  magic "ZKUP"
//        4     2  version (update_input_version)
//        6     2  0 (reserved)
//        8     8  the registered update proof's id (0 … 4, zk/filecoin/api/registry.hpp)
//       16     4  partition k (< the proof's partitions)
//       20     4  0 (reserved)
//       24    96  comm_r_old, comm_d_new, comm_r_new (32 bytes each, as Rust's Commitment)
//      120     *  the partition's vanilla proof: exactly update_partition_proof_size bytes
//
// The reader checks the length against the registered proof's before it reads anything, then
// decodes the proof with every count bounded (decode_update_partition_proof); errors are
// zk::format_error naming the input and the byte offset.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "zk/filecoin/update/public_inputs.hpp"
#include "zk/filecoin/update/vanilla_proof.hpp"

namespace zk::filecoin {

inline constexpr uint16_t update_input_version = 1;
inline constexpr char update_input_magic[4] = {'Z', 'K', 'U', 'P'};
inline constexpr uint64_t update_input_header = 120;

struct update_input_t {
  update_config_t config;  // of the registered update proof the input names
  uint32_t partition = 0;
  update_commitments_t comms;
  update_partition_proof_t proof;
};

// The exact size of one partition's input for this configuration.
uint64_t update_input_size(const update_config_t& c);

// Encodes partition k's input; `proof` is the partition's vanilla proof in filecoin-ffi's bytes
// (update_partition_proof_size(c) of them). std::invalid_argument when k or the size does not fit.
std::vector<uint8_t> write_update_input(const update_config_t& c, uint32_t k,
                                        const update_commitments_t& comms,
                                        const std::vector<uint8_t>& proof);

// Reads an input of the registered update proof `c` (format_error "<name>: <what> at byte N").
update_input_t read_update_input(const update_config_t& c, const uint8_t* data, uint64_t n,
                                 std::string_view name);
// The same from a file (its size checked before it is read).
update_input_t read_update_input_file(const update_config_t& c, const std::string& path);

}  // namespace zk::filecoin
