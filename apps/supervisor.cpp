#include "apps/supervisor.hpp"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <regex>
#include <stdexcept>
#include <thread>

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

supervisor_t::supervisor_t(up_files_t files) : files_(std::move(files)) {
  fs::create_directories(files_.log_dir);
}

supervisor_t::~supervisor_t() {
  if (!children_.empty()) stop_all();
}

std::string supervisor_t::log_of(const std::string& name) const {
  return (fs::path(files_.log_dir) / (name + ".log")).string();
}

void supervisor_t::start(const std::string& name, const std::vector<std::string>& argv_s) {
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  const std::string log = log_of(name);
  posix_spawn_file_actions_addopen(&fa, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&fa, 1, 2);
  std::vector<std::string> copy = argv_s;
  std::vector<char*> argv;
  for (auto& s : copy) argv.push_back(s.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  const int rc = posix_spawn(&pid, argv[0], &fa, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  if (rc != 0) throw std::runtime_error("cannot start node " + name + ": " + std::strerror(rc));
  children_.push_back({name, pid});
}

void supervisor_t::write_pid_file() const {
  std::ofstream f(files_.pid_file);
  f << ::getpid() << "\n";
  for (const auto& c : children_) f << c.pid << "\n";
}

std::optional<supervisor_t::exit_t> supervisor_t::reap() {
  for (auto it = children_.begin(); it != children_.end(); ++it) {
    int st = 0;
    if (::waitpid(it->pid, &st, WNOHANG) != it->pid) continue;
    exit_t e{it->name, it->pid,
             WIFEXITED(st) ? "status " + std::to_string(WEXITSTATUS(st))
                           : "signal " + std::to_string(WTERMSIG(st)),
             last_log_line(log_of(it->name))};
    children_.erase(it);
    return e;
  }
  return std::nullopt;
}

size_t supervisor_t::stop_all() {
  const size_t n = children_.size();
  for (const auto& c : children_) ::kill(c.pid, SIGTERM);
  const auto end = std::chrono::steady_clock::now() + 10s;
  for (const auto& c : children_) {
    int st = 0;
    while (::waitpid(c.pid, &st, WNOHANG) == 0) {
      if (std::chrono::steady_clock::now() > end) {
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
