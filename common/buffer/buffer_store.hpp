#pragma once
// The node-local buffer store (docs/design.md "Data flow of one job", "Scheduler policy"): where a
// synthesis node keeps the synth buffers it made until a prover acknowledges them, and where a
// prover node receives them.
//
//   reserve(bytes) ──▶ writable_buffer_t ──commit(header)──▶ registered id ──release(id)──▶ pool
//        │ over budget: error value,            (fill it)        find(id) pins it: the memory
//        │ nothing allocated                                      lives while a pin does
//
// Memory: buffers are allocated once per size class and reused while the node works; with
// release_idle_after() those idle longer than a while are freed (a node's stores: 10 s). A size
// class rounds a request up to a multiple of max(4 KiB, 2^⌊log2 bytes⌋ / 8), so a class wastes at
// most 12.5% and a circuit's buffers (all of one size) share one class. Freed buffers go back to
// the pool, where the next request of their class takes them (fresh pages are slow to touch; reused
// ones are not). A node that knows its circuits' buffer sizes calls prewarm() at start-up
// (actors/node.cpp: a buffer per synthesis worker, one for a prover's receive store, of the largest
// circuit) so that even its first buffers land in resident memory.
//
// Budget: every byte the store holds is accounted — buffers being filled, registered buffers and
// idle pooled ones — at its class size. A reservation that would take the accounted bytes beyond
// the budget first frees idle pooled buffers of other classes; if it still does not fit it is
// refused with an error value and nothing is allocated. The accounted bytes never exceed the
// budget.
//
// Release: release(id) (on the peer's acknowledgement) unregisters a buffer; its memory returns
// to the pool only when the last pin (buffer_ref_t) drops, so a reader never loses its memory.
// Thread-safe. Handles keep the store's state alive, so they may outlive the store object.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <variant>

#include "common/buffer/synth_buffer.hpp"
#include "zk/base/result.hpp"

namespace zk::buffer {

enum class store_errc { over_budget, zero_size, out_of_memory };
const char* store_errc_name(store_errc e);

struct store_error_t {
  store_errc code;
  std::string
      message;  // "buffer store: 300 MiB (class 320 MiB) does not fit: 900 MiB of 1 GiB accounted"
};

namespace detail {
struct store_state_t;
struct slab_t;
struct entry_t;
}  // namespace detail

// The largest single reservation (256 TiB): size classes of anything larger would overflow.
inline constexpr uint64_t max_reservation = uint64_t(1) << 48;

// Size class of a request (see above); UINT64_MAX beyond max_reservation.
uint64_t size_class(uint64_t bytes);

// A reserved buffer being filled: writable, accounted, not visible to readers. Dropped without
// commit, its memory returns to the pool.
class writable_buffer_t {
 public:
  writable_buffer_t() = default;
  writable_buffer_t(writable_buffer_t&&) noexcept;
  writable_buffer_t& operator=(writable_buffer_t&&) noexcept;
  writable_buffer_t(const writable_buffer_t&) = delete;
  writable_buffer_t& operator=(const writable_buffer_t&) = delete;
  ~writable_buffer_t();

  uint8_t* data() const;
  uint64_t size() const { return size_; }  // bytes requested
  uint64_t capacity() const;               // bytes of its size class (what is accounted)
  explicit operator bool() const { return slab_ != nullptr; }

 private:
  friend class buffer_store_t;
  std::shared_ptr<detail::store_state_t> state_;
  detail::slab_t* slab_ = nullptr;
  uint64_t size_ = 0;
};

// A pinned, read-only registered buffer. Its memory stays valid while the pin lives, even after
// release(id).
class buffer_ref_t {
 public:
  uint64_t id() const;
  const synth_header_t& header() const;
  const uint8_t* data() const;
  uint64_t size() const;

 private:
  friend class buffer_store_t;
  std::shared_ptr<const detail::entry_t> entry_;
};

struct store_stats_t {
  uint64_t budget = 0;
  uint64_t accounted = 0;   // filling + registered (and their pinned, released tails) + pooled
  uint64_t pooled = 0;      // idle in the pool
  uint64_t registered = 0;  // number of registered buffers
  uint64_t fresh_allocations = 0;  // buffers ever allocated (reuse keeps this flat)
  uint64_t reuses = 0;             // reservations served from the pool
  uint64_t refusals = 0;           // reservations refused for the budget
};

class buffer_store_t {
 public:
  explicit buffer_store_t(uint64_t budget_bytes);
  ~buffer_store_t();
  buffer_store_t(const buffer_store_t&) = delete;
  buffer_store_t& operator=(const buffer_store_t&) = delete;

  // A writable buffer of `bytes`, accounted at its class size before anything is allocated.
  result_t<writable_buffer_t, store_error_t> reserve(uint64_t bytes);
  // Registers a filled buffer under a new id (never reused within this store) and returns it.
  // The header describes the contents; its payload_bytes must equal the buffer's size.
  uint64_t commit(writable_buffer_t&& buffer, const synth_header_t& header);
  // A pin on a registered buffer, or nullopt when the id is unknown or released.
  std::optional<buffer_ref_t> find(uint64_t id) const;
  // Unregisters (on acknowledgement). False when the id is unknown or already released.
  bool release(uint64_t id);
  // Allocates up to `count` buffers of bytes' size class, touches every page, and leaves them idle
  // in the pool (accounted): later reservations of the class reuse them. Stops at the budget;
  // returns how many it made (buffers already idle in the pool count among them).
  uint64_t prewarm(uint64_t bytes, unsigned count);
  // Frees every idle pooled buffer (returns the bytes freed).
  uint64_t trim();
  // From now on, a buffer idle in the pool for longer than `idle` is freed (its memory unmapped,
  // no longer accounted), by a thread of the store's that looks every idle/4 (10 ms to 1 s): a
  // node that works keeps reusing its buffers, an idle node holds none. Once per store; later
  // calls change nothing.
  void release_idle_after(std::chrono::milliseconds idle);

  store_stats_t stats() const;
  uint64_t budget() const;
  uint64_t accounted_bytes() const;

 private:
  std::shared_ptr<detail::store_state_t> state_;
};

// "1.50 GiB", "320 MiB", "4096 B"
std::string format_bytes(uint64_t bytes);

}  // namespace zk::buffer
