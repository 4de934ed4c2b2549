#include "zk/filecoin/core/fr32.hpp"

#include <cstring>
#include <stdexcept>
#include <string>

#include "zk/base/thread_pool.hpp"

namespace zk::filecoin {

namespace {

// 127 bytes as a 1,016-bit little-endian integer in 16 limbs (the top byte zero).
void load_chunk(const uint8_t* in, uint64_t limbs[16]) {
  uint8_t buf[128] = {};
  std::memcpy(buf, in, 127);
  for (int i = 0; i < 16; ++i) {
    uint64_t v = 0;
    for (int b = 7; b >= 0; --b) v = (v << 8) | buf[8 * i + b];
    limbs[i] = v;
  }
}

// Bits [start, start + 64) of the integer (zero past its end).
inline uint64_t bits_at(const uint64_t* limbs, size_t nlimbs, unsigned start) {
  const unsigned w = start / 64, s = start % 64;
  const uint64_t lo = w < nlimbs ? limbs[w] : 0;
  const uint64_t hi = w + 1 < nlimbs ? limbs[w + 1] : 0;
  return s == 0 ? lo : (lo >> s) | (hi << (64 - s));
}

void store_le64(uint8_t* p, uint64_t v) {
  for (int b = 0; b < 8; ++b) p[b] = uint8_t(v >> (8 * b));
}

void pad_chunk(const uint8_t* in, uint8_t* out) {
  uint64_t x[16];
  load_chunk(in, x);
  for (unsigned e = 0; e < 4; ++e) {
    for (unsigned l = 0; l < 4; ++l) {
      uint64_t v = bits_at(x, 16, 254 * e + 64 * l);
      if (l == 3) v &= (uint64_t(1) << 62) - 1;
      store_le64(out + 32 * e + 8 * l, v);
    }
  }
}

}  // namespace

void fr32_pad(const uint8_t* in, size_t n, uint8_t* out) {
  if (n % 127 != 0)
    throw std::invalid_argument("fr32: " + std::to_string(n) +
                                " unpadded bytes are not a multiple of 127");
  const size_t chunks = n / 127;
  parallel_for(chunks, [&](size_t b, size_t e) {
    for (size_t c = b; c < e; ++c) pad_chunk(in + 127 * c, out + 128 * c);
  });
}

std::vector<uint8_t> fr32_pad(const std::vector<uint8_t>& in) {
  std::vector<uint8_t> out(fr32_padded_size(in.size()));
  fr32_pad(in.data(), in.size(), out.data());
  return out;
}

void fr32_unpad(const uint8_t* in, size_t n, uint8_t* out) {
  if (n % 128 != 0)
    throw std::invalid_argument("fr32: " + std::to_string(n) +
                                " padded bytes are not a multiple of 128");
  for (size_t c = 0; c < n / 128; ++c) {
    uint64_t x[16] = {};
    for (unsigned e = 0; e < 4; ++e) {
      const uint8_t* el = in + 128 * c + 32 * e;
      if (el[31] & 0xc0)
        throw std::invalid_argument("fr32: element " + std::to_string(4 * c + e) +
                                    " has its top two bits set");
      // OR the 254 bits in at bit 254·e.
      for (unsigned l = 0; l < 4; ++l) {
        uint64_t v = 0;
        for (int b = 7; b >= 0; --b) v = (v << 8) | el[8 * l + b];
        const unsigned pos = 254 * e + 64 * l, w = pos / 64, s = pos % 64;
        if (w < 16) x[w] |= v << s;
        if (s != 0 && w + 1 < 16) x[w + 1] |= v >> (64 - s);
      }
    }
    uint8_t buf[128];
    for (int i = 0; i < 16; ++i) store_le64(buf + 8 * i, x[i]);
    std::memcpy(out + 127 * c, buf, 127);
  }
}

std::vector<uint8_t> fr32_unpad(const std::vector<uint8_t>& in) {
  std::vector<uint8_t> out(fr32_unpadded_size(in.size()));
  fr32_unpad(in.data(), in.size(), out.data());
  return out;
}

std::optional<fr_t> fr_from_bytes(const uint8_t* le32) {
  fr_t::big_t v{};
  for (int i = 0; i < 4; ++i)
    for (int j = 7; j >= 0; --j) v.l[i] = (v.l[i] << 8) | le32[8 * i + j];
  if (!ff::big_lt(v, fr_t::modulus)) return std::nullopt;
  return fr_t::from_canonical(v);
}

bytes32_t fr_to_bytes(const fr_t& x) {
  const auto v = x.to_canonical();
  bytes32_t out{};
  for (int i = 0; i < 32; ++i) out[size_t(i)] = uint8_t(v.l[i / 8] >> (8 * (i % 8)));
  return out;
}

}  // namespace zk::filecoin
