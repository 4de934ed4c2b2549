// BLAKE2b and ChaCha (zk/base), the primitives under Filecoin's graph and challenge derivations,
// each against published vectors. Their use in Filecoin's own order (replica_id,
// challenges, graphs) is compared with Filecoin's code by tests/filecoin/derive_vs_ref.sh.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "zk/base/blake2b.hpp"
#include "zk/base/chacha.hpp"
#include "zk/base/hex.hpp"

using zk::to_hex;

TEST_CASE("blake2b: RFC 7693 'abc', the keyed KAT, truncated output") {
  const auto abc = zk::blake2b_t::hash512("abc", 3);
  CHECK(to_hex(abc.data(), 64) ==
        "ba80a53f981c4d0d6a2797b69f12f6e94c212f14685ac4b74b12bb6fdbffa2d17d87c5392aab792dc252d5"
        "de4533cc9518d38aa8dbf1925ab92386edd4009923");
  // blake2b-kat.txt: key 00…3f, empty message.
  uint8_t key[64];
  for (int i = 0; i < 64; ++i) key[i] = uint8_t(i);
  uint8_t out[64];
  zk::blake2b_t(64, key, 64).finalize(out);
  CHECK(to_hex(out, 64) ==
        "10ebb67700b1868efb4417987acf4690ae9d972fb7a590c2f02871799aaa4786b5e996e8f0f4eb981fc214"
        "b005f42d2ff4233499391653df7aefcbc13fc51568");
  // 32-byte output with a text key over 200 bytes (two blocks), as the synthetic challenges use
  // it; the value is Python's hashlib.blake2b(bytes(range(200)), digest_size=32, key=tag).
  const std::string tag = "filecoin.io|PoRep|1|Synthetic|1|Generation";
  std::vector<uint8_t> msg(200);
  for (int i = 0; i < 200; ++i) msg[size_t(i)] = uint8_t(i);
  zk::blake2b_t(32, tag.data(), tag.size())
      .update(msg.data(), 77)
      .update(msg.data() + 77, 123)
      .finalize(out);
  CHECK(to_hex(out, 32) == "eb6bf54c88d5f85c25eb386d42bf0b39c59c58a0581c24bbf7af8404130d4ed3");
  CHECK_THROWS(zk::blake2b_t(65));
}

TEST_CASE("chacha: RFC 8439 §2.3.2 block, the 8-round zero-key vector, the RNG's word order") {
  uint32_t key[8];
  for (int i = 0; i < 8; ++i)
    key[i] = uint32_t(4 * i) | uint32_t(4 * i + 1) << 8 | uint32_t(4 * i + 2) << 16 |
             uint32_t(4 * i + 3) << 24;
  const uint32_t tail[4] = {1, 0x09000000, 0x4a000000, 0};
  uint8_t out[64];
  zk::chacha_block(key, tail, 10, out);
  CHECK(to_hex(out, 64) ==
        "10f1e7e4d13b5915500fdd1fa32071c4c7d1f4c733c068030422aa9ac3d46c4ed2826446079faa0914c2d7"
        "05d98b02a2b5129cd1de164eb9cbd083e8a2503c4e");
  // ChaCha8, key 0, IV 0 (draft-strombergson-chacha-test-vectors TC1, 8 rounds).
  const uint32_t zero_key[8] = {}, zero_tail[4] = {};
  zk::chacha_block(zero_key, zero_tail, 4, out);
  const std::string tc1 =
      "3e00ef2f895f40d67f5bb8e81f09a5a12c840ec3ce9a7f3b181be188ef711a1e984ce172b9216f419f4453674"
      "56d5619314a42a3da86b001387bfdb80e0cfe42";
  CHECK(to_hex(out, 64) == tc1);
  // The RNG (zero seed) yields that stream as little-endian words, u64 = low word first.
  const uint8_t seed[32] = {};
  zk::chacha8_rng_t rng(seed);
  CHECK(rng.next_u64() == 0xd6405f892fef003eULL);
  CHECK(rng.next_u32() == 0xe8b85b7fu);
  // Word 63 then a u64: the high half comes from the next 4-block refill (rand_core BlockRng).
  zk::chacha8_rng_t a(seed), b(seed);
  for (int i = 0; i < 63; ++i) a.next_u32();
  std::vector<uint32_t> words;
  for (int i = 0; i < 65; ++i) words.push_back(b.next_u32());
  CHECK(a.next_u64() == (uint64_t(words[63]) | uint64_t(words[64]) << 32));
}

TEST_CASE("chacha20 ietf: seeking equals reading through") {
  uint8_t key[32], nonce[12] = {'s', 'y', 'n', 't', 'h', '-', 'p', 'o', 'r', 'e', 'p', 0};
  for (int i = 0; i < 32; ++i) key[i] = uint8_t(7 * i + 1);
  zk::chacha20_ietf_t all(key, nonce), sought(key, nonce);
  std::vector<uint8_t> stream(1000);
  all.keystream(stream.data(), stream.size());
  uint8_t part[77];
  sought.seek(333);
  sought.keystream(part, sizeof part);
  CHECK(std::vector<uint8_t>(part, part + 77) ==
        std::vector<uint8_t>(stream.begin() + 333, stream.begin() + 410));
}
