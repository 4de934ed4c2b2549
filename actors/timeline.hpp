#pragma once
// The timeline on the control plane (docs/design.md "Timeline"): each node's reporter ships the
// events its recorder collects in batches, and the aggregator puts them into one time base.
//
// Reporter (one per node): every `period` it drains the recorder and sends a batch; it answers
// clock pings with its monotonic clock and flushes on request.
//
// Aggregator, per node:
//
//   joined ──ping × samples (sequential round trips)──▶ synced: offset = the sample with the
//     │  batches are held                                smallest round trip (estimate_offset);
//     │                                                  held batches are added, later ones at once
//     └── a reporter that does not answer within the timeout: synced with what it has (or 0)
//
// flush_atom (to the aggregator) asks every reporter to flush and answers once all have;
// snapshot_atom answers the events so far (sorted, corrected), the names and the offsets;
// metrics_atom the Prometheus text of the cumulative metrics (timeline/metrics.hpp) of every event
// added so far (a node's events count once its clock is synced).
#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <vector>

#include "actors/messages.hpp"
#include "actors/scheduler_slot.hpp"
#include "common/timeline/aggregator.hpp"
#include "common/timeline/recorder.hpp"

namespace zk::actors {

struct reporter_config_t {
  uint16_t node = 0;
  std::string name;
  std::vector<track_name_msg> tracks;
  std::shared_ptr<timeline::recorder_t> recorder;
  timeline_actor aggregator;
  std::chrono::milliseconds period{200};
  // Test/diagnostic injection: the reporter behaves as if its node's monotonic clock were off by
  // this much (added to every shipped event's t_ns and to its answers to clock pings), so the
  // aggregator's offset estimation can be checked against a known skew in one process. 0 in use.
  int64_t clock_skew_ns = 0;
  // Where a rejoining node puts its scheduler's (new) aggregator (null: the one above, for good).
  std::shared_ptr<scheduler_slot_t> slot;
};

struct timeline_reporter_state {
  static inline const char* name = "zkfleet.timeline.reporter";
  reporter_actor::pointer self = nullptr;
  reporter_config_t cfg;
  std::vector<timeline::event_t> scratch;

  uint64_t epoch = 0;

  void init(reporter_actor::pointer s, reporter_config_t c);
  void join();    // announces this node's tracks to cfg.aggregator
  void rebind();  // the slot's aggregator, joined anew
  void flush();
};
using reporter_impl_t = reporter_actor::stateful_pointer<timeline_reporter_state>;
reporter_actor::behavior_type timeline_reporter(reporter_impl_t self, reporter_config_t cfg);

struct timeline_aggregator_state {
  static inline const char* name = "zkfleet.timeline";
  static constexpr unsigned samples_wanted = 8;

  timeline_actor::pointer self = nullptr;
  timeline::aggregator_t agg;
  std::map<uint16_t, timeline_join_msg> nodes;
  std::map<uint16_t, std::vector<timeline::clock_sample_t>> samples;
  std::map<uint16_t, std::vector<event_batch_msg>> held;  // until the node's offset is known
  std::map<uint16_t, int64_t> offsets;                    // nodes synced

  void init(timeline_actor::pointer s);
  void join(const timeline_join_msg& m);
  void batch(const event_batch_msg& m);
  caf::result<caf::ok_atom> flush_all();
  // The events later than since_ns (every one: the lowest int64), clock-corrected, sorted; of
  // one job when `job` is given.
  timeline_snapshot_msg snapshot(int64_t since_ns,
                                 std::optional<uint64_t> job = std::nullopt) const;
  // One job's events once every node's reporter has sent what it held (a job just ended).
  caf::result<timeline_snapshot_msg> job_snapshot(uint64_t job);

 private:
  void ping(uint16_t node);
  void synced(uint16_t node);
  // The node's clock offset from its samples so far (0 with none).
  int64_t offset_of(uint16_t node) const;
};
using timeline_impl_t = timeline_actor::stateful_pointer<timeline_aggregator_state>;
timeline_actor::behavior_type timeline_aggregator(timeline_impl_t self);

// The snapshot as an aggregator_t (for the renderers and the event file).
timeline::aggregator_t to_aggregator(const timeline_snapshot_msg& s);

}  // namespace zk::actors
