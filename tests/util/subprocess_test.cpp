// util::run_subprocess: argv without a shell, output tail, exit status, signals, a program that
// cannot be started, the wall-clock limit (the whole process group killed), and no child left
// behind (running or zombie) after any call.
#include "common/util/subprocess.hpp"

#include <doctest/doctest.h>
#include <errno.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "tests/test_util.hpp"

using zk::util::run_subprocess;
using zk::util::subprocess_options_t;
using namespace std::chrono_literals;

namespace {

subprocess_options_t limit(std::chrono::milliseconds t, size_t out = 4096) {
  subprocess_options_t o;
  o.timeout = t;
  o.output_limit = out;
  return o;
}

// No child of this process is left: running or unreaped.
bool no_children() {
  int st = 0;
  return ::waitpid(-1, &st, WNOHANG) == -1 && errno == ECHILD;
}

// `pid` is gone or a zombie waiting for its new parent (not running), within `patience`.
bool process_gone(pid_t pid, std::chrono::milliseconds patience = 3000ms) {
  return zk::test::eventually(
      [&] {
        if (::kill(pid, 0) != 0 && errno == ESRCH) return true;
        std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
        std::string line;
        if (!std::getline(stat, line)) return false;
        const auto close = line.rfind(')');
        return close != std::string::npos && close + 2 < line.size() &&
               (line[close + 2] == 'Z' || line[close + 2] == 'X');
      },
      patience, 20ms);
}

}  // namespace

TEST_CASE("subprocess: success, stdout and stderr captured together") {
  auto r = run_subprocess({"sh", "-c", "echo to-stdout; echo to-stderr >&2"}, limit(10s));
  CHECK(r.started);
  CHECK(r.exited);
  CHECK(r.exit_code == 0);
  CHECK(r.ok());
  CHECK_FALSE(r.timed_out);
  CHECK(r.output == "to-stdout\nto-stderr\n");
  CHECK(r.output_bytes == r.output.size());
  CHECK_FALSE(r.output_truncated);
  CHECK(r.describe() == "exit status 0");
  CHECK(no_children());
}

TEST_CASE("subprocess: argv[0] is looked up on PATH, and an absolute path works too") {
  auto r = run_subprocess({"echo", "hello", "world"}, limit(10s));
  CHECK(r.ok());
  CHECK(r.output == "hello world\n");
  auto abs = run_subprocess({"/bin/sh", "-c", "exit 0"}, limit(10s));
  CHECK(abs.ok());
  CHECK(abs.output.empty());
}

TEST_CASE("subprocess: no shell interpretation of the arguments") {
  auto r = run_subprocess(
      {"echo", "$(echo hi)", "`id`", "*", ";", "ls", "a b", "$HOME", "x|y", ">out"}, limit(10s));
  REQUIRE(r.ok());
  CHECK(r.output == "$(echo hi) `id` * ; ls a b $HOME x|y >out\n");
  // An argument with a space and quotes reaches the program as one argument.
  auto n = run_subprocess({"sh", "-c", "echo $#", "sh", "one arg", "'two' \"args\""}, limit(10s));
  REQUIRE(n.ok());
  CHECK(n.output == "2\n");
}

TEST_CASE("subprocess: a nonzero exit is reported with the output's tail") {
  auto r = run_subprocess({"sh", "-c",
                           "i=0; while [ $i -lt 2000 ]; do echo noise line $i; i=$((i+1)); done; "
                           "echo 'Error: the input is malformed' >&2; exit 3"},
                          limit(20s, 64));
  CHECK(r.started);
  CHECK(r.exited);
  CHECK(r.exit_code == 3);
  CHECK_FALSE(r.ok());
  CHECK(r.describe() == "exit status 3");
  CHECK(r.output.size() == 64);
  CHECK(r.output_truncated);
  CHECK(r.output_bytes > 20000);
  CHECK(r.output.find("Error: the input is malformed\n") != std::string::npos);
  CHECK(r.output.substr(r.output.size() - 30) == "Error: the input is malformed\n");
  CHECK(no_children());
}

TEST_CASE("subprocess: output_limit 0 keeps nothing but counts the bytes") {
  auto r = run_subprocess({"echo", "12345"}, limit(10s, 0));
  CHECK(r.ok());
  CHECK(r.output.empty());
  CHECK(r.output_bytes == 6);
  CHECK(r.output_truncated);
}

TEST_CASE("subprocess: a program that does not exist is reported, not thrown") {
  auto r = run_subprocess({"zkfleet-no-such-program-4711", "x"}, limit(10s));
  CHECK_FALSE(r.started);
  CHECK_FALSE(r.ok());
  CHECK(r.spawn_error.find("zkfleet-no-such-program-4711") != std::string::npos);
  CHECK(r.spawn_error.find("No such file") != std::string::npos);
  CHECK(r.describe().rfind("cannot start: ", 0) == 0);
  auto abs = run_subprocess({"/nonexistent/dir/prog"}, limit(10s));
  CHECK_FALSE(abs.started);
  CHECK(abs.spawn_error.find("/nonexistent/dir/prog") != std::string::npos);
  CHECK(no_children());
  CHECK_THROWS_AS(run_subprocess({}, limit(1s)), std::invalid_argument);
}

