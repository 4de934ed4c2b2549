#pragma once
// The process supervisor of `zkfleet up`: it starts each node as a child process (posix_spawn, its
// output in a log file of its own), keeps the pid file that `zkfleet down` reads, notices a child
// that exits (waitpid polling), restarts it when asked to (exponential backoff: 1 s, 2 s, 4 s …
// capped at 30 s, back to 1 s once a process has run 60 s; its log appended to, after a separator
// line) and stops them all. It never sleeps longer than it is asked to: the caller polls reap()
// and restart_due() and stays free to stop at once. Plain POSIX, no CAF.
#include <sys/types.h>

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "common/config/config.hpp"

namespace zk::apps {

// Where `zkfleet up` of a config keeps its state: /tmp/zkfleet-up-<scheduler port>.pid (the
// supervisor's pid, then the pid of each node process that runs now, in start order; a node
// waiting for its restart is left out) and the nodes' logs in
// /tmp/zkfleet-up-<port>.logs/<node>.log; the log of the run before is <node>.log.1 (rotated at
// each start of `up`, five kept: .1 the newest).
struct up_files_t {
  std::string pid_file, log_dir;
};
up_files_t up_files(const config::config_t& c);

// The supervisor's pid from a pid file; nullopt when there is none (or it says nothing).
std::optional<pid_t> read_supervisor_pid(const std::string& pid_file);

// The last non-empty line of a log file, without the log's time/level/name prefix.
std::string last_log_line(const std::string& path);

// How a process ended, from waitpid's status: "status 1", "signal 9"; with `signal_name`,
// "signal 9 (SIGKILL)".
std::string describe_exit(int wait_status, bool signal_name = false);

class supervisor_t {
 public:
  using steady_clock_t = std::chrono::steady_clock;
  static constexpr std::chrono::seconds first_backoff{1}, max_backoff{30}, stable_run{60};

  explicit supervisor_t(up_files_t files);
  ~supervisor_t();  // stops what still runs
  supervisor_t(const supervisor_t&) = delete;
  supervisor_t& operator=(const supervisor_t&) = delete;

  // Starts `argv` (argv[0]: the executable) as the process of node `name`, its stdout and stderr
  // in <log_dir>/<name>.log (truncated). Throws std::runtime_error when it cannot.
  void start(const std::string& name, const std::vector<std::string>& argv);
  // Writes the pid file (zk::write_file_atomic: a reader never sees it half written): this
  // process, then every child that runs now. Throws (format_error naming the file) when it
  // cannot be written.
  void write_pid_file() const;

  struct exit_t {
    std::string name;
    pid_t pid = 0;
    std::string how;                 // "status 1", "signal 9"
    std::string how_named;           // "status 1", "signal 9 (SIGKILL)"
    std::string last_log;            // the last line of its log (its error, most likely)
    steady_clock_t::duration ran{};  // how long the process ran
  };
  // A child that has exited since the last call; nullopt while all run. It stays supervised, dead:
  // restart_later() schedules its restart, stop_all() forgets it. The pid file is rewritten
  // without it.
  std::optional<exit_t> reap();

  struct restart_t {
    unsigned attempt = 0;  // the how-manieth restart of this node since `up` started (1, 2, …)
    std::chrono::seconds delay{};
  };
  // Schedules the restart of the dead child `name` (as reap() returned it) after the backoff:
  // 1 s, then twice the last delay up to 30 s, 1 s again when its process had run 60 s.
  restart_t restart_later(const std::string& name);

  struct restarted_t {
    std::string name;
    pid_t pid = 0;  // 0: it could not be started (`error`); its next restart is scheduled
    unsigned attempt = 0;
    std::optional<std::string> error;  // why it could not be started
    restart_t next;                    // with `error`: the next try
  };
  // Starts again every child whose restart is due (its log appended to after a line "--- zkfleet
  // up: restarting NAME (attempt N, after HOW) at ISO-TIME ---") and rewrites the pid file.
  // Nothing after stop_all().
  std::vector<restarted_t> restart_due();

  // SIGTERM to every child that runs, SIGKILL to one still there after 10 s; drops a dead child's
  // pending restart and starts nothing afterwards; removes the pid file. Returns how many processes
  // it stopped.
  size_t stop_all();

  const up_files_t& files() const { return files_; }
  std::string log_of(const std::string& name) const;

 private:
  struct child_t {
    std::string name;
    std::vector<std::string> argv;
    pid_t pid = 0;  // 0 while dead
    steady_clock_t::time_point started{};
    std::string last_exit;  // "signal 9 (SIGKILL)", for the separator line
    steady_clock_t::duration last_ran{};
    unsigned restarts = 0;
    std::chrono::seconds backoff = first_backoff;  // the delay of its next restart
    std::optional<steady_clock_t::time_point> restart_at;
  };
  pid_t spawn(const child_t& c, bool append) const;
  child_t& find(const std::string& name);
  restart_t schedule(child_t& c);
  // write_pid_file as children come and go: best effort, the cluster runs on when it fails (the
  // file then still lists the pids of the last write).
  void refresh_pid_file() const noexcept;

  up_files_t files_;
  std::vector<child_t> children_;
  bool stopping_ = false;
};

}  // namespace zk::apps
