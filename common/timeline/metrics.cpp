#include "common/timeline/metrics.hpp"

#include <cstdio>
#include <iterator>

namespace zk::timeline {

void metrics_t::observe(const event_t& e) {
  if (e.ph == phase_t::instant) {
    proofs_ += e.st == stage_t::done;
    if (e.st == stage_t::cancelled) {
      ++cancelled_count_;
      if (stopped_.size() >= kMaxOpen) stopped_.erase(stopped_.begin());
      stopped_.insert({e.job, e.partition, e.node});
    }
    return;
  }
  // The span a cancel stopped is no stage's duration (its partner is dropped with it).
  if ((e.st == stage_t::gpu || e.st == stage_t::synth) &&
      stopped_.count({e.job, e.partition, e.node})) {
    open_.erase(key_t{e.job, e.partition, int(e.st), e.node, e.actor});
    return;
  }
  const key_t k{e.job, e.partition, int(e.st), e.node, e.actor};
  auto it = open_.find(k);
  if (it == open_.end()) {
    if (open_.size() >= kMaxOpen) open_.erase(open_.begin());
    it = open_.emplace(k, unpaired_t{}).first;
  }
  auto& u = it->second;
  if (e.ph == phase_t::begin) {
    auto end = u.ends.lower_bound(e.t_ns);  // the earliest unpaired end at or after it
    if (end == u.ends.end()) {
      u.begins.insert(e.t_ns);
      return;
    }
    add_duration(e.st, *end - e.t_ns);
    u.ends.erase(end);
  } else {
    auto after = u.begins.upper_bound(e.t_ns);  // the latest unpaired begin at or before it
    if (after == u.begins.begin()) {
      u.ends.insert(e.t_ns);
      return;
    }
    add_duration(e.st, e.t_ns - *std::prev(after));
    u.begins.erase(std::prev(after));
  }
  if (u.begins.empty() && u.ends.empty()) open_.erase(it);
}

void metrics_t::add_duration(stage_t st, int64_t ns) {
  const double d = double(ns) * 1e-9;
  auto& h = stages_[st];
  for (size_t b = 0; b < bounds.size(); ++b) h.buckets[b] += d <= bounds[b];
  h.sum += d;
  ++h.count;
}

std::string metric_family(const std::string& name, const std::string& help, const char* type) {
  return "# HELP " + name + " " + help + "\n# TYPE " + name + " " + type + "\n";
}

std::string escape_label_value(const std::string& v) {
  std::string out;
  out.reserve(v.size());
  for (char c : v) {
    if (c == '\\')
      out += "\\\\";
    else if (c == '"')
      out += "\\\"";
    else if (c == '\n')
      out += "\\n";
    else
      out += c;
  }
  return out;
}

std::string render_node_gauge(const std::string& name, const std::string& help,
                              const std::vector<std::pair<std::string, uint64_t>>& by_node) {
  std::string out = metric_family(name, help, "gauge");
  for (const auto& [node, value] : by_node)
    out += name + "{node=\"" + escape_label_value(node) + "\"} " + std::to_string(value) + "\n";
  return out;
}

std::string render_counter(const std::string& name, const std::string& help,
                           const std::vector<std::pair<labels_t, uint64_t>>& samples) {
  std::string out = metric_family(name, help, "counter");
  for (const auto& [labels, value] : samples) {
    out += name + "{";
    for (size_t k = 0; k < labels.size(); ++k)
      out += (k ? "," : "") + labels[k].first + "=\"" + escape_label_value(labels[k].second) + "\"";
    out += "} " + std::to_string(value) + "\n";
  }
  return out;
}

std::string metrics_t::render_prometheus() const {
  auto num = [](const char* f, double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, f, v);
    return std::string(buf);
  };
  std::string out;
  out += metric_family("zkfleet_proofs_total", "Proofs completed.", "counter");
  out += "zkfleet_proofs_total " + std::to_string(proofs_) + "\n";
  out += metric_family(
      "zkfleet_partitions_stopped_total",
      "Partitions whose synthesis or proof stopped because their job was cancelled.", "counter");
  out += "zkfleet_partitions_stopped_total " + std::to_string(cancelled_count_) + "\n";
  out += metric_family("zkfleet_stage_duration_seconds", "Duration of each stage.", "histogram");
  for (const auto& [st, h] : stages_) {
    const std::string lab = std::string("stage=\"") + stage_name(st) + "\"";
    for (size_t b = 0; b < bounds.size(); ++b)
      out += "zkfleet_stage_duration_seconds_bucket{" + lab + ",le=\"" + num("%g", bounds[b]) +
             "\"} " + std::to_string(h.buckets[b]) + "\n";
    out += "zkfleet_stage_duration_seconds_bucket{" + lab + ",le=\"+Inf\"} " +
           std::to_string(h.count) + "\n";
    out += "zkfleet_stage_duration_seconds_sum{" + lab + "} " + num("%.9g", h.sum) + "\n";
    out += "zkfleet_stage_duration_seconds_count{" + lab + "} " + std::to_string(h.count) + "\n";
  }
  return out;
}

}  // namespace zk::timeline
