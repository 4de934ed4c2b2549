// common/security/digest: SHA-256 streamed and of files (FIPS 180-4 test vectors), and secrets
// compared in constant time.
#include "common/security/digest.hpp"

#include <doctest/doctest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <string>

using namespace zk;

TEST_CASE("sha256_stream_t: the FIPS 180-4 vectors, in one piece and byte by byte") {
  security::sha256_stream_t h;
  h.update("abc");
  CHECK(h.hex() == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  const std::string two = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
  for (char c : two) h.update(std::string_view(&c, 1));
  CHECK(h.hex() == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  CHECK(h.hex() == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");  // empty
}

TEST_CASE("sha256_file_hex: a file over the 1 MiB read piece, and a missing file named") {
  const auto path = (std::filesystem::temp_directory_path() /
                     ("zk_digest_test." + std::to_string(::getpid()) + ".bin"))
                        .string();
  std::string bytes(size_t(1) << 20, 'a');
  bytes += "tail";
  std::FILE* f = std::fopen(path.c_str(), "wb");
  REQUIRE(f);
  std::fwrite(bytes.data(), 1, bytes.size(), f);
  std::fclose(f);
  security::sha256_stream_t h;
  h.update(bytes);
  const auto got = security::sha256_file_hex(path);
  REQUIRE(got);
  CHECK(got.value() == h.hex());
  std::filesystem::remove(path);
  const auto missing = security::sha256_file_hex(path);
  REQUIRE_FALSE(missing);
  CHECK(missing.error().why.find(path + ": cannot read") == 0);
}

TEST_CASE("same_secret: equal, unequal at any position, unequal lengths") {
  CHECK(security::same_secret("", ""));
  CHECK(security::same_secret("0123abcd", "0123abcd"));
  CHECK_FALSE(security::same_secret("0123abcd", "1123abcd"));
  CHECK_FALSE(security::same_secret("0123abcd", "0123abce"));
  CHECK_FALSE(security::same_secret("0123abcd", "0123abc"));
  CHECK_FALSE(security::same_secret("0123abc", "0123abcd"));
}
