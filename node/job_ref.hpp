#pragma once
// A job as a user types it. Two names reach users: the job's id (128 random bits, 32 hex digits,
// what `zkfleet submit` and POST /v1/jobs print) and its number (the scheduler's sequence number:
// what logs, errors, the timeline and the dashboard show as `job 7` or `#7`). Every command and
// route that takes a job takes either; the scheduler resolves a number only among the jobs its
// caller may see (someone else's is as unknown as a job that does not exist).
#include <cstdint>
#include <string>

#include "zk/base/result.hpp"

namespace zk::node {

struct job_ref_t {
  std::string id;       // 32 lower-case hex digits, or empty when a number was given
  uint64_t number = 0;  // the job's number, or 0 when an id was given
};

// "0123…cdef" (32 hex digits; upper case accepted), "7", "#7" or "job7" / "job 7"; why not, naming
// the text and both forms.
result_t<job_ref_t> parse_job_ref(const std::string& text);

}  // namespace zk::node
