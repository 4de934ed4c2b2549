#include "actors/node.hpp"

#include <algorithm>
#include <filesystem>
#include <stdexcept>

#include "common/util/log.hpp"
#include "node/filecoin_job.hpp"

namespace zk::actors {

// --- nodes -----------------------------------------------------------------------------------

namespace {

// The circuits named hot for a prover, among the scheduler's. Throws naming an id it does not know.
std::vector<circuit_def_t> hot_circuits(const node_role_config_t& cfg,
                                        const std::vector<circuit_def_t>& all) {
  if (!cfg.prover) return {};
  std::vector<circuit_def_t> out;
  for (const auto& id : cfg.hot_keys) {
    auto it =
        std::find_if(all.begin(), all.end(), [&](const circuit_def_t& c) { return c.id == id; });
    if (it == all.end())
      throw std::runtime_error("node " + cfg.name + ": hot circuit '" + id +
                               "' is not a circuit of the scheduler");
    out.push_back(*it);
  }
  return out;
}

// A prover's Filecoin parameters: resident from its start, so they come out of its memory budget
// before anything else (their file's size: the bases decoded for the MSMs take about as much);
// their sizes go into the join (the scheduler gives a size back to the budget while those
// parameters are released, EvictSRS). Throws naming the node and the key when a file is missing
// or they leave nothing for work.
uint64_t resident_params_bytes(const node_role_config_t& cfg, node_resources_msg& join) {
  uint64_t sum = 0;
  for (const auto& [id, path] : cfg.filecoin_params) {
    std::error_code ec;
    const uint64_t size = std::filesystem::file_size(path, ec);
    if (ec)
      throw std::runtime_error("node " + cfg.name + ": filecoin_params." + id + ": " + path +
                               " cannot be read: " + ec.message());
    sum += size;
    join.param_circuits.push_back(id);
    join.param_bytes.push_back(size);
  }
  if (sum && sum >= cfg.memory_budget)
    throw std::runtime_error("node " + cfg.name + ": resources.memory_budget (" +
                             buffer::format_bytes(cfg.memory_budget) +
                             ") does not hold its filecoin_params (" + buffer::format_bytes(sum) +
                             " resident): raise it or map fewer parameters");
  return sum;
}

// The Filecoin circuits this prover has parameters for: proven here only, their keys loaded at
// start-up with the hot ones. Throws when one is not a circuit of the scheduler or one partition
// of it does not fit the budget left beside the parameters.
std::vector<circuit_def_t> filecoin_circuits(const node_role_config_t& cfg,
                                             const std::vector<circuit_def_t>& all,
                                             uint64_t budget) {
  std::vector<circuit_def_t> out;
  for (const auto& [id, path] : cfg.filecoin_params) {
    auto it =
        std::find_if(all.begin(), all.end(), [&](const circuit_def_t& c) { return c.id == id; });
    if (it == all.end() || !config::uses_filecoin_params(it->kind))
      throw std::runtime_error("node " + cfg.name + ": filecoin_params." + id +
                               ": not a filecoin-porep or filecoin-snap circuit of the scheduler");
    if (it->buffer_bytes + it->prover_work_bytes > budget)
      throw std::runtime_error("node " + cfg.name + ": resources.memory_budget (" +
                               buffer::format_bytes(cfg.memory_budget) +
                               ") holds the filecoin_params but not one " + "partition of '" + id +
                               "' beside them (buffer " + buffer::format_bytes(it->buffer_bytes) +
                               " + work " + buffer::format_bytes(it->prover_work_bytes) + ", " +
                               buffer::format_bytes(budget) + " left)");
    out.push_back(*it);
  }
  return out;
}

// How long a buffer stays in a node's pool, idle, before its memory is freed.
constexpr std::chrono::milliseconds idle_buffer_release{10000};

}  // namespace

node_handles_t spawn_node(caf::actor_system& sys, const node_role_config_t& cfg,
                          const scheduler_actor& scheduler, const timeline_actor& aggregator,
                          const std::shared_ptr<node::buffer_directory_t>& directory,
                          const std::string& token, std::chrono::milliseconds timeout) {
  node_handles_t n;
  n.name = cfg.name;
  n.recorder = std::make_shared<timeline::recorder_t>(cfg.timeline_node);
  node::node_tracks_t tracks;
  if (cfg.synth)
    tracks.workers = std::max(1u, cfg.cores), tracks.streams = std::max(1u, cfg.send_streams);
  tracks.prover = cfg.prover;
  tracks.cpu_stages_apart = cfg.prover && cfg.backend != "cpu";
  node_join_msg join;
  join.resources.name = cfg.name;
  join.resources.cores = cfg.cores;
  // A prover's resident Filecoin parameters are not the scheduler's to hand out.
  const uint64_t resident = cfg.prover ? resident_params_bytes(cfg, join.resources) : 0;
  const uint64_t budget = cfg.memory_budget - resident;
  join.resources.memory_budget = budget;
  auto endpoint = net::data_endpoint_t::local(cfg.name);
  if (!cfg.data_listen.empty()) {
    auto ep = net::data_endpoint_t::parse("tcp:" + cfg.data_listen);
    if (!ep)
      throw std::runtime_error("node " + cfg.name + ": data endpoint '" + cfg.data_listen +
                               "' is not host:port");
    endpoint = *ep;
  }
  if (cfg.prover && endpoint.is_tcp()) {
    // The whole budget: the scheduler's reservations bound what it holds, and they grow into the
    // parameters' share while those are released (EvictSRS).
    n.prover_store = std::make_shared<buffer::buffer_store_t>(cfg.memory_budget);
    net::server_options_t so = cfg.data_options;
    so.address = endpoint.host;
    so.port = endpoint.port;
    // Only transfers the scheduler dispatched here are taken: it signs each with this key.
    so.transfer_key = net::make_transfer_key();
    join.resources.transfer_key.assign(so.transfer_key->begin(), so.transfer_key->end());
    n.data_server = std::make_shared<net::data_server_t>(
        *n.prover_store, so, [](const net::received_t&) {},
        [](const net::rejected_t& r) {
          log::warn(std::string("data plane: buffer refused (") +
                    net::reject_reason_name(r.reason) + "): " + r.message);
        });
    endpoint.port =
        n.data_server->port();  // port 0 asks for an ephemeral port: announce the one bound
    directory->add(endpoint.str(), n.prover_store);
  }
  join.resources.data_endpoint = endpoint.str();
  auto circuits =
      ask<std::vector<circuit_def_t>>(sys, scheduler, timeout, circuits_atom::value, token);
  if (!circuits)
    throw std::runtime_error("node " + cfg.name + ": the scheduler did not list its circuits: " +
                             describe(circuits.error()));
  auto hot = hot_circuits(cfg, *circuits);
  if (cfg.prover)
    for (auto& c : filecoin_circuits(cfg, *circuits, budget))
      if (std::none_of(hot.begin(), hot.end(),
                       [&](const circuit_def_t& h) { return h.id == c.id; }))
        hot.push_back(std::move(c));
  if (cfg.synth) {
    // The whole budget, as the prover's store: the scheduler's reservations bound it.
    n.store = std::make_shared<buffer::buffer_store_t>(cfg.memory_budget);
    // With a prover beside it, the prover's store answers for the data endpoint; this store is
    // reached in-process under "local:<node>" (buffers for that prover never leave it).
    const std::string own = cfg.prover && endpoint.is_tcp() ? endpoint.str() : "";
    const std::string local =
        own.empty() ? endpoint.str() : net::data_endpoint_t::local(cfg.name).str();
    directory->add(local, n.store);
    synthesizer_config_t sc{local, n.store,          scheduler, n.recorder, tracks,
                            own,   cfg.send_options, cfg.local, cfg.slot,   cfg.scheduler_store};
    n.synthesizer = sys.spawn(synthesizer, sc);
    join.synthesizer = n.synthesizer;
  }
  if (cfg.prover) {
    prover_config_t pc{directory, endpoint.str(),     scheduler, n.recorder,
                       tracks,    cfg.accelerators,   hot,       {},
                       cfg.slot,  cfg.filecoin_params};
    if (n.data_server)
      pc.claim = [server = n.data_server](uint64_t id) { return server->claim(id); };
    n.prover = sys.spawn(prover, pc);
    join.prover = n.prover;
    join.resources.backend = cfg.backend;
  }
  std::vector<track_name_msg> names;
  for (auto& [id, name] : tracks.names(cfg.backend)) names.push_back({id, std::move(name)});
  reporter_config_t rc{.node = cfg.timeline_node,
                       .name = cfg.name,
                       .tracks = std::move(names),
                       .recorder = n.recorder,
                       .aggregator = aggregator,
                       .period = cfg.report_period,
                       .slot = cfg.slot};
  n.reporter = sys.spawn(timeline_reporter, std::move(rc));
  auto stop_all = [&] {
    if (n.synthesizer) caf::anon_send_exit(n.synthesizer, caf::exit_reason::user_shutdown);
    if (n.prover) caf::anon_send_exit(n.prover, caf::exit_reason::user_shutdown);
    if (n.reporter) caf::anon_send_exit(n.reporter, caf::exit_reason::user_shutdown);
  };
  if (n.prover) {  // the join names the keys actually resident, once the worker has mapped them
    auto loaded = ask<std::vector<std::string>>(
        sys, n.prover, std::max(timeout, std::chrono::milliseconds(600000)), loaded_atom::value);
    if (!loaded) {
      stop_all();
      throw std::runtime_error("node " + cfg.name +
                               ": its prover did not load its keys: " + describe(loaded.error()));
    }
    for (const auto& [id, path] : cfg.filecoin_params)  // resident, or the node does not start
      if (std::find(loaded->begin(), loaded->end(), id) == loaded->end()) {
        stop_all();
        throw std::runtime_error("node " + cfg.name + ": filecoin_params." + id + ": " + path +
                                 " could not be mapped for circuit '" + id +
                                 "' (its log says why)");
      }
    join.resources.hot_keys = *loaded;
    // The packed wire's structures stay resident beside the keys: out of the budget too.
    uint64_t structures = 0;
    for (const auto& [id, path] : cfg.filecoin_params)
      for (const circuit_def_t& c : *circuits)
        if (c.id == id) structures += node::prover_resident_bytes(c);
    if (structures >= join.resources.memory_budget) {
      stop_all();
      throw std::runtime_error("node " + cfg.name + ": resources.memory_budget (" +
                               buffer::format_bytes(cfg.memory_budget) +
                               ") does not hold its filecoin_params and the packed wire's " +
                               "circuit structures (" + buffer::format_bytes(structures) + ")");
    }
    join.resources.memory_budget -= structures;
  }
  auto id = ask<uint32_t>(sys, scheduler, timeout, join_atom::value, token, join);
  if (!id) {
    stop_all();
    throw std::runtime_error("node " + cfg.name +
                             " could not join the scheduler: " + describe(id.error()));
  }
  n.id = *id;
  n.join = join;
  // Memory matches what the scheduler has reserved on the node: nothing is allocated ahead (no
  // buffer prewarmed at start), and a buffer idle in a store's pool for longer than
  // idle_buffer_release is freed. A node that works reuses its buffers from one partition to the
  // next (fresh pages are slow to touch); an idle node holds none.
  for (const auto& s : {n.store, n.prover_store})
    if (s) s->release_idle_after(idle_buffer_release);
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
  sessions = std::make_shared<node::sessions_t>(std::nullopt, std::nullopt);
  admin = sessions->add({security::role_t::client, "admin"});
  for (const auto& c : cfg.circuits) {
    if (check_t why = check_circuit(c); !why) throw std::runtime_error(why.reason());
    if (config::uses_filecoin_params(c.kind) && !cfg.store)
      throw std::runtime_error("circuit '" + c.id + "' is " + config::circuit_kind_name(c.kind) +
                               ": the embedded cluster needs a store for its partitions' inputs "
                               "(cluster_config_t::store)");
  }
  scheduler_config_t sc;
  sc.lookahead = cfg.lookahead;
  sc.max_attempts = cfg.max_attempts;
  sc.recorder = scheduler_recorder;
  sc.aggregator = aggregator;
  sc.circuits = cfg.circuits;
  sc.sessions = sessions;
  sc.limits = cfg.limits;
  sc.timing = cfg.timing;
  sc.journal = cfg.journal;
  sc.uploads = cfg.store;
  scheduler = sys.spawn(actors::scheduler, std::move(sc));
  scheduler_reporter =
      sys.spawn(timeline_reporter, reporter_config_t{.node = 0,
                                                     .name = "scheduler",
                                                     .tracks = {{0, "scheduler"}},
                                                     .recorder = scheduler_recorder,
                                                     .aggregator = aggregator,
                                                     .period = cfg.report_period,
                                                     .slot = nullptr});
  for (unsigned i = 0; i < cfg.synth_nodes; ++i) {
    node_role_config_t n;
    n.name = "synth-" + std::to_string(i);
    n.timeline_node = uint16_t(1 + i);
    n.synth = true;
    n.cores = cfg.synth_cores;
    n.memory_budget = cfg.synth_budget;
    n.report_period = cfg.report_period;
    n.scheduler_store = cfg.store;
    synth_nodes.push_back(spawn_node(sys, n, scheduler, aggregator, directory,
                                     sessions->add({security::role_t::node, n.name})));
  }
  node_role_config_t p;
  p.name = "prover-0";
  p.timeline_node = uint16_t(1 + cfg.synth_nodes);
  p.prover = true;
  p.memory_budget = cfg.prover_budget;
  p.report_period = cfg.report_period;
  p.data_listen = cfg.prover_data_listen;
  p.filecoin_params = cfg.prover_filecoin_params;
  prover_node = spawn_node(sys, p, scheduler, aggregator, directory,
                           sessions->add({security::role_t::node, p.name}));
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
