#include "zk/filecoin/api/update_input.hpp"

#include <cstring>
#include <stdexcept>

#include "zk/base/error.hpp"
#include "zk/base/files.hpp"
#include "zk/base/le_bytes.hpp"
#include "zk/filecoin/api/registry.hpp"

namespace zk::filecoin {

uint64_t update_input_size(const update_config_t& c) {
  return update_input_header + update_partition_proof_size(c);
}

std::vector<uint8_t> write_update_input(const update_config_t& c, uint32_t k,
                                        const update_commitments_t& comms,
                                        const std::vector<uint8_t>& proof) {
  if (!c.proof) throw std::invalid_argument("update input: no registered update proof");
  if (k >= c.partitions)
    throw std::invalid_argument("update input: partition " + std::to_string(k) + " of " +
                                std::to_string(c.partitions));
  if (proof.size() != update_partition_proof_size(c))
    throw std::invalid_argument("update input: partition " + std::to_string(k) + "'s proof has " +
                                std::to_string(proof.size()) + " bytes, " +
                                std::string(c.proof->name) + "'s have " +
                                std::to_string(update_partition_proof_size(c)));
  std::vector<uint8_t> out(update_input_header + proof.size());
  std::memcpy(out.data(), update_input_magic, 4);
  le_put<uint16_t>(out.data(), 4, update_input_version);
  le_put<uint64_t>(out.data(), 8, c.proof->id);
  le_put<uint32_t>(out.data(), 16, k);
  std::memcpy(out.data() + 24, comms.comm_r_old.data(), 32);
  std::memcpy(out.data() + 56, comms.comm_d_new.data(), 32);
  std::memcpy(out.data() + 88, comms.comm_r_new.data(), 32);
  std::memcpy(out.data() + update_input_header, proof.data(), proof.size());
  return out;
}

update_input_t read_update_input(const update_config_t& c, const uint8_t* data, uint64_t n,
                                 std::string_view name) {
  auto fail = [&](uint64_t at, const std::string& what) {
    throw_file_error(name, what + " at byte " + std::to_string(at));
  };
  if (!c.proof) throw std::invalid_argument("update input: no registered update proof");
  const uint64_t want = update_input_size(c);
  if (n != want)
    fail(0, std::to_string(n) + " bytes, a partition input of " + std::string(c.proof->name) +
                " has " + std::to_string(want));
  if (std::memcmp(data, update_input_magic, 4) != 0)
    fail(0, "not an update partition input (its magic is not \"ZKUP\")");
  if (le_get<uint16_t>(data, 4) != update_input_version)
    fail(4, "version " + std::to_string(le_get<uint16_t>(data, 4)) + ", this build reads " +
                std::to_string(update_input_version));
  if (le_get<uint64_t>(data, 8) != c.proof->id)
    fail(8, "an input of registered update proof " + std::to_string(le_get<uint64_t>(data, 8)) +
                ", expected " + std::to_string(c.proof->id) + " (" + std::string(c.proof->name) +
                ")");
  update_input_t in;
  in.config = c;
  in.partition = le_get<uint32_t>(data, 16);
  if (in.partition >= c.partitions)
    fail(16, "partition " + std::to_string(in.partition) + ", the proof has " +
                 std::to_string(c.partitions));
  std::memcpy(in.comms.comm_r_old.data(), data + 24, 32);
  std::memcpy(in.comms.comm_d_new.data(), data + 56, 32);
  std::memcpy(in.comms.comm_r_new.data(), data + 88, 32);
  in.proof = decode_update_partition_proof(data + update_input_header, n - update_input_header, c,
                                           name, in.partition);
  return in;
}

update_input_t read_update_input_file(const update_config_t& c, const std::string& path) {
  if (!c.proof) throw std::invalid_argument("update input: no registered update proof");
  const std::string bytes = read_text(path, update_input_size(c));
  return read_update_input(c, reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size(), path);
}

}  // namespace zk::filecoin
