// zkfleet node --config F [--node NAME] [--log-level LEVEL]: one node of F, its roles' actors.
// The scheduler role publishes the scheduler on scheduler.endpoint (CAF middleman) and serves
// scheduler.metrics; the synth and prover roles join it there (remote_actor, retried up to 30 s)
// with the node's resources (common/config/roles.hpp: the plan of the node's entry). Runs until
// SIGINT or SIGTERM. Its lines go through the log (common/util/log.hpp), named after the node.
#include <caf/io/all.hpp>
#include <chrono>
#include <memory>
#include <mutex>
#include <thread>
#include <utility>

#include "actors/metrics_http.hpp"
#include "actors/node.hpp"
#include "apps/backend.hpp"
#include "apps/client.hpp"
#include "apps/cluster.hpp"
#include "apps/commands.hpp"
#include "common/circuit/api.hpp"
#include "common/config/roles.hpp"
#include "node/scheduler/sessions.hpp"

namespace zk::apps {
namespace {

using namespace zk::actors;
using namespace std::chrono_literals;

node::circuit_def_t describe(const config::circuit_t& c, config::priority_t default_priority) {
  node::circuit_def_t d;
  if (!c.native.empty()) {  // keyed here (or the cached key reused) before the scheduler takes jobs
    d = node::describe_native_circuit(
        c.id, c.native, c.params,
        c.key_dir.empty() ? circuit::default_key_dir(c.native, c.params) : c.key_dir);
  } else {
    const bool abc = c.shape == config::shape_t::abc_witness ||
                     (c.shape == config::shape_t::automatic && !c.r1cs.empty());
    if (abc && c.r1cs.empty())
      throw std::runtime_error("circuit " + c.id + ": shape abc_witness needs an r1cs");
    d = node::describe_zkey_circuit(c.id, c.zkey, abc ? c.r1cs : "");
    d.witness_generator = c.witness_generator;
  }
  d.priority = c.priority.value_or(default_priority);
  return d;
}

// The plan of the node's synth and prover roles in the actors' terms; the backend's hooks are the
// caller's, alive while the node runs.
node_role_config_t role_config(const config::node_plan_t& p, const backend_t& backend,
                               const tls_identity_t& tls) {
  node_role_config_t r;
  r.name = p.name;
  r.timeline_node = p.index;
  r.synth = p.synth;
  r.prover = p.prover;
  r.cores = p.cores;
  r.memory_budget = p.memory_budget;
  r.hot_keys = p.hot_keys;
  r.backend = backend.name;
  r.accelerators = backend.accelerators();
  r.report_period = p.report_period;
  r.data_listen = p.data_listen;
  r.data_options.io_threads = p.receive.io_threads;
  r.data_options.io_timeout = p.receive.io_timeout;
  r.data_options.idle_timeout = p.receive.idle_timeout;
  r.data_options.frame_timeout = p.receive.frame_timeout;
  r.data_options.max_payload_bytes = p.receive.max_payload;
  r.send_options.connect_timeout = p.send.connect_timeout;
  r.send_options.io_timeout = p.send.io_timeout;
  r.send_options.max_attempts = p.send.max_attempts;
  r.send_streams = p.send_streams;
  if (tls.enabled()) {  // the data plane with the node's own certificate, both directions
    const net::tls_files_t files{tls.cert, tls.key, tls.ca};
    r.data_options.tls = files;
    r.send_options.tls = files;
  }
  return r;
}

// Every actor this node spawned is told to exit when the node's scope ends, a start-up error
// included (a circuit the scheduler refuses, a port in use): the actor system's destructor waits
// for its actors, so one left running would hang the node before its error is logged.
struct own_actors_t {
  std::vector<std::pair<caf::actor, std::string>> all;  // dynamically typed views, and what each is
  template <class Handle>
  void add(const Handle& h, const std::string& what) {
    if (h) all.emplace_back(caf::actor_cast<caf::actor>(h), what);
  }
  ~own_actors_t() {
    for (auto& h : all) caf::anon_send_exit(h.first, caf::exit_reason::user_shutdown);
  }
};

// Watches the node's own actors and the scheduler it joined: once one of them is gone (an actor
// that failed, the connection to the scheduler lost) the node no longer serves the cluster and
// stops, saying why, so that nobody counts it as part of the cluster — `zkfleet up` included,
// which sees its process exit.
class watch_t {
 public:
  watch_t(caf::actor_system& sys, std::vector<std::pair<caf::actor, std::string>> targets)
      : state_(std::make_shared<state_t>()) {
    auto st = state_;
    watcher_ = sys.spawn([st, targets, &sys](caf::event_based_actor* self) -> caf::behavior {
      for (const auto& t : targets) self->monitor(t.first);
      self->set_down_handler([st, targets, &sys](caf::down_msg& m) {
        std::string what = "an actor of the node";
        for (const auto& t : targets)
          if (t.first.address() == m.source) what = t.second;
        std::lock_guard<std::mutex> lock(st->mu);
        if (st->why.empty()) st->why = what + " is gone (" + sys.render(m.reason) + ")";
      });
      return {[](const std::string&) {}};  // nothing to answer: it only hears down messages
    });
  }
  ~watch_t() { caf::anon_send_exit(watcher_, caf::exit_reason::user_shutdown); }
  // Why the node cannot go on; empty while everything it watches is there.
  std::string gone() const {
    std::lock_guard<std::mutex> lock(state_->mu);
    return state_->why;
  }

