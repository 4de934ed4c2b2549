// The cluster across processes (CAF's middleman on the control plane, common/net for buffers):
//
//   zkfleet node   --config F [--node NAME]   one node of F: its roles' actors; the scheduler
//                                             publishes itself on scheduler.endpoint, the others
//                                             join it there (remote_actor, retried up to 30 s)
//   zkfleet up     --config F                 every node of F as a child process (logs beside
//                                             the pid file), "ready" once all joined; Ctrl-C or
//                                             `zkfleet down` stops them all
//   zkfleet down   --config F
//   zkfleet submit --config F --circuit ID [--input FILE]... [--partitions N] [--priority P]
//                  (no --priority: the circuit's configured priority, else default_priority)
//   zkfleet status --config F [JOB]  |   zkfleet cancel --config F JOB   (no JOB: the nodes' memory)
//   zkfleet await  --config F JOB [--out DIR] [--timeout SECONDS]
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <caf/io/all.hpp>
#include <algorithm>
#include <chrono>
#include <cstring>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <thread>

#include "actors/metrics_http.hpp"
#include "actors/node.hpp"
#include "apps/backend.hpp"
#include "apps/commands.hpp"
#include "common/circuit/api.hpp"
#include "common/config/config.hpp"
#include "common/formats/json.hpp"

extern char** environ;

