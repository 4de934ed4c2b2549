// zkfleet up --config F [--log-level LEVEL]: every node of F as a child process (`zkfleet node`,
// the scheduler first; apps/supervisor.hpp), "cluster ready" once every node has joined, then
// supervised until SIGINT/SIGTERM (`zkfleet down`), which stops them all.
//
// Ready means: the scheduler answers, it lists every node of the file that has a synth or prover
// role as joined with those roles and still there (config::not_joined), and no node process has
// exited by then — a node that joined and exited does not count. A node that exits before the
// cluster is ready ends `up` with an error naming it (exit 1, the others stopped).
//
// After ready, a node process that exits is said on stderr (its name, pid, how it ended, its log's
// last line) and started again after a backoff of 1 s, 2 s, 4 s … up to 30 s (1 s again once it
// has run 60 s), as often as it takes; each restart says its attempt number and delay, appends to
// the node's log after a "--- zkfleet up: restarting ..." line and rewrites the pid file (so that
// `zkfleet down` still finds every process). A restarted node joins the scheduler again under its
// name. While it waits, `up` keeps polling every 100 ms: a stop is never held up by a backoff, and
// nothing is restarted once a stop was requested.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <thread>

#include "apps/client.hpp"
#include "apps/cluster.hpp"
#include "apps/commands.hpp"
#include "apps/supervisor.hpp"
#include "common/config/roles.hpp"
#include "common/security/certs.hpp"

