#pragma once
// The answer of AwaitProof (and of Prove) in plain C++: a finished job's outcome and its
// timings, as cuzk's AwaitProofResponse carries them (grpcapi/ writes the message).
//
//   COMPLETED  the sector's proof: every partition's 192 bytes in partition order, what
//              seal_commit_phase2 returns (node/filecoin_job.hpp assemble_sector_proof), each one
//              checked by the scheduler against the circuit's .vk before it counted
//   FAILED     the job's error (a partition past scheduler.max_attempts, a C1 refused at a
//              restart, ...); a job whose proofs cannot be assembled fails too (never a wrong
//              proof)
//   CANCELLED  the job was cancelled
//   TIMEOUT    AwaitProof's timeout_ms passed first (grpcapi decides that one)
//
// Timings (milliseconds) from the timeline's events of the job (the aggregator's, in the
// scheduler's process; docs/api.md says how each is read):
//   queue_wait_ms   submit (the first QUEUED begin) to the first dispatch (the first QUEUED end)
//   srs_load_ms     0: a filecoin-porep circuit is proved only by provers that hold its
//                   parameters resident from their start (the load is in the prover's log), so no
//                   job waits for parameters
//   synthesis_ms    the SYNTH spans of every partition and attempt, summed (work, not wall time)
//   gpu_compute_ms  the GPU (prove) spans summed, on whatever backend the provers run
//   total_ms        submit to the last proof's DONE
// Events the aggregator no longer holds (a scheduler restart, its bound of 4 M events) count 0.
#include <cstdint>
#include <string>
#include <vector>

#include "common/timeline/event.hpp"
#include "node/scheduler/requests.hpp"

namespace zk::node::cuzk {

// AwaitProofResponse.Status's numbers.
enum class await_status_t : uint8_t {
  unknown = 0,
  completed = 1,
  failed = 2,
  cancelled = 3,
  timeout = 4
};

struct timings_t {
  uint64_t queue_wait_ms = 0, srs_load_ms = 0, synthesis_ms = 0, gpu_compute_ms = 0, total_ms = 0;
};

struct await_answer_t {
  std::string job_id;
  await_status_t status = await_status_t::unknown;
  std::vector<uint8_t> proof;
  std::string error;
  timings_t timings;
};

// The timings of job `job` (its number, job_status_msg::seq) from the aggregator's events.
timings_t job_timings(const std::vector<timeline::event_t>& events, uint64_t job);

// The answer for a job named `job_id` that finished (`r.status.finished`): completed with the
// sector's proof, failed with its error, or cancelled.
await_answer_t finished_answer(const std::string& job_id, const job_result_msg& r,
                               const timings_t& timings);

}  // namespace zk::node::cuzk
