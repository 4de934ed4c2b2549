#include "common/buffer/buffer_store.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <mutex>
#include <new>
#include <stdexcept>
#include <thread>
#include <unordered_map>
#include <vector>

namespace zk::buffer {

namespace detail {

// One allocation of a size class, page-aligned.
struct slab_t {
  uint8_t* data = nullptr;
  uint64_t capacity = 0;
  std::chrono::steady_clock::time_point pooled_at;  // when it last went idle into the pool
};

struct store_state_t {
  explicit store_state_t(uint64_t b) : budget(b) {}
  ~store_state_t() {
    for (auto& [cls, list] : pool) {
      for (slab_t* s : list) destroy(s);
    }
  }

  // Slabs are anonymous mappings: munmap gives the memory back to the system at once. Pages are
  // not populated here: reserve() runs on the data plane's io thread before its READY, and
  // first-touching fresh VM memory runs at ~0.2–1 GiB/s (a 1 GiB buffer took 4.5 s), which
  // would hold the io thread past a sender's timeout. prewarm() populates at start-up instead.
  static uint8_t* map(uint64_t bytes) {
    void* p = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return p == MAP_FAILED ? nullptr : static_cast<uint8_t*>(p);
  }
  static void destroy(slab_t* s) {
    ::munmap(s->data, s->capacity);
    delete s;
  }

  // Back to the pool; called without the lock held.
  void give_back(slab_t* s) {
    std::lock_guard<std::mutex> g(mu);
    s->pooled_at = std::chrono::steady_clock::now();
    pool[s->capacity].push_back(s);
    pooled += s->capacity;
  }

  // Takes out of the pool the slabs idle since before `before` (the caller destroys them).
  std::vector<slab_t*> take_idle(std::chrono::steady_clock::time_point before) {
    std::vector<slab_t*> out;
    std::lock_guard<std::mutex> g(mu);
    for (auto& [cls, list] : pool)
      for (auto it = list.begin(); it != list.end();) {
        if ((*it)->pooled_at > before) {
          ++it;
          continue;
        }
        out.push_back(*it);
        pooled -= cls;
        accounted -= cls;
        it = list.erase(it);
      }
    return out;
  }
  bool idle_release_started = false;

  mutable std::mutex mu;
  const uint64_t budget;
  uint64_t accounted = 0;
  uint64_t pooled = 0;
  uint64_t fresh_allocations = 0;
  uint64_t reuses = 0;
  uint64_t refusals = 0;
  uint64_t next_id = 1;
  std::map<uint64_t, std::vector<slab_t*>> pool;  // class size → idle slabs
  std::unordered_map<uint64_t, std::shared_ptr<const entry_t>> registry;
};

// A registered buffer. Destroyed when unregistered and unpinned: the slab goes back to the pool.
struct entry_t {
  entry_t(std::shared_ptr<store_state_t> st, slab_t* sl, uint64_t i, const synth_header_t& h)
      : state(std::move(st)), slab(sl), id(i), header(h) {}
  ~entry_t() { state->give_back(slab); }
  entry_t(const entry_t&) = delete;
  entry_t& operator=(const entry_t&) = delete;

