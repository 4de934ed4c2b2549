// filecoin-hashers' SHA-256 (zk/filecoin/core/hashers): the digest truncated to 254 bits.
#include "zk/filecoin/core/hashers.hpp"

#include <doctest/doctest.h>

#include <cstring>

#include "zk/base/hex.hpp"
#include "zk/base/sha256.hpp"

using namespace zk::filecoin;
using zk::bytes32_t;
using zk::sha256;
using zk::to_hex;

TEST_CASE("hashers: sha256 truncation clears the top two bits") {
  // sha256("abc") ends in ...ad; 0xad & 0x3f = 0x2d.
  const bytes32_t t = sha256_trunc("abc", 3);
  CHECK(to_hex(t) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f200152d");
  bytes32_t a{}, b{};
  for (int i = 0; i < 32; ++i) a[i] = uint8_t(i), b[i] = uint8_t(200 + i);
  uint8_t ab[64];
  std::memcpy(ab, a.data(), 32);
  std::memcpy(ab + 32, b.data(), 32);
  CHECK(sha256_trunc2(a, b) == sha256_trunc(ab, 64));
}
