#pragma once
#include <chrono>
#include <cstdio>
#include <string>

namespace zk {

// Seconds elapsed on the steady clock since t0.
inline double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// Adds the seconds from its construction to its destruction to *acc (a phase of a report).
class phase_timer_t {
 public:
  explicit phase_timer_t(double* acc) : acc_(acc), begin_(std::chrono::steady_clock::now()) {}
  ~phase_timer_t() { *acc_ += seconds_since(begin_); }
  phase_timer_t(const phase_timer_t&) = delete;
  phase_timer_t& operator=(const phase_timer_t&) = delete;

 private:
  double* acc_;
  std::chrono::steady_clock::time_point begin_;
};

// A duration as people read it: "250 ms", "1.5 s", "10 s", "2 min", "1 h".
inline std::string format_duration(std::chrono::milliseconds d) {
  const long long ms = d.count();
  char buf[48];
  if (ms < 1000)
    std::snprintf(buf, sizeof buf, "%lld ms", ms);
  else if (ms < 10000 && ms % 1000)
    std::snprintf(buf, sizeof buf, "%.1f s", double(ms) / 1000);
  else if (ms < 120000 || ms % 60000)
    std::snprintf(buf, sizeof buf, "%lld s", ms / 1000);
  else if (ms < 7200000 || ms % 3600000)
    std::snprintf(buf, sizeof buf, "%lld min", ms / 60000);
  else
    std::snprintf(buf, sizeof buf, "%lld h", ms / 3600000);
  return buf;
}

}  // namespace zk