namespace zk::apps {
namespace {

namespace fs = std::filesystem;
using namespace zk::actors;
using namespace zk::node;
using namespace std::chrono_literals;

volatile std::sig_atomic_t g_stop = 0;
void on_signal(int) { g_stop = 1; }

// The cluster commands' options: --config FILE (required) and `more`; at most `max_positional`
// bare arguments (a job id), so that a stray word — a second file after `--input A` — is an error,
// not silently ignored.
args_t cluster_args(const std::vector<std::string>& args, std::vector<flag_t> more = {}, size_t max_positional = 0) {
  more.insert(more.begin(), flag_t("--config", "the cluster's config file"));
  args_t a = parse_args(args, more);
  if (!a.has("--config")) throw usage_error("--config FILE is required");
  if (a.positional.size() > max_positional)
    throw usage_error("unexpected argument '" + a.positional[max_positional] + "'" +
                      (a.has("--input") ? " (each input file needs its own --input)" : ""));
  return a;
}

// An actor system with the middleman (remote actors) and zkfleet's messages.
struct system_t {
  caf::actor_system_config cfg;
  std::unique_ptr<caf::actor_system> sys;
  system_t() {
    add_message_types(cfg);
    cfg.load<caf::io::middleman>();
    cfg.set("scheduler.max-threads", 2);
    sys = std::make_unique<caf::actor_system>(cfg);
  }
};

// What answers at `ep`, asked before CAF's handshake is: a CAF middleman (the scheduler's
// publish) greets first, with a BASP server handshake (operation 0). A listener that stays silent
// (a prover's data port, an HTTP server) or greets otherwise is not a scheduler, and remote_actor
// would wait on it for minutes.
enum class greeting_t { nobody, scheduler, silent, foreign };

greeting_t probe(const config::endpoint_t& ep, std::chrono::milliseconds wait) {
  addrinfo hints{};
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* res = nullptr;
  if (::getaddrinfo(ep.host.c_str(), std::to_string(ep.port).c_str(), &hints, &res) != 0) return greeting_t::nobody;
  greeting_t g = greeting_t::nobody;
  for (addrinfo* ai = res; ai && g == greeting_t::nobody; ai = ai->ai_next) {
    const int fd = ::socket(ai->ai_family, ai->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, ai->ai_protocol);
    if (fd < 0) continue;
    pollfd p{fd, POLLOUT, 0};
    int err = 0;
    socklen_t len = sizeof err;
    const bool connected =
        (::connect(fd, ai->ai_addr, ai->ai_addrlen) == 0 || errno == EINPROGRESS) && ::poll(&p, 1, int(wait.count())) == 1 &&
        ::getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) == 0 && err == 0;
    if (connected) {
      p = {fd, POLLIN, 0};
      uint8_t first = 0xff;
      const int ready = ::poll(&p, 1, int(wait.count()));
      if (ready == 0) {
        g = greeting_t::silent;
      } else if (ready == 1) {
        const ssize_t n = ::recv(fd, &first, 1, 0);
        // Closed at once (a proxy whose backend is not up yet): nobody there yet, try again.
        if (n == 1) g = first == 0 ? greeting_t::scheduler : greeting_t::foreign;
      }  // interrupted (a signal): nobody yet
    }
    ::close(fd);
  }
  ::freeaddrinfo(res);
  return g;
}

// `still_ok` runs between tries and may throw to give up early (zkfleet up: a node process died).
scheduler_actor connect_scheduler(caf::actor_system& sys, const config::config_t& c, std::chrono::seconds patience,
                             const std::function<void()>& still_ok = {}) {
  const auto& ep = c.scheduler.endpoint;
  const auto start = std::chrono::steady_clock::now(), end = start + patience;
  auto not_a_scheduler = [&](const char* what) {
    return std::runtime_error(ep.str() + " accepted the connection but " + what +
                              ": it is not a zkfleet scheduler (is scheduler.endpoint in " + c.source +
                              " the scheduler's control port, not a data or metrics port?)");
  };
  for (bool said = false;;) {
    // Only a greeting that cannot be CAF's ends the wait at once; a silent listener is tried again
    // (remote_actor would wait on it for minutes) until the patience runs out.
    const greeting_t g = probe(ep, 5s);
    if (g == greeting_t::foreign) throw not_a_scheduler("did not greet as CAF does");
    if (g == greeting_t::silent) {
      if (still_ok) still_ok();
      if (std::chrono::steady_clock::now() >= end || g_stop) throw not_a_scheduler("said nothing within 5 s");
      continue;
    }
    auto a = sys.middleman().remote_actor<scheduler_actor>(ep.host, ep.port);
    if (a) return *a;
    if (!said && std::chrono::steady_clock::now() - start > 2s) {  // say why the wait, once
      std::fprintf(stderr, "zkfleet: no scheduler at %s yet (%s); retrying for up to %lld s\n", ep.str().c_str(),
                   sys.render(a.error()).c_str(), (long long)patience.count());
      std::fflush(stderr);
      said = true;
    }
    if (still_ok) still_ok();
    if (std::chrono::steady_clock::now() >= end || g_stop)
      throw std::runtime_error("no scheduler at " + ep.str() + ": " + sys.render(a.error()));
    std::this_thread::sleep_for(200ms);
  }
}

circuit_def_t describe(const config::circuit_t& c, config::priority_t default_priority) {
  circuit_def_t d;
  if (!c.native.empty()) {  // keyed here (or the cached key reused) before the scheduler takes jobs
    d = describe_native_circuit(c.id, c.native, c.params,
                                c.key_dir.empty() ? circuit::default_key_dir(c.native, c.params) : c.key_dir);
  } else {
    const bool abc =
        c.shape == config::shape_t::abc_witness || (c.shape == config::shape_t::automatic && !c.r1cs.empty());
    if (abc && c.r1cs.empty()) throw std::runtime_error("circuit " + c.id + ": shape abc_witness needs an r1cs");
    d = describe_zkey_circuit(c.id, c.zkey, abc ? c.r1cs : "");
    d.witness_generator = c.witness_generator;
  }
  d.priority = c.priority.value_or(default_priority);
  return d;
}

// A file whose simulation is enabled is a model: `zkfleet simulate` runs it, not real nodes.
void refuse_model(const config::config_t& c) {
  if (c.simulation.enabled)
    throw std::runtime_error(c.source + ": simulation.enabled is true: this file is a simulated workload, run it with "
                             "`zkfleet simulate --config " + c.source + "`");
}

std::string pid_file(const config::config_t& c) {
  return (fs::temp_directory_path() / ("zkfleet-up-" + std::to_string(c.scheduler.endpoint.port) + ".pid")).string();
}

void wait_for_signal() {
  std::signal(SIGINT, on_signal);
  std::signal(SIGTERM, on_signal);
  while (!g_stop) std::this_thread::sleep_for(100ms);
}

}  // namespace

