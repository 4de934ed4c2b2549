#pragma once
// BLAKE2b (RFC 7693), sequential mode, optional key (≤ 64 bytes), output 1…64 bytes. Filecoin
// uses it for the Feistel round function of the expander graph (storage-proofs-core
// crypto/feistel.rs: unkeyed, 64 bytes) and for the keys of the synthetic-PoRep ChaCha20
// streams (storage-proofs-porep stacked/vanilla/challenges.rs: keyed, 32 bytes).
#include <array>
#include <cstddef>
#include <cstdint>

namespace zk {

class blake2b_t {
 public:
  // out_len in 1…64, key_len in 0…64 (std::invalid_argument otherwise).
  explicit blake2b_t(size_t out_len = 64, const void* key = nullptr, size_t key_len = 0);
  blake2b_t& update(const void* data, size_t n);
  // Writes out_len bytes.
  void finalize(uint8_t* out);

  static std::array<uint8_t, 64> hash512(const void* data, size_t n);

 private:
  void compress(const uint8_t block[128], bool last);
  uint64_t h_[8];
  uint8_t buf_[128];
  size_t buf_len_ = 0;
  uint64_t t_[2] = {0, 0};
  size_t out_len_;
};

}  // namespace zk
