#pragma once
// The subcommands of the zkfleet binary. Each file adds its commands to the root app (CLI11) and
// to the list main() dispatches from; a command's run returns the process exit status and throws
// usage_error for a malformed command line; any other exception is an input or runtime error.
#include "apps/cli.hpp"

namespace zk::apps {

// apps/cmd_groth16.cpp: prove, verify, setup (the file forms).
void add_groth16_commands(CLI::App& root, commands_t& out);
// apps/cmd_circuit.cpp: `setup --circuit …` and `prove --circuit …` (native circuits).
void add_circuit_commands(commands_t& out);
// apps/cmd_demo.cpp: demo (the embedded cluster).
void add_demo_command(CLI::App& root, commands_t& out);
// apps/cmd_timeline.cpp: timeline (a saved events file, or a running cluster's).
void add_timeline_command(CLI::App& root, commands_t& out);
// apps/cmd_simulate.cpp: simulate (a modelled farm through the real policy).
void add_simulate_command(CLI::App& root, commands_t& out);
// apps/cmd_node.cpp: node (one node of a config, its roles' actors).
void add_node_command(CLI::App& root, commands_t& out);
// apps/cmd_up.cpp: up (every node of a config as a process, supervised).
void add_up_command(CLI::App& root, commands_t& out);
// apps/cmd_client.cpp: down, submit, status, await, cancel (clients of a running cluster).
void add_client_commands(CLI::App& root, commands_t& out);
// apps/cmd_operator.cpp: jobs, drain, undrain, retry, priority (an operator's commands).
void add_operator_commands(CLI::App& root, commands_t& out);
// apps/cmd_certs.cpp: certs create-ca, create-node, create-client, list (the cluster's certs).
void add_certs_command(CLI::App& root, commands_t& out);
// apps/cmd_config.cpp: config check.
void add_config_command(CLI::App& root, commands_t& out);
// apps/cmd_filecoin.cpp: filecoin verify, derive, c1 (Filecoin PoRep; a table of subcommands).
void add_filecoin_command(CLI::App& root, commands_t& out);
// apps/cmd_gateway.cpp: gateway (a remote Curio's gRPC to the scheduler over mutual TLS).
void add_gateway_command(CLI::App& root, commands_t& out);

}  // namespace zk::apps
