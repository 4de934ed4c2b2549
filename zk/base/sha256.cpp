#include "zk/base/sha256.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>
#endif

namespace zk {

namespace {

inline uint32_t rotr(uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }
inline uint32_t load_be32(const uint8_t* p) {
  return (uint32_t(p[0]) << 24) | (uint32_t(p[1]) << 16) | (uint32_t(p[2]) << 8) | uint32_t(p[3]);
}

#if defined(__x86_64__)
#define ZK_SHANI_TARGET __attribute__((target("sha,sse4.1,ssse3")))

// The SHA-NI schedule (Intel, "New Instructions Supporting the Secure Hash Algorithm on Intel
// Architecture Processors", 2013): the state lives as ABEF/CDGH lane pairs; each group of four
// rounds adds K to a message quad and runs two sha256rnds2; sha256msg1/msg2 extend the schedule
// four words at a time (W[j+1] from W[j-3..j], kept in four rotating registers).
ZK_SHANI_TARGET void compress_shani(uint32_t state[8], const uint8_t* data, size_t n) {
  const __m128i byte_swap = _mm_set_epi64x(0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL);
  __m128i tmp = _mm_loadu_si128(reinterpret_cast<const __m128i*>(&state[0]));
  __m128i state1 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(&state[4]));
  tmp = _mm_shuffle_epi32(tmp, 0xb1);                // C D A B
  state1 = _mm_shuffle_epi32(state1, 0x1b);          // E F G H
  __m128i state0 = _mm_alignr_epi8(tmp, state1, 8);  // A B E F
  state1 = _mm_blend_epi16(state1, tmp, 0xf0);       // C D G H

  for (; n > 0; --n, data += 64) {
    const __m128i abef = state0, cdgh = state1;
    __m128i w[4];
    for (int j = 0; j < 4; ++j)
      w[j] = _mm_shuffle_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(data + 16 * j)),
                              byte_swap);
    for (int j = 0; j < 16; ++j) {
      __m128i msg = _mm_add_epi32(
          w[j & 3], _mm_load_si128(reinterpret_cast<const __m128i*>(&sha256_k[4 * j])));
      state1 = _mm_sha256rnds2_epu32(state1, state0, msg);
      if (j >= 3 && j <= 14) {
        // W[j+1] (its slot already holds msg1(W[j-3], W[j-2])) += W[j-2..j+1 shifted]; msg2.
        __m128i t = _mm_alignr_epi8(w[j & 3], w[(j + 3) & 3], 4);
        w[(j + 1) & 3] = _mm_sha256msg2_epu32(_mm_add_epi32(w[(j + 1) & 3], t), w[j & 3]);
      }
      msg = _mm_shuffle_epi32(msg, 0x0e);
      state0 = _mm_sha256rnds2_epu32(state0, state1, msg);
      if (j >= 1 && j <= 12) w[(j + 3) & 3] = _mm_sha256msg1_epu32(w[(j + 3) & 3], w[j & 3]);
    }
    state0 = _mm_add_epi32(state0, abef);
    state1 = _mm_add_epi32(state1, cdgh);
  }

  tmp = _mm_shuffle_epi32(state0, 0x1b);        // F E B A
  state1 = _mm_shuffle_epi32(state1, 0xb1);     // D C H G
  state0 = _mm_blend_epi16(tmp, state1, 0xf0);  // D C B A
  state1 = _mm_alignr_epi8(state1, tmp, 8);     // H G F E
  _mm_storeu_si128(reinterpret_cast<__m128i*>(&state[0]), state0);
  _mm_storeu_si128(reinterpret_cast<__m128i*>(&state[4]), state1);
}
#endif

bool env_disables_shani() {
  const char* e = std::getenv("ZK_NO_SHANI");
  return e && *e && std::strcmp(e, "0") != 0;
}

}  // namespace

