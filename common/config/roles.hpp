#pragma once
// What a node's entry of the config makes it run: its roles with what each needs, as one plain
// struct (no CAF, no actor types). `zkfleet node` turns a plan into the actors' node configuration
// (actors::node_role_config_t) and the scheduler's; `zkfleet up` reads from the plans which nodes
// must have joined the scheduler before the cluster is ready.
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/config/config.hpp"

namespace zk::config {

struct node_plan_t {
  std::string name;
  uint16_t index = 0;  // the node's place in the file: its timeline node
  bool scheduler = false, synth = false, prover = false;

  // --- scheduler role ---
  endpoint_t publish;  // where the scheduler is published (listen.control)
  uint16_t scheduler_timeline =
      0;                       // the scheduler's own timeline node and its name: the node's own
  std::string scheduler_name;  // when it runs alone, else one past every node's, "<name>-scheduler"

  // --- synth and prover roles (they join the scheduler with these resources) ---
  unsigned cores = 1;          // resources.cores, auto resolved to the machine's hardware threads
  uint64_t memory_budget = 0;  // the buffer store's budget and the scheduler's account
  std::vector<std::string> hot_keys;
  // Prover role: each filecoin-porep circuit's .params on this host (node.filecoin_params).
  std::vector<std::pair<std::string, std::string>> filecoin_params;
  backend_t prover_backend = backend_t::automatic;  // the prover's backend and what it may use
  std::optional<unsigned> gpus;
  std::optional<uint64_t> vram;
  // The prover's data-plane endpoint, "host:port" (listen.data), where other processes' synthesis
  // nodes send buffers; empty for a node without the prover role.
  std::string data_listen;
  struct receive_t {  // the prover's data server
    unsigned io_threads = 1;
    std::chrono::milliseconds io_timeout{10000}, idle_timeout{60000}, frame_timeout{30000};
    uint64_t max_payload = 0;
  } receive;
  struct send_t {  // the synth role's sends to the provers
    std::chrono::milliseconds connect_timeout{5000}, io_timeout{10000};
    unsigned max_attempts = 4;
  } send;
  unsigned send_streams = 1;  // buffers in flight at once, each to its own prover
  std::chrono::milliseconds report_period{200};  // how often the timeline reporter sends its events

  // The node joins the scheduler (it has a synth or prover role): all but a scheduler alone.
  bool joins() const { return synth || prover; }
};

// The plan of the node named `name` (select_node's rules: empty picks the only one). Throws
// config_error for an unknown name.
node_plan_t plan_node(const config_t& config, const std::string& name);

// Every node's plan, in the file's order.
std::vector<node_plan_t> plan_nodes(const config_t& config);

// What the scheduler lists of a node that joined it (name, roles, whether it is still there):
// readiness is judged against the plans.
struct joined_node_t {
  std::string name;
  bool synth = false, prover = false;
  bool alive = true;
};

// The nodes of `config` that have not joined the scheduler yet with every role of their entry, as
// "name" or "name (prover)" (the roles still missing), given what the scheduler lists. A listed
// node that has left (alive false) does not count; the same name joined again alive does.
std::vector<std::string> not_joined(const config_t& config,
                                    const std::vector<joined_node_t>& joined);

}  // namespace zk::config
