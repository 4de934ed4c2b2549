#include "node/scheduler/simulation.hpp"

#include <algorithm>
#include <cstdio>
#include <deque>
#include <map>
#include <queue>
#include <random>
#include <set>
#include <stdexcept>
#include <tuple>

namespace zk::node {
namespace {

enum class ev_kind_t { submit, cancel, synth_done, transfer_done, rebuild_done, prove_done };

struct sim_event_t {
  double t;
  uint64_t seq;
  ev_kind_t kind;
  size_t index;  // job index in the config (submit, cancel)
  job_id_t job;
  uint32_t part;
  bool operator>(const sim_event_t& o) const { return std::tie(t, seq) > std::tie(o.t, o.seq); }
};

struct item_t {
  job_id_t job;
  uint32_t part;
};

constexpr uint16_t kUplinkTrack = 1000;
constexpr uint16_t kProverTrack = 500;
constexpr uint16_t kRebuildTrack = 600;  // + core

}  // namespace

sim_result_t run_simulation(const sim_config_t& cfg) {
  sim_result_t res;
  scheduler_policy_t sched(cfg.lookahead);
  std::map<std::string, const sim_circuit_t*> circuits;
  for (const auto& c : cfg.circuits) {
    sched.add_circuit(c.spec);
    circuits[c.spec.id] = &c;
  }
  std::vector<node_id_t> ids;
  std::map<node_id_t, size_t> index_of;
  auto& names = res.timeline.names();
  names.nodes[0] = "scheduler (simulated)";
  names.tracks[{0, 0}] = "queue";
  for (size_t i = 0; i < cfg.nodes.size(); ++i) {
    node_id_t id = sched.add_node(cfg.nodes[i].spec);
    ids.push_back(id);
    index_of[id] = i;
    uint16_t tn = uint16_t(i + 1);
    names.nodes[tn] = cfg.nodes[i].spec.name + " (simulated)";
    if (cfg.nodes[i].spec.synth) {
      for (unsigned c = 0; c < cfg.nodes[i].spec.cores; ++c)
        names.tracks[{tn, uint16_t(c)}] = "core " + std::to_string(c);
      names.tracks[{tn, kUplinkTrack}] = "uplink";
    }
    if (cfg.nodes[i].spec.prover) {
      names.tracks[{tn, kProverTrack}] = "prover";
      for (unsigned c = 0; c < cfg.nodes[i].spec.cores; ++c)
        names.tracks[{tn, uint16_t(kRebuildTrack + c)}] = "rebuild core " + std::to_string(c);
    }
  }
  res.peak_reserved.assign(cfg.nodes.size(), 0);

  std::priority_queue<sim_event_t, std::vector<sim_event_t>, std::greater<>> q;
  uint64_t seq = 0;
  if (!(cfg.jitter >= 0 && cfg.jitter < 1))
    throw std::invalid_argument("simulation: jitter " + std::to_string(cfg.jitter) +
                                " is not in [0, 1)");
  std::mt19937_64 draw(cfg.seed);
  auto jittered = [&](double seconds) {  // one draw per call, in event order: deterministic
    if (cfg.jitter == 0) return seconds;
    const double u = double(draw() >> 11) * 0x1p-52 - 1.0;  // [−1, 1), the same on every library
    return seconds * (1 + cfg.jitter * u);
  };
  for (size_t i = 0; i < cfg.jobs.size(); ++i) {
    if (!circuits.count(cfg.jobs[i].circuit))
      throw std::invalid_argument("simulation: job " + std::to_string(i) +
                                  " names unknown circuit '" + cfg.jobs[i].circuit + "'");
    q.push({cfg.jobs[i].submit_at, seq++, ev_kind_t::submit, i, 0, 0});
    if (cfg.jobs[i].cancel_at >= 0)
      q.push({cfg.jobs[i].cancel_at, seq++, ev_kind_t::cancel, i, 0, 0});
  }

  std::vector<job_id_t> job_of(cfg.jobs.size(), 0);
  std::map<job_id_t, std::string> circuit_of;
  std::map<size_t, std::vector<bool>> core_busy;  // synth node → slots
  std::map<std::pair<job_id_t, uint32_t>, std::pair<size_t, unsigned>>
      core_of;  // partition → (node, slot)
  std::map<std::pair<job_id_t, uint32_t>, size_t> prover_of;
  std::map<size_t, std::deque<item_t>> uplink_q;
  std::map<size_t, bool> uplink_busy;
  std::map<size_t, std::vector<item_t>> prover_q;
  std::map<size_t, bool> prover_busy;
  std::map<std::pair<job_id_t, uint32_t>, double> t_synth_start, t_xfer_start, t_prove_start;
  std::set<job_id_t> finished;
  double now = 0;

  auto ns = [](double t) { return int64_t(t * 1e9); };
  auto rec = [&](job_id_t j, uint32_t p, timeline::stage_t s, timeline::phase_t ph, uint16_t node,
                 uint16_t track) {
    res.timeline.add({timeline::event_t{j, p, s, ph, node, track, ns(now), 0}});
  };
  auto alive = [&](job_id_t j, uint32_t p) {
    auto s = sched.state(j, p);
    return s != part_state_t::cancelled && s != part_state_t::failed;
  };
  auto start_uplink = [&](size_t node) {
    auto& uq = uplink_q[node];
    while (!uplink_busy[node] && !uq.empty()) {
      item_t it = uq.front();
      uq.pop_front();
      if (!alive(it.job, it.part)) continue;
      uplink_busy[node] = true;
      const auto* c = circuits.at(circuit_of.at(it.job));
      const uint64_t bytes = c->wire_bytes ? c->wire_bytes : c->spec.buffer_bytes;
      double dur = double(bytes) / cfg.nodes[node].uplink_bytes_per_s;
      t_xfer_start[{it.job, it.part}] = now;
      rec(it.job, it.part, timeline::stage_t::xfer, timeline::phase_t::begin, uint16_t(node + 1),
          kUplinkTrack);
      q.push({now + dur, seq++, ev_kind_t::transfer_done, node, it.job, it.part});
    }
  };
  auto start_prover = [&](size_t node) {
    auto& pq = prover_q[node];
    pq.erase(std::remove_if(pq.begin(), pq.end(),
                            [&](const item_t& it) { return !alive(it.job, it.part); }),
             pq.end());
    if (prover_busy[node] || pq.empty()) return;
    // Highest priority, then oldest job, then partition.
    auto best = std::min_element(pq.begin(), pq.end(), [&](const item_t& a, const item_t& b) {
      auto sa = sched.status(a.job), sb = sched.status(b.job);
      return std::make_tuple(int(sa.priority), a.job, a.part) <
             std::make_tuple(int(sb.priority), b.job, b.part);
    });
    item_t it = *best;
    pq.erase(best);
    prover_busy[node] = true;
    sched.prove_started(it.job, it.part);
    t_prove_start[{it.job, it.part}] = now;
    rec(it.job, it.part, timeline::stage_t::gpu_pickup, timeline::phase_t::end, uint16_t(node + 1),
        kProverTrack);
    rec(it.job, it.part, timeline::stage_t::gpu, timeline::phase_t::begin, uint16_t(node + 1),
        kProverTrack);
    q.push({now + jittered(circuits.at(circuit_of.at(it.job))->prove_seconds), seq++,
            ev_kind_t::prove_done, node, it.job, it.part});
  };
  // Arrived at its prover: rebuilt there first when the wire asks for it (one partition per core
  // of the prover host, in arrival order), then on the prover's queue.
  std::map<size_t, std::deque<item_t>> rebuild_q;
  std::map<size_t, std::vector<bool>> rebuild_busy;  // prover node → cores
  std::map<std::pair<job_id_t, uint32_t>, unsigned> rebuild_core_of;
  auto to_prover = [&](size_t pn, item_t it) {
    rec(it.job, it.part, timeline::stage_t::gpu_pickup, timeline::phase_t::begin, uint16_t(pn + 1),
        kProverTrack);
    prover_q[pn].push_back(it);
    start_prover(pn);
  };
  auto start_rebuild = [&](size_t pn) {
    auto& rq = rebuild_q[pn];
    auto& cores = rebuild_busy[pn];
    cores.resize(std::max(1u, cfg.nodes[pn].spec.cores), false);
    while (!rq.empty()) {
      const auto free = std::find(cores.begin(), cores.end(), false);
      if (free == cores.end()) return;
      item_t it = rq.front();
      rq.pop_front();
      if (!alive(it.job, it.part)) continue;
      *free = true;
      const unsigned slot = unsigned(free - cores.begin());
      rebuild_core_of[{it.job, it.part}] = slot;
      rec(it.job, it.part, timeline::stage_t::synth, timeline::phase_t::begin, uint16_t(pn + 1),
          uint16_t(kRebuildTrack + slot));
      q.push({now + jittered(circuits.at(circuit_of.at(it.job))->rebuild_seconds), seq++,
              ev_kind_t::rebuild_done, pn, it.job, it.part});
    }
  };
  // After each round of dispatch: no budget exceeded, and no prover given work past its
  // lookahead (`before`: each node's pipeline before the round; an auto lookahead that fell since
  // partitions were dispatched leaves them in flight, which is no breach).
  auto check_invariants = [&](const std::vector<unsigned>& before) {
    for (size_t i = 0; i < ids.size(); ++i) {
      uint64_t r = sched.reserved(ids[i]);
      res.peak_reserved[i] = std::max(res.peak_reserved[i], r);
      if (r > sched.budget(ids[i])) res.budget_exceeded = true;
      if (cfg.nodes[i].spec.prover) {
        unsigned allowed = sched.lookahead(ids[i]) + 1;
        unsigned pl = sched.pipeline(ids[i]);
        if (pl > allowed && pl > before[i])
          res.max_pipeline_over_lookahead = std::max(res.max_pipeline_over_lookahead, pl - allowed);
      }
    }
  };
  auto dispatch = [&]() {
    std::vector<unsigned> before(ids.size(), 0);
    for (size_t i = 0; i < ids.size(); ++i)
      if (cfg.nodes[i].spec.prover) before[i] = sched.pipeline(ids[i]);
    for (const auto& d : sched.schedule()) {
      size_t sn = index_of.at(d.synth);
      auto& slots = core_busy[sn];
      slots.resize(cfg.nodes[sn].spec.cores, false);
      unsigned slot = unsigned(std::find(slots.begin(), slots.end(), false) - slots.begin());
      slots[slot] = true;
      core_of[{d.job, d.partition}] = {sn, slot};
      rec(d.job, d.partition, timeline::stage_t::queued, timeline::phase_t::end, 0, 0);
      rec(d.job, d.partition, timeline::stage_t::synth, timeline::phase_t::begin, uint16_t(sn + 1),
          uint16_t(slot));
      t_synth_start[{d.job, d.partition}] = now;
      q.push({now + jittered(circuits.at(circuit_of.at(d.job))->synth_seconds), seq++,
              ev_kind_t::synth_done, sn, d.job, d.partition});
      prover_of[{d.job, d.partition}] = index_of.at(d.prover);
    }
    check_invariants(before);
  };
  auto note_finished = [&](job_id_t j) {
    if (!finished.count(j) && sched.status(j).finished()) {
      finished.insert(j);
      res.completion_order.push_back(j);
    }
  };

  while (!q.empty()) {
    sim_event_t e = q.top();
    q.pop();
    now = e.t;
    switch (e.kind) {
      case ev_kind_t::submit: {
        const auto& sj = cfg.jobs[e.index];
        const auto submitted = sched.submit(sj.circuit, sj.priority, sj.partitions);
        if (!submitted) {  // as the real scheduler answers a submit
          char at[32];
          std::snprintf(at, sizeof at, "%.1f", now);
          res.refused.push_back("job " + std::to_string(e.index + 1) + " (" + sj.circuit + ", at " +
                                at + " s): " + submitted.error());
          break;
        }
        const job_id_t j = submitted.value();
        job_of[e.index] = j;
        circuit_of[j] = sj.circuit;
        for (uint32_t p = 0; p < sj.partitions; ++p)
          rec(j, p, timeline::stage_t::queued, timeline::phase_t::begin, 0, 0);
        break;
      }
      case ev_kind_t::cancel: {
        job_id_t j = job_of[e.index];
        if (j && sched.cancel(j)) note_finished(j);
        break;
      }
      case ev_kind_t::synth_done: {
        auto [sn, slot] = core_of.at({e.job, e.part});
        core_busy[sn][slot] = false;
        if (!alive(e.job, e.part)) break;
        rec(e.job, e.part, timeline::stage_t::synth, timeline::phase_t::end, uint16_t(sn + 1),
            uint16_t(slot));
        sched.synth_done(e.job, e.part, now - t_synth_start.at({e.job, e.part}));
        uplink_q[sn].push_back({e.job, e.part});
        start_uplink(sn);
        break;
      }
      case ev_kind_t::transfer_done: {
        size_t sn = e.index;
        uplink_busy[sn] = false;
        if (alive(e.job, e.part)) {
          rec(e.job, e.part, timeline::stage_t::xfer, timeline::phase_t::end, uint16_t(sn + 1),
              kUplinkTrack);
          size_t pn = prover_of.at({e.job, e.part});  // the prover the scheduler chose
          if (circuits.at(circuit_of.at(e.job))->rebuild_seconds > 0) {
            rebuild_q[pn].push_back({e.job, e.part});
            start_rebuild(pn);
          } else {
            sched.transfer_done(e.job, e.part, now - t_xfer_start.at({e.job, e.part}));
            to_prover(pn, {e.job, e.part});
          }
        }
        start_uplink(sn);
        break;
      }
      case ev_kind_t::rebuild_done: {
        size_t pn = e.index;
        const unsigned slot = rebuild_core_of.at({e.job, e.part});
        rebuild_busy[pn][slot] = false;
        if (alive(e.job, e.part)) {
          rec(e.job, e.part, timeline::stage_t::synth, timeline::phase_t::end, uint16_t(pn + 1),
              uint16_t(kRebuildTrack + slot));
          // Delivered once ready to prove: auto lookahead then covers the rebuild too.
          sched.transfer_done(e.job, e.part, now - t_xfer_start.at({e.job, e.part}));
          to_prover(pn, {e.job, e.part});
        }
        start_rebuild(pn);
        break;
      }
      case ev_kind_t::prove_done: {
        size_t pn = e.index;
        prover_busy[pn] = false;
        if (alive(e.job, e.part)) {
          rec(e.job, e.part, timeline::stage_t::gpu, timeline::phase_t::end, uint16_t(pn + 1),
              kProverTrack);
          rec(e.job, e.part, timeline::stage_t::done, timeline::phase_t::instant, uint16_t(pn + 1),
              kProverTrack);
          sched.prove_done(e.job, e.part, now - t_prove_start.at({e.job, e.part}));
          ++res.proofs;
          note_finished(e.job);
        }
        start_prover(pn);
        break;
      }
    }
    dispatch();
  }
  res.makespan_s = now;
  res.proofs_per_minute = now > 0 ? double(res.proofs) / now * 60.0 : 0;
  for (job_id_t j : job_of)
    if (j) res.jobs.push_back(sched.status(j));
  return res;
}

}  // namespace zk::node
