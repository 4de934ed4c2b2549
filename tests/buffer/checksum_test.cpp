#include "common/buffer/checksum.hpp"

#include <doctest/doctest.h>

#include <cstring>
#include <random>
#include <string>
#include <vector>

using zk::buffer::xxh64;
using zk::buffer::xxh64_state_t;

TEST_CASE("xxh64 matches the published reference values") {
  // Values from the xxHash reference implementation (xxhsum / python-xxhash).
  CHECK(xxh64("", 0) == 0xEF46DB3751D8E999ULL);
  CHECK(xxh64("a", 1) == 0xD24EC4F1A98C6E5BULL);
  CHECK(xxh64("abc", 3) == 0x44BC2CF5AD770999ULL);
  const std::string s = "Nobody inspects the spammish repetition";  // 39 bytes: stripes + tail
  CHECK(xxh64(s.data(), s.size()) == 0xFBCEA83C8A378BF1ULL);
}

TEST_CASE("xxh64 streaming equals one-shot for every split") {
  std::mt19937_64 g(7);
  std::vector<unsigned char> data(1000);
  for (auto& b : data) b = static_cast<unsigned char>(g());
  for (size_t len : {0, 1, 3, 4, 7, 8, 31, 32, 33, 63, 64, 65, 200, 1000}) {
    const uint64_t want = xxh64(data.data(), len);
    for (size_t cut = 0; cut <= len; cut += (len > 100 ? 37 : 1)) {
      xxh64_state_t st;
      st.update(data.data(), cut);
      st.update(data.data() + cut, len - cut);
      REQUIRE(st.digest() == want);
    }
    // Byte by byte.
    xxh64_state_t st;
    for (size_t i = 0; i < len; ++i) st.update(data.data() + i, 1);
    CHECK(st.digest() == want);
  }
}

TEST_CASE("xxh64 detects every single-byte flip and a seed changes the value") {
  std::vector<unsigned char> data(4096);
  for (size_t i = 0; i < data.size(); ++i) data[i] = static_cast<unsigned char>(i * 31 + 7);
  const uint64_t base = xxh64(data.data(), data.size());
  for (size_t i = 0; i < data.size(); i += 97) {
    data[i] ^= 0x10;
    CHECK(xxh64(data.data(), data.size()) != base);
    data[i] ^= 0x10;
  }
  CHECK(xxh64(data.data(), data.size()) == base);
  CHECK(xxh64(data.data(), data.size(), 1) != base);
}