TEST_CASE("subprocess: a program killed by a signal") {
  auto r = run_subprocess({"sh", "-c", "echo before; kill -SEGV $$"}, limit(10s));
  CHECK(r.started);
  CHECK_FALSE(r.exited);
  CHECK(r.signaled);
  CHECK(r.signal == SIGSEGV);
  CHECK_FALSE(r.ok());
  CHECK(r.describe().find("killed by signal 11") == 0);
  CHECK(r.output == "before\n");
}

TEST_CASE("subprocess: the timeout kills the program and reports it") {
  auto t0 = std::chrono::steady_clock::now();
  auto r = run_subprocess({"sh", "-c", "echo started; exec sleep 30"}, limit(300ms));
  double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  CHECK(r.started);
  CHECK(r.timed_out);
  CHECK_FALSE(r.exited);
  CHECK_FALSE(r.ok());
  CHECK(r.signaled);
  CHECK(r.signal == SIGKILL);
  CHECK(r.output == "started\n");
  CHECK(took >= 0.29);
  CHECK(took < 5.0);
  CHECK(r.describe().find("timed out after") == 0);
  CHECK(no_children());
}

TEST_CASE("subprocess: `stop` kills the program and its group and reports it") {
  auto t0 = std::chrono::steady_clock::now();
  subprocess_options_t o = limit(30s);
  o.stop = [t0] { return std::chrono::steady_clock::now() - t0 > 1000ms; };  // room for sh to start
  auto r = run_subprocess({"sh", "-c", "sleep 30 & echo $!; exec sleep 30"}, o);
  double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  CHECK(r.stopped);
  CHECK_FALSE(r.timed_out);
  CHECK_FALSE(r.exited);
  CHECK_FALSE(r.ok());
  CHECK(took < 10.0);  // not the program's 30 s
  CHECK(r.describe().find("stopped after") == 0);
  CHECK(no_children());
  const pid_t grandchild = pid_t(std::atoi(r.output.c_str()));  // the background sleep: same group
  REQUIRE(grandchild > 0);
  CHECK(process_gone(grandchild));
}

TEST_CASE("subprocess: the timeout kills the whole process group (a grandchild holding the pipe)") {
  // The shell starts a background sleep (which inherits the pipe) and waits for it.
  auto t0 = std::chrono::steady_clock::now();
  auto r = run_subprocess({"sh", "-c", "sleep 30 & echo $!; wait"}, limit(500ms));
  double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  CHECK(r.timed_out);
  CHECK(took < 5.0);
  const pid_t grandchild = pid_t(std::stol(r.output));
  REQUIRE(grandchild > 1);
  CHECK(process_gone(grandchild));
  CHECK(no_children());
}

TEST_CASE("subprocess: a program that exits leaving a background child holding the pipe returns") {
  auto t0 = std::chrono::steady_clock::now();
  auto r = run_subprocess({"sh", "-c", "sleep 30 & echo $!; exit 0"}, limit(20s));
  double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  CHECK(r.ok());
  CHECK_FALSE(r.timed_out);
  CHECK(took < 5.0);
  const pid_t leftover = pid_t(std::stol(r.output));
  CHECK(process_gone(leftover));
}

TEST_CASE("subprocess: stdin is /dev/null (a program reading it does not wait)") {
  auto r = run_subprocess({"cat"}, limit(10s));
  INFO("cat's output: '" << r.output << "'");  // once seen non-empty under load: say what it was
  CHECK(r.ok());
  CHECK(r.output.empty());
}

TEST_CASE("subprocess: concurrent calls from several threads") {
  std::vector<zk::util::subprocess_result_t> results(4);
  std::vector<std::thread> threads;
  for (size_t i = 0; i < results.size(); ++i)
    threads.emplace_back([&, i] {
      results[i] = run_subprocess(
          {"sh", "-c", "sleep 0.1; echo $0; exit $1", "t" + std::to_string(i), std::to_string(i)},
          limit(20s));
    });
  for (auto& t : threads) t.join();
  for (size_t i = 0; i < results.size(); ++i) {
    CHECK(results[i].exited);
    CHECK(results[i].exit_code == int(i));
    CHECK(results[i].output == "t" + std::to_string(i) + "\n");
  }
  CHECK(no_children());
}

TEST_CASE(
    "subprocess: with SIGCHLD ignored (children reaped by the kernel) the status is unknown, never "
    "success") {
  struct sigaction ign {
  }, old{};
  ign.sa_handler = SIG_IGN;
  sigemptyset(&ign.sa_mask);
  REQUIRE(::sigaction(SIGCHLD, &ign, &old) == 0);
  auto t0 = std::chrono::steady_clock::now();
  auto r = run_subprocess({"sh", "-c", "echo bye; exit 0"}, limit(10s));
  double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  ::sigaction(SIGCHLD, &old, nullptr);
  CHECK(r.started);
  CHECK(r.status_unknown);
  CHECK_FALSE(r.exited);
  CHECK_FALSE(r.ok());
  CHECK(r.output == "bye\n");
  CHECK(r.describe().find("status unknown") != std::string::npos);
  CHECK(took < 5.0);
}
