#pragma once
// The process supervisor of `zkfleet up`: it starts each node as a child process (posix_spawn, its
// output in a log file of its own), keeps the pid file that `zkfleet down` reads, notices a child
// that exits (waitpid polling) and stops them all. Plain POSIX, no CAF.
#include <sys/types.h>

#include <optional>
#include <string>
#include <vector>

#include "common/config/config.hpp"

namespace zk::apps {

// Where `zkfleet up` of a config keeps its state: /tmp/zkfleet-up-<scheduler port>.pid (the
// supervisor's pid, then each node's) and the nodes' logs in
// /tmp/zkfleet-up-<port>.logs/<node>.log.
struct up_files_t {
  std::string pid_file, log_dir;
};
up_files_t up_files(const config::config_t& c);

// The supervisor's pid from a pid file; nullopt when there is none (or it says nothing).
std::optional<pid_t> read_supervisor_pid(const std::string& pid_file);

// The last non-empty line of a log file, without the log's time/level/name prefix.
std::string last_log_line(const std::string& path);

class supervisor_t {
 public:
  explicit supervisor_t(up_files_t files);
  ~supervisor_t();  // stops what still runs
  supervisor_t(const supervisor_t&) = delete;
  supervisor_t& operator=(const supervisor_t&) = delete;

  // Starts `argv` (argv[0]: the executable) as the process of node `name`, its stdout and stderr
  // in <log_dir>/<name>.log. Throws std::runtime_error when it cannot.
  void start(const std::string& name, const std::vector<std::string>& argv);
  // Writes the pid file: this process, then every child.
  void write_pid_file() const;

  struct exit_t {
    std::string name;
    pid_t pid = 0;
    std::string how;       // "status 1", "signal 9"
    std::string last_log;  // the last line of its log (its error, most likely)
  };
  // A child that has exited since the last call (it is no longer supervised); nullopt while all
  // run.
  std::optional<exit_t> reap();
  // SIGTERM to every child still supervised, SIGKILL to one still there after 10 s; removes the pid
  // file. Returns how many it stopped.
  size_t stop_all();

  const up_files_t& files() const { return files_; }
  std::string log_of(const std::string& name) const;

 private:
  struct child_t {
    std::string name;
    pid_t pid;
  };
  up_files_t files_;
  std::vector<child_t> children_;
};

}  // namespace zk::apps
