// zkfleet simulate --config <file.yaml> [--trace events-file] [--rows N]
//
// SIMULATED WORKLOAD: runs the real scheduler policy against the farm modelled in the config's
// `simulation:` section (node groups, circuits with synthesis/prove durations and buffer sizes,
// job streams) and prints the outcome, the waterfall and the stats. When the circuits list
// wires (what crosses the link per partition, and the prover host's rebuild time), the farm runs
// once per wire and a last table sets each prover's busy fraction under each wire side by side.
// Nothing is proven; every line of output says so.
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include "apps/commands.hpp"
#include "common/buffer/buffer_store.hpp"
#include "common/config/config.hpp"
#include "common/timeline/render.hpp"
#include "node/scheduler/simulation.hpp"

namespace zk::apps {
namespace {

// The model of the config's farm with `wire` (a name of the circuits' wires; "" when they list
// none: today's buffer on the link).
node::sim_config_t to_sim(const config::config_t& cfg, const std::string& wire) {
  const auto& s = cfg.simulation;
  node::sim_config_t out;
  out.lookahead = cfg.scheduler.lookahead;  // one type: config's
  out.jitter = s.jitter;
  out.seed = s.seed;
  for (const auto& c : s.circuits) {
    node::sim_circuit_t sc{{c.id, c.buffer_size, c.prover_work}, c.synth_seconds, c.prove_seconds};
    for (const auto& w : c.wires)  // the config lists the same names for every wired circuit
      if (w.name == wire) sc.wire_bytes = w.bytes, sc.rebuild_seconds = w.rebuild_seconds;
    out.circuits.push_back(sc);
  }
  for (const auto& g : s.nodes)
    for (unsigned i = 1; i <= g.count; ++i) {
      node::sim_node_t n;
      n.spec.name = g.name_prefix + "-" + std::to_string(i);
      for (auto r : g.roles) {
        n.spec.synth |= r == config::node_role_t::synth;
        n.spec.prover |= r == config::node_role_t::prover;
      }
      n.spec.cores = g.cores;
      n.spec.memory_budget = g.memory_budget;
      n.spec.hot_keys.insert(g.hot_circuits.begin(), g.hot_circuits.end());
      n.uplink_bytes_per_s = double(g.uplink_per_s);
      out.nodes.push_back(n);
    }
  for (const auto& j : s.jobs)
    for (unsigned k = 0; k < j.count; ++k)
      out.jobs.push_back(
          {j.start_seconds + k * j.every_seconds, j.circuit, j.priority, j.partitions});
  return out;
}

// The wires the circuits list (the same names in each, the config checks), or one "" for none.
std::vector<std::string> wires_of(const config::simulation_t& s) {
  for (const auto& c : s.circuits)
    if (!c.wires.empty()) {
      std::vector<std::string> out;
      for (const auto& w : c.wires) out.push_back(w.name);
      return out;
    }
  return {""};
}

// One wire's line per circuit: what crosses the link and what the prover host adds.
void print_wire(const config::simulation_t& s, const std::string& wire) {
  for (const auto& c : s.circuits)
    for (const auto& w : c.wires)
      if (w.name == wire)
        std::printf(
            "SIMULATION wire %s: circuit %s ships %s a partition (%llu bytes), rebuilt on the "
            "prover host in %.2f s of one core; synthesis %.2f s a partition on one core, the GPU "
            "%.2f s\n",
            wire.c_str(), c.id.c_str(), buffer::format_bytes(w.bytes).c_str(),
            (unsigned long long)w.bytes, w.rebuild_seconds, c.synth_seconds, c.prove_seconds);
}

struct wire_run_t {
  std::string wire;
  double proofs_per_minute = 0;
  std::map<std::string, double> gpu_busy;  // prover track → busy fraction
  std::string bottleneck;
};

int run_simulate(const std::string& config_path, const std::string& trace_path, size_t rows) {
  if (config_path.empty())
    throw usage_error("simulate needs --config <file.yaml> with a simulation: section");
  auto cfg = config::load_config(config_path, {false});
  if (cfg.simulation.nodes.empty() || cfg.simulation.circuits.empty() ||
      cfg.simulation.jobs.empty())
    throw std::runtime_error(config_path +
                             ": simulation: needs nodes, circuits and jobs to simulate");
  const unsigned width = terminal_width();
  const std::vector<std::string> wires = wires_of(cfg.simulation);
  std::vector<wire_run_t> runs;
  int rc = 0;
  for (const std::string& wire : wires) {
    auto sim = to_sim(cfg, wire);
    auto r = node::run_simulation(sim);
    auto ev = r.timeline.events();
    const std::string on = wire.empty() ? "" : ", wire " + wire;
    if (!runs.empty()) std::printf("\n");
    std::printf("SIMULATION (%s%s): %zu nodes, %zu jobs, nothing proven\n", config_path.c_str(),
                on.c_str(), sim.nodes.size(), sim.jobs.size());
    print_wire(cfg.simulation, wire);
    std::printf(
        "SIMULATION: %llu partitions in %.1f s simulated: %.1f proofs/min; budgets %s; lookahead "
        "%s\n",
        (unsigned long long)r.proofs, r.makespan_s, r.proofs_per_minute,
        r.budget_exceeded ? "EXCEEDED" : "never exceeded",
        r.max_pipeline_over_lookahead ? "EXCEEDED" : "honoured");
    for (const auto& why : r.refused) std::printf("SIMULATION: REFUSED %s\n", why.c_str());
    std::printf("\nSIMULATION waterfall:\n%s\n",
                timeline::render_ascii(ev, r.timeline.names(), width, rows).c_str());
    const timeline::stats_t st =
        timeline::compute_stats(ev, r.timeline.names(), cfg.scheduler.lookahead);
    std::printf("SIMULATION stats:\n%s", timeline::render_stats(st).c_str());
    if (!trace_path.empty()) {
      const std::string path = wires.size() > 1 ? trace_path + "." + wire : trace_path;
      r.timeline.save(path);
      std::printf("SIMULATION events saved to %s\n", path.c_str());
    }
    wire_run_t run{wire, r.proofs_per_minute, {}, st.verdict.substr(0, st.verdict.find(':'))};
    for (const auto& t : st.tracks)
      if (t.role == "prover") run.gpu_busy[t.name] = t.busy_fraction;
    runs.push_back(run);
    if (r.budget_exceeded || !r.refused.empty()) rc = 1;
  }
  if (runs.size() > 1) {  // each prover's busy fraction under each wire
    std::printf("\nSIMULATION: the provers' busy fraction by wire\n%-28s", "prover");
    for (const auto& run : runs) std::printf(" %14s", run.wire.c_str());
    std::printf("\n");
    for (const auto& [track, busy] : runs.front().gpu_busy) {
      std::printf("%-28s", track.c_str());
      for (const auto& run : runs) {
        auto it = run.gpu_busy.find(track);
        std::printf(" %13.1f%%", it == run.gpu_busy.end() ? 0.0 : it->second * 100);
      }
      std::printf("\n");
    }
    std::printf("%-28s", "proofs/min");
    for (const auto& run : runs) std::printf(" %14.1f", run.proofs_per_minute);
    std::printf("\n%-28s", "bound");
    for (const auto& run : runs) std::printf(" %14s", run.bottleneck.c_str());
    std::printf("\n");
  }
  return rc;
}

}  // namespace

void add_simulate_command(CLI::App& root, commands_t& out) {
  CLI::App* app =
      add_command(root, "simulate",
                  "A SIMULATED farm (the config's simulation: section) through the real scheduler "
                  "policy; nothing is proven");
  const opt_t config =
      add_value(app, "--config", "FILE", "the config with a simulation: section (required)");
  const opt_t trace =
      add_value(app, "--trace", "FILE", "save the simulated events (for zkfleet timeline)");
  const opt_t rows = add_value(app, "--rows", "N", "rows of the waterfall (default 40)");
  command_t c;
  c.app = app;
  c.run = [=] {
    return run_simulate(config.one(), trace.one(), parse_uint_arg("--rows", rows.one("40")));
  };
  out.push_back(std::move(c));
}

}  // namespace zk::apps
