#pragma once
// The packed witness: a witness whose values are mostly 0 and 1 (a Filecoin PoRep partition's is
// 98.7 % so: the SHA-256 bits of its labels and paths) in a sixteenth of its 32-byte-a-value size.
// What the data plane ships for a partition whose a, b, c the prover host rebuilds from the
// circuit's structure (zk/bellperson/abc_program.hpp; docs/design.md "Synth buffers").
//
// Layout, little-endian:
//   off size            field
//     0    4            magic "ZKPW"
//     4    4            version 1
//     8    8            n        values
//    16    8            others   values that are neither 0 nor 1
//    24    ceil(n/4)    codes    2 bits a value, value i at bits 2·(i mod 4) of byte i/4:
//                                0 = zero, 1 = one, 2 = other (3 is invalid; the unused bits of
//                                the last byte are zero)
//     …    32·others    the other values in order, canonical little-endian (< p)
//
// Values travel canonical (what a .wtns and a synth buffer's witness hold), so unpacking a 0 or
// 1 costs a store, never a field multiplication.
#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "zk/msm/msm.hpp"

namespace zk::formats {

inline constexpr uint32_t packed_witness_magic = 0x57504b5a;  // "ZKPW" as a little-endian u32
inline constexpr uint32_t packed_witness_version = 1;
inline constexpr size_t packed_witness_header = 24;

// Bytes of a packed witness of n values, `others` of them neither 0 nor 1.
inline uint64_t packed_witness_bytes(uint64_t n, uint64_t others) {
  return packed_witness_header + (n + 3) / 4 + 32 * others;
}

// Packs a witness that arrives in pieces (a synthesis that streams its parts, possibly from
// several threads at once and in any order): put() each range of values once, in Montgomery form
// (any field type with is_zero, is_one and to_canonical); finish() returns the packed witness.
// put() may run concurrently for disjoint ranges.
class witness_packer_t {
 public:
  explicit witness_packer_t(uint64_t n);
  template <class Fr>
  void put(uint64_t first, const Fr* values, uint64_t count) {
    std::vector<uint8_t> others;
    uint8_t byte = 0;
    uint64_t byte_at = first / 4;
    for (uint64_t k = 0; k < count; ++k) {
      const uint64_t i = first + k;
      if (i / 4 != byte_at) {
        store(byte_at, byte, first, count);
        byte_at = i / 4;
        byte = 0;
      }
      const Fr& v = values[k];
      uint8_t code = 2;
      if (v.is_zero()) {
        code = 0;
      } else if (v.is_one()) {
        code = 1;
      } else {
        const auto c = v.to_canonical();
        static_assert(sizeof(c.l) == 32, "32-byte values");
        const auto* b = reinterpret_cast<const uint8_t*>(c.l);
        others.insert(others.end(), b, b + 32);
      }
      byte = uint8_t(byte | (code << (2 * (i % 4))));
    }
    if (count) store(byte_at, byte, first, count);
    add(first, count, std::move(others));
  }
  // Every value put exactly once, else std::logic_error (a caller's bug).
  std::vector<uint8_t> finish();

 private:
  // Byte `at` of the codes gets `bits`: shared with a neighbour's range when the range covers it
  // only in part, so those bytes are OR-ed atomically.
  void store(uint64_t at, uint8_t bits, uint64_t first, uint64_t count);
  void add(uint64_t first, uint64_t count, std::vector<uint8_t> others);

  uint64_t n_;
  std::vector<uint8_t> codes_;
  std::mutex mu_;
  std::map<uint64_t, std::pair<uint64_t, std::vector<uint8_t>>> pieces_;  // first → count, others
};

// Counts values of a canonical little-endian witness (32 bytes each) that are neither 0 nor 1.
uint64_t count_others(const uint8_t* canonical, uint64_t n);

// Packs n canonical little-endian values (32 bytes each) into `out` (packed_witness_bytes(n,
// others) bytes, others as count_others returns it). Returns the bytes written.
uint64_t pack_witness(const uint8_t* canonical, uint64_t n, uint64_t others, uint8_t* out);

// A packed witness read: its counts, after every structural check (what unpack relies on).
struct packed_witness_info_t {
  uint64_t n = 0, others = 0;
};
// Checks the header, the size, every code (no 3; the count of 2s equals `others`; unused bits
// zero) and every other value (< p of the field whose modulus is given as 4 little-endian 64-bit
// limbs: Fr::modulus.l).
// Throws zk::format_error naming `what`, the field and the byte offset.
packed_witness_info_t check_packed_witness(const uint8_t* p, uint64_t size,
                                           const uint64_t modulus[4], const std::string& what);

// A checked packed witness as bit sets, to evaluate constraints over it without unpacking it
// (zk/bellperson/abc_program.hpp): for each 64 values, which are "other", which are 1, and how
// many others come before them — value i's other is others + 32·(rank of i).
struct witness_bits_t {
  struct word_t {
    uint64_t other = 0, one = 0, rank = 0;
  };
  uint64_t n = 0, n_others = 0;
  std::vector<word_t> words;
  const uint8_t* others = nullptr;  // canonical, 32 bytes each, in the packed witness

  bool is_other(uint64_t i) const { return (words[i >> 6].other >> (i & 63)) & 1; }
  bool is_one(uint64_t i) const { return (words[i >> 6].one >> (i & 63)) & 1; }
  // The same classes as the MSMs read them (msm::make_plan of classed scalars), in place.
  msm::classed_scalars_t classes() const {
    return {
        n,     &words[0].other, &words[0].one, &words[0].rank, sizeof(word_t) / sizeof(uint64_t),
        others};
  }
  // Which other value i is (is_other(i) must hold).
  uint64_t rank(uint64_t i) const {
    const word_t& w = words[i >> 6];
    return w.rank + uint64_t(__builtin_popcountll(w.other & ((uint64_t(1) << (i & 63)) - 1)));
  }
};
// `p` must have passed check_packed_witness; the result points into it.
witness_bits_t witness_bits(const uint8_t* p);

// Values 0 … count − 1 (count ≤ n) as canonical little-endian, 32 bytes each, into `out`: a
// witness's ONE and public signals without unpacking the rest. `p` must have passed
// check_packed_witness.
void unpack_prefix(const uint8_t* p, uint64_t count, uint8_t* out);

// Writes the n values as canonical little-endian, 32 bytes each, into `out` (on the compute
// pool). `p` must have passed check_packed_witness.
void unpack_witness(const uint8_t* p, uint8_t* out);

}  // namespace zk::formats