void sha256_compress_portable(uint32_t state[8], const uint8_t* blocks, size_t n) {
  uint32_t w[64];
  for (; n > 0; --n, blocks += 64) {
    for (int i = 0; i < 16; ++i) w[i] = load_be32(blocks + 4 * i);
    for (int i = 16; i < 64; ++i) {
      const uint32_t s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3);
      const uint32_t s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10);
      w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    uint32_t a = state[0], b = state[1], c = state[2], d = state[3];
    uint32_t e = state[4], f = state[5], g = state[6], h = state[7];
    for (int i = 0; i < 64; ++i) {
      const uint32_t t1 =
          h + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + sha256_k[i] + w[i];
      const uint32_t t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
      h = g;
      g = f;
      f = e;
      e = d + t1;
      d = c;
      c = b;
      b = a;
      a = t1 + t2;
    }
    state[0] += a;
    state[1] += b;
    state[2] += c;
    state[3] += d;
    state[4] += e;
    state[5] += f;
    state[6] += g;
    state[7] += h;
  }
}

bool sha256_cpu_has_shani() {
#if defined(__x86_64__)
  static const bool has = [] {
    __builtin_cpu_init();
    // CPUID leaf 7, sub-leaf 0: EBX bit 29 is SHA.
    unsigned a = 0, b = 0, c = 0, d = 0;
    if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return false;
    const bool sha = (b >> 29) & 1;
    return sha && __builtin_cpu_supports("ssse3") && __builtin_cpu_supports("sse4.1");
  }();
  return has;
#else
  return false;
#endif
}

bool sha256_uses_shani() {
  static const bool on = sha256_cpu_has_shani() && !env_disables_shani();
  return on;
}

void sha256_compress_shani(uint32_t state[8], const uint8_t* blocks, size_t n) {
#if defined(__x86_64__)
  if (!sha256_cpu_has_shani()) throw std::logic_error("sha256_compress_shani: no SHA-NI");
  compress_shani(state, blocks, n);
#else
  (void)state, (void)blocks, (void)n;
  throw std::logic_error("sha256_compress_shani: not an x86-64 build");
#endif
}

void sha256_compress(uint32_t state[8], const uint8_t* blocks, size_t n) {
#if defined(__x86_64__)
  if (sha256_uses_shani()) return compress_shani(state, blocks, n);
#endif
  sha256_compress_portable(state, blocks, n);
}

bytes32_t sha256_state_bytes(const uint32_t state[8]) {
  bytes32_t out;
  for (int i = 0; i < 8; ++i) {
    out[4 * i] = uint8_t(state[i] >> 24);
    out[4 * i + 1] = uint8_t(state[i] >> 16);
    out[4 * i + 2] = uint8_t(state[i] >> 8);
    out[4 * i + 3] = uint8_t(state[i]);
  }
  return out;
}

void sha256_t::reset() {
  std::memcpy(state_, sha256_iv, sizeof state_);
  buffered_ = 0;
  total_ = 0;
}

sha256_t& sha256_t::update(const void* data, size_t n) {
  const uint8_t* p = static_cast<const uint8_t*>(data);
  total_ += n;
  if (buffered_ > 0) {
    const size_t take = std::min(n, 64 - buffered_);
    std::memcpy(buf_ + buffered_, p, take);
    buffered_ += take;
    p += take;
    n -= take;
    if (buffered_ < 64) return *this;
    sha256_compress(state_, buf_, 1);
    buffered_ = 0;
  }
  if (n >= 64) {
    sha256_compress(state_, p, n / 64);
    p += n / 64 * 64;
    n %= 64;
  }
  std::memcpy(buf_, p, n);
  buffered_ = n;
  return *this;
}

sha256_t::digest_t sha256_t::finalize() {
  // FIPS 180-4 §5.1.1: 0x80, zeros to 56 mod 64, the bit length as a big-endian u64.
  const uint64_t bits = total_ * 8;
  uint8_t pad[128] = {0x80};
  const size_t pad_len = (buffered_ < 56 ? 56 : 120) - buffered_;
  for (int i = 0; i < 8; ++i) pad[pad_len + size_t(i)] = uint8_t(bits >> (56 - 8 * i));
  update(pad, pad_len + 8);
  const digest_t out = sha256_state_bytes(state_);
  reset();
  return out;
}

}  // namespace zk
