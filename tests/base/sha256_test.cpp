// SHA-256 (zk/base/sha256): FIPS 180-4's example digests (csrc.nist.gov SHA256.pdf / the NIST
// example values) and the padding's block boundaries, the SHA-NI compression equal to the portable
// one block for block on random input, and the streaming hasher cut anywhere equal to the one-shot
// digest.
#include "zk/base/sha256.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstring>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "zk/base/hex.hpp"

using namespace zk;

namespace {
std::string sha_hex(const std::string& s) {
  const auto d = sha256_t::hash(s.data(), s.size());
  return to_hex(d.data(), d.size());
}
}  // namespace

TEST_CASE("sha256: FIPS 180-4 examples and block boundaries") {
  CHECK(sha_hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  CHECK(sha_hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(sha_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq") ==
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  // One million 'a', fed in uneven pieces (buffer carry-over across blocks).
  sha256_t h;
  const std::string chunk(997, 'a');
  size_t left = 1000000;
  while (left > 0) {
    const size_t n = left < chunk.size() ? left : chunk.size();
    h.update(chunk.data(), n);
    left -= n;
  }
  const auto d = h.finalize();
  CHECK(to_hex(d.data(), 32) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
  // 55, 56 and 64 bytes: the padding's edge cases, against the same hash fed byte by byte.
  for (size_t n : {55u, 56u, 63u, 64u, 65u, 119u, 120u}) {
    const std::string s(n, 'x');
    sha256_t bytewise;
    for (char c : s) bytewise.update(&c, 1);
    CHECK(to_hex(bytewise.finalize().data(), 32) == sha_hex(s));
  }
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
      sha256_t h;
      h.update(msg.data(), cut).update(msg.data() + cut, len - cut);
      CHECK(h.finalize() == whole);
    }
  }
}
