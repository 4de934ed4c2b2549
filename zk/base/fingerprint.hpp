#pragma once
// A cheap fingerprint of a large byte range: FNV-1a over 64 evenly spaced 64-byte samples (all the
// bytes when few), the last 64 bytes and the length. It reads about 4 KiB whatever the size, so
// it can be taken on every use of a multi-GB proving key; a change that misses every sample (and
// keeps the length) goes unnoticed. Used where a key's bytes may have been replaced under the same
// address or file: the CUDA key cache (cuda/device.cu) and the prover's mapped keys
// (node/prover/prover_engine).
#include <cstddef>
#include <cstdint>

namespace zk {

inline uint64_t sampled_fingerprint(const void* p, size_t bytes) {
  const uint8_t* b = static_cast<const uint8_t*>(p);
  uint64_t h = 1469598103934665603ull ^ bytes;
  auto mix = [&](size_t off, size_t len) {
    for (size_t i = 0; i < len; ++i) {
      h ^= b[off + i];
      h *= 1099511628211ull;
    }
  };
  constexpr size_t kSample = 64, kSamples = 64;
  if (bytes <= kSample * (kSamples + 2)) {
    mix(0, bytes);
    return h;
  }
  const size_t stride = (bytes - kSample) / kSamples;
  for (size_t s = 0; s < kSamples; ++s) mix(s * stride, kSample);
  mix(bytes - kSample, kSample);
  return h;
}

}  // namespace zk
