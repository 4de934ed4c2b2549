#include "zk/filecoin/core/hashers.hpp"

#include <cstdint>
#include <cstring>

#include "zk/base/sha256.hpp"

namespace zk::filecoin {

bytes32_t sha256_trunc(const void* data, size_t n) {
  bytes32_t d = sha256(data, n);
  trim_to_fr32(d);
  return d;
}

bytes32_t sha256_trunc2(const bytes32_t& a, const bytes32_t& b) {
  // 64 bytes of message: one block, then the constant padding block (length 512 bits).
  alignas(16) uint8_t blocks[128] = {};
  std::memcpy(blocks, a.data(), 32);
  std::memcpy(blocks + 32, b.data(), 32);
  blocks[64] = 0x80;
  blocks[126] = 0x02;  // 512 = 0x0200
  uint32_t st[8];
  std::memcpy(st, sha256_iv, sizeof st);
  sha256_compress(st, blocks, 2);
  bytes32_t d = sha256_state_bytes(st);
  trim_to_fr32(d);
  return d;
}

}  // namespace zk::filecoin
