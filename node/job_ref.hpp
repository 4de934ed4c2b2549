#pragma once
// A job as a user types it. Three names reach users: the job's id (128 random bits, 32 hex
// digits, what `zkfleet submit` and POST /v1/jobs print), its number (the scheduler's sequence
// number: what logs, errors, the timeline and the dashboard show as `job 7` or `#7`) and, for a
// job submitted with one, the client's own request id (Curio's request_id, typed
// `request:porep-1000-42`). Every command and route that takes a job takes any; the scheduler
// resolves them only among the jobs its caller may see (someone else's is as unknown as a job
// that does not exist).
#include <cstdint>
#include <string>

#include "zk/base/result.hpp"

namespace zk::node {

struct job_ref_t {
  std::string id;          // 32 lower-case hex digits, or empty when another form was given
  uint64_t number = 0;     // the job's number, or 0 when another form was given
  std::string request_id;  // the text after "request:", or empty
};

// The prefix of a request id typed as a job.
inline constexpr const char* request_ref_prefix = "request:";

// "0123…cdef" (32 hex digits; upper case accepted), "7", "#7", "job7" / "job 7" or
// "request:<request id>"; why not, naming the text and the forms.
result_t<job_ref_t> parse_job_ref(const std::string& text);

}  // namespace zk::node
