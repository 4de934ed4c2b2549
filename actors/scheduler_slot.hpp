#pragma once
// The scheduler a node's actors answer to, shared by them and the node's process. When the node
// reconnects to its scheduler (restarted, or back after a network partition), the process puts
// the new handles here and tells each actor rebind_atom; the actor then takes them and drops what
// it held for the old one (work of an earlier epoch is finished, never reported). The handles
// travel this way, not in a message: any peer that reaches an actor could send one.
#include <cstdint>
#include <mutex>

#include "actors/messages.hpp"

namespace zk::actors {

class scheduler_slot_t {
 public:
  struct view_t {
    scheduler_actor scheduler;
    timeline_actor aggregator;
    uint64_t epoch = 0;  // 0 at start, one more at each rebind
  };
  scheduler_slot_t(scheduler_actor s, timeline_actor a) : view_{std::move(s), std::move(a), 0} {}

  view_t get() const {
    std::lock_guard<std::mutex> lock(mu_);
    return view_;
  }
  // The new scheduler; returns its epoch.
  uint64_t set(scheduler_actor s, timeline_actor a) {
    std::lock_guard<std::mutex> lock(mu_);
    view_.scheduler = std::move(s);
    view_.aggregator = std::move(a);
    return ++view_.epoch;
  }

 private:
  mutable std::mutex mu_;
  view_t view_;
};

}  // namespace zk::actors
