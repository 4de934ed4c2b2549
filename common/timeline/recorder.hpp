#pragma once
// Event recording that never blocks a compute thread: each recording thread owns a fixed-size
// single-producer/single-consumer ring; record() is a few stores and one release store (well
// under a microsecond), and drops the event (counted) when its ring is full rather than wait.
// A collector thread drains all rings periodically and ships batches to the aggregator.
#include <atomic>
#include <cstddef>
#include <memory>
#include <mutex>
#include <vector>

#include "common/timeline/event.hpp"

namespace zk::timeline {

class recorder_t {
 public:
  explicit recorder_t(uint16_t node, size_t ring_capacity = size_t(1) << 14);
  ~recorder_t();
  recorder_t(const recorder_t&) = delete;
  recorder_t& operator=(const recorder_t&) = delete;

  uint16_t node() const { return node_; }

  // Stamps node and (if zero) the time, then appends to the calling thread's ring.
  void record(event_t e) noexcept;
  void begin(uint64_t job, uint32_t partition, stage_t s, uint16_t actor,
             uint64_t bytes = 0) noexcept;
  void end(uint64_t job, uint32_t partition, stage_t s, uint16_t actor,
           uint64_t bytes = 0) noexcept;
  void instant(uint64_t job, uint32_t partition, stage_t s, uint16_t actor) noexcept;

  // Moves every recorded event to `out` (appending); returns how many. One drainer at a time.
  size_t drain(std::vector<event_t>& out);
  uint64_t dropped() const { return dropped_.load(std::memory_order_relaxed); }

 private:
  struct ring_t;
  ring_t* ring_for_this_thread();

  uint16_t node_;
  size_t capacity_;  // power of two
  std::mutex rings_mu_;
  std::vector<std::unique_ptr<ring_t>> rings_;
  std::mutex drain_mu_;
  std::atomic<uint64_t> dropped_{0};
  uint64_t id_;  // distinguishes recorders in the thread-local cache
};

}  // namespace zk::timeline
