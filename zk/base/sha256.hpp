#pragma once
// SHA-256 (FIPS 180-4), the one implementation of the project: the compression function over
// whole 64-byte blocks with the x86 SHA extensions (SHA-NI) when the CPU has them (CPUID at run
// time; ZK_NO_SHANI=1 turns them off) and a portable implementation otherwise, a streaming hasher
// and the one-shot digest on top. Its users: key and circuit digests, the derivations of
// Filecoin's PoRep (replica_id, challenges, graph seeds), SDR labels and tree_d (zk/filecoin,
// which builds its 64-byte blocks and calls sha256_compress directly), and the constants of the
// SHA-256 gadgets (zk/circuit/sha256.hpp, zk/bellperson/gadgets/sha256.hpp).
#include <cstddef>
#include <cstdint>
#include <vector>

#include "zk/base/bytes.hpp"

namespace zk {

// FIPS 180-4 §5.3.3: the first 32 bits of the fractional parts of the square roots of the first
// 8 primes.
inline constexpr uint32_t sha256_iv[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                          0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
// FIPS 180-4 §4.2.2: the first 32 bits of the fractional parts of the cube roots of the first
// 64 primes.
alignas(16) inline constexpr uint32_t sha256_k[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

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
class sha256_t {
 public:
  using digest_t = bytes32_t;

  sha256_t() { reset(); }
  void reset();
  sha256_t& update(const void* data, size_t n);
  // The digest; the hasher is reset afterwards.
  digest_t finalize();

  static digest_t hash(const void* data, size_t n) { return sha256_t().update(data, n).finalize(); }

 private:
  uint32_t state_[8];
  uint8_t buf_[64];
  size_t buffered_ = 0;
  uint64_t total_ = 0;  // bytes hashed so far
};

inline bytes32_t sha256(const void* data, size_t n) { return sha256_t::hash(data, n); }
inline bytes32_t sha256(const std::vector<uint8_t>& v) {
  return sha256_t::hash(v.data(), v.size());
}

}  // namespace zk
