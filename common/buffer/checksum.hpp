#pragma once
// The payload checksum of synth buffers and data-plane frames: XXH64 (Yann Collet's xxHash,
// 64-bit variant, seed 0), implemented here from its published specification
// (github.com/Cyan4973/xxHash/blob/dev/doc/xxhash_spec.md), not taken as a dependency.
//
// Why XXH64 rather than CRC32C: it is portable (no SSE4.2 target flag, the zkcommon build uses
// -mbmi2 -madx only), its four independent 64-bit lanes run at memory speed on one core
// (bench_net prints the figure; ~10+ GB/s where the CRC32 instruction on one stream is bound by
// its 3-cycle latency to ~8 B per 3 cycles without the three-stream merge), and 64 bits make an
// undetected corruption of a multi-hundred-MB buffer vanishingly unlikely. It is not a MAC:
// it detects corruption, not tampering.
//
// Streaming and one-shot give the same value for the same bytes, however they are split, so a
// receiver can hash each chunk as it arrives (while it is still in cache).
#include <cstddef>
#include <cstdint>

namespace zk::buffer {

// XXH64(data, len, seed).
uint64_t xxh64(const void* data, size_t len, uint64_t seed = 0);

class xxh64_state_t {
 public:
  explicit xxh64_state_t(uint64_t seed = 0) { reset(seed); }
  void reset(uint64_t seed = 0);
  void update(const void* data, size_t len);
  uint64_t digest() const;

 private:
  uint64_t total_len_ = 0;
  uint64_t seed_ = 0;
  uint64_t v_[4] = {};
  unsigned char mem_[32] = {};
  size_t mem_size_ = 0;
};

}  // namespace zk::buffer
