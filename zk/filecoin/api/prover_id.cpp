#include "zk/filecoin/api/prover_id.hpp"

#include <stdexcept>
#include <string>

#include "zk/base/hex.hpp"

namespace zk::filecoin {

bytes32_t prover_id_of_actor(uint64_t id) {
  bytes32_t out{};
  size_t k = 0;
  do {
    const uint8_t low = uint8_t(id & 0x7f);
    id >>= 7;
    out[k++] = uint8_t(low | (id ? 0x80 : 0));
  } while (id);
  return out;
}

bytes32_t parse_prover_id(std::string_view text, std::string_view what) {
  const std::string forms =
      " (the prover id: 64 hex digits, 32 bytes, as in the C1's JSON; or the miner's actor "
      "address f0N / t0N, or its actor id N, which becomes the prover id as lotus makes it: the "
      "id's LEB128 bytes, then zeros)";
  if (text.size() == 64) {
    try {
      return parse_hex32(text, what);
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(e.what() + forms);
    }
  }
  std::string_view digits = text;
  if (digits.size() > 2 && (digits[0] == 'f' || digits[0] == 't') && digits[1] == '0')
    digits.remove_prefix(2);
  else if (!digits.empty() && (digits[0] == 'f' || digits[0] == 't'))
    throw std::invalid_argument(std::string(what) + ": '" + std::string(text) +
                                "' is not an ID address (f0… / t0…): a sector's prover is a "
                                "miner actor, named by its id" +
                                forms);
  uint64_t id = 0;
  bool ok = !digits.empty() && digits.size() <= 19;
  for (char ch : digits) {
    if (ch < '0' || ch > '9') {
      ok = false;
      break;
    }
    id = id * 10 + uint64_t(ch - '0');
  }
  if (!ok)
    throw std::invalid_argument(std::string(what) + ": '" + std::string(text) + "' is neither" +
                                forms);
  return prover_id_of_actor(id);
}

}  // namespace zk::filecoin