int cmd_node(const std::vector<std::string>& args) {
  auto a = cluster_args(args, {"--node"});
  auto c = config::load_config(a.one("--config"));
  refuse_model(c);
  const auto& node = config::select_node(c, a.one("--node"));
  uint16_t index = 0;
  for (size_t i = 0; i < c.nodes.size(); ++i)
    if (c.nodes[i].name == node.name) index = uint16_t(i);
  std::signal(SIGINT, on_signal);
  std::signal(SIGTERM, on_signal);
  // The prover's backend outlives the actor system that uses its hooks (declared first).
  backend_t backend;
  if (node.has(config::role_t::prover)) backend = choose_backend(config::backend_name(node.resources.prover_backend),
                             {node.resources.gpus, node.resources.vram});
  system_t s;
  auto& sys = *s.sys;
  std::vector<caf::actor> own;  // ended on the way out, however it is left (dynamically typed views)
  // Every actor this node spawned is told to exit when this scope ends, a start-up error
  // included (a circuit the scheduler refuses, a port in use): the actor system's destructor
  // waits for its actors, so one left running would hang the node before its error is printed.
  struct exit_all_t {
    std::vector<caf::actor>& own;
    ~exit_all_t() {
      for (auto& h : own) caf::anon_send_exit(h, caf::exit_reason::user_shutdown);
    }
  } exit_all{own};
  std::unique_ptr<metrics_server_t> metrics;  // destroyed before the actor system
  scheduler_actor scheduler;
  timeline_actor aggregator;
  std::shared_ptr<timeline::recorder_t> sched_rec;
  if (node.has(config::role_t::scheduler)) {
    aggregator = sys.spawn(timeline_aggregator);
    // The scheduler reports as a timeline node of its own: with synth/prover roles beside it,
    // the node's reporter takes the node's index and the scheduler one past every node's.
    const bool alone = !node.has(config::role_t::synth) && !node.has(config::role_t::prover);
    const uint16_t sched_index = alone ? index : uint16_t(c.nodes.size() + index);
    const std::string sched_name = alone ? node.name : node.name + "-scheduler";
    sched_rec = std::make_shared<timeline::recorder_t>(sched_index);
    lookahead_t la{c.scheduler.lookahead.automatic, c.scheduler.lookahead.value, c.scheduler.lookahead.max};
    scheduler = sys.spawn(actors::scheduler, scheduler_config_t{la, c.scheduler.max_attempts, sched_rec, 0, aggregator});
    auto reporter =
        sys.spawn(timeline_reporter, reporter_config_t{sched_index, sched_name, {{0, "scheduler"}}, sched_rec, aggregator});
    own = {caf::actor_cast<caf::actor>(scheduler), caf::actor_cast<caf::actor>(aggregator),
           caf::actor_cast<caf::actor>(reporter)};
    for (const auto& circuit : c.circuits) {
      auto r = ask<caf::ok_atom>(sys, scheduler, 10s, register_atom::value,
                                  describe(circuit, c.scheduler.default_priority));
      if (!r) throw std::runtime_error("circuit " + circuit.id + ": " + actors::describe(r.error()));
    }
    const auto& ep = node.control ? *node.control : c.scheduler.endpoint;
    auto port = sys.middleman().publish(scheduler, ep.port, ep.host.c_str(), true);
    if (!port) throw std::runtime_error("cannot publish the scheduler on " + ep.str() + ": " + sys.render(port.error()));
    if (c.scheduler.metrics) {
      metrics = std::make_unique<metrics_server_t>(sys, scheduler, aggregator, c.scheduler.metrics->host,
                                                   c.scheduler.metrics->port);
      std::printf("zkfleet node %s: metrics at http://%s:%u/metrics\n", node.name.c_str(),
                  c.scheduler.metrics->host.c_str(), unsigned(metrics->port()));
    }
  } else {
    scheduler = connect_scheduler(sys, c, 30s);
    auto agg = ask<timeline_actor>(sys, scheduler, 10s, timeline_atom::value);
    if (!agg) throw std::runtime_error("the scheduler names no timeline aggregator: " + actors::describe(agg.error()));
    aggregator = *agg;
  }
  node_handles_t n;
  if (node.has(config::role_t::synth) || node.has(config::role_t::prover)) {
    node_role_config_t r;
    r.name = node.name;
    r.timeline_node = index;
    r.synth = node.has(config::role_t::synth);
    r.prover = node.has(config::role_t::prover);
    r.cores = node.resources.cores.value_or(std::max(1u, std::thread::hardware_concurrency()));
    r.memory_budget = node.resources.memory_budget;
    r.hot_keys = node.hot_circuits;
    r.backend = backend.name;
    r.accelerators = {backend.bn254.get(), backend.bls12_381.get()};
    if (r.prover && node.data) r.data_listen = node.data->host + ":" + std::to_string(node.data->port);
    r.data_options.io_threads = node.data_plane.io_threads;
    r.data_options.io_timeout = node.data_plane.io_timeout;
    r.data_options.idle_timeout = node.data_plane.idle_timeout;
    r.data_options.max_payload_bytes = node.data_plane.max_payload;
    r.send_options.connect_timeout = node.data_plane.connect_timeout;
    r.send_options.io_timeout = node.data_plane.io_timeout;
    r.send_options.max_attempts = node.data_plane.max_attempts;
    r.send_streams = node.data_plane.send_streams;
    n = spawn_node(sys, r, scheduler, aggregator, std::make_shared<buffer_directory_t>());
    if (n.synthesizer) own.push_back(caf::actor_cast<caf::actor>(n.synthesizer));
    if (n.prover) own.push_back(caf::actor_cast<caf::actor>(n.prover));
    own.push_back(caf::actor_cast<caf::actor>(n.reporter));
  }
  std::printf("zkfleet node %s ready (scheduler at %s)\n", node.name.c_str(), c.scheduler.endpoint.str().c_str());
  std::fflush(stdout);
  wait_for_signal();
  metrics.reset();
  if (node.has(config::role_t::scheduler)) sys.middleman().unpublish(scheduler, 0);
  std::printf("zkfleet node %s stopped\n", node.name.c_str());
  return 0;
}

