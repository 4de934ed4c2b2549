#include "zk/base/thread_pool.hpp"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdlib>
#include <deque>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace zk {
namespace {

thread_local bool in_worker = false;

class pool_t {
 public:
  explicit pool_t(unsigned threads) {
    for (unsigned i = 0; i + 1 < threads; ++i) workers_.emplace_back([this] { loop(); });
  }
  ~pool_t() {
    {
      std::lock_guard<std::mutex> lk(mu_);
      stop_ = true;
    }
    cv_.notify_all();
    for (auto& t : workers_) t.join();
  }
  void submit(std::function<void()> job) {
    {
      std::lock_guard<std::mutex> lk(mu_);
      jobs_.push_back(std::move(job));
    }
    cv_.notify_one();
  }
  // Runs one queued job on the calling thread if there is one.
  bool help() {
    std::function<void()> job;
    {
      std::lock_guard<std::mutex> lk(mu_);
      if (jobs_.empty()) return false;
      job = std::move(jobs_.front());
      jobs_.pop_front();
    }
    job();
    return true;
  }

 private:
  void loop() {
    in_worker = true;
    for (;;) {
      std::function<void()> job;
      {
        std::unique_lock<std::mutex> lk(mu_);
        cv_.wait(lk, [this] { return stop_ || !jobs_.empty(); });
        if (stop_ && jobs_.empty()) return;
        job = std::move(jobs_.front());
        jobs_.pop_front();
      }
      job();
    }
  }
  std::vector<std::thread> workers_;
  std::deque<std::function<void()>> jobs_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool stop_ = false;
};

pool_t& pool() {
  static pool_t p(compute_threads());
  return p;
}

}  // namespace

unsigned compute_threads() {
  static unsigned n = [] {
    if (const char* e = std::getenv("ZK_THREADS")) {
      int v = std::atoi(e);
      if (v > 0) return (unsigned)v;
    }
    return std::max(1u, std::thread::hardware_concurrency());
  }();
  return n;
}

void run_parallel(const std::function<void(size_t)>& task, size_t count) {
  if (count == 0) return;
  if (count == 1 || in_worker || compute_threads() == 1) {
    for (size_t i = 0; i < count; ++i) task(i);
    return;
  }
  std::atomic<size_t> remaining{count};
  std::mutex mu;
  std::condition_variable done;
  std::exception_ptr error;
  auto wrap = [&](size_t i) {
    try {
      task(i);
    } catch (...) {
      std::lock_guard<std::mutex> lk(mu);
      if (!error) error = std::current_exception();
    }
    // Decrement under the lock: the waiter may destroy mu as soon as it sees zero.
    std::lock_guard<std::mutex> lk(mu);
    if (remaining.fetch_sub(1) == 1) done.notify_all();
  };
  auto& p = pool();
  for (size_t i = 1; i < count; ++i) p.submit([&wrap, i] { wrap(i); });
  wrap(0);
  // Help with queued work (ours or others') while waiting, then block.
  while (remaining.load() != 0 && p.help()) {
  }
  {
    std::unique_lock<std::mutex> lk(mu);
    done.wait(lk, [&] { return remaining.load() == 0; });
  }
  if (error) std::rethrow_exception(error);
}

void parallel_for(size_t n, const std::function<void(size_t, size_t)>& fn, size_t chunks) {
  if (n == 0) return;
  if (chunks == 0) chunks = compute_threads();
  chunks = std::min(chunks, n);
  size_t step = (n + chunks - 1) / chunks;
  chunks = (n + step - 1) / step;
  run_parallel([&](size_t c) { fn(c * step, std::min(n, (c + 1) * step)); }, chunks);
}

}  // namespace zk
