#pragma once
// The scheduler actor's parts shared by its files (scheduler*.cpp), not for use outside them: the
// checker actor's messages, the input limits, the handler guards and small helpers.
#include <caf/all.hpp>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "actors/scheduler.hpp"
#include "common/util/log.hpp"

namespace zk::actors {

using intake_atom = caf::atom_constant<caf::atom("intake")>;
using verify_atom = caf::atom_constant<caf::atom("verify")>;
using collect_atom = caf::atom_constant<caf::atom("collect")>;
using drop_atom = caf::atom_constant<caf::atom("drop")>;

constexpr size_t max_id_length = 128;     // circuit ids, job ids, node names
constexpr size_t max_path_length = 4096;  // a node's data endpoint
// A job's intake (its files read and checked; a C1 cut into its partitions' inputs) and a proof's
// check: the longest the scheduler waits for the checker.
constexpr auto check_timeout = std::chrono::seconds(60);

// The scheduler's intake and proof checks, on a thread of their own (detached): a job's spec taken
// in (node/job_spec.hpp take_in: its files may sit on a slow or hung disk; a C1 is read, checked
// and cut into partition inputs written to the store) and the pairing check of every proof.
// intake answers the spec taken in, verify nothing when the proof passes; else the refusal:
// bad_request for a job, prove_failed for a proof (any other error: the check itself failed).
caf::behavior scheduler_checker(caf::event_based_actor*,
                                std::shared_ptr<node::upload_store_t> uploads);

// The checker's refusal (an error of zkfleet's with this code), or nullopt when the error is of
// the check itself (a timeout, the checker gone).
std::optional<std::string> refusal(const caf::error& e, zk_errc code);

// A handler that throws answers with an internal error naming what failed (every request is
// checked before it is acted on: an exception is the scheduler's failure, not the caller's), and
// the actor lives on.
template <class F>
auto guarded(const char* what, F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const std::exception& e) {
    log::error(std::string("scheduler: ") + what + " failed: " + e.what());
    return caf::make_error(zk_errc::internal, std::string(what) + " failed: " + e.what());
  }
}
template <class F>
void guarded_void(const char* what, F&& f) {
  try {
    f();
  } catch (const std::exception& e) {
    log::error(std::string("scheduler: ") + what + " failed: " + e.what());
  }
}

// The wall clock in unix milliseconds.
int64_t unix_ms();

// The journal's name of a finished job's state.
const char* finish_state(const node::job_status_t& s);

constexpr size_t max_held = 4096;  // kept buffers named in one join

}  // namespace zk::actors
