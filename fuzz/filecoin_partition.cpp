// A C2 partition's input (zk/filecoin/api/partition_input.hpp): read_partition_input for the
// registered proof its header names (bytes 8..15; the 2 KiB one when they name none, so that the
// header is fuzzed too). Expected for bad input: format_error. Properties of an accepted input: it
// is exactly partition_input_size long, check_witness accepts its witness, and the writer gives
// back exactly the input bytes (the encoding is canonical).
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <vector>

#include "fuzz/fuzz_util.hpp"
#include "zk/base/error.hpp"
#include "zk/filecoin/api/partition_input.hpp"
#include "zk/filecoin/api/registry.hpp"

namespace {

using namespace zk::filecoin;

// The registered proof the header names, when it is one a partition input can be of.
const registered_proof_t& proof_of(const uint8_t* data, size_t size) {
  const registered_proof_t& fallback = registered_proof("StackedDrg2KiBV1_1");
  if (size < 16) return fallback;
  uint64_t id = 0;
  for (int i = 0; i < 8; ++i) id |= uint64_t(data[8 + i]) << (8 * i);
  try {
    const registered_proof_t& p = registered_proof_by_id(id);
    circuit_config(porep_config(p));  // one the circuit takes (not NonInteractivePoRep)
    return p;
  } catch (const std::invalid_argument&) {
    return fallback;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const porep_config_t pc = porep_config(proof_of(data, size));
  try {
    const partition_input_t in = read_partition_input(pc, data, size, "fuzz.fcp");
    ZK_FUZZ_CHECK(size == partition_input_size(pc));
    try {
      check_witness(circuit_config(pc), in.witness);
    } catch (const std::invalid_argument&) {
      ZK_FUZZ_CHECK(!"check_witness refused a witness the reader accepted");
    }
    const std::vector<uint8_t> again =
        write_partition_input(pc, in.partition, in.witness, in.challenges);
    ZK_FUZZ_CHECK(again.size() == size && std::memcmp(again.data(), data, size) == 0);
  } catch (const zk::format_error&) {
  }
  return 0;
}
