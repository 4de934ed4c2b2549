#include "common/util/subprocess.hpp"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <stdexcept>

extern char** environ;

namespace zk::util {
namespace {

using steady_clock_t = std::chrono::steady_clock;

// Moves a new descriptor above 0..2 (close-on-exec kept), so that dup2 onto 1 and 2 in the
// child never meets the pipe's own number.
int above_stdio(int fd) {
  if (fd < 0 || fd > 2) return fd;
  int moved = ::fcntl(fd, F_DUPFD_CLOEXEC, 3);
  ::close(fd);
  return moved;
}

// The last `limit` bytes of a stream (amortized: trimmed when twice the limit).
struct tail_t {
  size_t limit;
  std::string buf;
  uint64_t total = 0;
  void add(const char* p, size_t n) {
    total += n;
    if (limit == 0) return;
    buf.append(p, n);
    if (buf.size() > 2 * limit + 65536) buf.erase(0, buf.size() - limit);
  }
  std::string take() const { return buf.size() > limit ? buf.substr(buf.size() - limit) : buf; }
};

// Reads what the pipe has now (non-blocking). Returns false at end of file.
bool drain(int fd, tail_t& tail) {
  char chunk[8192];
  for (;;) {
    ssize_t n = ::read(fd, chunk, sizeof chunk);
    if (n > 0) {
      tail.add(chunk, size_t(n));
      continue;
    }
    if (n == 0) return false;
    if (errno == EINTR) continue;
    return true;  // EAGAIN: nothing more for now (any other error: treated the same; exit ends the
                  // loop)
  }
}

enum class child_state_t { running, ended, gone };

// Has the child ended? Does not reap it: while it is a zombie, its pid (and group id) stays
// ours, so killing the group afterwards cannot hit an unrelated process. `gone`: someone else
// reaped it (SIGCHLD ignored by the process, or a waitpid(-1) elsewhere).
child_state_t state_of(pid_t pid) {
  siginfo_t si;
  std::memset(&si, 0, sizeof si);
  for (;;) {
    if (::waitid(P_PID, id_t(pid), &si, WEXITED | WNOHANG | WNOWAIT) == 0)
      return si.si_pid == pid ? child_state_t::ended : child_state_t::running;
    if (errno != EINTR) return child_state_t::gone;
  }
}

int ms_until(steady_clock_t::time_point t, int cap) {
  auto left =
      std::chrono::duration_cast<std::chrono::milliseconds>(t - steady_clock_t::now()).count();
  return int(std::clamp<long long>(left, 0, cap));
}

}  // namespace

std::string subprocess_result_t::describe() const {
  char buf[128];
  if (!started) return "cannot start: " + spawn_error;
  if (timed_out || stopped) {
    std::snprintf(buf, sizeof buf, "%s after %.1f s (killed)", timed_out ? "timed out" : "stopped",
                  seconds);
    return buf;
  }
  if (exited) return "exit status " + std::to_string(exit_code);
  if (signaled) {
    const char* name = ::strsignal(signal);
    return "killed by signal " + std::to_string(signal) +
           (name ? std::string(" (") + name + ")" : std::string());
  }
  return "ended, status unknown (the process was reaped elsewhere: is SIGCHLD ignored?)";
}

subprocess_result_t run_subprocess(const std::vector<std::string>& argv,
                                   const subprocess_options_t& options) {
  if (argv.empty() || argv[0].empty()) throw std::invalid_argument("run_subprocess: empty argv");
  subprocess_result_t r;
  const auto t0 = steady_clock_t::now();
  const auto deadline = t0 + options.timeout;

  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0)
    throw std::runtime_error(std::string("run_subprocess: pipe: ") + std::strerror(errno));
  fds[0] = above_stdio(fds[0]);
  fds[1] = above_stdio(fds[1]);
  if (fds[0] < 0 || fds[1] < 0) {
    if (fds[0] >= 0) ::close(fds[0]);
    if (fds[1] >= 0) ::close(fds[1]);
    throw std::runtime_error(std::string("run_subprocess: pipe: ") + std::strerror(errno));
  }
  ::fcntl(fds[0], F_SETFL, ::fcntl(fds[0], F_GETFL) | O_NONBLOCK);

  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&fa, fds[1], 1);
  posix_spawn_file_actions_adddup2(&fa, fds[1], 2);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  posix_spawnattr_setflags(&attr,
                           POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
  posix_spawnattr_setpgroup(&attr, 0);  // a group of its own: the timeout kills all of it
  sigset_t none, defaults;
  sigemptyset(&none);
  posix_spawnattr_setsigmask(&attr,
                             &none);  // the caller's threads may block signals; the child must not
  sigemptyset(&defaults);
  for (int s : {SIGPIPE, SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGCHLD, SIGUSR1, SIGUSR2})
    sigaddset(&defaults, s);
  posix_spawnattr_setsigdefault(&attr, &defaults);

  std::vector<char*> cargv;
  cargv.reserve(argv.size() + 1);
  for (const auto& a : argv) cargv.push_back(const_cast<char*>(a.c_str()));
  cargv.push_back(nullptr);
  pid_t pid = -1;
  const int rc = ::posix_spawnp(&pid, argv[0].c_str(), &fa, &attr, cargv.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  posix_spawnattr_destroy(&attr);
  ::close(fds[1]);
  if (rc != 0) {  // glibc reports a failed exec here (and has reaped that child itself)
    ::close(fds[0]);
    r.spawn_error = argv[0] + ": " + std::strerror(rc);
    r.seconds = std::chrono::duration<double>(steady_clock_t::now() - t0).count();
    return r;
  }
  r.started = true;

  tail_t tail{options.output_limit, {}, 0};
  bool open = true, ended = false, gone = false;
  // Output until end of file (normally: the program exited); a pipe still held open by a
  // leftover of its group is read for a short grace after the exit, then abandoned.
  steady_clock_t::time_point ended_at{};
  for (;;) {
    if (!ended) {
      const child_state_t st = state_of(pid);
      if (st != child_state_t::running) {
        ended = true;
        gone = st == child_state_t::gone;
        ended_at = steady_clock_t::now();
      }
    }
    if (!ended && steady_clock_t::now() >= deadline) {
      r.timed_out = true;
      break;
    }
    if (!ended && options.stop && options.stop()) {
      r.stopped = true;
      break;
    }
    if (ended && (!open || steady_clock_t::now() - ended_at >= std::chrono::milliseconds(200)))
      break;
    if (open) {
      pollfd p{fds[0], POLLIN, 0};
      int wait_ms = ended ? 20 : ms_until(deadline, 100);
      int n = ::poll(&p, 1, wait_ms);
      if (n > 0) open = drain(fds[0], tail);
    } else {
      // The pipe is closed but the program still runs: check again shortly.
      ::poll(nullptr, 0, ended ? 0 : std::min(5, ms_until(deadline, 5)));
    }
  }
  // Kill the group: on a timeout the program and its children; after an exit whatever of its
  // group is left. The leader is unreaped until the waitpid below, so the group id is ours.
  int status = 0;
  bool reaped = false;
  if (!gone) {
    ::kill(-pid, SIGKILL);
    if (r.timed_out || r.stopped) ::kill(pid, SIGKILL);
    pid_t w;
    while ((w = ::waitpid(pid, &status, 0)) < 0 && errno == EINTR) {
    }
    reaped = w == pid;
  }
  if (open) drain(fds[0], tail);
  ::close(fds[0]);

  if (!reaped) {
    r.status_unknown = true;  // reaped elsewhere: how it ended is lost
  } else if (WIFEXITED(status)) {
    r.exited = !r.timed_out && !r.stopped;
    r.exit_code = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    r.signaled = true;
    r.signal = WTERMSIG(status);
  }
  r.output = tail.take();
  r.output_bytes = tail.total;
  r.output_truncated = r.output_bytes > r.output.size();
  r.seconds = std::chrono::duration<double>(steady_clock_t::now() - t0).count();
  return r;
}

}  // namespace zk::util
