#include "actors/node.hpp"

#include <cstdio>
#include <stdexcept>

namespace zk::actors {

// --- nodes -----------------------------------------------------------------------------------

node_handles_t spawn_node(caf::actor_system& sys, const node_role_config_t& cfg, const scheduler_actor& scheduler,
                          const timeline_actor& aggregator, const std::shared_ptr<node::buffer_directory_t>& directory,
                          std::chrono::milliseconds timeout) {
  node_handles_t n;
  n.name = cfg.name;
  n.recorder = std::make_shared<timeline::recorder_t>(cfg.timeline_node);
  std::vector<track_name_msg> tracks;
  node_join_msg join;
  join.resources.name = cfg.name;
  join.resources.cores = cfg.cores;
  join.resources.memory_budget = cfg.memory_budget;
  join.resources.hot_keys = cfg.hot_keys;
  join.resources.data_endpoint = cfg.data_listen.empty() ? "local:" + cfg.name : "tcp:" + cfg.data_listen;
  if (!cfg.data_listen.empty() && !parse_tcp_endpoint(join.resources.data_endpoint))
    throw std::runtime_error("node " + cfg.name + ": data endpoint '" + cfg.data_listen + "' is not host:port");
  if (cfg.prover && !cfg.data_listen.empty()) {
    auto ep = *parse_tcp_endpoint(join.resources.data_endpoint);
    n.prover_store = std::make_shared<buffer::buffer_store_t>(cfg.memory_budget);
    net::server_options_t so = cfg.data_options;
    so.address = ep.first;
    so.port = ep.second;
    const std::string name = cfg.name;
    n.data_server = std::make_shared<net::data_server_t>(
        *n.prover_store, so, [](const net::received_t&) {},
        [name](const net::rejected_t& r) { std::fprintf(stderr, "%s: data plane: %s\n", name.c_str(), r.message.c_str()); });
    // Port 0 asks for an ephemeral port: announce the one bound.
    join.resources.data_endpoint = "tcp:" + ep.first + ":" + std::to_string(n.data_server->port());
    directory->add(join.resources.data_endpoint, n.prover_store);
  }
  if (cfg.synth) {
    n.store = std::make_shared<buffer::buffer_store_t>(cfg.memory_budget);
    // With a prover beside it, the prover's store answers for the data endpoint; this store is
    // reached in-process under "local:<node>" (buffers for that prover never leave it).
    const std::string own = cfg.prover && !cfg.data_listen.empty() ? join.resources.data_endpoint : "";
    const std::string endpoint = own.empty() ? join.resources.data_endpoint : "local:" + cfg.name;
    directory->add(endpoint, n.store);
    const unsigned streams = std::max(1u, cfg.send_streams);
    synthesizer_config_t sc{endpoint, n.store, cfg.cores, scheduler, n.recorder, 0, own, cfg.send_options, streams};
    for (unsigned i = 0; i < cfg.cores; ++i) tracks.push_back({uint16_t(i), "synth worker " + std::to_string(i)});
    for (unsigned k = 0; k < streams; ++k)
      tracks.push_back({uint16_t(cfg.cores + k), streams == 1 ? std::string("send") : "send " + std::to_string(k)});
    n.synthesizer = sys.spawn(synthesizer, sc);
    join.synthesizer = n.synthesizer;
  }
  if (cfg.prover) {
    const uint16_t base = uint16_t(tracks.size());
    prover_config_t pc{directory, join.resources.data_endpoint, scheduler, n.recorder,
                       base, uint16_t(base + 1), uint16_t(base + 2), cfg.accelerators};
    tracks.push_back({base, "prover (" + cfg.backend + ")"});
    tracks.push_back({uint16_t(base + 1), "receive"});
    tracks.push_back({uint16_t(base + 2), "queue"});
    n.prover = sys.spawn(prover, pc);
    join.prover = n.prover;
    join.resources.backend = cfg.backend;
  }
  n.reporter = sys.spawn(timeline_reporter, reporter_config_t{cfg.timeline_node, cfg.name, tracks, n.recorder,
                                                              aggregator, cfg.report_period});
  auto id = ask<uint32_t>(sys, scheduler, timeout, join_atom::value, join);
  if (!id) {
    if (n.synthesizer) caf::anon_send_exit(n.synthesizer, caf::exit_reason::user_shutdown);
    if (n.prover) caf::anon_send_exit(n.prover, caf::exit_reason::user_shutdown);
    if (n.reporter) caf::anon_send_exit(n.reporter, caf::exit_reason::user_shutdown);
    throw std::runtime_error("node " + cfg.name + " could not join the scheduler: " + describe(id.error()));
  }
  n.id = *id;
  return n;
}

embedded_cluster_t::embedded_cluster_t(caf::actor_system& sys, const cluster_config_t& cfg)
    : directory(std::make_shared<node::buffer_directory_t>()) {
  try {
    start(sys, cfg);
  } catch (...) {
    stop();  // what was spawned ends, or the actor_system would wait for it forever
    throw;
  }
}

void embedded_cluster_t::start(caf::actor_system& sys, const cluster_config_t& cfg) {
  aggregator = sys.spawn(timeline_aggregator);
  scheduler_recorder = std::make_shared<timeline::recorder_t>(0);
  scheduler = sys.spawn(actors::scheduler,
                        scheduler_config_t{cfg.lookahead, cfg.max_attempts, scheduler_recorder, 0, aggregator});
  scheduler_reporter = sys.spawn(timeline_reporter, reporter_config_t{0, "scheduler", {{0, "scheduler"}},
                                                                       scheduler_recorder, aggregator, cfg.report_period});
  for (unsigned i = 0; i < cfg.synth_nodes; ++i) {
    node_role_config_t n;
    n.name = "synth-" + std::to_string(i);
    n.timeline_node = uint16_t(1 + i);
    n.synth = true;
    n.cores = cfg.synth_cores;
    n.memory_budget = cfg.synth_budget;
    n.report_period = cfg.report_period;
    synth_nodes.push_back(spawn_node(sys, n, scheduler, aggregator, directory));
  }
  node_role_config_t p;
  p.name = "prover-0";
  p.timeline_node = uint16_t(1 + cfg.synth_nodes);
  p.prover = true;
  p.memory_budget = cfg.prover_budget;
  p.report_period = cfg.report_period;
  p.data_listen = cfg.prover_data_listen;
  prover_node = spawn_node(sys, p, scheduler, aggregator, directory);
}

void embedded_cluster_t::stop() {
  auto down = [](auto& a) {
    if (a) caf::anon_send_exit(a, caf::exit_reason::user_shutdown);
    a = nullptr;
  };
  down(scheduler);
  for (auto& n : synth_nodes) down(n.synthesizer), down(n.reporter);
  down(prover_node.prover);
  down(prover_node.reporter);
  down(scheduler_reporter);
  down(aggregator);
}

embedded_cluster_t::~embedded_cluster_t() { stop(); }

}  // namespace zk::actors
