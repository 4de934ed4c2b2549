#include "common/timeline/recorder.hpp"

#include <utility>

namespace zk::timeline {

struct recorder_t::ring_t {
  explicit ring_t(size_t cap) : buf(cap) {}
  std::vector<event_t> buf;
  std::atomic<size_t> head{0};  // next slot the producer writes
  std::atomic<size_t> tail{0};  // next slot the consumer reads
};

namespace {
std::atomic<uint64_t> next_recorder_id{1};
struct cached_ring_t {
  uint64_t recorder;
  void* ring;
};
thread_local std::vector<cached_ring_t> tl_rings;
}  // namespace

recorder_t::recorder_t(uint16_t node, size_t ring_capacity) : node_(node), id_(next_recorder_id++) {
  size_t cap = 64;
  while (cap < ring_capacity) cap <<= 1;
  capacity_ = cap;
}

recorder_t::~recorder_t() = default;

recorder_t::ring_t* recorder_t::ring_for_this_thread() {
  for (const auto& c : tl_rings)
    if (c.recorder == id_) return static_cast<ring_t*>(c.ring);
  std::lock_guard<std::mutex> lk(rings_mu_);
  rings_.push_back(std::make_unique<ring_t>(capacity_));
  ring_t* r = rings_.back().get();
  tl_rings.push_back({id_, r});
  return r;
}

void recorder_t::record(event_t e) noexcept {
  e.node = node_;
  if (e.t_ns == 0) e.t_ns = monotonic_ns();
  ring_t* r;
  try {
    r = ring_for_this_thread();  // allocates only on a thread's first event
  } catch (...) {
    dropped_.fetch_add(1, std::memory_order_relaxed);
    return;
  }
  const size_t head = r->head.load(std::memory_order_relaxed);
  if (head - r->tail.load(std::memory_order_acquire) >= capacity_) {
    dropped_.fetch_add(1, std::memory_order_relaxed);
    return;
  }
  r->buf[head & (capacity_ - 1)] = e;
  r->head.store(head + 1, std::memory_order_release);
}

void recorder_t::begin(uint64_t job, uint32_t partition, stage_t s, uint16_t actor,
                       uint64_t bytes) noexcept {
  record(event_t{job, partition, s, phase_t::begin, 0, actor, 0, bytes});
}
void recorder_t::end(uint64_t job, uint32_t partition, stage_t s, uint16_t actor,
                     uint64_t bytes) noexcept {
  record(event_t{job, partition, s, phase_t::end, 0, actor, 0, bytes});
}
void recorder_t::instant(uint64_t job, uint32_t partition, stage_t s, uint16_t actor) noexcept {
  record(event_t{job, partition, s, phase_t::instant, 0, actor, 0, 0});
}

size_t recorder_t::drain(std::vector<event_t>& out) {
  std::lock_guard<std::mutex> dl(drain_mu_);
  std::vector<ring_t*> rings;
  {
    std::lock_guard<std::mutex> lk(rings_mu_);
    for (auto& r : rings_) rings.push_back(r.get());
  }
  size_t n = 0;
  for (ring_t* r : rings) {
    size_t tail = r->tail.load(std::memory_order_relaxed);
    const size_t head = r->head.load(std::memory_order_acquire);
    for (; tail != head; ++tail, ++n) out.push_back(r->buf[tail & (capacity_ - 1)]);
    r->tail.store(tail, std::memory_order_release);
  }
  return n;
}

}  // namespace zk::timeline