int cmd_up(const std::vector<std::string>& args) {
  auto a = cluster_args(args);
  const std::string cfg_path = fs::absolute(a.one("--config")).string();
  auto c = config::load_config(cfg_path);
  refuse_model(c);
  const std::string pids = pid_file(c);
  if (fs::exists(pids)) throw std::runtime_error(pids + " exists: a cluster of this config is up (zkfleet down --config ...)");
  const std::string self = fs::read_symlink("/proc/self/exe").string();
  const fs::path logs = fs::path(pids).replace_extension("logs");
  fs::create_directories(logs);
  std::signal(SIGINT, on_signal);
  std::signal(SIGTERM, on_signal);
  std::vector<pid_t> children;
  std::map<pid_t, std::string> names;  // node name by process
  // The scheduler first: the others retry until it is there.
  std::vector<const config::node_t*> order;
  for (const auto& n : c.nodes)
    if (n.has(config::role_t::scheduler)) order.insert(order.begin(), &n);
    else order.push_back(&n);
  for (const auto* n : order) {
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    const std::string log = (logs / (n->name + ".log")).string();
    posix_spawn_file_actions_addopen(&fa, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&fa, 1, 2);
    std::vector<std::string> argv_s = {self, "node", "--config", cfg_path, "--node", n->name};
    std::vector<char*> argv;
    for (auto& s : argv_s) argv.push_back(s.data());
    argv.push_back(nullptr);
    pid_t pid = 0;
    int rc = posix_spawn(&pid, self.c_str(), &fa, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&fa);
    if (rc != 0) throw std::runtime_error("cannot start node " + n->name + ": " + std::strerror(rc));
    children.push_back(pid);
    names[pid] = n->name;
  }
  {
    std::ofstream f(pids);
    f << ::getpid() << "\n";
    for (pid_t p : children) f << p << "\n";
  }
  auto stop_all = [&](int code) {
    for (pid_t p : children) ::kill(p, SIGTERM);
    auto end = std::chrono::steady_clock::now() + 10s;
    for (pid_t p : children) {
      int st = 0;
      while (::waitpid(p, &st, WNOHANG) == 0) {
        if (std::chrono::steady_clock::now() > end) {
          ::kill(p, SIGKILL);
          ::waitpid(p, &st, 0);
          break;
        }
        std::this_thread::sleep_for(50ms);
      }
    }
    fs::remove(pids);
    std::printf("zkfleet up: stopped %zu nodes\n", children.size());
    return code;
  };
  // A node that exits before the cluster is ready ends the wait at once, with its log's last lines
  // (a circuit the scheduler refuses, a port in use): nobody waits a minute for a dead process.
  auto none_exited = [&] {
    for (pid_t p : children) {
      int st = 0;
      if (::waitpid(p, &st, WNOHANG) != p) continue;
      children.erase(std::find(children.begin(), children.end(), p));
      const std::string log = (logs / (names[p] + ".log")).string();
      std::ifstream in(log);
      std::string line, last;
      while (std::getline(in, line))
        if (!line.empty()) last = line;
      throw std::runtime_error("node " + names[p] + " exited (" +
                               (WIFEXITED(st) ? "status " + std::to_string(WEXITSTATUS(st))
                                              : "signal " + std::to_string(WTERMSIG(st))) +
                               ") before the cluster was ready" + (last.empty() ? "" : ": " + last));
    }
  };
  // Ready when every other node has joined the scheduler.
  try {
    system_t s;
    auto sched = connect_scheduler(*s.sys, c, 60s, none_exited);
    auto end = std::chrono::steady_clock::now() + 60s;
    for (;;) {
      auto u = ask<std::vector<node_usage_msg>>(*s.sys, sched, 5s, stats_atom::value);
      if (u && u->size() + 1 >= c.nodes.size()) break;
      none_exited();
      if (g_stop || std::chrono::steady_clock::now() > end) throw std::runtime_error("not every node joined within 60 s");
      std::this_thread::sleep_for(200ms);
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "zkfleet up: %s (logs in %s)\n", e.what(), logs.string().c_str());
    return stop_all(1);
  }
  std::printf("zkfleet up: cluster ready: %zu nodes (scheduler at %s); logs in %s; Ctrl-C or `zkfleet down` stops it\n",
              c.nodes.size(), c.scheduler.endpoint.str().c_str(), logs.string().c_str());
  std::fflush(stdout);
  while (!g_stop) {
    for (pid_t p : children) {
      int st = 0;
      if (::waitpid(p, &st, WNOHANG) == p) {
        std::fprintf(stderr, "zkfleet up: node process %d exited; stopping the cluster\n", int(p));
        children.erase(std::find(children.begin(), children.end(), p));
        return stop_all(1);
      }
    }
    std::this_thread::sleep_for(100ms);
  }
  return stop_all(0);
}

