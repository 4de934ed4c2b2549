#pragma once
// Shared by the benchmark programs: the median wall time of repeated runs; random scalars.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

namespace zk::bench {

template <class F>
double median_ms(int repeats, F&& f) {
  std::vector<double> t;
  for (int i = 0; i < repeats; ++i) {
    auto t0 = std::chrono::steady_clock::now();
    f();
    t.push_back(
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

// n random 252-bit scalars (below both curves' r), 32 little-endian bytes each.
inline std::vector<uint8_t> random_scalars(std::mt19937_64& rng, size_t n) {
  std::vector<uint8_t> sc(32 * n);
  for (size_t i = 0; i < n; ++i) {
    uint64_t k[4] = {rng(), rng(), rng(), rng() & ((1ULL << 60) - 1)};
    std::memcpy(&sc[32 * i], k, 32);
  }
  return sc;
}

}  // namespace zk::bench
