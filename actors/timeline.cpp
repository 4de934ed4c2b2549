#include "actors/timeline.hpp"

#include <limits>

namespace zk::actors {

// --- reporter --------------------------------------------------------------------------------

void timeline_reporter_state::init(reporter_actor::pointer s, reporter_config_t c) {
  self = s;
  cfg = std::move(c);
  join();
  self->delayed_send(self, cfg.period, tick_atom::value);
}

void timeline_reporter_state::join() {
  self->send(
      cfg.aggregator, join_atom::value,
      timeline_join_msg{cfg.node, cfg.name, cfg.tracks, caf::actor_cast<reporter_actor>(self)});
}

void timeline_reporter_state::rebind() {
  if (!cfg.slot) return;
  auto v = cfg.slot->get();
  if (v.epoch == epoch) return;
  epoch = v.epoch;
  cfg.aggregator = v.aggregator;
  join();
}

void timeline_reporter_state::flush() {
  scratch.clear();
  if (cfg.recorder) cfg.recorder->drain(scratch);
  if (cfg.clock_skew_ns != 0)
    for (auto& e : scratch) e.t_ns += cfg.clock_skew_ns;
  if (!scratch.empty()) self->send(cfg.aggregator, event_batch_msg{cfg.node, scratch});
}

reporter_actor::behavior_type timeline_reporter(reporter_impl_t self, reporter_config_t cfg) {
  self->state.init(self, std::move(cfg));
  return {
      [self](tick_atom) {
        self->state.flush(), self->delayed_send(self, self->state.cfg.period, tick_atom::value);
      },
      [self](ping_atom, int64_t) {
        return int64_t(timeline::monotonic_ns()) + self->state.cfg.clock_skew_ns;
      },
      [self](flush_atom) { return self->state.flush(), caf::ok_atom::value; },
      [self](rebind_atom) { self->state.rebind(); },
  };
}

// --- aggregator ------------------------------------------------------------------------------

void timeline_aggregator_state::init(timeline_actor::pointer s) { self = s; }

void timeline_aggregator_state::join(const timeline_join_msg& m) {
  nodes[m.node] = m;
  agg.names().nodes[m.node] = m.name;
  for (const auto& t : m.tracks) agg.names().tracks[{m.node, t.actor}] = t.name;
  samples[m.node].clear();
  offsets.erase(m.node);
  ping(m.node);
}

void timeline_aggregator_state::ping(uint16_t node) {
  const int64_t sent = timeline::monotonic_ns();
  self->request(nodes.at(node).reporter, std::chrono::seconds(2), ping_atom::value, sent)
      .then(
          [this, node, sent](int64_t remote) {
            samples[node].push_back({sent, remote, timeline::monotonic_ns()});
            samples[node].size() < samples_wanted ? ping(node) : synced(node);
          },
          [this, node](const caf::error&) { synced(node); });
}

int64_t timeline_aggregator_state::offset_of(uint16_t node) const {
  auto it = samples.find(node);
  return it == samples.end() || it->second.empty()
             ? 0
             : timeline::estimate_offset(it->second).offset_ns;
}

void timeline_aggregator_state::synced(uint16_t node) {
  const int64_t off = offset_of(node);
  offsets[node] = off;
  agg.set_offset(node, off);
  for (const auto& b : held[node]) agg.add(b.events);
  held.erase(node);
}

void timeline_aggregator_state::batch(const event_batch_msg& m) {
  if (offsets.count(m.node)) {
    agg.add(m.events);
    return;
  }
  // Held until the node's clock is known; only for a node that joined (its join comes first
  // from the same reporter), and at most 256 batches: nothing grows without bound.
  auto& h = held[m.node];
  if (nodes.count(m.node) && h.size() < 256) h.push_back(m);
  if (h.empty()) held.erase(m.node);
}

caf::result<caf::ok_atom> timeline_aggregator_state::flush_all() {
  auto rp = self->make_response_promise();
  auto left = std::make_shared<size_t>(nodes.size());
  if (*left == 0) return caf::ok_atom::value;
  for (const auto& [id, n] : nodes)
    self->request(n.reporter, std::chrono::seconds(5), flush_atom::value)
        .then(
            [rp, left](caf::ok_atom) mutable {
              --*left == 0 ? rp.deliver(caf::ok_atom::value) : void();
            },
            [rp, left](const caf::error&) mutable {
              --*left == 0 ? rp.deliver(caf::ok_atom::value) : void();
            });
  return rp;
}

caf::result<timeline_snapshot_msg> timeline_aggregator_state::job_snapshot(uint64_t job) {
  // A job that has just ended may have its last events still in its nodes' batches (the end of
  // its prove stage, say): each reporter sends what it holds first (each within 2 s; one that
  // does not answer is not waited for), then the snapshot. A reporter's batch reaches this actor
  // before its answer (one sender's messages arrive in order).
  auto rp = self->make_response_promise<timeline_snapshot_msg>();
  auto left = std::make_shared<size_t>(nodes.size());
  if (*left == 0) return snapshot(std::numeric_limits<int64_t>::min(), job);
  auto one_done = [this, rp, left, job]() mutable {
    if (--*left == 0) rp.deliver(snapshot(std::numeric_limits<int64_t>::min(), job));
  };
  for (const auto& [id, n] : nodes)
    self->request(n.reporter, std::chrono::seconds(2), flush_atom::value)
        .then([one_done](caf::ok_atom) mutable { one_done(); },
              [one_done](const caf::error&) mutable { one_done(); });
  return rp;
}

timeline_snapshot_msg timeline_aggregator_state::snapshot(int64_t since_ns,
                                                          std::optional<uint64_t> job) const {
  timeline_snapshot_msg s;
  if (held.empty()) {  // the common case: every node synced, no copy of the store needed
    s.events = agg.events_since(since_ns, job);
  } else {
    timeline::aggregator_t all = agg;
    for (const auto& [node, batches] :
         held) {  // not synced yet: the samples so far, else no offset
      all.set_offset(node, offset_of(node));
      for (const auto& b : batches) all.add(b.events);
    }
    s.events = all.events_since(since_ns, job);
  }
  for (const auto& [id, n] : nodes) s.nodes.push_back({n.node, n.name, n.tracks, reporter_actor{}});
  for (const auto& [id, off] : offsets) s.offsets.emplace_back(id, off);
  return s;
}

timeline_actor::behavior_type timeline_aggregator(timeline_impl_t self) {
  self->state.init(self);
  return {
      [self](join_atom, const timeline_join_msg& m) { self->state.join(m); },
      [self](const event_batch_msg& m) { self->state.batch(m); },
      [self](flush_atom) { return self->state.flush_all(); },
      [self](snapshot_atom) { return self->state.snapshot(std::numeric_limits<int64_t>::min()); },
      [self](snapshot_atom, int64_t since_ns) { return self->state.snapshot(since_ns); },
      [self](job_events_atom, uint64_t job) { return self->state.job_snapshot(job); },
      [self](metrics_atom) { return self->state.agg.metrics().render_prometheus(); },
  };
}

timeline::aggregator_t to_aggregator(const timeline_snapshot_msg& s) {
  timeline::aggregator_t a(s.events.size() + 1);
  for (const auto& n : s.nodes) {
    a.names().nodes[n.node] = n.name;
    for (const auto& t : n.tracks) a.names().tracks[{n.node, t.actor}] = t.name;
  }
  a.add(s.events);  // already in the common base: no offsets here
  return a;
}

}  // namespace zk::actors
