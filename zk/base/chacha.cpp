#include "zk/base/chacha.hpp"

#include <cstring>
#include <stdexcept>

namespace zk {

namespace {

inline uint32_t rotl(uint32_t x, int n) { return (x << n) | (x >> (32 - n)); }

inline void quarter(uint32_t x[16], int a, int b, int c, int d) {
  x[a] += x[b];
  x[d] = rotl(x[d] ^ x[a], 16);
  x[c] += x[d];
  x[b] = rotl(x[b] ^ x[c], 12);
  x[a] += x[b];
  x[d] = rotl(x[d] ^ x[a], 8);
  x[c] += x[d];
  x[b] = rotl(x[b] ^ x[c], 7);
}

inline uint32_t load_le32(const uint8_t* p) {
  return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
}

}  // namespace

void chacha_block(const uint32_t key[8], const uint32_t tail[4], int double_rounds,
                  uint8_t out[64]) {
  uint32_t in[16] = {0x61707865, 0x3320646e, 0x79622d32, 0x6b206574};
  for (int i = 0; i < 8; ++i) in[4 + i] = key[i];
  for (int i = 0; i < 4; ++i) in[12 + i] = tail[i];
  uint32_t x[16];
  std::memcpy(x, in, sizeof x);
  for (int r = 0; r < double_rounds; ++r) {
    quarter(x, 0, 4, 8, 12);
    quarter(x, 1, 5, 9, 13);
    quarter(x, 2, 6, 10, 14);
    quarter(x, 3, 7, 11, 15);
    quarter(x, 0, 5, 10, 15);
    quarter(x, 1, 6, 11, 12);
    quarter(x, 2, 7, 8, 13);
    quarter(x, 3, 4, 9, 14);
  }
  for (int i = 0; i < 16; ++i) {
    const uint32_t w = x[i] + in[i];
    for (int j = 0; j < 4; ++j) out[4 * i + j] = uint8_t(w >> (8 * j));
  }
}

chacha8_rng_t::chacha8_rng_t(const uint8_t seed[32]) {
  for (int i = 0; i < 8; ++i) key_[i] = load_le32(seed + 4 * i);
}

void chacha8_rng_t::refill() {
  uint8_t bytes[64];
  for (int b = 0; b < 4; ++b, ++block_) {
    const uint32_t tail[4] = {uint32_t(block_), uint32_t(block_ >> 32), 0, 0};
    chacha_block(key_, tail, 4, bytes);
    for (int i = 0; i < 16; ++i) buf_[16 * b + i] = load_le32(bytes + 4 * i);
  }
  index_ = 0;
}

uint32_t chacha8_rng_t::next_u32() {
  if (index_ >= 64) refill();
  return buf_[index_++];
}

uint64_t chacha8_rng_t::next_u64() {
  // rand_core BlockRng::next_u64: two consecutive words, low first; at the buffer's last word the
  // high half comes from the next refill.
  if (index_ < 63) {
    const uint64_t v = uint64_t(buf_[index_]) | uint64_t(buf_[index_ + 1]) << 32;
    index_ += 2;
    return v;
  }
  if (index_ >= 64) {
    refill();
    index_ = 2;
    return uint64_t(buf_[0]) | uint64_t(buf_[1]) << 32;
  }
  const uint64_t lo = buf_[63];
  refill();
  index_ = 1;
  return lo | uint64_t(buf_[0]) << 32;
}

chacha20_ietf_t::chacha20_ietf_t(const uint8_t key[32], const uint8_t nonce[12]) {
  for (int i = 0; i < 8; ++i) key_[i] = load_le32(key + 4 * i);
  for (int i = 0; i < 3; ++i) nonce_[i] = load_le32(nonce + 4 * i);
}

void chacha20_ietf_t::seek(uint64_t pos) {
  if (pos >= (uint64_t(1) << 38)) throw std::invalid_argument("chacha20: seek past the keystream");
  pos_ = pos;
}

void chacha20_ietf_t::keystream(uint8_t* out, size_t n) {
  uint8_t block[64];
  while (n > 0) {
    const uint64_t counter = pos_ / 64;
    const size_t offset = size_t(pos_ % 64);
    if (counter >= (uint64_t(1) << 32))
      throw std::invalid_argument("chacha20: keystream exhausted");
    const uint32_t tail[4] = {uint32_t(counter), nonce_[0], nonce_[1], nonce_[2]};
    chacha_block(key_, tail, 10, block);
    const size_t take = n < 64 - offset ? n : 64 - offset;
    std::memcpy(out, block + offset, take);
    out += take;
    n -= take;
    pos_ += take;
  }
}

}  // namespace zk
