// zkfleet node --config F [--node NAME] [--log-level LEVEL]: one node of F, its roles' actors.
// The scheduler role opens the journal (scheduler.journal), publishes the scheduler on
// scheduler.endpoint (CAF middleman) and serves scheduler.http and Curio's gRPC (scheduler.grpc,
// scheduler.grpc_tls: apps/cuzk_api.hpp); the synth and prover roles join
// it there (remote_actor, retried up to 30 s) with the node's resources (common/config/roles.hpp:
// the plan of the node's entry). A node that loses its scheduler keeps running, reconnects with
// backoff and rejoins (rejoin below). Runs until SIGINT or SIGTERM. Its lines go through the log
// (common/util/log.hpp), named after the node.
#include <caf/io/all.hpp>
#include <chrono>
#include <filesystem>
#include <memory>
#include <mutex>
#include <thread>
#include <utility>

#include "actors/api_gateway.hpp"
#include "actors/node.hpp"
#include "apps/backend.hpp"
#include "apps/client.hpp"
#include "apps/cluster.hpp"
#include "apps/commands.hpp"
#include "apps/cuzk_api.hpp"
#include "common/config/roles.hpp"
#include "dashboard/assets.hpp"
#include "node/filecoin_job.hpp"
#include "node/filecoin_snap_job.hpp"
#include "node/scheduler/sessions.hpp"
#include "node/scheduler/uploads.hpp"
#include "zk/circuit/api.hpp"

