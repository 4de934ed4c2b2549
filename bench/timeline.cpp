// bench_timeline: what recording an event costs a compute thread (docs/design.md "Timeline":
// "well under a microsecond, never blocks").
//
//   bench_timeline [events per thread = 2000000] [repeats = 5]
//
// Each thread records begin/end pairs as a prover or synthesis worker does (monotonic clock read
// included), with a drainer thread emptying the rings every 100 µs (a node's reporter does so
// every period). Reports ns per event (median of the repeats) for 1 and 2 recording threads, the
// cost of the clock read alone, and the events dropped (a full ring drops instead of waiting);
// then the aggregator's cost per event: out-of-order batches sorted, stored and counted into the
// cumulative metrics.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <tuple>
#include <vector>

#include "bench/bench_util.hpp"
#include "common/timeline/aggregator.hpp"
#include "common/timeline/recorder.hpp"

using namespace zk;

int main(int argc, char** argv) {
  const uint64_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 2000000;
  const int repeats = argc > 2 ? std::atoi(argv[2]) : 5;
  if (n == 0 || repeats <= 0) {
    std::fprintf(stderr, "usage: bench_timeline [events per thread > 0] [repeats > 0]\n");
    return 2;
  }
  volatile int64_t sink = 0;
  const double clock_ms = bench::median_ms(repeats, [&] {
    for (uint64_t i = 0; i < n; ++i) sink = sink + timeline::monotonic_ns();
  });
  std::printf("bench_timeline: %llu events per thread, median of %d\n", (unsigned long long)n,
              repeats);
  std::printf("  clock read alone (steady_clock)      %6.1f ns\n", clock_ms * 1e6 / double(n));
  for (unsigned threads : {1u, 2u}) {
    uint64_t dropped = 0, drained = 0;
    const double ms = bench::median_ms(repeats, [&] {
      timeline::recorder_t rec(1);
      std::atomic<bool> stop{false};
      std::vector<timeline::event_t> out;
      std::thread drainer([&] {
        while (!stop.load(std::memory_order_acquire)) {
          out.clear();
          drained += rec.drain(out);
          std::this_thread::sleep_for(std::chrono::microseconds(100));
        }
        out.clear();
        drained += rec.drain(out);
      });
      std::vector<std::thread> workers;
      for (unsigned t = 0; t < threads; ++t)
        workers.emplace_back([&, t] {
          for (uint64_t i = 0; i < n / 2; ++i) {
            rec.begin(i, t, timeline::stage_t::msm_a, uint16_t(t), 0);
            rec.end(i, t, timeline::stage_t::msm_a, uint16_t(t), 0);
          }
        });
      for (auto& w : workers) w.join();
      stop.store(true, std::memory_order_release);
      drainer.join();
      dropped += rec.dropped();
    });
    std::printf(
        "  record, %u thread%s (per event, each thread)  %6.1f ns   (%llu drained, %llu dropped in "
        "all runs)\n",
        threads, threads == 1 ? " " : "s", ms * 1e6 / double(n / 2 * 2),
        (unsigned long long)drained, (unsigned long long)dropped);
  }

  // The central aggregator's side: batches as nodes ship them (thread by thread, so not in time
  // order), each sorted, stored and counted into the cumulative metrics. 9 events per partition
  // (QUEUED, SYNTH, XFER, GPU begin/end, DONE), batches of 4500 (500 partitions).
  {
    const uint64_t parts = n / 9;
    std::vector<std::vector<timeline::event_t>> batches;
    std::vector<timeline::event_t> b;
    for (uint64_t p = 0; p < parts; ++p) {
      const int64_t t = int64_t(p) * 1000;
      const uint64_t job = p / 10;
      const uint32_t part = uint32_t(p % 10);
      using timeline::phase_t;
      using timeline::stage_t;
      for (auto [st, ph, dt, actor] : {std::tuple{stage_t::queued, phase_t::begin, 0, 0},
                                       {stage_t::queued, phase_t::end, 100, 0},
                                       {stage_t::synth, phase_t::begin, 100, 1},
                                       {stage_t::synth, phase_t::end, 400, 1},
                                       {stage_t::xfer, phase_t::begin, 400, 2},
                                       {stage_t::xfer, phase_t::end, 500, 2},
                                       {stage_t::gpu, phase_t::begin, 500, 3},
                                       {stage_t::gpu, phase_t::end, 900, 3},
                                       {stage_t::done, phase_t::instant, 900, 3}})
        b.push_back({job, part, st, ph, 1, uint16_t(actor), t + dt, 0});
      if (b.size() >= 4500) {
        std::stable_sort(b.begin(), b.end(),
                         [](const auto& x, const auto& y) { return x.actor < y.actor; });
        batches.push_back(std::move(b));
        b.clear();
      }
    }
    if (!b.empty()) batches.push_back(std::move(b));
    uint64_t proofs = 0;
    const double ms = bench::median_ms(repeats, [&] {
      timeline::aggregator_t agg;
      for (const auto& batch : batches) agg.add(batch);
      proofs = agg.metrics().proofs();
    });
    std::printf(
        "  aggregate (sort each batch, store, cumulative metrics)  %6.1f ns per event  (%llu "
        "proofs counted)\n",
        ms * 1e6 / double(parts * 9), (unsigned long long)proofs);
  }
  return 0;
}
