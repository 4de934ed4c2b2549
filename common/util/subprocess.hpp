#pragma once
// Runs a program given as an argv, without a shell, with a wall-clock limit:
//
//   auto r = util::run_subprocess({"snarkjs", "wtns", "calculate", wasm, in, out},
//   {std::chrono::minutes(10)}); if (!r.ok()) throw std::runtime_error("snarkjs: " + r.describe() +
//   ": " + r.output);
//
// - argv[0] is looked up on PATH when it has no '/' (execvp semantics, posix_spawnp); the
//   arguments reach the program as given ("$(echo hi)" is passed literally, nothing expands).
// - The child gets stdin from /dev/null and one pipe for stdout and stderr together; the last
//   `output_limit` bytes are kept (the tail is where the error usually is).
// - It runs in a process group of its own. When the limit passes, the group is killed (SIGKILL)
//   and the result says timed_out; likewise, within 100 ms, when `stop` (if given) returns true
//   (the result says stopped: a cancelled job's generator). When the program exits, whatever is
//   left of its group (a background child still holding the pipe) is killed too, so a call never
//   outlives its limit.
// - The child is always reaped; nothing is left running and no zombie remains.
// Thread-safe: calls from several threads run independently.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace zk::util {

struct subprocess_options_t {
  std::chrono::milliseconds timeout{std::chrono::minutes(10)};
  size_t output_limit = 4096;  // bytes of the output's tail kept in subprocess_result_t::output
  std::function<bool()> stop;  // polled while it runs (every ≤ 100 ms, from the calling thread)
};

struct subprocess_result_t {
  bool started = false;     // false: the program could not be started (spawn_error says why)
  std::string spawn_error;  // e.g. "no-such-program: No such file or directory"
  bool exited = false;      // ended by exit(): exit_code holds its status
  int exit_code = -1;
  bool signaled = false;  // ended by a signal (also when killed for the timeout)
  int signal = 0;
  bool timed_out = false;  // the limit passed and its process group was killed
  bool stopped = false;    // `stop` said so and its process group was killed
  bool status_unknown =
      false;                  // it ended but was reaped elsewhere (SIGCHLD ignored in this process)
  std::string output;         // the tail of stdout + stderr, interleaved as written
  uint64_t output_bytes = 0;  // everything it wrote (output holds the last output_limit bytes)
  bool output_truncated = false;  // output_bytes > output.size()
  double seconds = 0;             // wall-clock time from start to reaped

  // Started, exited with status 0, within the limit.
  bool ok() const { return started && exited && exit_code == 0 && !timed_out && !stopped; }
  // One phrase: "exit status 3", "killed by signal 11 (Segmentation fault)",
  // "timed out after 2.0 s (killed)", "stopped after 0.3 s (killed)", "cannot start: ...".
  std::string describe() const;
};

// Runs argv (argv[0]: the program) and waits for it, at most options.timeout. Never throws for
// the program's behaviour; throws std::invalid_argument for an empty argv and
// std::runtime_error when the pipe cannot be made.
subprocess_result_t run_subprocess(const std::vector<std::string>& argv,
                                   const subprocess_options_t& options = {});

}  // namespace zk::util
