// The compute pool (zk/base/thread_pool.hpp): parallel_for's chunks cover [0, n) once each, at
// most `chunks` of them, of the documented size; a call made from inside a pool worker runs
// inline on that worker (nesting never deadlocks); an exception thrown by any chunk or task
// reaches the caller (on the pool after every other one has run; inline, with one thread, at
// once), and the pool works on afterwards;
// run_parallel runs its tasks at once; compute_threads() follows ZK_THREADS.
//
// CMakeLists.txt also runs this suite with ZK_THREADS=1 (everything inline on the caller) and
// ZK_THREADS=4 (more workers than this machine's cores), and the compute_threads case with
// ZK_THREADS=0 and =junk (ignored: the hardware's count); ZK_TEST_EXPECT_THREADS says what
// compute_threads() must then be ("hw": the hardware's).
#include "zk/base/thread_pool.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <map>
#include <mutex>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "tests/test_util.hpp"

using namespace std::chrono_literals;

namespace {

using range_t = std::pair<size_t, size_t>;

// The chunks parallel_for(n, ..., chunks) hands out, sorted.
std::vector<range_t> chunks_of(size_t n, size_t chunks) {
  std::mutex mu;
  std::vector<range_t> got;
  zk::parallel_for(
      n,
      [&](size_t b, size_t e) {
        std::lock_guard<std::mutex> g(mu);
        got.emplace_back(b, e);
      },
      chunks);
  std::sort(got.begin(), got.end());
  return got;
}

unsigned hardware_threads() { return std::max(1u, std::thread::hardware_concurrency()); }

}  // namespace

