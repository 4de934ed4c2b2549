#pragma once
// fr32 padding (crate fr32 12.1.0 src/padding.rs, FR32_PADDING_MAP: 254 data bits per 256-bit
// element): the unpadded bytes read as one bit stream, least significant bit of each byte first
// (BitVecLEu8), are cut into 254-bit units; each unit becomes a 32-byte element, little-endian,
// whose two top bits are zero, so that every element is a BLS12-381 scalar. 127 unpadded bytes
// (1,016 bits = 4 units) become 128 padded bytes; a sector of S bytes holds S·127/128 bytes of
// piece data (filecoin-proofs add_piece writes exactly this for a piece that fills the sector).
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "zk/base/bytes.hpp"
#include "zk/ff/bls12_381.hpp"

namespace zk::filecoin {

// The scalar field every Filecoin value lives in (BLS12-381's r).
using fr_t = zk::bls12_381::fr_t;

// fr32 bytes_into_fr / fr_into_bytes: the 32 bytes (little-endian) as a field element, nullopt
// when the value is ≥ r; and back.
std::optional<fr_t> fr_from_bytes(const uint8_t* le32);
inline std::optional<fr_t> fr_from_bytes(const bytes32_t& b) { return fr_from_bytes(b.data()); }
bytes32_t fr_to_bytes(const fr_t& x);

inline constexpr uint64_t fr32_unpadded_size(uint64_t padded) { return padded / 128 * 127; }
inline constexpr uint64_t fr32_padded_size(uint64_t unpadded) { return unpadded / 127 * 128; }

// in: n bytes, n a multiple of 127 (std::invalid_argument otherwise); out: n·128/127 bytes.
void fr32_pad(const uint8_t* in, size_t n, uint8_t* out);
std::vector<uint8_t> fr32_pad(const std::vector<uint8_t>& in);
// The inverse: in holds n bytes, a multiple of 128; out gets n·127/128. Throws
// std::invalid_argument when n is not a multiple of 128 or an element's top two bits are set
// (naming the element).
void fr32_unpad(const uint8_t* in, size_t n, uint8_t* out);
std::vector<uint8_t> fr32_unpad(const std::vector<uint8_t>& in);

}  // namespace zk::filecoin
