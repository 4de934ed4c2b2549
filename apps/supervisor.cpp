#include "apps/supervisor.hpp"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <regex>
#include <stdexcept>
#include <string>
#include <thread>

#include "zk/base/files.hpp"

extern char** environ;

namespace zk::apps {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

up_files_t up_files(const config::config_t& c) {
  const fs::path pid = fs::temp_directory_path() /
                       ("zkfleet-up-" + std::to_string(c.scheduler.endpoint.port) + ".pid");
  return {pid.string(), fs::path(pid).replace_extension("logs").string()};
}

std::optional<pid_t> read_supervisor_pid(const std::string& pid_file) {
  std::ifstream f(pid_file);
  pid_t up = 0;
  if (!(f >> up) || up <= 0) return std::nullopt;
  return up;
}

std::string last_log_line(const std::string& path) {
  // "2026-12-03 14:06:20.123 error [scheduler] <message>" (common/util/log.hpp): the message.
  static const std::regex prefix(R"(^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} \w+ *\[[^\]]*\] )");
  std::ifstream in(path);
  std::string line, last;
  while (std::getline(in, line))
    if (!line.empty()) last = line;
  return std::regex_replace(last, prefix, "", std::regex_constants::format_first_only);
}

std::string describe_exit(int st, bool signal_name) {
  if (WIFEXITED(st)) return "status " + std::to_string(WEXITSTATUS(st));
  const int sig = WIFSIGNALED(st) ? WTERMSIG(st) : 0;
  std::string s = "signal " + std::to_string(sig);
  if (signal_name)
    if (const char* abbrev = ::sigabbrev_np(sig)) s += std::string(" (SIG") + abbrev + ")";
  return s;
}

namespace {

// Now, local time, ISO 8601: 2026-12-03T14:06:20+0100.
std::string iso_now() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  ::localtime_r(&t, &tm);
  char buf[40];
  return std::string(buf, std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S%z", &tm));
}

}  // namespace

supervisor_t::supervisor_t(up_files_t files) : files_(std::move(files)) {
  fs::create_directories(files_.log_dir);
}

supervisor_t::~supervisor_t() {
  if (!children_.empty()) stop_all();
}

std::string supervisor_t::log_of(const std::string& name) const {
  return (fs::path(files_.log_dir) / (name + ".log")).string();
}

pid_t supervisor_t::spawn(const child_t& c, bool append) const {
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  const std::string log = log_of(c.name);
  // Always O_APPEND: a first start finds the file rotated away (start()), and whatever else
  // writes to the log (an operator's note, `up` itself) is never overwritten by the node.
  (void)append;
  posix_spawn_file_actions_addopen(&fa, 1, log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
  posix_spawn_file_actions_adddup2(&fa, 1, 2);
  std::vector<std::string> copy = c.argv;
  std::vector<char*> argv;
  for (auto& s : copy) argv.push_back(s.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  const int rc = posix_spawn(&pid, argv[0], &fa, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  if (rc != 0) throw std::runtime_error("cannot start node " + c.name + ": " + std::strerror(rc));
  return pid;
}

// NAME.log of an earlier run becomes NAME.log.1 (.1 becomes .2, … up to .5, the oldest dropped):
// a new `zkfleet up` never writes over the log of the run before it.
void rotate_log(const std::string& log, int keep) {
  std::error_code ec;
  if (!fs::exists(log, ec)) return;
  fs::remove(log + "." + std::to_string(keep), ec);
  for (int i = keep - 1; i >= 1; --i)
    if (fs::exists(log + "." + std::to_string(i), ec))
      fs::rename(log + "." + std::to_string(i), log + "." + std::to_string(i + 1), ec);
  fs::rename(log, log + ".1", ec);
}

void supervisor_t::start(const std::string& name, const std::vector<std::string>& argv) {
  rotate_log(log_of(name), 5);
  child_t c;
  c.name = name;
  c.argv = argv;
  c.pid = spawn(c, false);
  c.started = steady_clock_t::now();
  children_.push_back(std::move(c));
}

void supervisor_t::write_pid_file() const {
  std::string pids = std::to_string(::getpid()) + "\n";
  for (const auto& c : children_)
    if (c.pid > 0) pids += std::to_string(c.pid) + "\n";
  zk::write_file_atomic(files_.pid_file, pids);
}

void supervisor_t::refresh_pid_file() const noexcept {
  try {
    write_pid_file();
  } catch (const std::exception&) {
  }
}

std::optional<supervisor_t::exit_t> supervisor_t::reap() {
  for (auto& c : children_) {
    int st = 0;
    if (c.pid <= 0 || ::waitpid(c.pid, &st, WNOHANG) != c.pid) continue;
    c.last_ran = steady_clock_t::now() - c.started;
    c.last_exit = describe_exit(st, true);
    exit_t e;
    e.name = c.name;
    e.pid = c.pid;
    e.how = describe_exit(st);
    e.how_named = c.last_exit;
    e.last_log = last_log_line(log_of(c.name));
    e.ran = c.last_ran;
    c.pid = 0;
    if (!stopping_) refresh_pid_file();  // a stale pid is not left for someone to kill
    return e;
  }
  return std::nullopt;
}

supervisor_t::child_t& supervisor_t::find(const std::string& name) {
  auto it = std::find_if(children_.begin(), children_.end(),
                         [&](const child_t& c) { return c.name == name; });
  if (it == children_.end()) throw std::logic_error("supervisor: no node " + name);
  return *it;
}

supervisor_t::restart_t supervisor_t::schedule(child_t& c) {
  if (c.last_ran >= stable_run) c.backoff = first_backoff;  // it had settled: a fresh failure
  const restart_t r{++c.restarts, c.backoff};
  c.backoff = std::min(c.backoff * 2, max_backoff);
  c.restart_at = steady_clock_t::now() + r.delay;
  return r;
}

supervisor_t::restart_t supervisor_t::restart_later(const std::string& name) {
  child_t& c = find(name);
  if (c.pid > 0) throw std::logic_error("supervisor: node " + name + " still runs");
  return schedule(c);
}

std::vector<supervisor_t::restarted_t> supervisor_t::restart_due() {
  std::vector<restarted_t> out;
  if (stopping_) return out;
  const auto now = steady_clock_t::now();
  for (auto& c : children_) {
    if (c.pid > 0 || !c.restart_at || *c.restart_at > now) continue;
    c.restart_at.reset();
    restarted_t r{c.name, 0, c.restarts, std::nullopt, {}};
    {
      std::ofstream log(log_of(c.name), std::ios::app);
      log << "--- zkfleet up: restarting " << c.name << " (attempt " << c.restarts << ", after "
          << c.last_exit << ") at " << iso_now() << " ---\n";
    }
    try {
      c.pid = spawn(c, true);
      c.started = steady_clock_t::now();
      r.pid = c.pid;
    } catch (const std::exception& e) {
      r.error = e.what();
      c.last_ran = {};
      c.last_exit = "a failed start";
      r.next = schedule(c);
    }
    out.push_back(std::move(r));
  }
  if (!out.empty()) refresh_pid_file();
  return out;
}

size_t supervisor_t::stop_all() {
  stopping_ = true;
  size_t n = 0;
  for (const auto& c : children_)
    if (c.pid > 0 && ::kill(c.pid, SIGTERM) == 0) ++n;
  const auto end = steady_clock_t::now() + 10s;
  for (const auto& c : children_) {
    if (c.pid <= 0) continue;  // dead, waiting for a restart that will not come
    int st = 0;
    while (::waitpid(c.pid, &st, WNOHANG) == 0) {
      if (steady_clock_t::now() > end) {
        ::kill(c.pid, SIGKILL);
        ::waitpid(c.pid, &st, 0);
        break;
      }
      std::this_thread::sleep_for(50ms);
    }
  }
  children_.clear();
  std::error_code ec;
  fs::remove(files_.pid_file, ec);
  return n;
}

}  // namespace zk::apps