int cmd_down(const std::vector<std::string>& args) {
  auto a = cluster_args(args);
  auto c = config::load_config(a.one("--config"), {false});
  const std::string pids = pid_file(c);
  std::ifstream f(pids);
  pid_t up = 0;
  if (!(f >> up) || up <= 0) throw std::runtime_error(pids + ": no cluster of this config is up");
  if (::kill(up, SIGTERM) != 0) {
    fs::remove(pids);
    throw std::runtime_error("zkfleet up (pid " + std::to_string(up) + ") is gone; removed " + pids);
  }
  auto end = std::chrono::steady_clock::now() + 20s;
  while (fs::exists(pids) && std::chrono::steady_clock::now() < end) std::this_thread::sleep_for(100ms);
  if (fs::exists(pids)) throw std::runtime_error("zkfleet up (pid " + std::to_string(up) + ") did not stop within 20 s");
  std::printf("zkfleet down: stopped\n");
  return 0;
}

int cmd_submit(const std::vector<std::string>& args) {
  auto a = cluster_args(args, {"--circuit", "--input", "--partitions", "--priority"});
  auto c = config::load_config(a.one("--config"), {false});
  job_request r;
  r.circuit = a.one("--circuit");
  if (r.circuit.empty()) throw usage_error("--circuit ID is required");
  r.partitions = uint32_t(parse_uint_arg("--partitions", a.one("--partitions", "1"), 1, 0xffffffffu));
  if (!a.has("--priority")) {
    r.circuit_priority = true;  // the circuit's (config `priority`), else the scheduler's default
  } else {
    auto p = config::parse_priority(a.one("--priority"));
    if (!p) throw usage_error("--priority is one of critical, high, normal, low (got '" + a.one("--priority") + "')");
    r.priority = *p;
  }
  for (const auto& in : a.all("--input"))  // files are read by the synthesis nodes: absolute paths
    r.inputs.push_back(in.find('=') != std::string::npos ? in : fs::absolute(in).string());
  system_t s;
  auto sched = connect_scheduler(*s.sys, c, 5s);
  auto id = ask<uint64_t>(*s.sys, sched, 10s, submit_atom::value, r);
  if (!id) throw std::runtime_error(actors::describe(id.error()));
  std::printf("%llu\n", (unsigned long long)*id);
  return 0;
}

