#pragma once
// Shared by the benchmark programs: the median wall time of repeated runs.
#include <algorithm>
#include <chrono>
#include <vector>

namespace zk::bench {

template <class F>
double median_ms(int repeats, F&& f) {
  std::vector<double> t;
  for (int i = 0; i < repeats; ++i) {
    auto t0 = std::chrono::steady_clock::now();
    f();
    t.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

}  // namespace zk::bench
