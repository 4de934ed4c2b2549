// A SnapDeals update partition's input (zk/filecoin/api/update_input.hpp: the scheduler's .fup
// objects, whose last part is filecoin-ffi's bincode partition proof as Curio's
// SNAP_DEALS_UPDATE and snap-vproof.json carry it): read_update_input for the registered update
// proof its header names (bytes 8..15; the 2 KiB one when they name none, so that the header is
// fuzzed too). Expected for bad input: format_error. Properties of an accepted input: it is
// exactly update_input_size long, the circuit's witness is made from it or refused by name
// (std::invalid_argument: a value that is no field element), and the writer gives back exactly the
// input bytes (the encoding is canonical).
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <vector>

#include "fuzz/fuzz_util.hpp"
#include "zk/base/error.hpp"
#include "zk/filecoin/api/registry.hpp"
#include "zk/filecoin/api/update_input.hpp"
#include "zk/filecoin/update/circuit.hpp"

namespace {

using namespace zk::filecoin;

// The registered update proof the header names, when it is one; the 2 KiB one otherwise.
const registered_update_proof_t& proof_of(const uint8_t* data, size_t size) {
  const registered_update_proof_t& fallback = registered_update_proof("StackedDrg2KiBV1");
  if (size < 16) return fallback;
  uint64_t id = 0;
  for (int i = 0; i < 8; ++i) id |= uint64_t(data[8 + i]) << (8 * i);
  try {
    return registered_update_proof_by_id(id);
  } catch (const std::invalid_argument&) {
    return fallback;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const update_config_t c = update_config(proof_of(data, size));
  try {
    const update_input_t in = read_update_input(c, data, size, "fuzz.fup");
    ZK_FUZZ_CHECK(size == update_input_size(c));
    try {
      (void)update_witness_from_vanilla(c, in.partition, in.comms, in.proof);
    } catch (const std::invalid_argument&) {  // a value that is no field element, named
    }
    const std::vector<uint8_t> again =
        write_update_input(c, in.partition, in.comms, encode_update_partition_proof(in.proof));
    ZK_FUZZ_CHECK(again.size() == size && std::memcmp(again.data(), data, size) == 0);
  } catch (const zk::format_error&) {
  }
  return 0;
}