namespace zk::apps {
namespace {

using namespace zk::actors;
using namespace std::chrono_literals;

node::circuit_def_t describe(const config::circuit_t& c, config::priority_t default_priority) {
  node::circuit_def_t d;
  if (c.kind == config::circuit_kind_t::filecoin_porep) {  // the circuit's shape, its .vk checked
    d = node::describe_filecoin_circuit(c.id, c.registered_proof, c.vk, "circuits." + c.id + ".vk",
                                        c.wire);
    d.link_prior_per_s = c.link_per_s;
  } else if (c.kind == config::circuit_kind_t::filecoin_snap) {
    d = node::describe_snap_circuit(c.id, c.registered_proof, c.vk, "circuits." + c.id + ".vk");
  } else if (c.kind == config::circuit_kind_t::porep_lite) {  // keyed here (or the cached key
                                                              // reused) before the scheduler
                                                              // takes jobs
    const char* name = config::circuit_kind_name(c.kind);
    d = node::describe_porep_lite_circuit(
        c.id, c.params, c.key_dir.empty() ? circuit::default_key_dir(name, c.params) : c.key_dir);
  } else {
    const bool abc = c.shape == config::shape_t::abc_witness ||
                     (c.shape == config::shape_t::automatic && !c.r1cs.empty());
    // The r1cs goes with either shape: synthesis checks every witness against it.
    d = node::describe_zkey_circuit(
        c.id, c.zkey, c.r1cs,
        abc ? buffer::synth_shape_t::abc_witness : buffer::synth_shape_t::witness_only);
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
  r.filecoin_params = p.filecoin_params;
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
    const net::tls_files_t files{tls.cert, tls.key, tls.ca, tls.revoked};
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

// Watches the node's own actors and the scheduler it joined. One of its own actors gone (one that
// failed) means the node no longer serves the cluster: it stops, saying why (`zkfleet up` restarts
// it). The scheduler gone (restarted, the connection lost, or silent past scheduler.node_timeout)
// means the node reconnects and rejoins; watch_scheduler then arms the watch on the new one.
class watch_t {
 public:
  watch_t(caf::actor_system& sys, std::vector<std::pair<caf::actor, std::string>> own)
      : state_(std::make_shared<state_t>()) {
    auto st = state_;
    watcher_ = sys.spawn([st, own, &sys](caf::event_based_actor* self) -> caf::behavior {
      for (const auto& t : own) self->monitor(t.first);
      self->set_down_handler([st, own, &sys](caf::down_msg& m) {
        std::lock_guard<std::mutex> lock(st->mu);
        if (m.source == st->scheduler) {
          if (st->scheduler_why.empty())
            st->scheduler_why = st->scheduler_what + " is gone (" + sys.render(m.reason) + ")";
          return;
        }
        for (const auto& t : own)
          if (t.first.address() == m.source && st->own_why.empty())
            st->own_why = t.second + " is gone (" + sys.render(m.reason) + ")";
      });
      return {[self](const caf::actor& a) { self->monitor(a); }};  // watch_scheduler's
    });
  }
  ~watch_t() { caf::anon_send_exit(watcher_, caf::exit_reason::user_shutdown); }

  void watch_scheduler(const caf::actor& a, const std::string& what) {
    {
      std::lock_guard<std::mutex> lock(state_->mu);
      state_->scheduler = a.address();
      state_->scheduler_what = what;
      state_->scheduler_why.clear();
    }
    caf::anon_send(watcher_, a);
  }
  // Why the node cannot go on; empty while its actors are there.
  std::string own_gone() const {
    std::lock_guard<std::mutex> lock(state_->mu);
    return state_->own_why;
  }
  // Why the node must rejoin; empty while the scheduler is there.
  std::string scheduler_gone() const {
    std::lock_guard<std::mutex> lock(state_->mu);
    return state_->scheduler_why;
  }

 private:
  struct state_t {
    mutable std::mutex mu;
    std::string own_why, scheduler_why, scheduler_what;
    caf::actor_addr scheduler;
  };
  std::shared_ptr<state_t> state_;
  caf::actor watcher_;
};

// Sleeps `d` in short steps; false when a stop was requested meanwhile.
bool pause_unless_stopped(std::chrono::milliseconds d) {
  for (auto end = std::chrono::steady_clock::now() + d; std::chrono::steady_clock::now() < end;) {
    if (stop_requested()) return false;
    std::this_thread::sleep_for(100ms);
  }
  return !stop_requested();
}

// The node's way back to its scheduler once it lost it: reconnect (backoff 1 s, doubling to 30 s),
// log in again, hand the new scheduler to the node's actors (they drop what they held for the old
// one: the scheduler has queued it again; the synthesizer answers the finished buffers it keeps)
// and join again under the node's name, naming those buffers (the scheduler sends their
// partitions back here instead of synthesizing them again, or has them freed). A join refused
// because the scheduler still lists the node's old connection is tried again with the backoff
// (it is dropped at scheduler.node_timeout at the latest). The new link; nullopt when a stop was
// requested first.
std::optional<scheduler_link_t> rejoin(middleman_system_t& s, const config::config_t& c,
                                       const node_handles_t& n, scheduler_slot_t& slot) {
  auto backoff = std::chrono::milliseconds(1000);
  for (unsigned attempt = 1; !stop_requested(); ++attempt) {
    try {
      s.drop_tunnels();  // the old connection's, if any
      auto link = connect_node(s, c, 5s, [](const std::string&) {});
      slot.set(link.scheduler, link.aggregator);
      node_join_msg join = n.join;
      if (n.synthesizer) {
        auto held =
            ask<std::vector<held_buffer_msg>>(*s.sys, n.synthesizer, 10s, rebind_atom::value);
        if (!held)
          throw std::runtime_error("the synthesizer did not rebind: " +
                                   actors::describe(held.error()));
        join.held = std::move(*held);
      }
      if (n.prover) caf::anon_send(n.prover, rebind_atom::value);
      if (n.reporter) caf::anon_send(n.reporter, rebind_atom::value);
      auto id = ask<uint32_t>(*s.sys, link.scheduler, 10s, join_atom::value, link.token, join);
      if (!id)
        throw std::runtime_error("the scheduler refused the join: " + actors::describe(id.error()));
      log::info("zkfleet node " + n.name + " rejoined the scheduler at " +
                c.scheduler.endpoint.str() + " (attempt " + std::to_string(attempt) + ")");
      return link;
    } catch (const std::exception& e) {
      log::info("rejoin attempt " + std::to_string(attempt) + " failed (" + e.what() +
                "); next in " + std::to_string(backoff.count() / 1000) + " s");
    }
    if (!pause_unless_stopped(backoff)) break;
    backoff = std::min<std::chrono::milliseconds>(backoff * 2, 30s);
  }
  return std::nullopt;
}

// The scheduler's sessions: with certificates, logins are checked against the CA and the
// scheduler signs its hellos with its node's key; insecure, they are taken at their word.
std::shared_ptr<node::sessions_t> make_sessions(const tls_identity_t& tls) {
  if (!tls.enabled()) return std::make_shared<node::sessions_t>(std::nullopt, std::nullopt);
  return std::make_shared<node::sessions_t>(security::verifier_t(tls.ca),
                                            security::signer_t(tls.cert, tls.key));
}

// The scheduler's journal (scheduler.journal; its folder made, owner-only, when missing), or
// none with `journal: off`.
std::shared_ptr<node::journal_t> open_journal(const config::scheduler_t& s) {
  if (s.journal.empty()) {
    log::warn("scheduler.journal is off: jobs and proofs do not survive a restart");
    return nullptr;
  }
  const auto dir = std::filesystem::path(s.journal).parent_path();
  std::error_code ec;
  if (!dir.empty() && !std::filesystem::exists(dir, ec)) {
    std::filesystem::create_directories(dir, ec);
    if (ec)
      throw std::runtime_error("scheduler.journal: cannot make the folder " + dir.string() + ": " +
                               ec.message());
    std::filesystem::permissions(dir, std::filesystem::perms::owner_all, ec);
  }
  return std::make_shared<node::journal_t>(
      s.journal, s.journal_sync_full ? node::journal_sync_t::full : node::journal_sync_t::normal);
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
  middleman_system_t s(tls_identity(c, security::role_t::node, plan.name), timing_of(c));
  if (c.security.insecure) log::warn("security.insecure: no TLS, identities taken at their word");
  auto& sys = *s.sys;
  std::string token;  // this node's session at the scheduler
  own_actors_t own;
  std::unique_ptr<node::api_server_t> http;  // destroyed before the actor system
  std::unique_ptr<cuzk_api_t> grpc;          // Curio's cuzk API (scheduler.grpc), likewise
  scheduler_actor scheduler;
  timeline_actor aggregator;
  std::shared_ptr<node::upload_store_t> uploads;  // the scheduler's store (node/scheduler/uploads)
  if (plan.scheduler) {
    aggregator = sys.spawn(timeline_aggregator);
    auto rec = std::make_shared<timeline::recorder_t>(plan.scheduler_timeline);
    auto sessions = make_sessions(s.tls);
    std::vector<node::circuit_def_t> circuits;
    for (const auto& circuit : c.circuits) {
      circuits.push_back(describe(circuit, c.scheduler.default_priority));
      if (check_t why = check_circuit(circuits.back()); !why)
        throw std::runtime_error("circuit " + circuit.id + ": " + why.reason());
    }
    scheduler_config_t sc;
    sc.lookahead = c.scheduler.lookahead;
    sc.max_attempts = c.scheduler.max_attempts;
    sc.recorder = rec;
    sc.aggregator = aggregator;
    sc.circuits = std::move(circuits);
    sc.sessions = sessions;
    sc.limits = limits_of(c.scheduler);
    sc.timing.placement_timeout = c.scheduler.placement_timeout;
    sc.timing.stage_timeout = c.scheduler.stage_timeout;
    sc.journal = open_journal(c.scheduler);
    // The store: where the HTTP API takes uploads, and wherever a filecoin-porep or -snap circuit
    // is configured (a job's partitions' inputs are written there at intake).
    const bool filecoin = std::any_of(c.circuits.begin(), c.circuits.end(), [](const auto& ci) {
      return config::uses_filecoin_params(ci.kind);
    });
    if (c.scheduler.http || filecoin) {
      uploads = std::make_shared<node::upload_store_t>(c.scheduler.uploads, c.scheduler.max_upload);
      sc.uploads = uploads;
      sc.upload_key = security::random_hex(32);  // this run's: its tickets are its dispatches'
    }
    const std::string upload_key = sc.upload_key;
    scheduler = sys.spawn(actors::scheduler, std::move(sc));
    token = sessions->add({security::role_t::node, plan.name});
    own.add(scheduler, "its scheduler");
    own.add(aggregator, "its timeline aggregator");
    own.add(sys.spawn(timeline_reporter, reporter_config_t{.node = plan.scheduler_timeline,
                                                           .name = plan.scheduler_name,
                                                           .tracks = {{0, "scheduler"}},
                                                           .recorder = rec,
                                                           .aggregator = aggregator,
                                                           .slot = nullptr}),
            "its scheduler's timeline reporter");
    auto port = s.publish(scheduler, plan.publish);
    if (!port)
      throw std::runtime_error("cannot publish the scheduler on " + plan.publish.str() + ": " +
                               sys.render(port.error()));
    if (c.scheduler.http) {
      node::api_options_t o;
      o.host = c.scheduler.http->host;
      o.port = c.scheduler.http->port;
      if (s.tls.enabled()) {
        o.tls = {s.tls.cert, s.tls.key, s.tls.ca, s.tls.revoked};
        o.tokens = std::make_shared<security::token_store_t>(c.security.certs_dir);
      }
      o.uploads = uploads;
      o.upload_key = upload_key;
      o.scheduler_node = plan.name;
      o.lookahead = c.scheduler.lookahead;
      o.assets = [](std::string_view path) -> std::optional<node::api_asset_t> {
        if (const auto* a = dashboard::find(path))
          return node::api_asset_t{std::string(a->content_type), a->bytes};
        return std::nullopt;
      };
      http = serve_api(sys, scheduler, aggregator, sessions, std::move(o));
      log::info("zkfleet node " + plan.name + ": HTTP API and dashboard at " + http->url() +
                "/ (metrics at " + http->url() + "/metrics)");
    }
    grpc = std::make_unique<cuzk_api_t>(sys, c, s.tls, scheduler, aggregator, sessions, uploads);
  } else {
    // The first join: a scheduler reached but lost or silent meanwhile is tried again (1 s
    // apart) for up to 60 s; anything else (a refused certificate, a config error) ends here.
    const auto join_end = std::chrono::steady_clock::now() + 60s;
    std::optional<scheduler_link_t> joined;
    while (!joined) {
      try {
        joined = connect_node(s, c, 30s, [](const std::string& why) { log::info(why); });
      } catch (const scheduler_lost_error& e) {
        if (std::chrono::steady_clock::now() >= join_end || !pause_unless_stopped(1s)) throw;
        log::info(std::string("joining again: ") + e.what());
      }
    }
    auto& link = *joined;
    scheduler = link.scheduler;
    aggregator = link.aggregator;
    token = link.token;
  }
  // A node of its own process rejoins its scheduler when it comes back (scheduler_slot.hpp).
  std::shared_ptr<scheduler_slot_t> slot;
  if (!plan.scheduler) slot = std::make_shared<scheduler_slot_t>(scheduler, aggregator);
  node_handles_t n;  // holds the node's stores and data server while it runs
  if (plan.joins()) {
    auto rc = role_config(plan, backend, s.tls);
    rc.slot = slot;
    rc.scheduler_store = uploads;  // beside the scheduler: its objects read here, not fetched
    synth_local_t local{c.scheduler.input_roots, {}, {}, {}};  // this node's file, not the dispatch
    for (const auto& circuit : c.circuits)
      local.witness_generators[circuit.id] = circuit.witness_generator;
    if (plan.synth && c.scheduler.http) {  // uploads come from the scheduler's HTTP endpoint
      local.uploads = std::make_shared<node::fetch_cache_t>(
          (std::filesystem::temp_directory_path() / ("zkfleet-inputs-" + plan.name)).string());
      local.fetch = [&c, tls = s.tls](const std::string& input, const std::string& ticket,
                                      const std::string& path) -> check_t {
        // Streamed into the file, bounded by scheduler.max_upload (what the scheduler takes);
        // an error answer stays small. The same rate as the scheduler's own deadline, 1 MiB/s.
        net::http_call_t call;
        call.target = "/v1/uploads/" + input.substr(std::string("upload:").size());
        call.headers = {{"X-Zkfleet-Ticket", ticket}};
        call.answer_file = path;
        call.max_answer_file = c.scheduler.max_upload;
        call.answer_file_bound = "scheduler.max_upload";
        call.max_answer = 64 << 10;
        call.timeout = std::chrono::seconds(60 + c.scheduler.max_upload / (uint64_t(1) << 20));
        const auto a = call_scheduler_http(c, tls, call);
        if (!a) return a.error();
        if (a->status != 200)
          return "the scheduler answered " + std::to_string(a->status) + ": " +
                 a->body.substr(0, 300);
        return {};
      };
    }
    rc.local = std::move(local);
    n = spawn_node(sys, rc, scheduler, aggregator, std::make_shared<node::buffer_directory_t>(),
                   token);
    own.add(n.synthesizer, "its synthesizer");
    own.add(n.prover, "its prover");
    own.add(n.reporter, "its timeline reporter");
  }
  watch_t watch(sys, own.all);
  const std::string scheduler_what = "the scheduler at " + c.scheduler.endpoint.str();
  if (!plan.scheduler)
    watch.watch_scheduler(caf::actor_cast<caf::actor>(scheduler), scheduler_what);
  log::info("zkfleet node " + plan.name + " ready (scheduler at " + c.scheduler.endpoint.str() +
            ")");
  std::string why;
  while (!stop_requested()) {
    if (!(why = watch.own_gone()).empty()) break;
    const std::string lost = watch.scheduler_gone();
    if (lost.empty()) {
      std::this_thread::sleep_for(100ms);
      continue;
    }
    if (!plan.joins()) {  // nothing of it to bring back (a node of no role)
      why = lost;
      break;
    }
    log::warn("zkfleet node " + plan.name + ": " + lost +
              "; reconnecting (its queued work is dropped, the scheduler queues it again; finished "
              "buffers are kept for it)");
    auto link = rejoin(s, c, n, *slot);
    if (!link) break;  // told to stop
    scheduler = link->scheduler;
    watch.watch_scheduler(caf::actor_cast<caf::actor>(scheduler), scheduler_what);
  }
  if (stop_requested()) why.clear();  // told to stop: what goes down now is the node's own shutdown
  grpc.reset();
  http.reset();
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
