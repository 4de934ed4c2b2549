#pragma once
// Shared by the benchmark programs: the median wall time of repeated runs; random scalars.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
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

// A circuit's synthesis modes timed (bench_filecoin_circuit, bench_filecoin_update_circuit):
// shape_full() the shape with every challenge synthesized, shape(matrices) as the circuit's cache
// makes it, count() count mode, prove(parallel) one partition in prove mode into arrays touched
// once before the timing; one run for the shapes, the median of `repeats` for the others.
struct synthesis_times_t {
  double shape_full = 0, shape = 0, shape_no_matrices = 0, count = 0, prove_1 = 0, prove_pool = 0;
};
template <class ShapeFull, class Shape, class Count, class Prove>
synthesis_times_t time_synthesis(int repeats, const ShapeFull& shape_full, const Shape& shape,
                                 const Count& count, const Prove& prove) {
  synthesis_times_t t;
  t.shape_full = median_ms(1, shape_full);
  t.shape = median_ms(1, [&] { shape(true); });
  t.shape_no_matrices = median_ms(1, [&] { shape(false); });
  t.count = median_ms(repeats, count);
  prove(false);  // first touch
  t.prove_1 = median_ms(repeats, [&] { prove(false); });
  t.prove_pool = median_ms(repeats, [&] { prove(true); });
  return t;
}

inline void print_row(const char* what, double ms, uint64_t constraints) {
  std::printf("  %-36s %9.1f ms  %7.2f M constraints/s\n", what, ms, constraints / ms * 1e-3);
}

inline void print_synthesis(const synthesis_times_t& t, uint64_t constraints) {
  print_row("shape, every challenge synthesized", t.shape_full, constraints);
  print_row("shape (with matrices)", t.shape, constraints);
  print_row("shape (counts, densities, digest)", t.shape_no_matrices, constraints);
  print_row("count", t.count, constraints);
  print_row("prove, 1 core", t.prove_1, constraints);
  print_row("prove, pool", t.prove_pool, constraints);
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
