#include "node/scheduler/policy.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <tuple>

#include "common/buffer/buffer_store.hpp"

namespace zk::node {

const char* part_state_name(part_state_t s) {
  switch (s) {
    case part_state_t::queued:
      return "queued";
    case part_state_t::synthesizing:
      return "synthesizing";
    case part_state_t::transferring:
      return "transferring";
    case part_state_t::waiting:
      return "waiting";
    case part_state_t::proving:
      return "proving";
    case part_state_t::done:
      return "done";
    case part_state_t::failed:
      return "failed";
    case part_state_t::cancelled:
      return "cancelled";
  }
  return "?";
}

const char* failure_name(failure_t f) {
  switch (f) {
    case failure_t::none:
      return "";
    case failure_t::bad_input:
      return "bad_input";
    case failure_t::synth_failed:
      return "synth_failed";
    case failure_t::prove_failed:
      return "prove_failed";
    case failure_t::proof_refused:
      return "proof_refused";
    case failure_t::deadline:
      return "deadline";
    case failure_t::node_lost:
      return "node_lost";
    case failure_t::send_failed:
      return "send_failed";
    case failure_t::placement_timeout:
      return "placement_timeout";
    case failure_t::internal:
      return "internal";
  }
  return "internal";
}

scheduler_policy_t::scheduler_policy_t(lookahead_t lookahead, unsigned max_attempts)
    : lookahead_(lookahead), max_attempts_(std::max(1u, max_attempts)) {}

node_id_t scheduler_policy_t::add_node(const node_spec_t& spec) {
  for (node_id_t id : node_order_) {
    node_t& n = nodes_.at(id);
    if (n.spec.name != spec.name || n.alive) continue;
    // remove_node released everything it held; what a part still names of it is unreserved.
    const bool draining = n.draining;
    n = node_t{};
    n.spec = spec;
    n.draining = draining;
    return id;
  }
  node_id_t id = node_order_.empty() ? 1 : node_order_.back() + 1;
  nodes_[id].spec = spec;
  node_order_.push_back(id);
  return id;
}

void scheduler_policy_t::add_circuit(const circuit_spec_t& c) { circuits_[c.id] = c; }

namespace {

// What a partition of circuit c reserves on wire w (a circuit of one wire: its own sizes).
wire_size_t size_on(const circuit_spec_t& c, wire_t w) {
  if (c.wire_auto) return w == wire_t::full ? c.full : c.packed;
  return {c.buffer_bytes, c.prover_work_bytes, 0};
}
// The circuit as a partition on wire w sees it (what pick_prover and fit_of take).
circuit_spec_t spec_on(const circuit_spec_t& c, wire_t w) {
  circuit_spec_t s = c;
  const wire_size_t z = size_on(c, w);
  s.buffer_bytes = z.buffer_bytes;
  s.prover_work_bytes = z.prover_work_bytes;
  return s;
}

}  // namespace

scheduler_policy_t::fit_t scheduler_policy_t::fit_of(const circuit_spec_t& c,
                                                     bool live_only) const {
  // What pick_synth and pick_prover ask of an idle node.
  fit_t f;
  for (node_id_t id : node_order_) {
    const node_t& n = nodes_.at(id);
    if (live_only && !n.alive) continue;
    if (n.spec.synth && n.spec.cores > 0) {
      if (!f.big_synth || n.spec.memory_budget > f.big_synth->spec.memory_budget) f.big_synth = &n;
      f.synth_fits |= c.buffer_bytes <= n.spec.memory_budget;
    }
    if (n.spec.prover && (!c.resident_only || n.spec.hot_keys.count(c.id))) {
      if (!f.big_prover || n.spec.memory_budget > f.big_prover->spec.memory_budget)
        f.big_prover = &n;
      f.prover_fits |= c.buffer_bytes + c.prover_work_bytes <= n.spec.memory_budget;
    }
  }
  return f;
}

check_t scheduler_policy_t::check_fits(const std::string& circuit, bool live_only) const {
  const circuit_spec_t& c = circuits_.at(circuit);
  const fit_t f = fit_of(c, live_only);
  if (!f.hopeless()) return {};
  std::string why = "circuit '" + c.id + "': ";
  if (!f.synth_fits)
    why += "a partition's " + buffer::format_bytes(c.buffer_bytes) +
           " buffer fits no synthesis node (the largest " + "memory_budget is " +
           f.big_synth->spec.name + "'s " + buffer::format_bytes(f.big_synth->spec.memory_budget) +
           ")";
  if (!f.prover_fits)
    why += std::string(f.synth_fits ? "" : "; ") + "a partition's buffer + work area, " +
           buffer::format_bytes(c.buffer_bytes + c.prover_work_bytes) +
           ", fits no prover (the largest memory_budget is " + f.big_prover->spec.name + "'s " +
           buffer::format_bytes(f.big_prover->spec.memory_budget) + ")";
  return why;
}

result_t<job_id_t> scheduler_policy_t::submit(const std::string& circuit, priority_t prio,
                                              uint32_t partitions) {
  if (!circuits_.count(circuit)) return "unknown circuit '" + circuit + "'";
  if (partitions == 0) return std::string("a job needs at least one partition");
  if (check_t fits = check_fits(circuit, false); !fits) return fits.reason();
  job_t j;
  j.status.id = next_job_++;
  j.status.circuit = circuit;
  j.status.priority = prio;
  j.status.partitions = partitions;
  j.seq = next_seq_++;
  j.parts.resize(partitions);
  job_id_t id = j.status.id;
  jobs_[id] = std::move(j);
  return id;
}

scheduler_policy_t::part_t* scheduler_policy_t::find(job_id_t job, uint32_t part) {
  auto it = jobs_.find(job);
  if (it == jobs_.end() || part >= it->second.parts.size()) return nullptr;
  return &it->second.parts[part];
}

void scheduler_policy_t::release_synth(part_t& p) {
  if (!p.synth_reserved) return;
  nodes_.at(p.synth).reserved -= p.buffer;
  p.synth_reserved = false;
}

void scheduler_policy_t::release_prover(part_t& p) {
  if (!p.prover_reserved) return;
  auto& n = nodes_.at(p.prover);
  n.reserved -= p.buffer;
  n.works.erase(n.works.find(p.work));
  if (p.st == part_state_t::proving) n.working = 0;
  p.prover_reserved = false;
}

void scheduler_policy_t::release_held(part_t& p) {
  if (!p.held) return;
  nodes_.at(p.held).reserved -= p.buffer;
  p.held = 0;
}

void scheduler_policy_t::pause(node_id_t n, bool paused) {
  auto it = nodes_.find(n);
  if (it != nodes_.end()) it->second.paused = paused;
}

bool scheduler_policy_t::hold(job_id_t job, uint32_t part, node_id_t n, uint64_t payload_bytes) {
  part_t* p = find(job, part);
  auto it = nodes_.find(n);
  if (!p || p->st != part_state_t::queued || p->held || it == nodes_.end() || !it->second.alive ||
      !it->second.spec.synth)
    return false;
  job_t& j = jobs_.at(job);
  if (j.status.finished()) return false;
  // A held buffer of a `wire: auto` circuit is full when it is larger than a packed one can be.
  const circuit_spec_t& c = circuits_.at(j.status.circuit);
  p->wire = c.wire_auto && payload_bytes > c.packed.buffer_bytes ? wire_t::full : wire_t::packed;
  const wire_size_t size = size_on(c, p->wire);
  p->buffer = size.buffer_bytes;
  p->work = size.prover_work_bytes;
  it->second.reserved += p->buffer;
  it->second.note_peak();
  p->held = n;
  return true;
}

bool scheduler_policy_t::unhold(job_id_t job, uint32_t part) {
  part_t* p = find(job, part);
  if (!p || !p->held) return false;
  release_held(*p);
  return true;
}

node_id_t scheduler_policy_t::held_on(job_id_t job, uint32_t part) const {
  auto it = jobs_.find(job);
  if (it == jobs_.end() || part >= it->second.parts.size()) return 0;
  return it->second.parts[part].held;
}

bool scheduler_policy_t::send_failed(job_id_t job, uint32_t part, const std::string& reason,
                                     bool kept) {
  part_t* p = find(job, part);
  if (!p || !(p->st == part_state_t::synthesizing || p->st == part_state_t::transferring) ||
      !p->synth_reserved)
    return false;
  job_t& j = jobs_.at(job);
  if (!kept) {
    requeue_or_fail(j, *p, reason, failure_t::send_failed, true);
    return true;
  }
  // The synthesis node's reservation stays: it becomes the held buffer's.
  p->synth_reserved = false;
  const node_id_t synth = p->synth;
  requeue_or_fail(j, *p, reason, failure_t::send_failed, true);
  if (p->st == part_state_t::queued && nodes_.at(synth).alive)
    p->held = synth;  // on the wire it was made for (p->wire, p->buffer stay)
  else
    nodes_.at(synth).reserved -= p->buffer;
  return true;
}

void scheduler_policy_t::requeue_or_fail(job_t& j, part_t& p, const std::string& reason,
                                         failure_t why, bool node_lost) {
  auto& pn = nodes_.at(p.prover);
  if (p.st == part_state_t::synthesizing) nodes_.at(p.synth).synthesizing--;
  if (p.st == part_state_t::proving)
    pn.proving--;
  else if (p.st == part_state_t::synthesizing || p.st == part_state_t::transferring ||
           p.st == part_state_t::waiting)
    pn.pipeline--;
  release_synth(p);
  release_prover(p);
  const bool spent = node_lost ? ++p.losses >= max_losses : ++p.attempts >= max_attempts_;
  if (spent) {
    p.st = part_state_t::failed;
    j.status.failed++;
    if (j.status.error.empty()) {
      j.status.error = node_lost ? reason + " (the " + std::to_string(max_losses) +
                                       "th node lost under this partition)"
                                 : reason;
      j.status.failure = why;
    }
  } else {
    p.st = part_state_t::queued;
  }
}

void scheduler_policy_t::remove_node(node_id_t n, const std::string& reason) {
  auto it = nodes_.find(n);
  if (it == nodes_.end()) return;
  const std::string why =
      reason.empty() ? "node " + it->second.spec.name + " left the cluster" : reason;
  for (auto& [id, j] : jobs_)
    for (auto& p : j.parts) {
      if (p.held == n) release_held(p);  // its buffer went with it
      bool involved = (p.synth == n && p.synth_reserved) || (p.prover == n && p.prover_reserved);
      if (involved && p.st != part_state_t::done)
        requeue_or_fail(j, p, why, failure_t::node_lost, true);
    }
  it->second.alive = false;
}

bool scheduler_policy_t::cancel(job_id_t job) {
  auto it = jobs_.find(job);
  if (it == jobs_.end() || it->second.status.finished()) return false;
  job_t& j = it->second;
  for (auto& p : j.parts) {
    if (p.st == part_state_t::done || p.st == part_state_t::failed) continue;
    if (p.st != part_state_t::queued) {
      auto& pn = nodes_.at(p.prover);
      if (p.st == part_state_t::synthesizing) nodes_.at(p.synth).synthesizing--;
      if (p.st == part_state_t::proving)
        pn.proving--;
      else
        pn.pipeline--;
    }
    release_synth(p);
    release_prover(p);
    release_held(p);
    p.st = part_state_t::cancelled;
  }
  j.status.cancelled = true;
  return true;
}

bool scheduler_policy_t::restore(job_id_t id, const std::string& circuit, priority_t prio,
                                 uint32_t partitions, const std::vector<bool>& done,
                                 const std::vector<uint32_t>& attempts, const std::string& state,
                                 const std::string& error) {
  if (!circuits_.count(circuit) || jobs_.count(id) || partitions == 0) return false;
  job_t j;
  j.status.id = id;
  j.status.circuit = circuit;
  j.status.priority = prio;
  j.status.partitions = partitions;
  j.status.error = error;
  j.seq = next_seq_++;  // replayed in id order: the oldest job keeps its place
  j.parts.resize(partitions);
  for (uint32_t k = 0; k < partitions; ++k) {
    part_t& p = j.parts[k];
    p.attempts = k < attempts.size() ? attempts[k] : 0;
    if (k < done.size() && done[k]) {
      p.st = part_state_t::done;
      j.status.done++;
    } else if (state == "cancelled") {
      p.st = part_state_t::cancelled;
    } else if (state == "failed") {
      p.st = part_state_t::failed;
      j.status.failed++;
    }
  }
  if (state == "cancelled") j.status.cancelled = true;
  if (state == "failed" && j.status.failed == 0) {  // every partition done, yet failed: say so
    j.parts.back().st = part_state_t::failed;
    j.status.failed = 1;
  }
  jobs_[id] = std::move(j);
  next_job_ = std::max(next_job_, id + 1);
  return true;
}

bool scheduler_policy_t::fail_queued(job_id_t job, const std::string& reason) {
  auto it = jobs_.find(job);
  if (it == jobs_.end() || it->second.status.finished()) return false;
  job_t& j = it->second;
  bool any = false;
  for (auto& p : j.parts)
    if (p.st == part_state_t::queued) {
      release_held(p);
      p.st = part_state_t::failed;
      j.status.failed++;
      any = true;
    }
  if (any && j.status.error.empty()) {
    j.status.error = reason;
    j.status.failure = failure_t::placement_timeout;
  }
  return any;
}

std::optional<std::string> scheduler_policy_t::waiting_reason(job_id_t job) const {
  auto it = jobs_.find(job);
  if (it == jobs_.end() || it->second.status.finished()) return std::nullopt;
  const job_t& j = it->second;
  if (std::none_of(j.parts.begin(), j.parts.end(),
                   [](const part_t& p) { return p.st == part_state_t::queued; }))
    return std::nullopt;
  bool synth = false, prover = false, synth_drains = false, prover_drains = false;
  for (const auto& [id, n] : nodes_) {
    const bool s = n.alive && n.spec.synth && n.spec.cores > 0, p = n.alive && n.spec.prover;
    synth |= s && !n.draining, synth_drains |= s && n.draining;
    prover |= p && !n.draining, prover_drains |= p && n.draining;
  }
  const std::string undrain = " (zkfleet undrain NODE gives one work again)";
  if (!synth && synth_drains) return "every synthesis node is draining" + undrain;
  if (!prover && prover_drains) return "every prover is draining" + undrain;
  if (!synth && !prover) return std::string("no synthesis node and no prover is in the cluster");
  if (!synth) return std::string("no synthesis node is in the cluster");
  if (!prover) return std::string("no prover is in the cluster");
  const circuit_spec_t& c = circuits_.at(j.status.circuit);
  if (c.resident_only && std::none_of(nodes_.begin(), nodes_.end(), [&](const auto& n) {
        return n.second.alive && n.second.spec.prover && n.second.spec.hot_keys.count(c.id);
      }))
    return "circuit '" + c.id + "': no live prover has its parameters resident (filecoin_params)";
  if (check_t fits = check_fits(j.status.circuit, true); !fits) return fits.reason();
  return std::nullopt;
}

bool scheduler_policy_t::forget(job_id_t job) {
  auto it = jobs_.find(job);
  if (it == jobs_.end() || !it->second.status.finished()) return false;
  for (const auto& p : it->second.parts)
    if (p.synth_reserved || p.prover_reserved || p.held ||
        !(p.st == part_state_t::done || p.st == part_state_t::failed ||
          p.st == part_state_t::cancelled || p.st == part_state_t::queued))
      return false;
  jobs_.erase(it);
  return true;
}

void scheduler_policy_t::synth_done(job_id_t job, uint32_t part, double seconds) {
  part_t* p = find(job, part);
  if (!p || p->st != part_state_t::synthesizing) return;
  nodes_.at(p->synth).synthesizing--;
  p->st = part_state_t::transferring;
  synth_s_ += seconds, ++synth_n_;
  const circuit_spec_t& c = circuits_.at(jobs_.at(job).status.circuit);
  if (c.wire_auto) wire_figures_[c.id].synth_s[int(p->wire)].add(seconds);
}

void scheduler_policy_t::transfer_done(job_id_t job, uint32_t part, double seconds,
                                       uint64_t bytes) {
  part_t* p = find(job, part);
  if (!p || p->st != part_state_t::transferring) return;
  release_synth(*p);  // the prover has acknowledged the buffer
  p->st = part_state_t::waiting;
  transfer_s_ += seconds, ++transfer_n_;
  // The link's rate: what crossed over how long (a buffer that stayed in its process, 0 s, says
  // nothing of the link).
  const circuit_spec_t& c = circuits_.at(jobs_.at(job).status.circuit);
  if (c.wire_auto && seconds > 0) {
    wire_figures_t& f = wire_figures_[c.id];
    f.crossed_bytes.add(double(bytes ? bytes : size_on(c, p->wire).wire_bytes));
    f.crossed_s.add(seconds);
  }
}

void scheduler_policy_t::prove_started(job_id_t job, uint32_t part) {
  part_t* p = find(job, part);
  if (!p || p->st != part_state_t::waiting) return;
  auto& n = nodes_.at(p->prover);
  n.pipeline--;
  n.proving++;
  n.working = p->work;
  n.note_peak();
  p->st = part_state_t::proving;
}

void scheduler_policy_t::prove_done(job_id_t job, uint32_t part, double seconds,
                                    double rebuild_seconds) {
  part_t* p = find(job, part);
  if (!p || p->st != part_state_t::proving) return;
  job_t& j = jobs_.at(job);
  const circuit_spec_t& c = circuits_.at(j.status.circuit);
  if (c.wire_auto && p->wire == wire_t::packed && rebuild_seconds >= 0) {
    wire_figures_t& f = wire_figures_[c.id];
    f.rebuild_s.add(rebuild_seconds);
    f.rebuild_on[p->prover].add(rebuild_seconds);
  }
  nodes_.at(p->prover).proving--;
  release_prover(*p);  // buffer and work area
  p->st = part_state_t::done;
  j.status.done++;
  prove_s_ += seconds, ++prove_n_;
}

void scheduler_policy_t::failed(job_id_t job, uint32_t part, const std::string& reason,
                                failure_t why, retry_t retry) {
  part_t* p = find(job, part);
  if (!p || p->st == part_state_t::queued || p->st == part_state_t::done ||
      p->st == part_state_t::failed || p->st == part_state_t::cancelled)
    return;
  if (retry == retry_t::never) p->attempts = std::max(p->attempts, max_attempts_ - 1);  // the last
  requeue_or_fail(jobs_.at(job), *p, reason, why);
}

unsigned scheduler_policy_t::lookahead(node_id_t) const {
  if (!lookahead_.automatic || prove_n_ == 0 || synth_n_ == 0) return lookahead_.value;
  // Enough partitions in flight to cover synthesis + transfer while the prover works:
  // in steady state one leaves per prove time, and each needs synth + transfer to be ready.
  double s = synth_s_ / synth_n_, t = transfer_n_ ? transfer_s_ / transfer_n_ : 0,
         p = prove_s_ / prove_n_;
  unsigned l = unsigned(std::ceil((s + t) / std::max(p, 1e-9)));
  return std::clamp(l, 1u, lookahead_.max);
}

std::optional<node_id_t> scheduler_policy_t::pick_synth(uint64_t bytes) const {
  std::optional<node_id_t> best;
  unsigned best_free = 0;
  for (node_id_t id : node_order_) {
    const node_t& n = nodes_.at(id);
    if (!n.alive || n.paused || n.draining || !n.spec.synth || n.synthesizing >= n.spec.cores)
      continue;
    if (n.reserved + bytes + std::max(n.max_work(), n.working) > n.spec.memory_budget) continue;
    unsigned free_cores = n.spec.cores - n.synthesizing;
    if (!best || free_cores > best_free) best = id, best_free = free_cores;
  }
  return best;
}

bool scheduler_policy_t::prover_room(const node_t& n, uint64_t buffer, uint64_t work) const {
  return n.reserved + buffer + std::max(n.max_work(), work) <= n.spec.memory_budget;
}

std::optional<node_id_t> scheduler_policy_t::pick_prover(const circuit_spec_t& c) const {
  std::optional<node_id_t> best;
  std::tuple<bool, unsigned> best_key{};
  for (node_id_t id : node_order_) {
    const node_t& n = nodes_.at(id);
    if (!n.alive || n.paused || n.draining || !n.spec.prover) continue;
    if (c.resident_only && !n.spec.hot_keys.count(c.id)) continue;  // its parameters are not here
    unsigned room = lookahead(id) + (n.proving == 0 ? 1 : 0);
    if (n.pipeline >= room) continue;
    if (!prover_room(n, c.buffer_bytes, c.prover_work_bytes)) continue;
    // key resident first (false sorts first: compare "not hot"), then the shortest pipeline
    std::tuple<bool, unsigned> key{!n.spec.hot_keys.count(c.id), n.pipeline + n.proving};
    if (!best || key < best_key) best = id, best_key = key;
  }
  return best;
}

std::vector<dispatch_t> scheduler_policy_t::schedule() {
  // Queued partitions in priority, then job age, then partition order.
  std::vector<std::tuple<uint8_t, uint64_t, uint32_t, job_id_t>> order;
  for (auto& [id, j] : jobs_) {
    if (j.status.finished()) continue;
    for (uint32_t k = 0; k < j.parts.size(); ++k)
      if (j.parts[k].st == part_state_t::queued)
        order.emplace_back(uint8_t(j.status.priority), j.seq, k, id);
  }
  std::sort(order.begin(), order.end());
  std::vector<dispatch_t> out;
  std::map<std::string, bool> waits;  // per circuit, once per call: no live node can hold it
  for (const auto& [prio, seq, k, id] : order) {
    job_t& j = jobs_.at(id);
    const circuit_spec_t& c = circuits_.at(j.status.circuit);
    // A circuit no live node can hold (its big node left) waits for one to join without blocking
    // the rest; anything else that does not fit now is not overtaken by lower partitions.
    auto [w, fresh] = waits.try_emplace(c.id, false);
    if (fresh) w->second = fit_of(c, true).hopeless();
    if (w->second) continue;
    part_t& p = j.parts[k];
    const bool held = p.held && nodes_.at(p.held).alive;
    placement_t at;
    if (c.wire_auto) {
      auto a = place_auto(c, p);
      if (!a) break;  // nothing lower in the order overtakes this partition
      at = std::move(*a);
    } else {
      auto prover = pick_prover(c);
      // A partition whose buffer a live node holds goes there (its bytes are reserved already
      // and it needs no core: the buffer is ready); any other to the best synthesis node.
      auto synth = !prover ? std::nullopt
                   : held  ? std::optional<node_id_t>(p.held)
                           : pick_synth(c.buffer_bytes);
      if (!prover || !synth) break;  // nothing lower in the order overtakes this partition
      at.synth = *synth, at.prover = *prover;
    }
    p.st = part_state_t::synthesizing;
    p.synth = at.synth;
    p.prover = at.prover;
    auto& sn = nodes_.at(at.synth);
    auto& pn = nodes_.at(at.prover);
    if (held) {
      p.held = 0;  // the held reservation (of its own wire) is the synthesis side's now
    } else {
      const wire_size_t size = size_on(c, at.wire);
      p.wire = at.wire;
      p.buffer = size.buffer_bytes;
      p.work = size.prover_work_bytes;
      sn.reserved += p.buffer;
    }
    pn.reserved += p.buffer;
    sn.note_peak();
    pn.note_peak();
    pn.works.insert(p.work);
    p.synth_reserved = p.prover_reserved = true;
    sn.synthesizing++;
    pn.pipeline++;
    dispatch_t d{id, k, at.synth, at.prover};
    if (c.wire_auto) d.wire = p.wire, d.wire_reason = std::move(at.reason);
    out.push_back(std::move(d));
  }
  return out;
}

std::optional<scheduler_policy_t::placement_t> scheduler_policy_t::place_auto(
    const circuit_spec_t& c, const part_t& p) {
  // A buffer a live node holds goes from there on the wire it was made for.
  if (p.held && nodes_.at(p.held).alive) {
    auto prover = pick_prover(spec_on(c, p.wire));
    if (!prover) return std::nullopt;
    return placement_t{
        p.held, *prover, p.wire,
        std::string(config::wire_name(p.wire)) + ": the buffer its synthesis node holds"};
  }
  // The prover first, as on the packed wire (the smaller): the partition is proven there either
  // way, and the choice weighs that prover's own rebuild seconds.
  auto prover = pick_prover(spec_on(c, wire_t::packed));
  if (!prover) return std::nullopt;
  const node_t& pn = nodes_.at(*prover);
  // Full is possible where a live synthesis node's budget holds its buffer and this prover's its
  // buffer and work area (idle: whether it has room now is asked below).
  const bool full_fits = c.full.buffer_bytes + c.full.prover_work_bytes <= pn.spec.memory_budget &&
                         fit_of(spec_on(c, wire_t::full), true).synth_fits;
  wire_figures_t& f = wire_figures_[c.id];
  wire_choice_t choice = choose_wire(
      wire_inputs(f, c.packed, c.full, *prover, c.rebuild_prior_s, full_fits, c.link_prior_per_s));
  std::optional<node_id_t> synth;
  if (choice.wire == wire_t::full) {
    if (prover_room(pn, c.full.buffer_bytes, c.full.prover_work_bytes))
      synth = pick_synth(c.full.buffer_bytes);
    // Full chosen, but no room for its buffer now: packed goes now rather than wait for room.
    if (!synth) {
      choice.wire = wire_t::packed;
      choice.reason = "packed: no room for a full buffer now (" + choice.reason + ")";
    }
  }
  if (choice.wire == wire_t::packed) synth = pick_synth(c.packed.buffer_bytes);
  if (!synth) return std::nullopt;
  note_choice(f, choice.wire);
  return placement_t{*synth, *prover, choice.wire, std::move(choice.reason)};
}

wire_t scheduler_policy_t::wire_of(job_id_t job, uint32_t part) const {
  auto it = jobs_.find(job);
  if (it == jobs_.end() || part >= it->second.parts.size()) return wire_t::packed;
  return it->second.parts[part].wire;
}

const wire_figures_t* scheduler_policy_t::wire_figures(const std::string& circuit) const {
  auto it = wire_figures_.find(circuit);
  return it == wire_figures_.end() ? nullptr : &it->second;
}

}  // namespace zk::node
