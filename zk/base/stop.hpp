#pragma once
// A long computation's stop request (a cancelled job): a predicate the computation polls at its
// safe points — between stages, between an MSM's tasks, between a transform's passes, between a
// synthesis's challenges — and, when it answers true, leaves at the next one by throwing
// cancelled_error. What it held is freed by the unwinding; its partial results are never used.
// An empty stop_t never stops. The predicate may be called from any thread of the compute pool.
#include <functional>
#include <stdexcept>
#include <string>

namespace zk {

using stop_t = std::function<bool()>;

// The computation stopped because it was asked to (not a failure of its input or of the node).
struct cancelled_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

inline bool stop_requested(const stop_t& stop) { return stop && stop(); }

// Throws cancelled_error("<what>: stopped (cancelled)") when stop asks for it.
inline void throw_if_stopped(const stop_t& stop, const std::string& what) {
  if (stop_requested(stop)) throw cancelled_error(what + ": stopped (cancelled)");
}

}  // namespace zk
