#include "common/timeline/aggregator.hpp"

#include <algorithm>
#include <fstream>
#include <limits>
#include <sstream>
#include <stdexcept>

namespace zk::timeline {

clock_estimate_t estimate_offset(const std::vector<clock_sample_t>& samples) {
  if (samples.empty()) throw std::invalid_argument("clock offset: no round-trip samples");
  const clock_sample_t* best = nullptr;
  for (const auto& s : samples) {
    if (s.local_recv < s.local_send)
      throw std::invalid_argument("clock offset: a sample arrived before it was sent");
    if (!best || s.local_recv - s.local_send < best->local_recv - best->local_send) best = &s;
  }
  clock_estimate_t e;
  e.rtt_ns = best->local_recv - best->local_send;
  e.offset_ns = best->remote - (best->local_send + e.rtt_ns / 2);
  return e;
}

std::string names_t::node(uint16_t n) const {
  auto it = nodes.find(n);
  return it != nodes.end() ? it->second : "node" + std::to_string(n);
}
std::string names_t::track(uint16_t n, uint16_t a) const {
  auto it = tracks.find({n, a});
  return it != tracks.end() ? it->second : "track" + std::to_string(a);
}

aggregator_t::aggregator_t(size_t max_events) : max_events_(max_events) {}

int64_t aggregator_t::offset(uint16_t node) const {
  auto it = offsets_.find(node);
  return it == offsets_.end() ? 0 : it->second;
}

void aggregator_t::add(const std::vector<event_t>& batch) {
  // A batch comes thread by thread (recorder_t::drain): the metrics see it in time order.
  std::vector<event_t> sorted = batch;
  for (auto& e : sorted) e.t_ns -= offset(e.node);
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const event_t& a, const event_t& b) { return a.t_ns < b.t_ns; });
  for (const event_t& e : sorted) {
    if (events_.size() == max_events_) {
      events_.pop_front();
      ++dropped_;
    }
    events_.push_back(e);
    metrics_.observe(e);
  }
}

std::vector<event_t> aggregator_t::events() const {
  return events_since(std::numeric_limits<int64_t>::min());
}

std::vector<event_t> aggregator_t::events_since(int64_t since_ns,
                                                std::optional<uint64_t> job) const {
  std::vector<event_t> v;
  for (const auto& e : events_)
    if (e.t_ns > since_ns && (!job || e.job == *job)) v.push_back(e);
  std::stable_sort(v.begin(), v.end(),
                   [](const event_t& a, const event_t& b) { return a.t_ns < b.t_ns; });
  return v;
}

namespace {
const char* phase_name(phase_t p) {
  return p == phase_t::begin ? "B" : p == phase_t::end ? "E" : "I";
}
}  // namespace

void aggregator_t::save(const std::string& path) const {
  std::ofstream f(path);
  if (!f) throw std::runtime_error(path + ": cannot open for writing");
  f << "zkfleet-timeline 1\n";
  for (const auto& [id, name] : names_.nodes) f << "node " << id << ' ' << name << '\n';
  for (const auto& [key, name] : names_.tracks)
    f << "track " << key.first << ' ' << key.second << ' ' << name << '\n';
  for (const auto& e : events())
    f << "event " << e.job << ' ' << e.partition << ' ' << stage_name(e.st) << ' '
      << phase_name(e.ph) << ' ' << e.node << ' ' << e.actor << ' ' << e.t_ns << ' ' << e.bytes
      << '\n';
  if (!f) throw std::runtime_error(path + ": write failed");
}

aggregator_t aggregator_t::load(const std::string& path) {
  std::ifstream f(path);
  if (!f) throw std::runtime_error(path + ": cannot open");
  aggregator_t a;
  std::string line;
  size_t lineno = 0;
  auto fail = [&](const std::string& why) {
    throw std::runtime_error(path + ":" + std::to_string(lineno) + ": " + why);
  };
  if (!std::getline(f, line) || line != "zkfleet-timeline 1") {
    lineno = 1;
    fail("not a zkfleet timeline file (expected the header 'zkfleet-timeline 1')");
  }
  lineno = 1;
  std::vector<event_t> batch;
  while (std::getline(f, line)) {
    ++lineno;
    if (line.empty()) continue;
    std::istringstream in(line);
    std::string kind;
    in >> kind;
    if (kind == "node") {
      unsigned id;
      std::string name;
      if (!(in >> id) || id > 0xffff || !(in >> std::ws) || !std::getline(in, name))
        fail("bad node line");
      a.names_.nodes[uint16_t(id)] = name;
    } else if (kind == "track") {
      unsigned n, t;
      std::string name;
      if (!(in >> n >> t) || n > 0xffff || t > 0xffff || !(in >> std::ws) ||
          !std::getline(in, name))
        fail("bad track line");
      a.names_.tracks[{uint16_t(n), uint16_t(t)}] = name;
    } else if (kind == "event") {
      event_t e;
      std::string st, ph;
      unsigned node, actor;
      if (!(in >> e.job >> e.partition >> st >> ph >> node >> actor >> e.t_ns >> e.bytes))
        fail("bad event line");
      if (!parse_stage(st, e.st)) fail("unknown stage '" + st + "'");
      if (ph == "B")
        e.ph = phase_t::begin;
      else if (ph == "E")
        e.ph = phase_t::end;
      else if (ph == "I")
        e.ph = phase_t::instant;
      else
        fail("unknown phase '" + ph + "' (B, E or I)");
      if (node > 0xffff || actor > 0xffff) fail("node or track id out of range");
      e.node = uint16_t(node);
      e.actor = uint16_t(actor);
      batch.push_back(e);
    } else {
      fail("unknown record '" + kind + "'");
    }
  }
  a.add(batch);  // offsets are all zero: the file is already in the common base
  return a;
}

}  // namespace zk::timeline