  std::shared_ptr<store_state_t> state;
  slab_t* slab;
  uint64_t id;
  synth_header_t header;  // header.payload_bytes: the payload's size (commit checked it)
};

}  // namespace detail

const char* store_errc_name(store_errc e) {
  switch (e) {
    case store_errc::over_budget:
      return "over_budget";
    case store_errc::zero_size:
      return "zero_size";
    case store_errc::out_of_memory:
      return "out_of_memory";
  }
  return "?";
}

std::string format_bytes(uint64_t bytes) {
  char buf[64];
  const double b = double(bytes);
  if (bytes >= (uint64_t(1) << 30)) {
    std::snprintf(buf, sizeof buf, "%.2f GiB", b / double(uint64_t(1) << 30));
  } else if (bytes >= (uint64_t(1) << 20)) {
    std::snprintf(buf, sizeof buf, "%.2f MiB", b / double(uint64_t(1) << 20));
  } else if (bytes >= 1024) {
    std::snprintf(buf, sizeof buf, "%.2f KiB", b / 1024.0);
  } else {
    std::snprintf(buf, sizeof buf, "%llu B", static_cast<unsigned long long>(bytes));
  }
  return buf;
}

uint64_t size_class(uint64_t bytes) {
  if (bytes == 0) return 0;
  if (bytes > max_reservation) return UINT64_MAX;  // no class: refused
  uint64_t top = uint64_t(1) << (63 - __builtin_clzll(bytes));
  uint64_t granule = top / 8 < 4096 ? 4096 : top / 8;
  return (bytes + granule - 1) / granule * granule;
}

// --- writable_buffer_t -------------------------------------------------------------------------

writable_buffer_t::writable_buffer_t(writable_buffer_t&& o) noexcept
    : state_(std::move(o.state_)), slab_(o.slab_), size_(o.size_) {
  o.slab_ = nullptr;
  o.size_ = 0;
}

writable_buffer_t& writable_buffer_t::operator=(writable_buffer_t&& o) noexcept {
  if (this != &o) {
    if (slab_ != nullptr) state_->give_back(slab_);
    state_ = std::move(o.state_);
    slab_ = o.slab_;
    size_ = o.size_;
    o.slab_ = nullptr;
    o.size_ = 0;
  }
  return *this;
}

writable_buffer_t::~writable_buffer_t() {
  if (slab_ != nullptr) state_->give_back(slab_);
}

uint8_t* writable_buffer_t::data() const { return slab_ ? slab_->data : nullptr; }
uint64_t writable_buffer_t::capacity() const { return slab_ ? slab_->capacity : 0; }

// --- buffer_ref_t ------------------------------------------------------------------------------

uint64_t buffer_ref_t::id() const { return entry_->id; }
const synth_header_t& buffer_ref_t::header() const { return entry_->header; }
const uint8_t* buffer_ref_t::data() const { return entry_->slab->data; }
uint64_t buffer_ref_t::size() const { return entry_->header.payload_bytes; }

// --- buffer_store_t ----------------------------------------------------------------------------

buffer_store_t::buffer_store_t(uint64_t budget_bytes)
    : state_(std::make_shared<detail::store_state_t>(budget_bytes)) {}

// Registered entries hold the state (their memory returns to its pool): drop the registry's
// references so the state and its slabs are freed once the last outside pin goes.
buffer_store_t::~buffer_store_t() {
  std::unordered_map<uint64_t, std::shared_ptr<const detail::entry_t>> registry;
  {
    std::lock_guard<std::mutex> g(state_->mu);
    registry.swap(state_->registry);
  }
}

result_t<writable_buffer_t, store_error_t> buffer_store_t::reserve(uint64_t bytes) {
  auto& st = *state_;
  if (bytes == 0)
    return store_error_t{store_errc::zero_size, "buffer store: a reservation of 0 bytes"};
  if (bytes > max_reservation || size_class(bytes) > st.budget) {
    std::lock_guard<std::mutex> g(st.mu);
    ++st.refusals;
    return store_error_t{store_errc::over_budget, "buffer store: " + format_bytes(bytes) +
                                                      " is larger than the whole budget of " +
                                                      format_bytes(st.budget)};
  }
  const uint64_t cls = size_class(bytes);
  detail::slab_t* slab = nullptr;
  std::vector<detail::slab_t*> evicted;
  {
    std::lock_guard<std::mutex> g(st.mu);
    auto it = st.pool.find(cls);
    if (it != st.pool.end() && !it->second.empty()) {
      slab = it->second.back();
      it->second.pop_back();
      st.pooled -= cls;
      ++st.reuses;
    } else {
      // Room for a fresh slab: free idle slabs of other classes while they are in the way.
      for (auto p = st.pool.begin();
           p != st.pool.end() && cls > st.budget - st.accounted && st.pooled > 0; ++p) {
        while (!p->second.empty() && cls > st.budget - st.accounted) {
          evicted.push_back(p->second.back());
          p->second.pop_back();
          st.pooled -= p->first;
          st.accounted -= p->first;
        }
      }
      if (cls > st.budget - st.accounted) {
        ++st.refusals;
        const std::string what = "buffer store: " + format_bytes(bytes) + " (class " +
                                 format_bytes(cls) +
                                 ") does not fit the budget: " + format_bytes(st.accounted) +
                                 " of " + format_bytes(st.budget) + " accounted";
        for (auto* s : evicted) detail::store_state_t::destroy(s);
        return store_error_t{store_errc::over_budget, what};
      }
      st.accounted += cls;  // reserved before allocating: concurrent reservations see it
      ++st.fresh_allocations;
    }
  }
  for (auto* s : evicted) detail::store_state_t::destroy(s);
  if (slab == nullptr) {
    auto* fresh = new (std::nothrow) detail::slab_t;
    uint8_t* mem = fresh ? detail::store_state_t::map(cls) : nullptr;
    if (mem == nullptr) {
      delete fresh;
      std::lock_guard<std::mutex> g(st.mu);
      st.accounted -= cls;
      --st.fresh_allocations;
      return store_error_t{store_errc::out_of_memory,
                           "buffer store: allocating " + format_bytes(cls) + " failed"};
    }
    fresh->data = mem;
    fresh->capacity = cls;
    slab = fresh;
  }
  writable_buffer_t w;
  w.state_ = state_;
  w.slab_ = slab;
  w.size_ = bytes;
  return w;
}

uint64_t buffer_store_t::commit(writable_buffer_t&& buffer, const synth_header_t& header) {
  if (!buffer) throw std::invalid_argument("buffer store: commit of an empty buffer");
  if (header.payload_bytes != buffer.size()) {
    throw std::invalid_argument(
        "buffer store: header says " + std::to_string(header.payload_bytes) +
        " payload bytes, the buffer holds " + std::to_string(buffer.size()));
  }
  auto& st = *state_;
  std::lock_guard<std::mutex> g(st.mu);
  const uint64_t id = st.next_id++;
  auto entry = std::make_shared<const detail::entry_t>(state_, buffer.slab_, id, header);
  buffer.slab_ = nullptr;  // owned by the entry now
  buffer.size_ = 0;
  st.registry.emplace(id, std::move(entry));
  return id;
}

std::optional<buffer_ref_t> buffer_store_t::find(uint64_t id) const {
  std::lock_guard<std::mutex> g(state_->mu);
  auto it = state_->registry.find(id);
  if (it == state_->registry.end()) return std::nullopt;
  buffer_ref_t r;
  r.entry_ = it->second;
  return r;
}

bool buffer_store_t::release(uint64_t id) {
  std::shared_ptr<const detail::entry_t> last;  // dropped after the lock (its destructor locks)
  std::lock_guard<std::mutex> g(state_->mu);
  auto it = state_->registry.find(id);
  if (it == state_->registry.end()) return false;
  last = std::move(it->second);
  state_->registry.erase(it);
  return true;
}

uint64_t buffer_store_t::prewarm(uint64_t bytes, unsigned count) {
  std::vector<writable_buffer_t> held;
  for (unsigned i = 0; i < count; ++i) {
    auto r = reserve(bytes);
    if (!r) break;
    writable_buffer_t& w = r.value();
    for (uint64_t at = 0; at < w.capacity(); at += 4096)
      w.data()[at] = 0;  // fault every page in now
    held.push_back(std::move(w));
  }
  return held.size();  // dropped here: idle in the pool, accounted, pages resident
}

void buffer_store_t::release_idle_after(std::chrono::milliseconds idle) {
  {
    std::lock_guard<std::mutex> g(state_->mu);
    if (state_->idle_release_started) return;
    state_->idle_release_started = true;
  }
  // A thread of its own that holds the state weakly: it ends within a period once the store and
  // every handle of it are gone.
  const auto period =
      std::clamp(idle / 4, std::chrono::milliseconds(10), std::chrono::milliseconds(1000));
  std::thread([w = std::weak_ptr<detail::store_state_t>(state_), idle, period] {
    for (;;) {
      std::this_thread::sleep_for(period);
      auto st = w.lock();
      if (!st) return;
      for (auto* s : st->take_idle(std::chrono::steady_clock::now() - idle))
        detail::store_state_t::destroy(s);
    }
  }).detach();
}

uint64_t buffer_store_t::trim() {
  std::vector<detail::slab_t*> idle;
  uint64_t freed = 0;
  {
    std::lock_guard<std::mutex> g(state_->mu);
    for (auto& [cls, list] : state_->pool) {
      for (auto* s : list) idle.push_back(s), freed += cls;
      list.clear();
    }
    state_->pooled = 0;
    state_->accounted -= freed;
  }
  for (auto* s : idle) detail::store_state_t::destroy(s);
  return freed;
}

store_stats_t buffer_store_t::stats() const {
  std::lock_guard<std::mutex> g(state_->mu);
  const auto& st = *state_;
  return store_stats_t{st.budget, st.accounted, st.pooled, st.registry.size(), st.fresh_allocations,
                       st.reuses, st.refusals};
}

uint64_t buffer_store_t::budget() const { return state_->budget; }

uint64_t buffer_store_t::accounted_bytes() const {
  std::lock_guard<std::mutex> g(state_->mu);
  return state_->accounted;
}

}  // namespace zk::buffer
