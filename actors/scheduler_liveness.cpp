// The scheduler's liveness: stage deadlines, placement timeouts, the retention sweep.
#include <algorithm>
#include <chrono>
#include <string>
#include <utility>
#include <vector>

#include "actors/scheduler_internal.hpp"
#include "common/util/log.hpp"
#include "node/job_spec.hpp"
#include "zk/base/clock.hpp"

namespace zk::actors {

using namespace zk::node;  // the policy's types
using security::role_t;

// Every partition's stage has a deadline: the larger of stage_timeout and four times the slowest
// that stage has taken for its circuit. One past it is failed (an attempt spent) and queued again;
// whatever its node still does for that attempt is ignored when it reports.
void scheduler_actor_state::check_deadlines(std::chrono::steady_clock::time_point now) {
  std::vector<std::pair<std::pair<job_id_t, uint32_t>, std::string>> late;
  for (auto& [key, p] : parts) {
    const part_state_t st = policy.state(key.first, key.second);
    if (st != p.stage) {
      p.stage = st;
      p.stage_since = now;
      continue;
    }
    const int which = st == part_state_t::synthesizing   ? 0
                      : st == part_state_t::transferring ? 1
                      : st == part_state_t::proving      ? 2
                                                         : -1;
    if (which < 0 || p.verifying) continue;
    const auto& s = slowest[jobs.at(key.first).request.circuit];
    const auto deadline = std::max<std::chrono::milliseconds>(
        timing.stage_timeout, std::chrono::milliseconds(int64_t(4000 * s[which])));
    if (now - p.stage_since > deadline)
      late.push_back({key, std::string(part_state_name(st)) + " took longer than its deadline (" +
                               format_duration(deadline) + ")"});
  }
  for (const auto& [key, why] : late) {
    auto it = parts.find(key);
    log::warn(key.first, key.second, why + ": queued again");
    release_buffer(it->second);
    policy.failed(key.first, key.second, "deadline: " + why, node::failure_t::deadline);
    journal_part(key.first, key.second);
    parts.erase(it);
    if (rec && policy.state(key.first, key.second) == part_state_t::queued)
      rec->begin(key.first, key.second, timeline::stage_t::queued, track);
    settle(key.first);
  }
}

// A job whose queued partitions no live node can hold waits (status says why), and fails after
// placement_timeout.
void scheduler_actor_state::check_placement(std::chrono::steady_clock::time_point now) {
  for (auto& [id, j] : jobs) {
    if (policy.status(id).finished()) continue;
    auto why = policy.waiting_reason(id);
    if (!why) {
      j.unplaceable_since.reset();
      continue;
    }
    if (!j.unplaceable_since) j.unplaceable_since = now;
    if (now - *j.unplaceable_since < timing.placement_timeout) continue;
    const std::string reason = "no live node could take it within scheduler.placement_timeout (" +
                               format_duration(timing.placement_timeout) + "): " + *why;
    log::warn("scheduler: job " + std::to_string(id) + " fails: " + reason);
    policy.fail_queued(id, reason);
    settle(id);
  }
}

// Finished jobs stay `retention` for status and await, then go (memory stays bounded).
void scheduler_actor_state::tick() {
  const auto now = std::chrono::steady_clock::now();
  check_deadlines(now);
  check_placement(now);
  if (uploads && ++ticks_since_collect * timing.tick >= std::chrono::minutes(1)) {
    ticks_since_collect = 0;
    // Every stored object a job still kept (retention included) needs; a Filecoin job's C1 is not
    // among them once taken in (its partitions' inputs are).
    std::vector<std::string> in_use;
    for (const auto& [id, j] : jobs)
      for (const auto& o : node::stored_objects(j.request.spec)) in_use.push_back(o.ref());
    // Off the actor (a directory scan); an upload no job names yet keeps an hour's grace.
    self->request(checker, check_timeout, collect_atom::value, in_use)
        .then([](size_t) {}, [](caf::error&) {});
  }
  for (auto it = paused_until.begin(); it != paused_until.end();) {
    if (it->second > now) {
      ++it;
      continue;
    }
    policy.pause(it->first, false);
    it = paused_until.erase(it);
  }
  for (auto it = jobs.begin(); it != jobs.end();) {
    job_ref_t& j = it->second;
    if (!policy.status(it->first).finished()) {
      ++it;
      continue;
    }
    if (!j.finished_at) j.finished_at = now;
    if (j.waiters.empty() && now - *j.finished_at >= limits.retention && policy.forget(it->first)) {
      if (journal) guarded_void("the journal", [&] { journal->forget_job(it->first); });
      by_public_id.erase(j.public_id);
      auto r = by_request.find({j.owner, j.request.request_id});
      if (r != by_request.end() && r->second == it->first) by_request.erase(r);
      it = jobs.erase(it);
    } else {
      ++it;
    }
  }
  schedule();
  self->delayed_send(self, timing.tick, tick_atom::value);
}

}  // namespace zk::actors