 private:
  struct state_t {
    mutable std::mutex mu;
    std::string why;
  };
  std::shared_ptr<state_t> state_;
  caf::actor watcher_;
};

// The scheduler's sessions: with certificates, logins are checked against the CA and the
// scheduler signs its hellos with its node's key; insecure, they are taken at their word.
std::shared_ptr<node::sessions_t> make_sessions(const tls_identity_t& tls) {
  if (!tls.enabled()) return std::make_shared<node::sessions_t>(std::nullopt, std::nullopt);
  return std::make_shared<node::sessions_t>(security::verifier_t(tls.ca),
                                            security::signer_t(tls.cert, tls.key));
}

scheduler_limits_t limits_of(const config::scheduler_t& s) {
  return {s.max_partitions, s.max_queued_jobs, s.retention, s.input_roots};
}

int run_node(const config::config_t& c, const config::node_plan_t& plan) {
  catch_stop_signals();
  // The prover's backend outlives the actor system that uses its hooks (declared first).
  backend_t backend;
  if (plan.prover)
    backend = choose_backend(config::backend_name(plan.prover_backend), {plan.gpus, plan.vram});
  middleman_system_t s(tls_identity(c, security::role_t::node, plan.name));
  if (c.security.insecure) log::warn("security.insecure: no TLS, identities taken at their word");
  auto& sys = *s.sys;
  std::string token;  // this node's session at the scheduler
  own_actors_t own;
  std::unique_ptr<metrics_server_t> metrics;  // destroyed before the actor system
  scheduler_actor scheduler;
  timeline_actor aggregator;
  if (plan.scheduler) {
    aggregator = sys.spawn(timeline_aggregator);
    auto rec = std::make_shared<timeline::recorder_t>(plan.scheduler_timeline);
    auto sessions = make_sessions(s.tls);
    std::vector<node::circuit_def_t> circuits;
    for (const auto& circuit : c.circuits) {
      circuits.push_back(describe(circuit, c.scheduler.default_priority));
      if (auto why = check_circuit(circuits.back()))
        throw std::runtime_error("circuit " + circuit.id + ": " + *why);
    }
    scheduler = sys.spawn(
        actors::scheduler,
        scheduler_config_t{c.scheduler.lookahead, c.scheduler.max_attempts, rec, 0, aggregator,
                           std::move(circuits), sessions, limits_of(c.scheduler)});
    token = sessions->add({security::role_t::node, plan.name});
    own.add(scheduler, "its scheduler");
    own.add(aggregator, "its timeline aggregator");
    own.add(
        sys.spawn(
            timeline_reporter,
            reporter_config_t{
                plan.scheduler_timeline, plan.scheduler_name, {{0, "scheduler"}}, rec, aggregator}),
        "its scheduler's timeline reporter");
    auto port = s.publish(scheduler, plan.publish);
    if (!port)
      throw std::runtime_error("cannot publish the scheduler on " + plan.publish.str() + ": " +
                               sys.render(port.error()));
    if (c.scheduler.metrics) {
      metrics = std::make_unique<metrics_server_t>(
          sys, scheduler, sessions->add({security::role_t::client, "admin"}), aggregator,
          c.scheduler.metrics->host, c.scheduler.metrics->port);
      log::info("zkfleet node " + plan.name + ": metrics at http://" + c.scheduler.metrics->host +
                ":" + std::to_string(metrics->port()) + "/metrics");
    }
  } else {
    auto link = connect_node(s, c, 30s, [](const std::string& why) { log::info(why); });
    scheduler = link.scheduler;
    aggregator = link.aggregator;
    token = link.token;
  }
  node_handles_t n;  // holds the node's stores and data server while it runs
  if (plan.joins()) {
    auto rc = role_config(plan, backend, s.tls);
    synth_local_t local{c.scheduler.input_roots, {}};  // from this node's file, not the dispatch
    for (const auto& circuit : c.circuits)
      local.witness_generators[circuit.id] = circuit.witness_generator;
    rc.local = std::move(local);
    n = spawn_node(sys, rc, scheduler, aggregator, std::make_shared<node::buffer_directory_t>(),
                   token);
    own.add(n.synthesizer, "its synthesizer");
    own.add(n.prover, "its prover");
    own.add(n.reporter, "its timeline reporter");
  }
  auto watched = own.all;
  if (!plan.scheduler)
    watched.emplace_back(caf::actor_cast<caf::actor>(scheduler),
                         "the scheduler at " + c.scheduler.endpoint.str());
  const watch_t watch(sys, std::move(watched));
  log::info("zkfleet node " + plan.name + " ready (scheduler at " + c.scheduler.endpoint.str() +
            ")");
  std::string why;
  while (!stop_requested() && (why = watch.gone()).empty()) std::this_thread::sleep_for(100ms);
  if (stop_requested()) why.clear();  // told to stop: what goes down now is the node's own shutdown
  metrics.reset();
  if (plan.scheduler) sys.middleman().unpublish(scheduler, 0);
  if (!why.empty()) {
    log::error("zkfleet node " + plan.name + " stops: " + why);
    return 1;
  }
  log::info("zkfleet node " + plan.name + " stopped");
  return 0;
}

}  // namespace

void add_node_command(CLI::App& root, commands_t& out) {
  CLI::App* app = add_command(root, "node",
                              "One node of a cluster's config: the actors of its roles (scheduler, "
                              "synth, prover); runs until SIGINT/SIGTERM");
  const opt_t config = add_value(app, "--config", "FILE", "the cluster's config file (required)");
  const opt_t node =
      add_value(app, "--node", "NAME", "the node of the file to run (not needed when it has one)");
  const opt_t level = add_log_level(app);
  command_t c;
  c.app = app;
  c.run = [=] {
    if (!config.given()) throw usage_error("--config FILE is required");
    const log::level_t threshold = log_level(level);
    const std::string name = node.one();
    log::init(name.empty() ? "zkfleet" : name, threshold);  // before anything else logs
    try {
      const auto cfg = config::load_config(config.one());
      refuse_model(cfg);
      const config::node_plan_t plan = config::plan_node(cfg, name);
      if (plan.name != name) log::init(plan.name, threshold);  // the file's only node
      return run_node(cfg, plan);
    } catch (const std::exception& e) {
      log::error(e.what());
      return 1;
    }
  };
  out.push_back(std::move(c));
}

}  // namespace zk::apps
