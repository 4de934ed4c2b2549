#pragma once
// Central aggregation: per-node clock offsets estimated from round trips, every event moved to
// the aggregator's time base, bounded memory (oldest events dropped first, counted), cumulative
// metrics over every event added (metrics.hpp), and an event file to save and reload a timeline.
#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/timeline/event.hpp"
#include "common/timeline/metrics.hpp"

namespace zk::timeline {

// One round trip: the aggregator sent at local_send, the node answered with its clock reading
// `remote`, the answer arrived at local_recv (aggregator clock).
struct clock_sample_t {
  int64_t local_send = 0, remote = 0, local_recv = 0;
};
struct clock_estimate_t {
  int64_t offset_ns = 0;  // node clock − aggregator clock
  int64_t rtt_ns = 0;     // round trip of the sample used (the error bound is rtt/2)
};
// The sample with the smallest round trip, its node reading taken to be at the midpoint
// (Cristian's algorithm; NTP's minimum-delay filter). Throws on an empty or inconsistent set.
clock_estimate_t estimate_offset(const std::vector<clock_sample_t>& samples);

// Names for the renderers: nodes, and tracks (actors or resources) within a node.
struct names_t {
  std::map<uint16_t, std::string> nodes;
  std::map<std::pair<uint16_t, uint16_t>, std::string> tracks;
  std::string node(uint16_t n) const;
  std::string track(uint16_t n, uint16_t a) const;
};

class aggregator_t {
 public:
  explicit aggregator_t(size_t max_events = size_t(1) << 22);

  void set_offset(uint16_t node, int64_t offset_ns) { offsets_[node] = offset_ns; }
  int64_t offset(uint16_t node) const;
  names_t& names() { return names_; }
  const names_t& names() const { return names_; }

  // Events as recorded on `node` (its clock); stored in the aggregator's base.
  void add(const std::vector<event_t>& batch);
  // Events sorted by time (stable for equal times); those later than since_ns (of one job when
  // `job` is given).
  std::vector<event_t> events() const;
  std::vector<event_t> events_since(int64_t since_ns,
                                    std::optional<uint64_t> job = std::nullopt) const;
  size_t size() const { return events_.size(); }
  uint64_t dropped() const { return dropped_; }
  // Everything ever added, window or not (never decreasing): what /metrics serves.
  const metrics_t& metrics() const { return metrics_; }

  // Text event file: names, then one line per event (already in the common base).
  void save(const std::string& path) const;
  static aggregator_t load(const std::string& path);

 private:
  size_t max_events_;
  std::deque<event_t> events_;
  std::map<uint16_t, int64_t> offsets_;
  names_t names_;
  uint64_t dropped_ = 0;
  metrics_t metrics_;
};

}  // namespace zk::timeline
