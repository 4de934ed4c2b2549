#include "common/config/roles.hpp"

#include <algorithm>
#include <thread>

namespace zk::config {
namespace {

node_plan_t plan_of(const config_t& c, const node_t& node, uint16_t index) {
  node_plan_t p;
  p.name = node.name;
  p.index = index;
  p.scheduler = node.has(node_role_t::scheduler);
  p.synth = node.has(node_role_t::synth);
  p.prover = node.has(node_role_t::prover);
  if (p.scheduler) {
    p.publish = node.control ? *node.control : c.scheduler.endpoint;
    // The scheduler reports as a timeline node of its own: with synth/prover roles beside it, the
    // node's reporter keeps the node's index and the scheduler takes one past every node's.
    const bool alone = !p.synth && !p.prover;
    p.scheduler_timeline = alone ? index : uint16_t(c.nodes.size() + index);
    p.scheduler_name = alone ? node.name : node.name + "-scheduler";
  }
  p.cores = node.resources.cores.value_or(std::max(1u, std::thread::hardware_concurrency()));
  p.memory_budget = node.resources.memory_budget;
  p.hot_keys = node.hot_circuits;
  p.filecoin_params = node.filecoin_params;
  p.prover_backend = node.resources.prover_backend;
  p.gpus = node.resources.gpus;
  p.vram = node.resources.vram;
  if (p.prover && node.data)
    p.data_listen = node.data->host + ":" + std::to_string(node.data->port);
  const data_plane_t& dp = node.data_plane;
  p.receive.io_threads = dp.io_threads;
  p.receive.io_timeout = dp.io_timeout;
  p.receive.idle_timeout = dp.idle_timeout;
  p.receive.frame_timeout = dp.frame_timeout;
  p.receive.max_payload = dp.max_payload;
  p.send.connect_timeout = dp.connect_timeout;
  p.send.io_timeout = dp.io_timeout;
  p.send.max_attempts = dp.max_attempts;
  p.send_streams = dp.send_streams;
  return p;
}

}  // namespace

node_plan_t plan_node(const config_t& config, const std::string& name) {
  const node_t& node = select_node(config, name);
  return plan_of(config, node, uint16_t(&node - config.nodes.data()));
}

std::vector<node_plan_t> plan_nodes(const config_t& config) {
  std::vector<node_plan_t> out;
  for (size_t i = 0; i < config.nodes.size(); ++i)
    out.push_back(plan_of(config, config.nodes[i], uint16_t(i)));
  return out;
}

std::vector<std::string> not_joined(const config_t& config,
                                    const std::vector<joined_node_t>& joined) {
  std::vector<std::string> out;
  for (const node_plan_t& p : plan_nodes(config)) {
    if (!p.joins()) continue;
    // The node as it is now: a name may be listed more than once (a node that left and came back);
    // only an entry still there counts, and it must hold every role of the plan.
    bool synth = false, prover = false, listed = false;
    for (const joined_node_t& j : joined) {
      if (j.name != p.name || !j.alive) continue;
      listed = true;
      synth = synth || j.synth;
      prover = prover || j.prover;
    }
    std::string missing;
    if (p.synth && !synth) missing = "synth";
    if (p.prover && !prover) missing += missing.empty() ? "prover" : ", prover";
    if (!listed)
      out.push_back(p.name);
    else if (!missing.empty())
      out.push_back(p.name + " (" + missing + ")");
  }
  return out;
}

}  // namespace zk::config
