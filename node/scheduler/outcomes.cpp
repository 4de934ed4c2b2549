#include "node/scheduler/outcomes.hpp"

#include "common/timeline/metrics.hpp"

namespace zk::node {

const char* refusal_name(refusal_t r) {
  switch (r) {
    case refusal_t::unknown_circuit:
      return "unknown_circuit";
    case refusal_t::bad_request:
      return "bad_request";
    case refusal_t::limit:
      return "limit";
    case refusal_t::conflict:
      return "conflict";
    case refusal_t::input:
      return "input";
    case refusal_t::no_node:
      return "no_node";
    case refusal_t::unavailable:
      return "unavailable";
  }
  return "bad_request";
}

std::string job_outcomes_t::render_prometheus() const {
  using samples_t = std::vector<std::pair<timeline::labels_t, uint64_t>>;
  samples_t failed, cancelled, refused;
  for (const auto& [key, n] : failed_)
    failed.push_back({{{"circuit", key.first}, {"reason", failure_name(key.second)}}, n});
  for (const auto& [circuit, n] : cancelled_) cancelled.push_back({{{"circuit", circuit}}, n});
  for (const auto& [key, n] : refused_)
    refused.push_back({{{"circuit", key.first}, {"reason", refusal_name(key.second)}}, n});
  return timeline::render_counter("zkfleet_jobs_failed_total",
                                  "Jobs failed, by circuit and why (a fixed set of reasons).",
                                  failed) +
         timeline::render_counter("zkfleet_jobs_cancelled_total", "Jobs cancelled, by circuit.",
                                  cancelled) +
         timeline::render_counter("zkfleet_jobs_refused_total",
                                  "Submissions refused, by circuit and why (a fixed set of "
                                  "reasons; circuit \"(unknown)\": one the scheduler does not "
                                  "have).",
                                  refused);
}

}  // namespace zk::node
