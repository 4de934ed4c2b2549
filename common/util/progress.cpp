#include "common/util/progress.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>

namespace zk::util {

std::string format_amount(uint64_t n, progress_unit_t unit) {
  char buf[48];
  if (unit == progress_unit_t::proofs) {
    std::snprintf(buf, sizeof buf, "%llu", (unsigned long long)n);
    return buf;
  }
  static const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double v = double(n);
  int u = 0;
  while (v >= 1024 && u < 4) v /= 1024, ++u;
  if (u == 0)
    std::snprintf(buf, sizeof buf, "%llu B", (unsigned long long)n);
  else
    std::snprintf(buf, sizeof buf, "%.1f %s", v, units[u]);
  return buf;
}

namespace {

std::string format_seconds(double s) {
  char buf[32];
  const long t = long(s + 0.5);
  if (t < 60)
    std::snprintf(buf, sizeof buf, "%ld s", t);
  else if (t < 3600)
    std::snprintf(buf, sizeof buf, "%ld:%02ld", t / 60, t % 60);
  else
    std::snprintf(buf, sizeof buf, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
  return buf;
}

}  // namespace

std::string render_progress(const std::string& label, uint64_t done, uint64_t total, double seconds,
                            progress_unit_t unit, size_t width) {
  const double rate = seconds > 0 ? double(done) / seconds : 0;
  std::string amounts = format_amount(done, unit);
  if (total > 0) amounts += " / " + format_amount(total, unit);
  if (unit == progress_unit_t::proofs) amounts += " proofs";
  std::string speed;
  if (unit == progress_unit_t::bytes)
    speed = format_amount(uint64_t(rate), unit) + "/s";
  else {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f/s", rate);
    speed = buf;
  }
  std::string eta;
  if (total > 0 && done >= total)
    eta = "in " + format_seconds(seconds);
  else if (total > 0 && rate > 0)
    eta = "ETA " + format_seconds(double(total - done) / rate);
  std::string bar;
  if (total > 0) {
    const size_t cells = 20;
    const size_t full = size_t(double(cells) * double(std::min(done, total)) / double(total));
    bar = "[" + std::string(full, '#') + std::string(cells - full, '.') + "] ";
  }
  std::string line = label + " " + bar + amounts + "  " + speed + (eta.empty() ? "" : "  " + eta);
  if (line.size() > width) line.resize(width);
  return line;
}

progress_bar_t::progress_bar_t(std::string label, uint64_t total, progress_unit_t unit,
                               std::FILE* out, std::chrono::milliseconds after)
    : label_(std::move(label)), total_(total), unit_(unit), out_(out), after_(after) {
  const char* env = std::getenv("ZKFLEET_PROGRESS");
  const bool off = env && std::strcmp(env, "off") == 0;
  active_ = !off && out_ && ::isatty(::fileno(out_));
}

progress_bar_t::~progress_bar_t() { finish(); }

void progress_bar_t::update(uint64_t done) {
  done_ = done;
  if (!active_ || finished_) return;
  const auto now = clock_t_::now();
  if (now - start_ < after_) return;
  if (drawn_ && now - last_ < std::chrono::milliseconds(100)) return;
  last_ = now;
  draw();
}

void progress_bar_t::draw() {
  const double s = std::chrono::duration<double>(clock_t_::now() - start_).count();
  const std::string line = render_progress(label_, done_, total_, s, unit_);
  std::fprintf(out_, "\r%s\033[K", line.c_str());
  std::fflush(out_);
  drawn_ = true;
}

void progress_bar_t::finish() {
  if (finished_) return;
  finished_ = true;
  if (!drawn_) return;
  draw();
  std::fputc('\n', out_);
  std::fflush(out_);
}

}  // namespace zk::util