TEST_SUITE("thread_pool") {
  TEST_CASE("compute_threads: ZK_THREADS when it is a positive number, else the hardware's") {
    const unsigned n = zk::compute_threads();
    CHECK(n >= 1);
    CHECK(zk::compute_threads() == n);  // read once
    if (const char* want = std::getenv("ZK_TEST_EXPECT_THREADS")) {
      const std::string w = want;
      CHECK(n == (w == "hw" ? hardware_threads() : unsigned(std::stoul(w))));
    } else if (std::getenv("ZK_THREADS") == nullptr) {
      CHECK(n == hardware_threads());
    }
  }

  TEST_CASE("parallel_for: disjoint chunks of ceil(n / chunks) covering 0..n-1, each index once") {
    // n = 10 in 4 chunks: step 3, so [0,3) [3,6) [6,9) [9,10).
    CHECK(chunks_of(10, 4) == std::vector<range_t>{{0, 3}, {3, 6}, {6, 9}, {9, 10}});
    // 10 in 6: step 2, so only 5 chunks (never an empty one).
    CHECK(chunks_of(10, 6) == std::vector<range_t>{{0, 2}, {2, 4}, {4, 6}, {6, 8}, {8, 10}});
    // More chunks than items: one item each.
    CHECK(chunks_of(3, 100) == std::vector<range_t>{{0, 1}, {1, 2}, {2, 3}});
    CHECK(chunks_of(7, 1) == std::vector<range_t>{{0, 7}});
    // chunks = 0: one per compute thread.
    const size_t t = zk::compute_threads();
    const auto d = chunks_of(1000, 0);
    CHECK(d.size() == t);
    CHECK(d.front().first == 0);
    CHECK(d.back().second == 1000);
    // Every index exactly once, for sizes around the chunk boundaries.
    for (size_t n : {size_t(1), size_t(2), size_t(31), size_t(64), size_t(1001)}) {
      for (size_t c : {size_t(0), size_t(1), size_t(3), size_t(8), size_t(5000)}) {
        std::vector<std::atomic<int>> seen(n);
        zk::parallel_for(
            n,
            [&](size_t b, size_t e) {
              for (size_t i = b; i < e; ++i) seen[i].fetch_add(1);
            },
            c);
        size_t once = 0;
        for (auto& s : seen) once += s.load() == 1;
        CHECK_MESSAGE(once == n, "n ", n, " chunks ", c);
        CHECK(chunks_of(n, c).size() <= (c == 0 ? t : c));
      }
    }
  }

  TEST_CASE("parallel_for of nothing calls nothing") {
    bool called = false;
    zk::parallel_for(0, [&](size_t, size_t) { called = true; });
    zk::run_parallel([&](size_t) { called = true; }, 0);
    CHECK_FALSE(called);
  }

  TEST_CASE("nested calls from a pool worker run inline on that worker, and never deadlock") {
    const auto caller = std::this_thread::get_id();
    std::mutex mu;
    // outer chunk → (its thread, the threads its inner chunks ran on)
    std::map<size_t, std::pair<std::thread::id, std::set<std::thread::id>>> seen;
    std::atomic<size_t> inner_items{0};
    std::atomic<bool> worker_ran{false};
    zk::parallel_for(
        16,
        [&](size_t b, size_t e) {
          for (size_t o = b; o < e; ++o) {
            const auto outer = std::this_thread::get_id();
            // The caller's chunks wait (bounded) for a worker to have taken one, so that a worker
            // runs outer chunks however the threads are scheduled.
            if (outer != caller) worker_ran = true;
            if (outer == caller && zk::compute_threads() > 1)
              zk::test::eventually([&] { return worker_ran.load(); }, 20s, 1ms);
            std::set<std::thread::id> inner;
            zk::parallel_for(
                64,
                [&](size_t ib, size_t ie) {
                  inner_items += ie - ib;
                  std::lock_guard<std::mutex> g(mu);
                  inner.insert(std::this_thread::get_id());
                },
                16);
            std::lock_guard<std::mutex> g(mu);
            seen[o] = {outer, inner};
          }
        },
        16);
    CHECK(inner_items.load() == 16 * 64);
    REQUIRE(seen.size() == 16);
    size_t on_workers = 0;
    for (const auto& [o, threads] : seen) {
      const auto& [outer, inner] = threads;
      if (zk::compute_threads() == 1) {  // no pool: everything on the caller
        CHECK(outer == caller);
        CHECK(inner == std::set<std::thread::id>{caller});
      } else if (outer != caller) {  // on a worker: its nested call ran inline there
        ++on_workers;
        CHECK_MESSAGE(inner == std::set<std::thread::id>{outer}, "outer chunk ", o);
      }
    }
    if (zk::compute_threads() > 1) CHECK(on_workers >= 1);  // 16 chunks: some went to a worker
  }

  TEST_CASE(
      "an exception of a chunk or a task reaches the caller, on the pool after the others ran") {
    for (size_t bad : {size_t(0), size_t(5), size_t(7)}) {  // 0: the chunk the caller runs itself
      std::atomic<size_t> ran{0};
      const std::string what = zk::test::thrown<std::runtime_error>([&] {
        zk::parallel_for(
            8,
            [&](size_t b, size_t) {
              if (b == bad) throw std::runtime_error("chunk " + std::to_string(b));
              ++ran;
            },
            8);
      });
      CHECK(what == "chunk " + std::to_string(bad));
      if (zk::compute_threads() > 1) {
        CHECK(ran.load() == 7);  // on the pool every other chunk ran before parallel_for threw
      } else {
        CHECK(ran.load() == bad);  // inline, in order: it threw at once, the rest never ran
      }
    }
    // Several throw: one of their exceptions comes out (the first caught), not a crash.
    const std::string what = zk::test::thrown<std::runtime_error>([&] {
      zk::run_parallel([](size_t i) { throw std::runtime_error("task " + std::to_string(i)); }, 6);
    });
    CHECK(zk::test::contains(what, "task "));
    // Any exception type, as it was thrown.
    CHECK_THROWS_AS(zk::run_parallel(
                        [](size_t i) {
                          if (i == 2) throw std::out_of_range("two");
                        },
                        4),
                    std::out_of_range);
    // The pool is whole afterwards.
    std::atomic<size_t> sum{0};
    zk::parallel_for(100, [&](size_t b, size_t e) {
      for (size_t i = b; i < e; ++i) sum += i;
    });
    CHECK(sum.load() == 4950);
  }

  TEST_CASE("run_parallel: each task once, and up to compute_threads() of them at the same time") {
    const size_t t = zk::compute_threads();
    std::vector<std::atomic<int>> runs(37);
    zk::run_parallel([&](size_t i) { runs[i].fetch_add(1); }, runs.size());
    for (size_t i = 0; i < runs.size(); ++i) CHECK_MESSAGE(runs[i].load() == 1, "task ", i);
    // One task runs on the caller.
    std::thread::id one;
    zk::run_parallel([&](size_t) { one = std::this_thread::get_id(); }, 1);
    CHECK(one == std::this_thread::get_id());
    // compute_threads() tasks are all running at once: each waits (bounded) until every one has
    // started, which only happens when they run concurrently. With one thread they run in turn.
    std::atomic<size_t> started{0};
    std::atomic<size_t> met{0};
    std::mutex mu;
    std::set<std::thread::id> threads;
    zk::run_parallel(
        [&](size_t) {
          ++started;
          {
            std::lock_guard<std::mutex> g(mu);
            threads.insert(std::this_thread::get_id());
          }
          if (t > 1 && zk::test::eventually([&] { return started.load() == t; }, 20s, 1ms)) ++met;
        },
        t);
    CHECK(threads.size() == t);
    if (t > 1) CHECK(met.load() == t);
  }
}
