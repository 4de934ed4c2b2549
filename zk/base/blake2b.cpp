#include "zk/base/blake2b.hpp"

#include <cstring>
#include <stdexcept>

namespace zk {

namespace {

constexpr uint64_t iv[8] = {0x6a09e667f3bcc908ULL, 0xbb67ae8584caa73bULL, 0x3c6ef372fe94f82bULL,
                            0xa54ff53a5f1d36f1ULL, 0x510e527fade682d1ULL, 0x9b05688c2b3e6c1fULL,
                            0x1f83d9abfb41bd6bULL, 0x5be0cd19137e2179ULL};

// RFC 7693 §2.7: the message word schedule of each round (rounds 10 and 11 repeat 0 and 1).
constexpr uint8_t sigma[12][16] = {{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15},
                                   {14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3},
                                   {11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4},
                                   {7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8},
                                   {9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13},
                                   {2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9},
                                   {12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11},
                                   {13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10},
                                   {6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5},
                                   {10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0},
                                   {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15},
                                   {14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3}};

inline uint64_t rotr64(uint64_t x, int n) { return (x >> n) | (x << (64 - n)); }

inline void mix(uint64_t v[16], int a, int b, int c, int d, uint64_t x, uint64_t y) {
  v[a] = v[a] + v[b] + x;
  v[d] = rotr64(v[d] ^ v[a], 32);
  v[c] = v[c] + v[d];
  v[b] = rotr64(v[b] ^ v[c], 24);
  v[a] = v[a] + v[b] + y;
  v[d] = rotr64(v[d] ^ v[a], 16);
  v[c] = v[c] + v[d];
  v[b] = rotr64(v[b] ^ v[c], 63);
}

}  // namespace

blake2b_t::blake2b_t(size_t out_len, const void* key, size_t key_len) : out_len_(out_len) {
  if (out_len < 1 || out_len > 64) throw std::invalid_argument("blake2b: output length 1..64");
  if (key_len > 64) throw std::invalid_argument("blake2b: key length 0..64");
  std::memcpy(h_, iv, sizeof h_);
  // Parameter block (RFC 7693 §2.5): digest length, key length, fanout 1, depth 1.
  h_[0] ^= 0x01010000ULL ^ (uint64_t(key_len) << 8) ^ uint64_t(out_len);
  if (key_len > 0) {
    uint8_t block[128] = {};
    std::memcpy(block, key, key_len);
    update(block, 128);
  }
}

void blake2b_t::compress(const uint8_t block[128], bool last) {
  uint64_t m[16], v[16];
  for (int i = 0; i < 16; ++i) {
    uint64_t w = 0;
    for (int j = 7; j >= 0; --j) w = (w << 8) | block[8 * i + j];
    m[i] = w;
  }
  for (int i = 0; i < 8; ++i) {
    v[i] = h_[i];
    v[i + 8] = iv[i];
  }
  v[12] ^= t_[0];
  v[13] ^= t_[1];
  if (last) v[14] = ~v[14];
  for (int r = 0; r < 12; ++r) {
    const uint8_t* s = sigma[r];
    mix(v, 0, 4, 8, 12, m[s[0]], m[s[1]]);
    mix(v, 1, 5, 9, 13, m[s[2]], m[s[3]]);
    mix(v, 2, 6, 10, 14, m[s[4]], m[s[5]]);
    mix(v, 3, 7, 11, 15, m[s[6]], m[s[7]]);
    mix(v, 0, 5, 10, 15, m[s[8]], m[s[9]]);
    mix(v, 1, 6, 11, 12, m[s[10]], m[s[11]]);
    mix(v, 2, 7, 8, 13, m[s[12]], m[s[13]]);
    mix(v, 3, 4, 9, 14, m[s[14]], m[s[15]]);
  }
  for (int i = 0; i < 8; ++i) h_[i] ^= v[i] ^ v[i + 8];
}

blake2b_t& blake2b_t::update(const void* data, size_t n) {
  const uint8_t* p = static_cast<const uint8_t*>(data);
  while (n > 0) {
    // The last block is compressed in finalize: a full buffer is flushed only when more follows.
    if (buf_len_ == 128) {
      t_[0] += 128;
      if (t_[0] < 128) ++t_[1];
      compress(buf_, false);
      buf_len_ = 0;
    }
    const size_t take = n < 128 - buf_len_ ? n : 128 - buf_len_;
    std::memcpy(buf_ + buf_len_, p, take);
    buf_len_ += take;
    p += take;
    n -= take;
  }
  return *this;
}

void blake2b_t::finalize(uint8_t* out) {
  t_[0] += buf_len_;
  if (t_[0] < buf_len_) ++t_[1];
  std::memset(buf_ + buf_len_, 0, 128 - buf_len_);
  compress(buf_, true);
  for (size_t i = 0; i < out_len_; ++i) out[i] = uint8_t(h_[i / 8] >> (8 * (i % 8)));
}

std::array<uint8_t, 64> blake2b_t::hash512(const void* data, size_t n) {
  std::array<uint8_t, 64> out;
  blake2b_t(64).update(data, n).finalize(out.data());
  return out;
}

}  // namespace zk
