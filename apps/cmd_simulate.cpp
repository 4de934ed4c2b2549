// zkfleet simulate --config <file.yaml> [--trace events-file] [--rows N]
//
// SIMULATED WORKLOAD: runs the real scheduler policy against the farm modelled in the config's
// `simulation:` section (node groups, circuits with synthesis/prove durations and buffer sizes,
// job streams) and prints the outcome, the waterfall and the stats. Nothing is proven; every
// line of output says so.
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "apps/commands.hpp"
#include "common/config/config.hpp"
#include "common/timeline/render.hpp"
#include "node/scheduler/simulation.hpp"

namespace zk::apps {
namespace {

node::sim_config_t to_sim(const config::config_t& cfg) {
  const auto& s = cfg.simulation;
  node::sim_config_t out;
  out.lookahead = cfg.scheduler.lookahead;  // one type: config's
  out.jitter = s.jitter;
  out.seed = s.seed;
  for (const auto& c : s.circuits)
    out.circuits.push_back(
        {{c.id, c.buffer_size, c.prover_work}, c.synth_seconds, c.prove_seconds});
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

int run_simulate(const std::string& config_path, const std::string& trace_path, size_t rows) {
  if (config_path.empty())
    throw usage_error("simulate needs --config <file.yaml> with a simulation: section");
  auto cfg = config::load_config(config_path, {false});
  if (cfg.simulation.nodes.empty() || cfg.simulation.circuits.empty() ||
      cfg.simulation.jobs.empty())
    throw std::runtime_error(config_path +
                             ": simulation: needs nodes, circuits and jobs to simulate");
  auto sim = to_sim(cfg);
  auto r = node::run_simulation(sim);
  auto ev = r.timeline.events();
  const unsigned width = terminal_width();
  std::printf("SIMULATION (%s): %zu nodes, %zu jobs, nothing proven\n", config_path.c_str(),
              sim.nodes.size(), sim.jobs.size());
  std::printf(
      "SIMULATION: %llu partitions in %.1f s simulated: %.1f proofs/min; budgets %s; lookahead "
      "%s\n",
      (unsigned long long)r.proofs, r.makespan_s, r.proofs_per_minute,
      r.budget_exceeded ? "EXCEEDED" : "never exceeded",
      r.max_pipeline_over_lookahead ? "EXCEEDED" : "honoured");
  for (const auto& why : r.refused) std::printf("SIMULATION: REFUSED %s\n", why.c_str());
  std::printf("\nSIMULATION waterfall:\n%s\n",
              timeline::render_ascii(ev, r.timeline.names(), width, rows).c_str());
  std::printf("SIMULATION stats:\n%s",
              timeline::render_stats(
                  timeline::compute_stats(ev, r.timeline.names(), cfg.scheduler.lookahead))
                  .c_str());
  if (!trace_path.empty()) {
    r.timeline.save(trace_path);
    std::printf("SIMULATION events saved to %s\n", trace_path.c_str());
  }
  return r.budget_exceeded || !r.refused.empty() ? 1 : 0;
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
