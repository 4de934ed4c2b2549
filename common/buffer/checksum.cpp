#include "common/buffer/checksum.hpp"

#include <cstring>

namespace zk::buffer {
namespace {

// The five 64-bit primes of the XXH64 specification (§ "Algorithm description").
constexpr uint64_t p1 = 0x9E3779B185EBCA87ULL;
constexpr uint64_t p2 = 0xC2B2AE3D27D4EB4FULL;
constexpr uint64_t p3 = 0x165667B19E3779F9ULL;
constexpr uint64_t p4 = 0x85EBCA77C2B2AE63ULL;
constexpr uint64_t p5 = 0x27D4EB2F165667C5ULL;

inline uint64_t rotl(uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }
// Little-endian loads (x86 is little-endian; memcpy keeps them free of alignment UB).
inline uint64_t read64(const unsigned char* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  return v;
}
inline uint32_t read32(const unsigned char* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}

// acc = rotl(acc + input·P2, 31)·P1
inline uint64_t round(uint64_t acc, uint64_t input) {
  acc += input * p2;
  acc = rotl(acc, 31);
  return acc * p1;
}
inline uint64_t merge_round(uint64_t acc, uint64_t val) {
  acc ^= round(0, val);
  return acc * p1 + p4;
}

// Consumes whole 32-byte stripes from p (len a multiple of 32) into the four lanes.
inline void stripes(uint64_t v[4], const unsigned char* p, size_t len) {
  uint64_t v1 = v[0], v2 = v[1], v3 = v[2], v4 = v[3];
  const unsigned char* end = p + len;
  for (; p < end; p += 32) {
    v1 = round(v1, read64(p));
    v2 = round(v2, read64(p + 8));
    v3 = round(v3, read64(p + 16));
    v4 = round(v4, read64(p + 24));
  }
  v[0] = v1, v[1] = v2, v[2] = v3, v[3] = v4;
}

inline void init_lanes(uint64_t v[4], uint64_t seed) {
  v[0] = seed + p1 + p2;
  v[1] = seed + p2;
  v[2] = seed;
  v[3] = seed - p1;
}

// Lane convergence (when len >= 32), length, tail bytes, avalanche.
uint64_t finish(const uint64_t v[4], bool had_stripes, uint64_t seed, uint64_t total_len,
                const unsigned char* tail, size_t tail_len) {
  uint64_t h;
  if (had_stripes) {
    h = rotl(v[0], 1) + rotl(v[1], 7) + rotl(v[2], 12) + rotl(v[3], 18);
    for (int i = 0; i < 4; ++i) h = merge_round(h, v[i]);
  } else {
    h = seed + p5;
  }
  h += total_len;
  const unsigned char* p = tail;
  size_t n = tail_len;
  for (; n >= 8; n -= 8, p += 8) {
    h ^= round(0, read64(p));
    h = rotl(h, 27) * p1 + p4;
  }
  if (n >= 4) {
    h ^= uint64_t(read32(p)) * p1;
    h = rotl(h, 23) * p2 + p3;
    p += 4, n -= 4;
  }
  for (; n > 0; --n, ++p) {
    h ^= uint64_t(*p) * p5;
    h = rotl(h, 11) * p1;
  }
  h ^= h >> 33;
  h *= p2;
  h ^= h >> 29;
  h *= p3;
  h ^= h >> 32;
  return h;
}

}  // namespace

uint64_t xxh64(const void* data, size_t len, uint64_t seed) {
  const auto* p = static_cast<const unsigned char*>(data);
  uint64_t v[4];
  init_lanes(v, seed);
  const size_t body = len & ~size_t(31);
  if (body != 0) stripes(v, p, body);
  return finish(v, len >= 32, seed, len, p + body, len - body);
}

void xxh64_state_t::reset(uint64_t seed) {
  seed_ = seed;
  total_len_ = 0;
  mem_size_ = 0;
  init_lanes(v_, seed);
}

void xxh64_state_t::update(const void* data, size_t len) {
  const auto* p = static_cast<const unsigned char*>(data);
  total_len_ += len;
  if (mem_size_ + len < 32) {
    if (len != 0) std::memcpy(mem_ + mem_size_, p, len);
    mem_size_ += len;
    return;
  }
  if (mem_size_ != 0) {
    const size_t fill = 32 - mem_size_;
    std::memcpy(mem_ + mem_size_, p, fill);
    stripes(v_, mem_, 32);
    p += fill;
    len -= fill;
    mem_size_ = 0;
  }
  const size_t body = len & ~size_t(31);
  if (body != 0) stripes(v_, p, body);
  p += body;
  len -= body;
  if (len != 0) std::memcpy(mem_, p, len);
  mem_size_ = len;
}

uint64_t xxh64_state_t::digest() const {
  return finish(v_, total_len_ >= 32, seed_, total_len_, mem_, mem_size_);
}

}  // namespace zk::buffer
