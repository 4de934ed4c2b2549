#pragma once
// filecoin-hashers 14.1.0's SHA-256 hasher (src/sha256.rs): SHA-256 truncated to 254 bits, so the
// 32 bytes read as a little-endian integer are below 2^254 < r, a canonical BLS12-381 scalar.
//   * Sha256Function::hash / hash2 / node: SHA-256 of the bytes, then the top two bits of the last
//     byte cleared (trim_to_fr32: digest[31] &= 0x3f; fr32 bytes_into_fr_repr_safe);
//   * SDR labels (storage-proofs-porep create_label/single.rs) hash 64-byte blocks through
//     sha2raw's raw compression and finish with standard SHA-256 padding (zk/base/sha256.hpp
//     sha256_compress; porep/vanilla/labels.hpp builds the blocks).
// The Poseidon hasher is neptune's (zk/neptune/poseidon.hpp).
#include <cstddef>

#include "zk/base/bytes.hpp"

namespace zk::filecoin {

// Clears the top two bits of the last byte (filecoin-hashers Sha256Domain::trim_to_fr32,
// fr32 bytes_into_fr_repr_safe): the value, read little-endian, is then below 2^254.
inline void trim_to_fr32(bytes32_t& v) { v[31] &= 0x3f; }

// SHA-256 truncated to 254 bits: filecoin-hashers Sha256Function::hash.
bytes32_t sha256_trunc(const void* data, size_t n);
// sha256(a ‖ b) truncated: Sha256Function::hash2 and the binary tree's node(left, right).
bytes32_t sha256_trunc2(const bytes32_t& a, const bytes32_t& b);

}  // namespace zk::filecoin
