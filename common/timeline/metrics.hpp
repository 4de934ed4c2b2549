#pragma once
// Cumulative metrics for /metrics (Prometheus): proofs completed and a duration histogram per
// stage, updated event by event as the aggregator takes them in. They count everything ever
// added, not the aggregator's bounded window, so the counters never go down (a Prometheus
// counter that drops reads as a restart) and a scrape costs the size of the histograms, not a
// copy of millions of events.
#include <array>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "common/timeline/event.hpp"

namespace zk::timeline {

// The exposition format (text 0.0.4), written here only: everything /metrics serves goes through
// these (the histograms below, the scheduler's per-node gauges in node/api, its job counters in
// node/scheduler/outcomes).
// A family's "# HELP" and "# TYPE" lines.
std::string metric_family(const std::string& name, const std::string& help, const char* type);
// A label value escaped per the exposition format: backslash, double quote and newline.
std::string escape_label_value(const std::string& v);
// A gauge family with one sample per node: name{node="<node>"} value.
std::string render_node_gauge(const std::string& name, const std::string& help,
                              const std::vector<std::pair<std::string, uint64_t>>& by_node);

// A counter family with one sample per label set: name{k="v",…} value (values escaped).
using labels_t = std::vector<std::pair<std::string, std::string>>;
std::string render_counter(const std::string& name, const std::string& help,
                           const std::vector<std::pair<labels_t, uint64_t>>& samples);

class metrics_t {
 public:
  static constexpr std::array<double, 6> bounds = {0.001, 0.01, 0.1, 1, 10, 100};  // seconds
  struct histogram_t {
    std::array<uint64_t, bounds.size()> buckets{};  // cumulative: durations ≤ bounds[k]
    double sum = 0;
    uint64_t count = 0;
  };

  // One event. A begin and an end of the same job, partition, stage, node and actor pair by time
  // — an end with the latest unpaired begin at or before it, a begin with the earliest unpaired
  // end at or after it — and the pair adds a duration; a DONE instant adds a proof. So an end may
  // come before its begin: a node's recorder drains one thread's ring after another, and an event
  // recorded during a drain can go out a batch after its partner. (The aggregator sorts each batch
  // by time first: a re-queued stage's intervals, which never overlap, then pair in order too.)
  // What waits unpaired is bounded by kMaxOpen keys (the oldest jobs' are forgotten first: a node
  // lost mid-stage never sends their ends).
  // A CANCELLED instant counts a stopped partition, and the GPU (or SYNTH) span it ends on that
  // node adds no duration: a stopped proof is not a prove stage. (The recorder puts the instant
  // before that end, in the same ring: the aggregator takes it in first.)
  void observe(const event_t& e);

  uint64_t proofs() const { return proofs_; }
  uint64_t cancelled() const { return cancelled_count_; }
  const std::map<stage_t, histogram_t>& stages() const { return stages_; }
  std::string render_prometheus() const;

 private:
  static constexpr size_t kMaxOpen = size_t(1) << 16;
  using key_t = std::tuple<uint64_t, uint32_t, int, uint16_t, uint16_t>;
  struct unpaired_t {
    std::multiset<int64_t> begins, ends;
  };
  void add_duration(stage_t st, int64_t ns);
  std::map<key_t, unpaired_t> open_;
  std::map<stage_t, histogram_t> stages_;
  uint64_t proofs_ = 0;
  // Partitions stopped by a cancel, by job, partition and node (bounded by kMaxOpen, oldest first).
  std::set<std::tuple<uint64_t, uint32_t, uint16_t>> stopped_;
  uint64_t cancelled_count_ = 0;
};

}  // namespace zk::timeline
