// Native SHA-256, FIPS 180-4 §6.2 (one-shot).
#include "zk/circuit/sha256.hpp"

#include <cstring>

namespace zk::circuit {
namespace {

inline uint32_t rotr(uint32_t x, unsigned n) { return (x >> n) | (x << (32 - n)); }

void compress(uint32_t h[8], const uint8_t* p) {
  uint32_t w[64];
  for (int t = 0; t < 16; ++t)
    w[t] = uint32_t(p[4 * t]) << 24 | uint32_t(p[4 * t + 1]) << 16 | uint32_t(p[4 * t + 2]) << 8 |
           p[4 * t + 3];
  for (int t = 16; t < 64; ++t) {
    uint32_t s0 = rotr(w[t - 15], 7) ^ rotr(w[t - 15], 18) ^ (w[t - 15] >> 3);
    uint32_t s1 = rotr(w[t - 2], 17) ^ rotr(w[t - 2], 19) ^ (w[t - 2] >> 10);
    w[t] = s1 + w[t - 7] + s0 + w[t - 16];
  }
  uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
  for (int t = 0; t < 64; ++t) {
    uint32_t t1 = hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) +
                  sha256_constants::k[t] + w[t];
    uint32_t t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
    hh = g;
    g = f;
    f = e;
    e = d + t1;
    d = c;
    c = b;
    b = a;
    a = t1 + t2;
  }
  h[0] += a;
  h[1] += b;
  h[2] += c;
  h[3] += d;
  h[4] += e;
  h[5] += f;
  h[6] += g;
  h[7] += hh;
}

}  // namespace

sha256_digest_t sha256(const uint8_t* data, size_t n) {
  uint32_t h[8];
  std::memcpy(h, sha256_constants::iv, sizeof(h));
  size_t off = 0;
  for (; off + 64 <= n; off += 64) compress(h, data + off);
  // Final block(s): the rest, 0x80, zeros, the bit length as u64 big-endian (§5.1.1).
  uint8_t tail[128] = {};
  size_t rest = n - off;
  if (rest) std::memcpy(tail, data + off, rest);
  tail[rest] = 0x80;
  size_t tail_len = rest + 1 + 8 <= 64 ? 64 : 128;
  uint64_t bits = uint64_t(n) * 8;
  for (int i = 0; i < 8; ++i) tail[tail_len - 1 - i] = uint8_t(bits >> (8 * i));
  for (size_t o = 0; o < tail_len; o += 64) compress(h, tail + o);
  sha256_digest_t d;
  for (int j = 0; j < 8; ++j)
    for (int i = 0; i < 4; ++i) d[4 * j + i] = uint8_t(h[j] >> (24 - 8 * i));
  return d;
}

std::string to_hex(const uint8_t* data, size_t n) {
  static const char* digits = "0123456789abcdef";
  std::string s(2 * n, '0');
  for (size_t i = 0; i < n; ++i) {
    s[2 * i] = digits[data[i] >> 4];
    s[2 * i + 1] = digits[data[i] & 15];
  }
  return s;
}

}  // namespace zk::circuit
