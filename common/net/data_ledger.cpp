// The data server's delivery ledger: committed buffers until claimed (or expired), their keys for
// the duplicate window, spent tickets.
#include <algorithm>
#include <chrono>

#include "common/net/data_server_core.hpp"
#include "common/util/log.hpp"

namespace zk::net {

using namespace data_server_detail;

// The id of a committed buffer with this key and payload, if one is remembered.
std::optional<uint64_t> data_server_t::core_t::find_dup_locked(const dup_key_t& k,
                                                               uint64_t checksum) const {
  auto it = dups.find(k);
  if (it == dups.end() || it->second.payload_checksum != checksum) return std::nullopt;
  return it->second.id;
}

// A ticket is good for one payload: true when this key was committed with another one.
bool data_server_t::core_t::ticket_spent_locked(const dup_key_t& k, uint64_t checksum) const {
  auto it = dups.find(k);
  return it != dups.end() && it->second.payload_checksum != checksum;
}

void data_server_t::core_t::committed_locked(uint64_t id, const std::optional<dup_key_t>& k,
                                             uint64_t checksum, steady_clock_t::time_point now) {
  unclaimed[id] = now;
  if (!k) return;
  auto old = dups.find(*k);
  if (old != dups.end() && !old->second.gone) key_of.erase(old->second.id);
  dups[*k] = dup_t{id, checksum};
  key_of[id] = *k;
}

// The buffer left the store: its key is kept for the duplicate window.
void data_server_t::core_t::gone_locked(uint64_t id, steady_clock_t::time_point now) {
  auto k = key_of.find(id);
  if (k == key_of.end()) return;
  auto d = dups.find(k->second);
  if (d != dups.end() && d->second.id == id) {
    d->second.gone = true;
    d->second.gone_at = now;
    gone_order.emplace_back(k->second, id);
  }
  key_of.erase(k);
  while (gone_order.size() > options.duplicate_memory) drop_oldest_gone_locked();
}

void data_server_t::core_t::drop_oldest_gone_locked() {
  const auto [k, id] = gone_order.front();
  gone_order.pop_front();
  auto d = dups.find(k);
  if (d != dups.end() && d->second.id == id && d->second.gone) dups.erase(d);
}

void data_server_t::core_t::start_sweeps() {
  using std::chrono::milliseconds;
  milliseconds every{1000};
  if (options.unclaimed_timeout.count() > 0)
    every = std::clamp(options.unclaimed_timeout / 4, milliseconds(10), milliseconds(1000));
  sweep_timer.expires_after(every);
  sweep_timer.async_wait([this](const error_code& ec) {
    if (ec || stopped.load()) return;
    sweep();
    start_sweeps();
  });
}

// Expires unclaimed buffers, notices buffers their owner released, ages the duplicate window.
void data_server_t::core_t::sweep() {
  std::vector<std::string> expired_lines;
  {
    std::lock_guard<std::mutex> g(mu);
    const auto now = steady_clock_t::now();
    const auto timeout = options.unclaimed_timeout;
    for (auto it = unclaimed.begin(); it != unclaimed.end();) {
      const uint64_t id = it->first;
      auto ref = store.find(id);
      if (!ref) {  // released by its owner without a claim
        gone_locked(id, now);
        it = unclaimed.erase(it);
        continue;
      }
      if (timeout.count() > 0 && it->second + timeout <= now) {
        const auto& h = ref->header();
        expired_lines.push_back("data plane: buffer " + std::to_string(id) + " (job " +
                                std::to_string(h.job_id) + " partition " +
                                std::to_string(h.partition) + ", " +
                                buffer::format_bytes(h.payload_bytes) +
                                ") was not claimed within " + seconds_text(timeout) + ": released");
        ref.reset();
        if (store.release(id)) ++stats.expired;
        gone_locked(id, now);
        it = unclaimed.erase(it);
        continue;
      }
      ++it;
    }
    std::vector<uint64_t> gone;
    for (const auto& [id, k] : key_of) {
      if (!unclaimed.count(id) && !store.find(id)) gone.push_back(id);
    }
    for (uint64_t id : gone) gone_locked(id, now);
    while (!gone_order.empty()) {
      auto d = dups.find(gone_order.front().first);
      const bool live = d != dups.end() && d->second.id == gone_order.front().second;
      if (live && d->second.gone_at + options.duplicate_window > now) break;
      drop_oldest_gone_locked();
    }
    stats.unclaimed = unclaimed.size();
  }
  for (const auto& line : expired_lines) log::warn(line);
}

bool data_server_t::claim(uint64_t buffer_id) {
  auto& c = *core_;
  std::lock_guard<std::mutex> g(c.mu);
  auto it = c.unclaimed.find(buffer_id);
  if (it == c.unclaimed.end()) return false;
  c.unclaimed.erase(it);
  c.stats.unclaimed = c.unclaimed.size();
  if (!c.store.find(buffer_id)) {  // released meanwhile
    c.gone_locked(buffer_id, steady_clock_t::now());
    return false;
  }
  return true;
}

void data_server_t::forget(uint64_t buffer_id) {
  auto& c = *core_;
  std::lock_guard<std::mutex> g(c.mu);
  c.unclaimed.erase(buffer_id);
  c.stats.unclaimed = c.unclaimed.size();
  c.gone_locked(buffer_id, steady_clock_t::now());
}

}  // namespace zk::net