int cmd_status(const std::vector<std::string>& args) {
  auto a = cluster_args(args, {}, 1);
  auto c = config::load_config(a.one("--config"), {false});
  system_t s;
  auto sched = connect_scheduler(*s.sys, c, 5s);
  if (a.positional.empty()) {  // the nodes as the scheduler accounts them
    auto u = ask<std::vector<node_usage_msg>>(*s.sys, sched, 10s, stats_atom::value);
    if (!u) throw std::runtime_error(actors::describe(u.error()));
    std::printf("%-16s %12s %12s %12s %6s %9s\n", "node", "reserved", "peak", "budget", "synth", "pipeline");
    for (const auto& n : *u)
      std::printf("%-16s %12s %12s %12s %6u %9u\n", n.name.c_str(), buffer::format_bytes(n.reserved).c_str(),
                  buffer::format_bytes(n.peak_reserved).c_str(), buffer::format_bytes(n.budget).c_str(), n.synthesizing,
                  n.pipeline);
    return 0;
  }
  auto st = ask<job_status_msg>(*s.sys, sched, 10s, status_atom::value, parse_uint_arg("job", a.positional[0]));
  if (!st) throw std::runtime_error(actors::describe(st.error()));
  std::printf("job %llu (%s, %s): %u/%u done, %u failed%s%s%s\n", (unsigned long long)st->id, st->circuit.c_str(),
              priority_name(st->priority), st->done, st->partitions, st->failed, st->cancelled ? ", cancelled" : "",
              st->finished ? ", finished" : "", st->error.empty() ? "" : (": " + st->error).c_str());
  for (size_t k = 0; k < st->part_states.size(); ++k) std::printf("  partition %zu: %s\n", k, st->part_states[k].c_str());
  return 0;
}

