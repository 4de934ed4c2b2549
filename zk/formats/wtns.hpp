#pragma once
// .wtns version 2 reader (docs/formats.md §1.3).
//   section 1: u32 n8, prime r (n8 bytes LE), u32 nWitness
//   section 2: nWitness values, n8 bytes each, canonical (NOT Montgomery) LE
// The values stay in the mapping; they are the MSM scalars as they are (§3.5).

#include <cstdint>
#include <optional>
#include <string>

#include "zk/base/curve_id.hpp"
#include "zk/formats/binfile.hpp"

namespace zk::formats {

namespace wtns_section {
inline constexpr uint32_t header = 1;
inline constexpr uint32_t values = 2;
}  // namespace wtns_section

class wtns_file_t {
 public:
  // Maps and validates `path`: header length exact, section 2 length = n8*nWitness, every
  // value < prime (the error names the index), witness[0] = 1.
  explicit wtns_file_t(std::string path);

  const std::string& path() const { return file_.path(); }
  const binfile_t& file() const { return file_; }

  uint32_t n8() const { return n8_; }
  const uint8_t* prime() const { return prime_; }  // n8 bytes LE
  uint32_t n_witness() const { return n_witness_; }
  // n_witness() * n8() bytes of canonical LE values, wire order.
  const uint8_t* values() const { return values_; }
  const uint8_t* value(uint32_t i) const { return values_ + uint64_t(i) * n8_; }
  std::optional<curve_id_t> curve() const { return curve_from_scalar_prime(prime_, n8_); }

 private:
  binfile_t file_;
  uint32_t n8_ = 0;
  const uint8_t* prime_ = nullptr;
  uint32_t n_witness_ = 0;
  const uint8_t* values_ = nullptr;
};

}  // namespace zk::formats
