#include "zk/formats/packed_witness.hpp"

#include <cstring>

#include "zk/base/error.hpp"
#include "zk/base/le_bytes.hpp"
#include "zk/base/thread_pool.hpp"

namespace zk::formats {

namespace {

enum : uint8_t { code_zero = 0, code_one = 1, code_other = 2 };

uint8_t code_of(const uint8_t* v) {
  uint64_t l[4];
  std::memcpy(l, v, 32);
  if ((l[1] | l[2] | l[3]) != 0) return code_other;
  return l[0] == 0 ? code_zero : l[0] == 1 ? code_one : code_other;
}

// Values per chunk of the parallel passes (a multiple of 4: chunks own whole code bytes).
constexpr uint64_t chunk_values = uint64_t(1) << 16;

uint64_t chunks_of(uint64_t n) { return (n + chunk_values - 1) / chunk_values; }

// How many values of each chunk are "other" (by code), and the running total before each.
std::vector<uint64_t> other_offsets(const uint8_t* codes, uint64_t n) {
  const uint64_t chunks = chunks_of(n);
  std::vector<uint64_t> at(chunks + 1, 0);
  parallel_for(size_t(chunks), [&](size_t b, size_t e) {
    for (size_t k = b; k < e; ++k) {
      const uint64_t lo = k * chunk_values, hi = std::min(n, lo + chunk_values);
      uint64_t count = 0;
      for (uint64_t i = lo; i < hi; ++i) count += ((codes[i / 4] >> (2 * (i % 4))) & 3) == 2;
      at[k + 1] = count;
    }
  });
  for (uint64_t k = 0; k < chunks; ++k) at[k + 1] += at[k];
  return at;
}

}  // namespace

witness_packer_t::witness_packer_t(uint64_t n) : n_(n), codes_((n + 3) / 4, 0) {}

void witness_packer_t::store(uint64_t at, uint8_t bits, uint64_t first, uint64_t count) {
  if (at >= codes_.size()) throw std::logic_error("witness_packer_t: a value past the witness");
  const bool whole = 4 * at >= first && 4 * at + 4 <= first + count;
  if (whole)
    codes_[at] = bits;
  else
    __atomic_fetch_or(&codes_[at], bits, __ATOMIC_RELAXED);
}

void witness_packer_t::add(uint64_t first, uint64_t count, std::vector<uint8_t> others) {
  std::lock_guard<std::mutex> lk(mu_);
  if (!pieces_.emplace(first, std::make_pair(count, std::move(others))).second)
    throw std::logic_error("witness_packer_t: values from " + std::to_string(first) + " put twice");
}

std::vector<uint8_t> witness_packer_t::finish() {
  std::lock_guard<std::mutex> lk(mu_);
  uint64_t at = 0, others = 0;
  for (const auto& [first, piece] : pieces_) {
    if (first != at)
      throw std::logic_error("witness_packer_t: values " + std::to_string(at) + " … " +
                             std::to_string(first) + " were never put (or overlap)");
    at += piece.first;
    others += piece.second.size() / 32;
  }
  if (at != n_)
    throw std::logic_error("witness_packer_t: " + std::to_string(at) + " of " + std::to_string(n_) +
                           " values put");
  std::vector<uint8_t> out(packed_witness_bytes(n_, others));
  le_put(out.data(), 0, packed_witness_magic);
  le_put(out.data(), 4, packed_witness_version);
  le_put(out.data(), 8, n_);
  le_put(out.data(), 16, others);
  std::memcpy(out.data() + packed_witness_header, codes_.data(), codes_.size());
  uint8_t* rest = out.data() + packed_witness_header + codes_.size();
  for (auto& [first, piece] : pieces_) {
    std::memcpy(rest, piece.second.data(), piece.second.size());
    rest += piece.second.size();
    piece.second = {};
  }
  codes_ = {};
  return out;
}

uint64_t count_others(const uint8_t* canonical, uint64_t n) {
  const uint64_t chunks = chunks_of(n);
  std::vector<uint64_t> per(chunks, 0);
  parallel_for(size_t(chunks), [&](size_t b, size_t e) {
    for (size_t k = b; k < e; ++k) {
      const uint64_t lo = k * chunk_values, hi = std::min(n, lo + chunk_values);
      uint64_t count = 0;
      for (uint64_t i = lo; i < hi; ++i) count += code_of(canonical + 32 * i) == code_other;
      per[k] = count;
    }
  });
  uint64_t total = 0;
  for (uint64_t c : per) total += c;
  return total;
}

uint64_t pack_witness(const uint8_t* canonical, uint64_t n, uint64_t others, uint8_t* out) {
  le_put(out, 0, packed_witness_magic);
  le_put(out, 4, packed_witness_version);
  le_put(out, 8, n);
  le_put(out, 16, others);
  uint8_t* codes = out + packed_witness_header;
  const uint64_t code_bytes = (n + 3) / 4;
  // Codes first (chunks own whole bytes), then the others at their running offsets.
  parallel_for(size_t(chunks_of(n)), [&](size_t b, size_t e) {
    for (size_t k = b; k < e; ++k) {
      const uint64_t lo = k * chunk_values, hi = std::min(n, lo + chunk_values);
      std::memset(codes + lo / 4, 0, size_t((hi - lo + 3) / 4));
      for (uint64_t i = lo; i < hi; ++i)
        codes[i / 4] |= uint8_t(code_of(canonical + 32 * i) << (2 * (i % 4)));
    }
  });
  const std::vector<uint64_t> at = other_offsets(codes, n);
  if (at.back() != others)
    throw std::invalid_argument("pack_witness: " + std::to_string(at.back()) +
                                " values are neither 0 nor 1, the caller counted " +
                                std::to_string(others));
  uint8_t* rest = codes + code_bytes;
  parallel_for(size_t(chunks_of(n)), [&](size_t b, size_t e) {
    for (size_t k = b; k < e; ++k) {
      const uint64_t lo = k * chunk_values, hi = std::min(n, lo + chunk_values);
      uint64_t o = at[k];
      for (uint64_t i = lo; i < hi; ++i)
        if (((codes[i / 4] >> (2 * (i % 4))) & 3) == code_other)
          std::memcpy(rest + 32 * o++, canonical + 32 * i, 32);
    }
  });
  return packed_witness_bytes(n, others);
}

packed_witness_info_t check_packed_witness(const uint8_t* p, uint64_t size,
                                           const uint64_t modulus[4], const std::string& what) {
  auto fail = [&](const std::string& why, uint64_t off) {
    throw format_error(what + ": packed witness: " + why + " (at byte " + std::to_string(off) +
                       ")");
  };
  if (size < packed_witness_header)
    fail("the header needs " + std::to_string(packed_witness_header) + " bytes, there are " +
             std::to_string(size),
         0);
  if (le_get<uint32_t>(p, 0) != packed_witness_magic) fail("magic is not \"ZKPW\"", 0);
  const uint32_t version = le_get<uint32_t>(p, 4);
  if (version != packed_witness_version)
    fail("version " + std::to_string(version) + " is not supported (expected 1)", 4);
  packed_witness_info_t info;
  info.n = le_get<uint64_t>(p, 8);
  info.others = le_get<uint64_t>(p, 16);
  constexpr uint64_t max_values = uint64_t(1) << 40;
  if (info.n > max_values) fail("n = " + std::to_string(info.n) + " values is too many", 8);
  if (info.others > info.n)
    fail("others = " + std::to_string(info.others) + " exceeds n = " + std::to_string(info.n), 16);
  const uint64_t want = packed_witness_bytes(info.n, info.others);
  if (size != want)
    fail(std::to_string(size) + " bytes, the counts (n = " + std::to_string(info.n) +
             ", others = " + std::to_string(info.others) + ") need " + std::to_string(want),
         0);
  const uint8_t* codes = p + packed_witness_header;
  const uint64_t code_bytes = (info.n + 3) / 4;
  for (uint64_t i = 0; i < code_bytes; ++i) {
    const uint8_t b = codes[i];
    // A code 3 has both bits set: (b & (b >> 1)) holds its low bit at an even position.
    if (b & (b >> 1) & 0x55) {
      unsigned k = 0;
      while (((b >> (2 * k)) & 3) != 3) ++k;
      fail("value " + std::to_string(4 * i + k) + " has the invalid code 3",
           packed_witness_header + i);
    }
  }
  if (info.n % 4 != 0 && (codes[code_bytes - 1] >> (2 * (info.n % 4))) != 0)
    fail("the unused bits of the last code byte are not zero",
         packed_witness_header + code_bytes - 1);
  const std::vector<uint64_t> at = other_offsets(codes, info.n);
  if (at.back() != info.others)
    fail(std::to_string(at.back()) + " codes say \"other\", the header says " +
             std::to_string(info.others),
         16);
  const uint8_t* rest = codes + code_bytes;
  for (uint64_t o = 0; o < info.others; ++o) {
    const uint8_t* v = rest + 32 * o;
    uint64_t l[4];
    std::memcpy(l, v, 32);
    int cmp = 0;
    for (int i = 3; i >= 0 && cmp == 0; --i) cmp = l[i] < modulus[i] ? -1 : l[i] > modulus[i];
    if (cmp >= 0)
      fail("other value " + std::to_string(o) + " is not below the field's modulus",
           packed_witness_header + code_bytes + 32 * o);
    if (code_of(v) != code_other)
      fail("other value " + std::to_string(o) + " is 0 or 1 (those travel as codes)",
           packed_witness_header + code_bytes + 32 * o);
  }
  return info;
}

witness_bits_t witness_bits(const uint8_t* p) {
  witness_bits_t b;
  b.n = le_get<uint64_t>(p, 8);
  b.n_others = le_get<uint64_t>(p, 16);
  const uint8_t* codes = p + packed_witness_header;
  b.others = codes + (b.n + 3) / 4;
  b.words.resize((b.n + 63) / 64);
  parallel_for(b.words.size(), [&](size_t lo, size_t hi) {
    for (size_t w = lo; w < hi; ++w) {
      witness_bits_t::word_t& out = b.words[w];
      const uint64_t first = 64 * uint64_t(w), end = std::min(b.n, first + 64);
      for (uint64_t i = first; i < end; ++i) {
        const uint8_t code = (codes[i / 4] >> (2 * (i % 4))) & 3;
        out.other |= uint64_t(code == code_other) << (i - first);
        out.one |= uint64_t(code == code_one) << (i - first);
      }
    }
  });
  uint64_t rank = 0;
  for (auto& w : b.words) {
    w.rank = rank;
    rank += uint64_t(__builtin_popcountll(w.other));
  }
  return b;
}

void unpack_prefix(const uint8_t* p, uint64_t count, uint8_t* out) {
  const uint64_t n = le_get<uint64_t>(p, 8);
  if (count > n)
    throw std::invalid_argument("unpack_prefix: " + std::to_string(count) + " of " +
                                std::to_string(n) + " values");
  const uint8_t* codes = p + packed_witness_header;
  const uint8_t* rest = codes + (n + 3) / 4;
  uint64_t o = 0;
  for (uint64_t i = 0; i < count; ++i) {
    const uint8_t code = (codes[i / 4] >> (2 * (i % 4))) & 3;
    if (code == code_other) {
      std::memcpy(out + 32 * i, rest + 32 * o++, 32);
    } else {
      const uint64_t l[4] = {code, 0, 0, 0};
      std::memcpy(out + 32 * i, l, 32);
    }
  }
}

void unpack_witness(const uint8_t* p, uint8_t* out) {
  const uint64_t n = le_get<uint64_t>(p, 8);
  const uint8_t* codes = p + packed_witness_header;
  const uint8_t* rest = codes + (n + 3) / 4;
  const std::vector<uint64_t> at = other_offsets(codes, n);
  parallel_for(size_t(chunks_of(n)), [&](size_t b, size_t e) {
    for (size_t k = b; k < e; ++k) {
      const uint64_t lo = k * chunk_values, hi = std::min(n, lo + chunk_values);
      uint64_t o = at[k];
      for (uint64_t i = lo; i < hi; ++i) {
        uint8_t* v = out + 32 * i;
        const uint8_t code = (codes[i / 4] >> (2 * (i % 4))) & 3;
        if (code == code_other) {
          std::memcpy(v, rest + 32 * o++, 32);
        } else {
          const uint64_t l[4] = {code, 0, 0, 0};
          std::memcpy(v, l, 32);
        }
      }
    }
  });
}

}  // namespace zk::formats
