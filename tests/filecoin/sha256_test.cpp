// SHA-256 for sealing: FIPS 180-4's example digests (csrc.nist.gov SHA256.pdf / the NIST example
// values), the SHA-NI compression equal to the portable one block for block on random input, the
// streaming hasher cut anywhere equal to the one-shot digest, and Filecoin's truncation.
#include "zk/filecoin/sha256.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstring>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "zk/base/sha256.hpp"
#include "zk/filecoin/registry.hpp"

using namespace zk::filecoin;

namespace {

std::string hex_of(const std::string& msg) { return to_hex(sha256(msg.data(), msg.size())); }

}  // namespace

TEST_CASE("sha256: FIPS 180-4 example digests") {
  CHECK(hex_of("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(hex_of("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  CHECK(hex_of("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq") ==
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  CHECK(hex_of(std::string(1000000, 'a')) ==
        "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST_CASE("sha256: SHA-NI equals the portable compression") {
  if (!sha256_cpu_has_shani()) {
    MESSAGE("this CPU has no SHA extensions: only the portable path runs");
    return;
  }
  std::mt19937_64 rng(42);
  std::vector<uint8_t> data(64 * 40);
  for (auto& b : data) b = uint8_t(rng());
  for (size_t n = 0; n <= 40; ++n) {
    uint32_t a[8], b[8];
    for (int i = 0; i < 8; ++i) a[i] = b[i] = uint32_t(rng());
    sha256_compress_portable(a, data.data(), n);
    sha256_compress_shani(b, data.data(), n);
    CHECK(std::memcmp(a, b, sizeof a) == 0);
  }
}

TEST_CASE("sha256: streaming in pieces equals one shot") {
  std::mt19937_64 rng(7);
  for (size_t len : {0, 1, 55, 56, 63, 64, 65, 119, 120, 128, 1000, 1248}) {
    std::vector<uint8_t> msg(len);
    for (auto& b : msg) b = uint8_t(rng());
    const bytes32_t whole = sha256(msg.data(), msg.size());
    for (size_t cut = 0; cut <= len; cut += 1 + len / 7) {
      sha256_hasher_t h;
      h.update(msg.data(), cut).update(msg.data() + cut, len - cut);
      CHECK(h.finish() == whole);
    }
  }
}

TEST_CASE("sha256: Filecoin truncation clears the top two bits") {
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

TEST_CASE("sha256: the sealing hash equals zk/base's portable one") {
  std::mt19937_64 rng(99);
  for (size_t len = 0; len < 300; len += 7) {
    std::vector<uint8_t> msg(len);
    for (auto& b : msg) b = uint8_t(rng());
    const bytes32_t a = sha256(msg.data(), msg.size());
    const auto b = zk::sha256_t::hash(msg.data(), msg.size());
    CHECK(std::equal(a.begin(), a.end(), b.begin()));
  }
}
