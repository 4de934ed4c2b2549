#pragma once
// A progress line on a terminal for what takes a while: an upload's bytes, a job's proofs.
//
//   uploading witness.wtns [#########...........]  412.0 MiB / 1.0 GiB  98.3 MiB/s  ETA 6 s
//
// It appears only when its stream is a terminal (a pipe, a file, CI logs stay quiet) and the
// work has taken more than `after` (about a second: quick transfers print nothing); it redraws
// the one line at most ten times a second and ends it with a newline. ZKFLEET_PROGRESS=off turns
// it off on a terminal too.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>

namespace zk::util {

enum class progress_unit_t { bytes, proofs };

// The line for `done` of `total` (0: unknown) after `seconds`: the bar, the amounts, the rate,
// and the time left when the total is known and the rate is not zero. At most `width` columns.
std::string render_progress(const std::string& label, uint64_t done, uint64_t total, double seconds,
                            progress_unit_t unit, size_t width = 100);

// "1.0 GiB", "412.0 MiB", "980 B".
std::string format_amount(uint64_t n, progress_unit_t unit);

class progress_bar_t {
 public:
  progress_bar_t(std::string label, uint64_t total, progress_unit_t unit, std::FILE* out = stderr,
                 std::chrono::milliseconds after = std::chrono::seconds(1));
  ~progress_bar_t();
  progress_bar_t(const progress_bar_t&) = delete;
  progress_bar_t& operator=(const progress_bar_t&) = delete;

  void update(uint64_t done);
  void set_total(uint64_t total) { total_ = total; }
  // The final state and a newline, when the line was drawn at all.
  void finish();
  bool drawn() const { return drawn_; }
  // Whether this bar may draw at all (a terminal, not turned off).
  bool active() const { return active_; }

 private:
  using clock_t_ = std::chrono::steady_clock;
  void draw();
  std::string label_;
  uint64_t total_, done_ = 0;
  progress_unit_t unit_;
  std::FILE* out_;
  std::chrono::milliseconds after_;
  clock_t_::time_point start_ = clock_t_::now(), last_{};
  bool active_ = false, drawn_ = false, finished_ = false;
};

}  // namespace zk::util
