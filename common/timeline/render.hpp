#pragma once
// What the timeline shows: the ASCII waterfall (a row per job/partition, a glyph per stage),
// the Chrome trace-event JSON (Perfetto, chrome://tracing: a process per node, a track per
// actor or resource), the stats that name the stage bounding throughput, and Prometheus text.
#include <map>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "common/config/config.hpp"
#include "common/timeline/aggregator.hpp"

namespace zk::timeline {

struct interval_t {
  uint64_t job = 0;
  uint32_t partition = 0;
  stage_t st = stage_t::queued;
  uint16_t node = 0, actor = 0;
  int64_t t0 = 0, t1 = 0;
  uint64_t bytes = 0;
};
// Pairs begin/end events (same job, partition, stage, node, track); an unmatched begin runs to
// the last event's time. Instants are not intervals.
std::vector<interval_t> pair_intervals(const std::vector<event_t>& events);

// A prover node's backend by node name: "cpu" or "cuda (<device>)" (node_usage's backend).
using backends_t = std::map<std::string, std::string>;
// What the prover stages ran on: "CPU", "GPU", "CPU+GPU" (provers of both kinds) for the nodes
// of the GPU stage's events whose backend is known; "" when none is.
std::string prover_kind(const std::vector<event_t>& events, const names_t& names,
                        const backends_t& backends);

// width: total columns (the terminal's). Child stages of GPU are not drawn (see the trace).
// max_rows > 0 draws only the first rows (in order of first appearance) and says how many more.
// The legend names the prover stages by what they ran on (prover_kind: "G prove (CPU)"), or by
// their stage names where no backend is known.
std::string render_ascii(const std::vector<event_t>& events, const names_t& names, unsigned width,
                         size_t max_rows = 0, const backends_t& backends = {});
std::string render_chrome(const std::vector<event_t>& events, const names_t& names);
// The merged timeline as plain JSON for dashboards and scripts: {"nodes": {id: name}, "tracks":
// [{node, track, name}], "events": [{job, partition, stage, phase, node, track, t_ns, bytes}]}
// with times in the common base (ns), sorted.
std::string render_json(const std::vector<event_t>& events, const names_t& names);
// The same as a JSON value (the HTTP API adds its fields before it sends it).
nlohmann::json timeline_json(const std::vector<event_t>& events, const names_t& names);

struct track_stats_t {
  std::string name;  // "node/track"
  std::string role;  // synthesis, transfer, prover, scheduler
  double busy_fraction = 0;
};
struct stats_t {
  double span_s = 0;
  size_t proofs = 0;
  double proofs_per_minute = 0;
  double prover_idle_per_proof_s = 0;  // gaps between consecutive GPU intervals, per proof
  // The part of those gaps during which no partition waited in the scheduler's queue: idle for
  // lack of work (jobs submitted by hand one after another, or arriving slower than the farm
  // proves), which no lookahead shortens.
  double prover_starved_per_proof_s = 0;
  double synth_busy = 0, transfer_busy = 0, prover_busy = 0;  // mean busy fraction per role
  double mean_queue_depth = 0;
  size_t max_queue_depth = 0;
  std::vector<size_t> queue_depth_series;  // the deepest the queue was in each tenth of the span
  std::vector<track_stats_t> tracks;
  // "synthesis" | "prover" | "transfer" (the network: its sentence says network-bound and names
  // the busiest link) | "pipeline" (none saturated, the prover waits while
  // partitions are queued) | "demand" (none saturated, it waits with nothing queued) | ""
  std::string bottleneck;
  std::string verdict;  // the sentence naming it, with its evidence
  // When the prover or synthesis bounds: the child stage that takes most of its time (a prover
  // stage such as msm_h, or a PoRep synthesis stage such as porep_synthesize); "" without them.
  std::string bound_stage;
  // Partitions of circuits on `wire: auto` dispatched on each wire (WIRE_PACKED, WIRE_FULL).
  size_t wire_packed = 0, wire_full = 0;
};
// `lookahead`: the scheduler's setting when the caller knows it, so that a pipeline-bound verdict
// advises what is not already set (auto already on: its ceiling, lookahead_max).
stats_t compute_stats(const std::vector<event_t>& events, const names_t& names,
                      const std::optional<config::lookahead_t>& lookahead = std::nullopt);
std::string render_stats(const stats_t& s);

}  // namespace zk::timeline
