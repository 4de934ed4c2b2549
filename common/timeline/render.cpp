#include "common/timeline/render.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <tuple>

namespace zk::timeline {
namespace {

std::string fmt(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

// Seconds with a unit that suits the magnitude.
std::string human_time(double s) {
  if (s >= 100) return fmt("%.0fs", s);
  if (s >= 1) return fmt("%.1fs", s);
  if (s >= 1e-3) return fmt("%.1fms", s * 1e3);
  return fmt("%.0fus", s * 1e6);
}

// A resource busier than this fraction of the wall time is what bounds throughput.
constexpr double kSaturated = 0.8;

// Sorted, disjoint intervals covering the same time as `iv`.
std::vector<std::pair<int64_t, int64_t>> merge_intervals(
    std::vector<std::pair<int64_t, int64_t>> iv) {
  std::sort(iv.begin(), iv.end());
  std::vector<std::pair<int64_t, int64_t>> out;
  for (const auto& [a, b] : iv)
    if (!out.empty() && a <= out.back().second)
      out.back().second = std::max(out.back().second, b);
    else
      out.push_back({a, b});
  return out;
}

// How much of [t0, t1) the merged intervals cover.
int64_t overlap_length(const std::vector<std::pair<int64_t, int64_t>>& merged, int64_t t0,
                       int64_t t1) {
  int64_t n = 0;
  for (const auto& [a, b] : merged) n += std::max<int64_t>(0, std::min(b, t1) - std::max(a, t0));
  return n;
}

// Total length of the union of [t0, t1) intervals.
int64_t union_length(std::vector<std::pair<int64_t, int64_t>> iv) {
  std::sort(iv.begin(), iv.end());
  int64_t total = 0, cur0 = 0, cur1 = 0;
  bool open = false;
  for (auto [a, b] : iv) {
    if (!open || a > cur1) {
      if (open) total += cur1 - cur0;
      cur0 = a, cur1 = b, open = true;
    } else {
      cur1 = std::max(cur1, b);
    }
  }
  if (open) total += cur1 - cur0;
  return total;
}

const char* role_of(stage_t s) {
  switch (s) {
    case stage_t::synth:
      return "synthesis";
    case stage_t::chan_send:
    case stage_t::xfer:
      return "transfer";
    case stage_t::gpu_pickup:
    case stage_t::gpu:
      return "prover";
    default:
      return is_prover_child(s) ? "prover" : is_synth_child(s) ? "synthesis" : "scheduler";
  }
}

}  // namespace

std::vector<interval_t> pair_intervals(const std::vector<event_t>& events) {
  using key_t = std::tuple<uint64_t, uint32_t, int, uint16_t, uint16_t>;
  std::map<key_t, event_t> open;
  std::vector<interval_t> out;
  int64_t last = events.empty() ? 0 : events.front().t_ns;
  for (const auto& e : events) last = std::max(last, e.t_ns);
  for (const auto& e : events) {
    key_t k{e.job, e.partition, int(e.st), e.node, e.actor};
    if (e.ph == phase_t::begin) {
      open[k] = e;
    } else if (e.ph == phase_t::end) {
      auto it = open.find(k);
      if (it == open.end()) continue;  // an end without its begin (dropped or before the window)
      out.push_back({e.job, e.partition, e.st, e.node, e.actor, it->second.t_ns, e.t_ns,
                     std::max(e.bytes, it->second.bytes)});
      open.erase(it);
    }
  }
  for (const auto& [k, b] : open)
    out.push_back({b.job, b.partition, b.st, b.node, b.actor, b.t_ns, last, b.bytes});
  // By start, then by stage order: a zero-length QUEUED never hides the SYNTH that follows it.
  std::sort(out.begin(), out.end(), [](const interval_t& a, const interval_t& b) {
    return a.t0 != b.t0 ? a.t0 < b.t0 : a.st < b.st;
  });
  return out;
}

std::string prover_kind(const std::vector<event_t>& events, const names_t& names,
                        const backends_t& backends) {
  bool cpu = false, gpu = false;
  std::set<uint16_t> seen;
  for (const auto& e : events) {
    if (e.st != stage_t::gpu || !seen.insert(e.node).second) continue;
    auto b = backends.find(names.node(e.node));
    if (b == backends.end()) continue;
    (b->second.rfind("cuda", 0) == 0 ? gpu : cpu) = true;
  }
  return cpu && gpu ? "CPU+GPU" : cpu ? "CPU" : gpu ? "GPU" : "";
}

std::string render_ascii(const std::vector<event_t>& events, const names_t& names, unsigned width,
                         size_t max_rows, const backends_t& backends) {
  if (events.empty()) return "(no events)\n";
  auto iv = pair_intervals(events);
  int64_t t_min = events.front().t_ns, t_max = events.front().t_ns;
  for (const auto& e : events) t_min = std::min(t_min, e.t_ns), t_max = std::max(t_max, e.t_ns);
  const double span = double(std::max<int64_t>(t_max - t_min, 1));

  // Rows in order of first appearance.
  std::vector<std::pair<uint64_t, uint32_t>> rows;
  std::set<std::pair<uint64_t, uint32_t>> seen;
  for (const auto& e : events)
    if (seen.insert({e.job, e.partition}).second) rows.push_back({e.job, e.partition});
  const size_t hidden = max_rows && rows.size() > max_rows ? rows.size() - max_rows : 0;
  rows.resize(rows.size() - hidden);
  size_t label_w = 0;
  auto label = [](const std::pair<uint64_t, uint32_t>& r) {
    return "job " + std::to_string(r.first) + "/" + std::to_string(r.second);
  };
  for (const auto& r : rows) label_w = std::max(label_w, label(r).size());
  const unsigned plot_w = width > label_w + 12 ? unsigned(width - label_w - 3) : 40;
  auto col = [&](int64_t t) {
    return std::min<unsigned>(plot_w - 1, unsigned(std::floor((t - t_min) / span * plot_w)));
  };

  std::string out;
  // Time axis: a tick every ~12 columns.
  std::string axis(plot_w, '-'), ticks(plot_w, ' ');
  for (unsigned c = 0; c < plot_w; c += 12) {
    axis[c] = '+';
    std::string lab = human_time(span * 1e-9 * c / plot_w);
    if (c + lab.size() <= plot_w) ticks.replace(c, lab.size(), lab);  // only labels that fit whole
  }
  out += std::string(label_w, ' ') + "   " + ticks + "\n";
  out += std::string(label_w, ' ') + "   " + axis + "\n";
  for (const auto& r : rows) {
    std::string line(plot_w, ' ');
    for (const auto& i : iv) {
      if (i.job != r.first || i.partition != r.second || is_child(i.st)) continue;
      unsigned c0 = col(i.t0), c1 = std::max(c0 + 1, col(i.t1));
      for (unsigned c = c0; c < c1 && c < plot_w; ++c) line[c] = stage_glyph(i.st);
    }
    for (const auto& e : events)
      if (e.job == r.first && e.partition == r.second && e.ph == phase_t::instant)
        line[col(e.t_ns)] = stage_glyph(e.st);
    std::string lab = label(r);
    out += lab + std::string(label_w - lab.size(), ' ') + " | " + line + "\n";
  }
  if (hidden) out += std::string(label_w, ' ') + "   (" + std::to_string(hidden) + " more rows)\n";
  out += "\n" + std::string(label_w, ' ') + "   ";
  const std::string kind = prover_kind(events, names, backends);
  for (stage_t s : {stage_t::queued, stage_t::synth, stage_t::chan_send, stage_t::xfer,
                    stage_t::gpu_pickup, stage_t::gpu, stage_t::done}) {
    std::string name = stage_name(s);
    if (!kind.empty() && s == stage_t::gpu_pickup) name = "prover queue (" + kind + ")";
    if (!kind.empty() && s == stage_t::gpu) name = "prove (" + kind + ")";
    out += std::string(1, stage_glyph(s)) + " " + name + "  ";
  }
  out += "\n";
  return out;
}

std::string render_json(const std::vector<event_t>& events, const names_t& names) {
  return timeline_json(events, names).dump() + "\n";
}

nlohmann::json timeline_json(const std::vector<event_t>& events, const names_t& names) {
  nlohmann::json nodes = nlohmann::json::object(), tracks = nlohmann::json::array(),
                 list = nlohmann::json::array();
  for (const auto& [id, name] : names.nodes) nodes[std::to_string(id)] = name;
  for (const auto& [key, name] : names.tracks)
    tracks.push_back({{"node", key.first}, {"track", key.second}, {"name", name}});
  for (const auto& e : events)
    list.push_back({{"job", e.job},
                    {"partition", e.partition},
                    {"stage", stage_name(e.st)},
                    {"phase", e.ph == phase_t::begin ? "begin"
                              : e.ph == phase_t::end ? "end"
                                                     : "instant"},
                    {"node", e.node},
                    {"track", e.actor},
                    {"t_ns", e.t_ns},
                    {"bytes", e.bytes}});
  return nlohmann::json{{"nodes", nodes}, {"tracks", tracks}, {"events", list}};
}

std::string render_chrome(const std::vector<event_t>& events, const names_t& names) {
  using json = nlohmann::json;
  json trace = json::array();
  std::set<uint16_t> nodes;
  std::set<std::pair<uint16_t, uint16_t>> tracks;
  int64_t t_min = events.empty() ? 0 : events.front().t_ns;
  for (const auto& e : events) t_min = std::min(t_min, e.t_ns);
  auto us = [&](int64_t t) { return double(t - t_min) / 1e3; };
  for (const auto& i : pair_intervals(events)) {
    nodes.insert(i.node);
    tracks.insert({i.node, i.actor});
    json args = {{"job", i.job}, {"partition", i.partition}};
    if (i.bytes) args["bytes"] = i.bytes;
    trace.push_back({{"name", stage_name(i.st)},
                     {"cat", role_of(i.st)},
                     {"ph", "X"},
                     {"ts", us(i.t0)},
                     {"dur", us(i.t1) - us(i.t0)},
                     {"pid", i.node},
                     {"tid", i.actor},
                     {"args", args}});
  }
  for (const auto& e : events) {
    if (e.ph != phase_t::instant) continue;
    nodes.insert(e.node);
    tracks.insert({e.node, e.actor});
    trace.push_back({{"name", stage_name(e.st)},
                     {"cat", role_of(e.st)},
                     {"ph", "i"},
                     {"s", "t"},
                     {"ts", us(e.t_ns)},
                     {"pid", e.node},
                     {"tid", e.actor},
                     {"args", {{"job", e.job}, {"partition", e.partition}}}});
  }
  for (uint16_t n : nodes)
    trace.push_back(
        {{"name", "process_name"}, {"ph", "M"}, {"pid", n}, {"args", {{"name", names.node(n)}}}});
  for (const auto& [n, a] : tracks)
    trace.push_back({{"name", "thread_name"},
                     {"ph", "M"},
                     {"pid", n},
                     {"tid", a},
                     {"args", {{"name", names.track(n, a)}}}});
  return json{{"traceEvents", trace}, {"displayTimeUnit", "ms"}}.dump(1) + "\n";
}

// A pipeline-bound verdict's advice: what would deepen the pipeline, given what is set.
std::string lookahead_advice(const std::optional<config::lookahead_t>& l) {
  if (!l) return "raise scheduler.lookahead, or set it to auto";
  if (!l->automatic)
    return "raise scheduler.lookahead (now " + std::to_string(l->value) + "), or set it to auto";
  return "lookahead is auto and capped at " + std::to_string(l->max) +
         ": raise scheduler.lookahead_max, or add synthesis capacity so that partitions are ready "
         "sooner";
}

// " (the busiest, node/track, 99%)": the transfer track busiest of all; "" without one.
std::string busiest_link(const std::vector<track_stats_t>& tracks) {
  const track_stats_t* top = nullptr;
  for (const auto& t : tracks)
    if (t.role == "transfer" && (!top || t.busy_fraction > top->busy_fraction)) top = &t;
  return top ? " (the busiest, " + top->name + ", " + fmt("%.0f%%", top->busy_fraction * 100) + ")"
             : std::string();
}

stats_t compute_stats(const std::vector<event_t>& events, const names_t& names,
                      const std::optional<config::lookahead_t>& lookahead) {
  stats_t s;
  if (events.empty()) return s;
  auto iv = pair_intervals(events);
  int64_t t_min = events.front().t_ns, t_max = events.front().t_ns;
  for (const auto& e : events) t_min = std::min(t_min, e.t_ns), t_max = std::max(t_max, e.t_ns);
  const int64_t span = std::max<int64_t>(t_max - t_min, 1);
  s.span_s = span * 1e-9;
  for (const auto& e : events) {
    s.proofs += e.st == stage_t::done && e.ph == phase_t::instant;
    s.wire_packed += e.st == stage_t::wire_packed;
    s.wire_full += e.st == stage_t::wire_full;
  }
  s.proofs_per_minute = s.proofs / s.span_s * 60.0;

  // Busy fraction per track, from the union of its top-level intervals (children nest in GPU).
  std::map<std::pair<uint16_t, uint16_t>, std::vector<std::pair<int64_t, int64_t>>> busy;
  std::map<std::pair<uint16_t, uint16_t>, std::string> role;
  for (const auto& i : iv) {
    if (is_child(i.st) || i.st == stage_t::queued || i.st == stage_t::gpu_pickup) continue;
    busy[{i.node, i.actor}].push_back({i.t0, i.t1});
    role[{i.node, i.actor}] = role_of(i.st);
  }
  std::map<std::string, std::pair<double, int>> by_role;
  for (const auto& [k, v] : busy) {
    track_stats_t t;
    t.name = names.node(k.first) + "/" + names.track(k.first, k.second);
    t.role = role[k];
    t.busy_fraction = double(union_length(v)) / double(span);
    by_role[t.role].first += t.busy_fraction;
    by_role[t.role].second += 1;
    s.tracks.push_back(t);
  }
  auto mean = [&](const char* r) {
    auto it = by_role.find(r);
    return it == by_role.end() ? 0.0 : it->second.first / it->second.second;
  };
  s.synth_busy = mean("synthesis");
  s.transfer_busy = mean("transfer");
  s.prover_busy = mean("prover");

  // Prover idle: gaps between consecutive GPU intervals on each prover track. The part of a gap
  // in which no partition waited in the scheduler's queue is starvation: every job submitted so
  // far was already dispatched (jobs come one after another, or slower than the farm proves), so
  // no lookahead or placement would have started anything sooner.
  std::vector<std::pair<int64_t, int64_t>> queued;
  for (const auto& i : iv)
    if (i.st == stage_t::queued) queued.push_back({i.t0, i.t1});
  const auto work = merge_intervals(std::move(queued));
  std::map<std::pair<uint16_t, uint16_t>, std::vector<std::pair<int64_t, int64_t>>> gpu;
  size_t gpu_count = 0;
  for (const auto& i : iv)
    if (i.st == stage_t::gpu) gpu[{i.node, i.actor}].push_back({i.t0, i.t1}), ++gpu_count;
  int64_t idle = 0, starved = 0;
  for (auto& [k, v] : gpu) {
    std::sort(v.begin(), v.end());
    int64_t reach = v.front().second;
    for (size_t j = 1; j < v.size(); ++j) {
      if (v[j].first > reach) {
        idle += v[j].first - reach;
        starved += v[j].first - reach - overlap_length(work, reach, v[j].first);
      }
      reach = std::max(reach, v[j].second);
    }
  }
  s.prover_idle_per_proof_s = gpu_count > 1 ? idle * 1e-9 / double(gpu_count - 1) : 0.0;
  s.prover_starved_per_proof_s = gpu_count > 1 ? starved * 1e-9 / double(gpu_count - 1) : 0.0;

  // Queue depth over time, from QUEUED intervals (time-weighted mean, maximum).
  std::vector<std::pair<int64_t, int>> steps;
  for (const auto& i : iv)
    if (i.st == stage_t::queued) steps.push_back({i.t0, +1}), steps.push_back({i.t1, -1});
  std::sort(steps.begin(), steps.end());
  int depth = 0;
  double area = 0;
  int64_t prev = t_min;
  for (auto [t, d] : steps) {
    area += double(depth) * double(t - prev);
    prev = t;
    depth += d;
    s.max_queue_depth = std::max<size_t>(s.max_queue_depth, size_t(std::max(depth, 0)));
  }
  s.mean_queue_depth = area / double(span);
  // ... and over time: the deepest the queue was in each tenth of the span.
  s.queue_depth_series.assign(10, 0);
  depth = 0;
  size_t k = 0;
  for (size_t slice = 0; slice < s.queue_depth_series.size(); ++slice) {
    const int64_t end =
        t_min + int64_t(double(span) * double(slice + 1) / double(s.queue_depth_series.size()));
    size_t deepest = size_t(std::max(depth, 0));
    for (; k < steps.size() && (steps[k].first < end || slice + 1 == s.queue_depth_series.size());
         ++k) {
      depth += steps[k].second;
      deepest = std::max(deepest, size_t(std::max(depth, 0)));
    }
    s.queue_depth_series[slice] = deepest;
  }

  // The bound: the role whose resources are busiest; the sentence carries the evidence.
  struct candidate_t {
    const char* name;
    double busy;
  };
  candidate_t cs[] = {
      {"prover", s.prover_busy}, {"synthesis", s.synth_busy}, {"transfer", s.transfer_busy}};
  const candidate_t* top =
      std::max_element(std::begin(cs), std::end(cs),
                       [](const candidate_t& a, const candidate_t& b) { return a.busy < b.busy; });
  if (top->busy <= 0) return s;
  s.bottleneck = top->name;
  // Nothing saturated and the prover still waits while partitions wait in the queue: the pipeline
  // is too shallow, not a resource too slow (cuzk's seed waterfall: synthesis one partition after
  // another). Waiting while nothing is queued is a lack of work (demand), not the pipeline.
  const double waiting_s = s.prover_idle_per_proof_s - s.prover_starved_per_proof_s;
  if (top->busy < kSaturated && s.prover_idle_per_proof_s > 0)
    s.bottleneck = waiting_s > s.prover_starved_per_proof_s ? "pipeline" : "demand";
  const std::string pct_p = fmt("%.0f%%", s.prover_busy * 100),
                    pct_s = fmt("%.0f%%", s.synth_busy * 100),
                    pct_x = fmt("%.0f%%", s.transfer_busy * 100),
                    idle_s = human_time(s.prover_idle_per_proof_s);
  if (s.bottleneck == "pipeline")
    s.verdict = "pipeline-bound: no resource is saturated (prover " + pct_p + ", synthesis " +
                pct_s + ", transfers " + pct_x + ") yet the prover idles " + human_time(waiting_s) +
                " per proof while partitions wait in the queue; " + lookahead_advice(lookahead);
  else if (s.bottleneck == "demand")
    s.verdict = "demand-bound: no resource is saturated (prover " + pct_p + ", synthesis " + pct_s +
                ", transfers " + pct_x + ") and the prover idles " +
                human_time(s.prover_starved_per_proof_s) +
                " per proof with nothing queued: every job was dispatched as it came, so the "
                "farm waits for jobs, not for its pipeline; submit work sooner or in larger "
                "batches to use it";
  else if (s.bottleneck == "prover")
    s.verdict = "prover-bound: provers busy " + pct_p + " of the wall time (synthesis " + pct_s +
                ", transfers " + pct_x + "); add provers or GPUs, or speed up the prover stages";
  else if (s.bottleneck == "synthesis")
    s.verdict = "synthesis-bound: prover idle " + idle_s + " per proof while synthesis is busy " +
                pct_s + " (prover " + pct_p +
                "); raise synthesis concurrency or add synthesis nodes";
  else  // the links between synthesis nodes and provers: the network, named by its busiest link
    s.verdict = "network-bound: the links carrying buffers to the provers are busy " + pct_x +
                busiest_link(s.tracks) + ", prover idle " + idle_s + " per proof (prover " + pct_p +
                ", synthesis " + pct_s +
                "); ship fewer bytes a partition (witness-only or packed buffers) or use a faster "
                "network";
  // Within the bound role, the stage that takes most of its time (the prover's stages; a Filecoin
  // PoRep synthesis's porep_witness / porep_synthesize / porep_check, a SnapDeals one's snap_*).
  if (s.bottleneck == "prover" || s.bottleneck == "synthesis") {
    std::map<stage_t, int64_t> spent;
    int64_t all = 0;
    for (const auto& i : iv)
      if ((s.bottleneck == "prover" ? is_prover_child(i.st) : is_synth_child(i.st))) {
        spent[i.st] += i.t1 - i.t0;
        all += i.t1 - i.t0;
      }
    if (all > 0) {
      auto top_stage =
          std::max_element(spent.begin(), spent.end(),
                           [](const auto& a, const auto& b) { return a.second < b.second; });
      s.bound_stage = stage_name(top_stage->first);
      s.verdict +=
          "; its largest stage is " + s.bound_stage + " (" +
          fmt("%.0f%%", 100.0 * double(top_stage->second) / double(all)) + " of its " +
          (s.bottleneck == "prover" ? "prover" : "synthesis") + " stages' time, " +
          human_time(double(top_stage->second) * 1e-9 / std::max<double>(1, double(s.proofs))) +
          " per proof)";
    }
  }
  return s;
}

std::string render_stats(const stats_t& s) {
  std::string out;
  out += "wall " + human_time(s.span_s) + ", " + std::to_string(s.proofs) + " proofs, " +
         fmt("%.1f", s.proofs_per_minute) + " proofs/min\n";
  out += "busy: synthesis " + fmt("%.0f%%", s.synth_busy * 100) + ", transfer " +
         fmt("%.0f%%", s.transfer_busy * 100) + ", prover " + fmt("%.0f%%", s.prover_busy * 100) +
         "; prover idle per proof " + human_time(s.prover_idle_per_proof_s) +
         (s.prover_starved_per_proof_s > 0
              ? " (" + human_time(s.prover_starved_per_proof_s) + " of it with nothing queued)"
              : std::string()) +
         "\n";
  out += "queue depth: mean " + fmt("%.1f", s.mean_queue_depth) + ", max " +
         std::to_string(s.max_queue_depth);
  if (!s.queue_depth_series.empty()) {
    out += "; over time (max per tenth of the run):";
    for (size_t d : s.queue_depth_series) out += " " + std::to_string(d);
  }
  out += "\n";
  // Every track when there are few; for a large farm the busiest and the idlest.
  auto tracks = s.tracks;
  std::stable_sort(tracks.begin(), tracks.end(),
                   [](const track_stats_t& a, const track_stats_t& b) {
                     return a.busy_fraction > b.busy_fraction;
                   });
  auto line = [&](const track_stats_t& t) {
    out += "  " + t.name + " (" + t.role + "): busy " + fmt("%.1f%%", t.busy_fraction * 100) + "\n";
  };
  if (tracks.size() <= 12) {
    for (const auto& t : tracks) line(t);
  } else {
    for (size_t i = 0; i < 6; ++i) line(tracks[i]);
    out += "  … " + std::to_string(tracks.size() - 9) + " more tracks …\n";
    for (size_t i = tracks.size() - 3; i < tracks.size(); ++i) line(tracks[i]);
  }
  if (s.wire_packed + s.wire_full)
    out += "wire (auto): partitions packed " + std::to_string(s.wire_packed) + ", full " +
           std::to_string(s.wire_full) + "\n";
  out += s.verdict.empty() ? "bottleneck: no data\n" : "bottleneck: " + s.verdict + "\n";
  return out;
}

}  // namespace zk::timeline
