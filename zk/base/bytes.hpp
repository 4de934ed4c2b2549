#pragma once
// A 32-byte value: a SHA-256 digest, a hash-tree node, a commitment, a Filecoin id or randomness
// (prover id, ticket, seed), a field element in its little-endian encoding. Hex: zk/base/hex.hpp.
#include <array>
#include <cstdint>

namespace zk {

using bytes32_t = std::array<uint8_t, 32>;

}  // namespace zk
