#pragma once
// SHA-256 (FIPS 180-4), a small portable reference: the derivations of Filecoin's PoRep
// (replica_id, challenges, graph seeds; zk/filecoin) hash a few hundred bytes each. Bulk hashing
// (labels, trees) belongs to a hardware-accelerated implementation, checked against this one.
#include <array>
#include <cstddef>
#include <cstdint>

namespace zk {

class sha256_t {
 public:
  using digest_t = std::array<uint8_t, 32>;

  sha256_t() { reset(); }
  void reset();
  sha256_t& update(const void* data, size_t n);
  // The digest; the object is reset afterwards.
  digest_t finalize();

  static digest_t hash(const void* data, size_t n) { return sha256_t().update(data, n).finalize(); }

  // One compression of the 64-byte block into state (the FIPS 180-4 round function).
  static void compress(uint32_t state[8], const uint8_t block[64]);

 private:
  uint32_t h_[8];
  uint8_t buf_[64];
  size_t buf_len_ = 0;
  uint64_t total_ = 0;  // bytes hashed so far
};

}  // namespace zk
