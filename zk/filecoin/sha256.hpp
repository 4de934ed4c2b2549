#pragma once
// SHA-256 (FIPS 180-4) for sealing: the compression function over whole 64-byte blocks, with the
// x86 SHA extensions (SHA-NI) when the CPU has them (CPUID at run time; ZK_NO_SHANI=1 turns them
// off) and a portable implementation otherwise; a streaming hasher and the one-shot digest on top.
//
// Filecoin's uses (filecoin-hashers 14.1.0 src/sha256.rs, sha2raw 14.1.0 src/sha256.rs):
//   * Sha256Function::hash / hash2 / node: SHA-256 of the bytes, then the top two bits of the last
//     byte cleared (`trim_to_fr32`: digest[31] &= 0x3f), so the 32 bytes read as a little-endian
//     integer are below 2^254 < r and are a canonical BLS12-381 scalar.
//   * SDR labels (storage-proofs-porep create_label/single.rs) hash 64-byte blocks through
//     sha2raw's raw compression and finish with standard SHA-256 padding; labels.hpp builds its
//     blocks and calls sha256_compress directly.
#include <array>
#include <cstddef>
#include <cstdint>

namespace zk::filecoin {

// A 32-byte value as Filecoin stores it: a SHA-256 digest, a label, a Merkle node, a commitment
// (for Poseidon nodes: the canonical little-endian encoding of an Fr element). The same alias as
// registry.hpp's (hex helpers: registry.hpp to_hex, parse_hex32).
using bytes32_t = std::array<uint8_t, 32>;

inline constexpr uint32_t sha256_iv[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                          0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};

// Compresses n consecutive 64-byte blocks into state (FIPS 180-4 §6.2.2), on SHA-NI when
// available, else portably.
void sha256_compress(uint32_t state[8], const uint8_t* blocks, size_t n);
// The portable implementation alone (the reference the SHA-NI path is tested against).
void sha256_compress_portable(uint32_t state[8], const uint8_t* blocks, size_t n);
// True when sha256_compress uses SHA-NI: the CPU has SHA, SSSE3 and SSE4.1 and ZK_NO_SHANI is
// unset or "0".
bool sha256_uses_shani();
// Whether the CPU has the extensions at all (whatever ZK_NO_SHANI says).
bool sha256_cpu_has_shani();
// The SHA-NI implementation itself; callable only when sha256_cpu_has_shani().
void sha256_compress_shani(uint32_t state[8], const uint8_t* blocks, size_t n);

// The big-endian digest bytes of a state.
bytes32_t sha256_state_bytes(const uint32_t state[8]);

// Streaming SHA-256 of any number of bytes.
class sha256_hasher_t {
 public:
  sha256_hasher_t();
  sha256_hasher_t& update(const void* data, size_t n);
  bytes32_t finish();  // the hasher is spent afterwards

 private:
  uint32_t state_[8];
  uint8_t buf_[64];
  size_t buffered_ = 0;
  uint64_t total_ = 0;
};

bytes32_t sha256(const void* data, size_t n);

// Clears the top two bits of the last byte (filecoin-hashers Sha256Domain::trim_to_fr32,
// fr32 bytes_into_fr_repr_safe): the value, read little-endian, is then below 2^254.
inline void trim_to_fr32(bytes32_t& v) { v[31] &= 0x3f; }

// SHA-256 truncated to 254 bits: filecoin-hashers Sha256Function::hash.
bytes32_t sha256_trunc(const void* data, size_t n);
// sha256(a ‖ b) truncated: Sha256Function::hash2 and the binary tree's node(left, right).
bytes32_t sha256_trunc2(const bytes32_t& a, const bytes32_t& b);

}  // namespace zk::filecoin
