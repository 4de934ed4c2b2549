#pragma once
// The jobs that ended without their proofs, counted for /metrics: failed (by circuit and why),
// cancelled (by circuit) and refused at submission (by circuit and why). Every label is bounded:
// a circuit is one of the scheduler's (a submission naming another is counted under
// "(unknown)", a name no circuit id can have), a reason one of a fixed set (failure_t,
// refusal_t), never an error's free text. Counters since the scheduler started (a restart starts
// them at 0, which Prometheus reads as a reset). Plain C++: the scheduler actor owns one.
#include <cstdint>
#include <map>
#include <string>
#include <utility>

#include "node/scheduler/policy.hpp"

namespace zk::node {

// Why a submission was refused.
enum class refusal_t : uint8_t {
  unknown_circuit,  // no circuit of that id
  bad_request,      // a priority, partition count, spec or request id the circuit cannot take
  limit,            // past scheduler.max_partitions or the client's scheduler.max_queued_jobs
  conflict,         // its request_id names another request's unfinished job
  input,            // its input refused at intake (a C1 whose checks fail, a .wtns of another r1cs)
  no_node,          // its partitions fit no node that ever joined
  unavailable,      // its inputs could not be checked, or the job journaled
};
const char* refusal_name(refusal_t r);

class job_outcomes_t {
 public:
  static constexpr const char* unknown_circuit = "(unknown)";

  void failed(const std::string& circuit, failure_t why) { ++failed_[{circuit, why}]; }
  void cancelled(const std::string& circuit) { ++cancelled_[circuit]; }
  // `known`: the circuit is one of the scheduler's (else counted as "(unknown)").
  void refused(const std::string& circuit, bool known, refusal_t why) {
    ++refused_[{known ? circuit : unknown_circuit, why}];
  }

  // zkfleet_jobs_failed_total{circuit,reason}, zkfleet_jobs_cancelled_total{circuit},
  // zkfleet_jobs_refused_total{circuit,reason}: each family's HELP and TYPE, and a sample per
  // label set counted so far.
  std::string render_prometheus() const;

 private:
  std::map<std::pair<std::string, failure_t>, uint64_t> failed_;
  std::map<std::string, uint64_t> cancelled_;
  std::map<std::pair<std::string, refusal_t>, uint64_t> refused_;
};

}  // namespace zk::node
