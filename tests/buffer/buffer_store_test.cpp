#include "common/buffer/buffer_store.hpp"

#include <doctest/doctest.h>

#include <atomic>
#include <cstring>
#include <optional>
#include <thread>
#include <vector>

using namespace zk::buffer;

namespace {
constexpr uint64_t mib = uint64_t(1) << 20;

synth_header_t header_for(uint64_t payload) {
  synth_header_t h;
  h.payload_bytes = payload;
  return h;
}
}  // namespace

TEST_CASE("size classes round up by at most 12.5% and keep one size in one class") {
  CHECK(size_class(1) == 4096);
  CHECK(size_class(4096) == 4096);
  CHECK(size_class(256 * mib) == 256 * mib);
  CHECK(size_class(256 * mib + 1) == 288 * mib);
  for (uint64_t n : {uint64_t(5000), uint64_t(123457), 3 * mib + 17, 1000 * mib + 3}) {
    const uint64_t c = size_class(n);
    CHECK(c >= n);
    CHECK(double(c) <= double(n) * 1.125 + 4096);
  }
}

TEST_CASE("reserve, fill, commit, find, release: memory is reused, not reallocated") {
  buffer_store_t store(64 * mib);
  for (int round = 0; round < 5; ++round) {
    auto r = store.reserve(3 * mib);
    REQUIRE(r.ok());
    writable_buffer_t w = std::move(r.value());
    std::memset(w.data(), round, w.size());
    const uint64_t id = store.commit(std::move(w), header_for(3 * mib));
    auto ref = store.find(id);
    REQUIRE(ref.has_value());
    CHECK(ref->size() == 3 * mib);
    CHECK(ref->data()[3 * mib - 1] == round);
    CHECK(store.release(id));
    CHECK_FALSE(store.release(id));
    CHECK_FALSE(store.find(id).has_value());
  }
  const auto st = store.stats();
  CHECK(st.fresh_allocations == 1);
  CHECK(st.reuses == 4);
  CHECK(st.registered == 0);
  CHECK(st.accounted == size_class(3 * mib));
  CHECK(st.pooled == size_class(3 * mib));
  CHECK(store.trim() == size_class(3 * mib));
  CHECK(store.accounted_bytes() == 0);
}

TEST_CASE("a reservation beyond the budget is refused and allocates nothing") {
  buffer_store_t store(10 * mib);
  auto a = store.reserve(6 * mib);
  REQUIRE(a.ok());
  const auto before = store.stats();
  auto b = store.reserve(6 * mib);
  REQUIRE_FALSE(b.ok());
  CHECK(b.error().code == store_errc::over_budget);
  CHECK(b.error().message.find("does not fit the budget") != std::string::npos);
  const auto after = store.stats();
  CHECK(after.accounted == before.accounted);
  CHECK(after.fresh_allocations == before.fresh_allocations);
  CHECK(after.refusals == 1);
  CHECK(store.reserve(0).error().code == store_errc::zero_size);
  CHECK_FALSE(store.reserve(11 * mib).ok());
  // Sizes whose class would overflow are refused, not wrapped around to a small class.
  for (uint64_t huge : {UINT64_MAX, UINT64_MAX - 10, uint64_t(1) << 63, (uint64_t(1) << 48) + 1}) {
    auto r = store.reserve(huge);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().code == store_errc::over_budget);
    CHECK(size_class(huge) == UINT64_MAX);
  }
  CHECK(store.stats().fresh_allocations == before.fresh_allocations);
  CHECK(store.accounted_bytes() == before.accounted);
}

TEST_CASE("idle pooled buffers of another class make room, accounted never exceeds the budget") {
  buffer_store_t store(10 * mib);
  {
    auto a = store.reserve(6 * mib);  // filled then dropped uncommitted: back to the pool
    REQUIRE(a.ok());
  }
  CHECK(store.stats().pooled == 6 * mib);
  auto b = store.reserve(7 * mib);  // another class: the idle 6 MiB is freed to make room
  REQUIRE(b.ok());
  CHECK(store.stats().pooled == 0);
  CHECK(store.accounted_bytes() == 7 * mib);
  CHECK(store.accounted_bytes() <= store.budget());
}