namespace zk::apps {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

// What the scheduler lists, as the readiness check reads it: each node that ever joined, with the
// roles it joined with and whether it is still there.
std::vector<config::joined_node_t> joined_nodes(const std::vector<actors::node_usage_msg>& listed) {
  std::vector<config::joined_node_t> out;
  for (const auto& n : listed) out.push_back({n.name, n.synth, n.prover, n.alive});
  return out;
}

std::string names(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
  return s;
}

// Returns once every node of `c` has joined the scheduler and every process still runs; throws
// when a node process exits first (`none_exited`), or after `patience`.
void wait_ready(const config::config_t& c, const std::function<void()>& none_exited,
                std::chrono::seconds patience) {
  cluster_client_t client(c, "admin", patience, none_exited);
  const auto end = std::chrono::steady_clock::now() + patience;
  std::vector<std::string> missing;
  std::string unanswered;
  for (;;) {
    try {
      missing = config::not_joined(c, joined_nodes(client.nodes(5s)));
      unanswered.clear();
    } catch (const std::exception& e) {  // the scheduler is busy (keying a circuit): ask again
      unanswered = e.what();
    }
    none_exited();  // after the answer: a node that joined and then exited is not counted
    if (unanswered.empty() && missing.empty()) return;
    if (stop_requested()) throw std::runtime_error("stopped before the cluster was ready");
    if (std::chrono::steady_clock::now() > end)
      throw std::runtime_error(
          "not every node joined within " + std::to_string(patience.count()) + " s (" +
          (unanswered.empty() ? "not joined: " + names(missing)
                              : "the scheduler does not answer: " + unanswered) +
          ")");
    std::this_thread::sleep_for(200ms);
  }
}

// With security.certs_dir: the certificates the file needs (configs/README.md "security"). Made
// here only when the file says `security.dev_certs: true`: a CA when certs_dir has no ca.crt —
// unless the scheduler's journal exists, which says this cluster ran before with a CA that
// certs_dir no longer points at (a typo would otherwise make a new CA, and every client
// certificate and token of the old one would stop working) — then each missing node certificate
// and client.admin's, when ca.key is in the folder. Anything missing otherwise is an error that
// names security.certs_dir, the path, and the command that makes what is missing.
void make_missing_certs(const config::config_t& c) {
  if (!c.security.tls()) return;
  using security::role_t;
  const std::string& dir = c.security.certs_dir;
  const std::string ca = security::cert_path(dir, role_t::ca, "");
  std::error_code ec;
  if (!fs::exists(ca, ec)) {
    const std::string where = "security.certs_dir in " + c.source + ": " + dir +
                              (fs::is_directory(dir, ec) ? " has no ca.crt" : " does not exist");
    if (!c.security.dev_certs)
      throw std::runtime_error(
          where +
          ". Is the path right? zkfleet up makes development certificates only when the file "
          "says security.dev_certs: true; a farm's CA is made off the cluster (zkfleet certs "
          "create-ca) and its ca.crt copied to each host's certs_dir");
    if (!c.scheduler.journal.empty() && fs::exists(c.scheduler.journal, ec))
      throw std::runtime_error(
          where + ", but this cluster has run before (its journal " + c.scheduler.journal +
          " exists): a new CA would make every client certificate and token of the old one "
          "fail. Is the path right? To start over with new development certificates, remove "
          "the journal (its jobs are then forgotten)");
    security::create_ca(dir);
    std::printf(
        "zkfleet up: made a development CA in %s (security.dev_certs; production: see "
        "configs/farm.yaml)\n",
        dir.c_str());
  }
  auto ensure = [&](role_t role, const std::string& name, std::vector<std::string> hosts) {
    const std::string file = security::cert_path(dir, role, name);
    if (fs::exists(file, ec)) return;
    const std::string make = std::string("zkfleet certs create-") + security::role_name(role) +
                             " " + name + " --certs-dir " + dir;
    if (!c.security.dev_certs)
      throw std::runtime_error(file + " is missing (security.certs_dir in " + c.source +
                               "); make it where the CA key is kept: " + make);
    if (!fs::exists(security::key_path(dir, role_t::ca, ""), ec))
      throw std::runtime_error(file + " is missing and the CA key is not in " + dir +
                               ": make it where the CA key is kept (" + make + ")");
    security::create_options_t o;
    o.hosts = std::move(hosts);
    security::create_cert(dir, role, name, o);
    std::printf("zkfleet up: made the %s certificate of %s in %s\n", security::role_name(role),
                name.c_str(), dir.c_str());
  };
  for (const auto& n : c.nodes) {
    std::vector<std::string> hosts;
    for (const auto* e : {&n.control, &n.data})
      if (*e && std::find(hosts.begin(), hosts.end(), (*e)->host) == hosts.end())
        hosts.push_back((*e)->host);
    ensure(role_t::node, n.name, hosts);
  }
  ensure(role_t::client, "admin", {});
}

int run_up(const std::string& config_arg, const std::string& level) {
  const std::string cfg_path = fs::absolute(config_arg).string();
  auto c = config::load_config(cfg_path);
  refuse_model(c);
  const up_files_t files = up_files(c);
  if (fs::exists(files.pid_file))  // before any certificate is made
    throw std::runtime_error(files.pid_file +
                             " exists: a cluster of this config is up (zkfleet down --config ...)");
  make_missing_certs(c);
  const std::string self = fs::read_symlink("/proc/self/exe").string();
  catch_stop_signals();
  supervisor_t sup(files);
  // The scheduler first: the others retry until it is there. `--node NAME` stays last on each
  // command line (what `pgrep -f -- "--node NAME$"` finds).
  std::vector<const config::node_t*> order;
  for (const auto& n : c.nodes)
    if (n.has(config::node_role_t::scheduler))
      order.insert(order.begin(), &n);
    else
      order.push_back(&n);
  for (const auto* n : order)
    sup.start(n->name,
              {self, "node", "--config", cfg_path, "--log-level", level, "--node", n->name});
  sup.write_pid_file();
  auto stop = [&](int code) {
    std::printf("zkfleet up: stopped %zu nodes\n", sup.stop_all());
    return code;
  };
  // A node that exits before the cluster is ready ends the wait at once, with its log's last line
  // (a circuit the scheduler refuses, a port in use): nobody waits a minute for a dead process.
  auto none_exited = [&] {
    if (auto e = sup.reap())
      throw std::runtime_error("node " + e->name + " exited (" + e->how +
                               ") before the cluster was ready" +
                               (e->last_log.empty() ? "" : ": " + e->last_log));
  };
  try {
    wait_ready(c, none_exited, 60s);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "zkfleet up: %s (logs in %s)\n", e.what(), files.log_dir.c_str());
    return stop(1);
  }
  std::printf(
      "zkfleet up: cluster ready: %zu nodes (scheduler at %s); logs in %s; Ctrl-C or `zkfleet "
      "down` stops it\n",
      c.nodes.size(), c.scheduler.endpoint.str().c_str(), files.log_dir.c_str());
  std::fflush(stdout);
  while (!stop_requested()) {
    while (auto e = sup.reap()) {
      const auto r = sup.restart_later(e->name);
      std::fprintf(stderr,
                   "zkfleet up: node %s (process %d) exited (%s); restarting it in %lld s "
                   "(attempt %u)%s%s\n",
                   e->name.c_str(), int(e->pid), e->how_named.c_str(), (long long)r.delay.count(),
                   r.attempt,
                   e->last_log.empty() ? "" : "; its last log line: ", e->last_log.c_str());
    }
    if (stop_requested()) break;
    for (const auto& r : sup.restart_due()) {
      if (!r.error)
        std::fprintf(stderr, "zkfleet up: node %s restarted (process %d, attempt %u)\n",
                     r.name.c_str(), int(r.pid), r.attempt);
      else
        std::fprintf(stderr, "zkfleet up: %s; trying again in %lld s (attempt %u)\n",
                     r.error->c_str(), (long long)r.next.delay.count(), r.next.attempt);
    }
    std::this_thread::sleep_for(100ms);
  }
  return stop(0);
}

}  // namespace

void add_up_command(CLI::App& root, commands_t& out) {
  CLI::App* app =
      add_command(root, "up",
                  "Every node of a config as a process of its own (logs and a pid file under "
                  "/tmp/zkfleet-up-<port>.*); Ctrl-C or `zkfleet down` stops them");
  const opt_t config = add_value(app, "--config", "FILE", "the cluster's config file (required)");
  const opt_t level = add_log_level(app);
  command_t c;
  c.app = app;
  c.run = [=] {
    if (!config.given()) throw usage_error("--config FILE is required");
    log_level(level);  // a wrong name is refused here, not by each node
    return run_up(config.one(), level.one("info"));
  };
  out.push_back(std::move(c));
}

}  // namespace zk::apps