int cmd_await(const std::vector<std::string>& args) {
  auto a = cluster_args(args, {"--out", "--timeout"}, 1);
  if (a.positional.size() != 1) throw usage_error("await takes one job id");
  auto c = config::load_config(a.one("--config"), {false});
  const uint64_t job = parse_uint_arg("job", a.positional[0]);
  const auto timeout = std::chrono::seconds(parse_uint_arg("--timeout", a.one("--timeout", "600"), 1, 30 * 86400));
  const std::string out = a.one("--out", ".");
  std::error_code ec;
  if (fs::exists(out, ec) && !fs::is_directory(out, ec))  // before the wait, not after it
    throw std::runtime_error(out + ": --out names a file; it needs a directory for the proofs");
  system_t s;
  auto sched = connect_scheduler(*s.sys, c, 5s);
  auto r = ask<job_result_msg>(*s.sys, sched, timeout, await_atom::value, job);
  if (!r && r.error() == caf::sec::request_timeout) {
    auto st = ask<job_status_msg>(*s.sys, sched, 10s, status_atom::value, job);
    if (st)
      throw std::runtime_error("job " + std::to_string(job) + " is not finished after " +
                               std::to_string(timeout.count()) + " s (" + std::to_string(st->done) + " of " +
                               std::to_string(st->partitions) + " partitions proved): wait longer with --timeout, or "
                               "see `zkfleet status`");
  }
  if (!r) throw std::runtime_error(actors::describe(r.error()));
  fs::create_directories(out, ec);
  if (ec) throw std::runtime_error(out + ": cannot create the directory for the proofs: " + ec.message());
  for (const auto& p : r->proofs) {
    std::string stem = out + "/job" + std::to_string(job) + "-p" + std::to_string(p.partition);
    formats::write_proof_json(stem + "-proof.json", formats::parse_proof_json(p.proof_json, "proof"));
    formats::write_public_json(stem + "-public.json", p.public_signals);
    std::printf("%s-proof.json %s-public.json (synth %.1f ms, prove %.1f ms, verified)\n", stem.c_str(), stem.c_str(),
                p.synth_seconds * 1e3, p.prove_seconds * 1e3);
  }
  return 0;
}

timeline::aggregator_t fetch_cluster_timeline(const std::string& config_path) {
  auto c = config::load_config(config_path, {false});
  system_t s;
  auto sched = connect_scheduler(*s.sys, c, 5s);
  auto agg = ask<timeline_actor>(*s.sys, sched, 10s, timeline_atom::value);
  if (!agg) throw std::runtime_error("the scheduler names no timeline aggregator: " + actors::describe(agg.error()));
  // Every reporter sends what it holds first; a node that does not answer only delays this.
  auto flushed = ask<caf::ok_atom>(*s.sys, *agg, 15s, flush_atom::value);
  if (!flushed) std::fprintf(stderr, "zkfleet timeline: flush: %s (showing what arrived)\n", actors::describe(flushed.error()).c_str());
  auto snap = ask<timeline_snapshot_msg>(*s.sys, *agg, 15s, snapshot_atom::value);
  if (!snap) throw std::runtime_error("the timeline aggregator did not answer: " + actors::describe(snap.error()));
  return to_aggregator(*snap);
}

int cmd_cancel(const std::vector<std::string>& args) {
  auto a = cluster_args(args, {}, 1);
  if (a.positional.size() != 1) throw usage_error("cancel takes one job id");
  auto c = config::load_config(a.one("--config"), {false});
  system_t s;
  auto sched = connect_scheduler(*s.sys, c, 5s);
  auto r = ask<bool>(*s.sys, sched, 10s, cancel_atom::value, parse_uint_arg("job", a.positional[0]));
  if (!r) throw std::runtime_error(actors::describe(r.error()));
  std::printf(*r ? "cancelled\n" : "already finished\n");
  return *r ? 0 : 1;
}

}  // namespace zk::apps