TEST_CASE("a pinned buffer survives release until the pin drops") {
  buffer_store_t store(8 * mib);
  auto r = store.reserve(4 * mib);
  REQUIRE(r.ok());
  std::memset(r.value().data(), 0x5a, 4 * mib);
  const uint64_t id = store.commit(std::move(r.value()), header_for(4 * mib));
  auto pin = store.find(id);
  REQUIRE(pin.has_value());
  CHECK(store.release(id));
  // Not in the pool yet: a new reservation of the class must not get the pinned memory.
  CHECK(store.stats().pooled == 0);
  auto other = store.reserve(4 * mib);  // fits: 8 MiB budget, 4 MiB pinned
  REQUIRE(other.ok());
  CHECK(other.value().data() != pin->data());
  CHECK(pin->data()[4 * mib - 1] == 0x5a);
  CHECK_FALSE(store.reserve(4 * mib).ok());  // budget full: pinned + reserved
  pin.reset();
  CHECK(store.stats().pooled == 4 * mib);
}

TEST_CASE("concurrent reservations never exceed the budget") {
  buffer_store_t store(16 * mib);
  std::vector<std::thread> threads;
  std::atomic<uint64_t> peak{0};
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 200; ++i) {
        auto r = store.reserve(mib * (1 + (i % 5)));
        const uint64_t acc = store.accounted_bytes();
        uint64_t p = peak.load();
        while (acc > p && !peak.compare_exchange_weak(p, acc)) {
        }
        if (r.ok() && i % 3 == 0) {
          store.release(store.commit(std::move(r.value()), header_for(mib * (1 + (i % 5)))));
        }
      }
    });
  }
  for (auto& t : threads) t.join();
  CHECK(peak.load() <= 16 * mib);
  CHECK(store.stats().registered == 0);
}

TEST_CASE("handles outlive the store object") {
  std::optional<buffer_ref_t> pin;
  {
    buffer_store_t store(mib);
    auto r = store.reserve(1000);
    REQUIRE(r.ok());
    r.value().data()[999] = 42;
    pin = store.find(store.commit(std::move(r.value()), header_for(1000)));
  }
  REQUIRE(pin.has_value());
  CHECK(pin->data()[999] == 42);
}

TEST_CASE("prewarm fills the pool up to the budget, reservations then reuse it") {
  buffer_store_t store(8 * mib);
  CHECK(store.prewarm(3 * mib, 5) == 2);  // 2 × 3 MiB fit in 8 MiB, a third does not
  auto st = store.stats();
  CHECK(st.fresh_allocations == 2);
  CHECK(st.pooled == 6 * mib);
  CHECK(st.accounted == 6 * mib);
  auto a = store.reserve(3 * mib);
  auto b = store.reserve(3 * mib);
  REQUIRE(a.ok());
  REQUIRE(b.ok());
  CHECK(store.stats().fresh_allocations == 2);
  CHECK(store.stats().reuses == 2);
  CHECK_FALSE(store.reserve(3 * mib).ok());
}

TEST_CASE(
    "release_idle_after: a buffer idle in the pool is freed after a while, one in use never") {
  buffer_store_t store(64 * mib);
  store.release_idle_after(std::chrono::milliseconds(200));
  auto r = store.reserve(3 * mib);
  REQUIRE(r.ok());
  const uint64_t id = store.commit(std::move(r.value()), header_for(3 * mib));
  auto pin = store.find(id);  // in use: registered and pinned
  std::this_thread::sleep_for(std::chrono::milliseconds(600));
  CHECK(store.accounted_bytes() == size_class(3 * mib));
  CHECK(store.release(id));
  pin.reset();  // idle in the pool from here
  CHECK(store.stats().pooled == size_class(3 * mib));
  // Reused while the node works: taken again before the time is up, it is the same buffer.
  auto again = store.reserve(3 * mib);
  REQUIRE(again.ok());
  CHECK(store.stats().reuses == 1);
  again = store.reserve(1);  // the 3 MiB one back to the pool
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (store.stats().pooled > size_class(1) && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  CHECK(store.stats().pooled == 0);  // the 3 MiB buffer freed; the 1-byte one is in use
  CHECK(store.accounted_bytes() == size_class(1));
}
