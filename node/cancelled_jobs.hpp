#pragma once
// The jobs cancelled on a node, as its actors and their workers see them: written by the actor
// that takes the cancel, read by workers that block in a synthesis (a witness generator is
// killed when its job is cancelled) or a send. A job is remembered for `keep` after its cancel,
// longer than anything of it can still arrive (a witness generator runs at most 10 minutes; the
// sends and proofs are bounded too), then forgotten, so the set stays small on a node that runs
// for months. Thread-safe.
#include <chrono>
#include <cstdint>
#include <map>
#include <mutex>

namespace zk::node {

class cancelled_jobs_t {
 public:
  using steady_clock_t = std::chrono::steady_clock;
  explicit cancelled_jobs_t(steady_clock_t::duration keep = std::chrono::minutes(30))
      : keep_(keep) {}

  // Remembers the job, and forgets those cancelled more than `keep` before `now`.
  void add(uint64_t job, steady_clock_t::time_point now = steady_clock_t::now()) {
    std::lock_guard<std::mutex> lock(mu_);
    jobs_[job] = now;
    for (auto it = jobs_.begin(); it != jobs_.end();)
      it = now - it->second > keep_ ? jobs_.erase(it) : std::next(it);
  }
  // Whether the job was cancelled and not yet forgotten (only add() forgets, so a job past its
  // retention still answers true until the next cancel on this node: harmless, never false early).
  bool has(uint64_t job) const {
    std::lock_guard<std::mutex> lock(mu_);
    return jobs_.count(job) != 0;
  }
  // Forgets every job (the node rejoined a scheduler whose job numbers may name other jobs).
  void clear() {
    std::lock_guard<std::mutex> lock(mu_);
    jobs_.clear();
  }
  size_t size() const {
    std::lock_guard<std::mutex> lock(mu_);
    return jobs_.size();
  }

 private:
  const steady_clock_t::duration keep_;
  mutable std::mutex mu_;
  std::map<uint64_t, steady_clock_t::time_point> jobs_;  // job → when it was cancelled
};

}  // namespace zk::node
