// zkfleet — the command line. One binary, subcommands (CLI11); each is a thin layer over common/,
// node/ and actors/. `zkfleet --help` lists them, `zkfleet <command> --help` shows one.
//
// `zkfleet --version`: the project's version (CMakeLists.txt) and, in a git checkout, what
// `git describe --always --dirty` said at configure time ("zkfleet 0.9.0 (f022e55-dirty)").
//
// Exit status: 0 success (verify: the proof is valid), 1 failure or invalid proof, 2 usage error.
#include <cstdio>
#include <cstring>
#include <exception>
#include <string>
#include <vector>

#include "apps/commands.hpp"
#include "zk_version.h"  // build/version, cmake/version.cmake

namespace {

using zk::apps::command_t;

const char* const k_footer =
    "Run `zkfleet <command> --help` for a command's options and arguments; `zkfleet setup "
    "--circuit NAME --help`\n"
    "and `zkfleet prove --circuit NAME --help` for the native circuit forms.\n"
    "\n"
    "exit status: 0 success (verify: proof valid), 1 failure or invalid proof, 2 usage error\n";

bool has_circuit_flag(int argc, char** argv) {
  for (int i = 2; i < argc; ++i)
    if (std::strcmp(argv[i], "--circuit") == 0 || std::strncmp(argv[i], "--circuit=", 10) == 0)
      return true;
  return false;
}

std::string command_names(const zk::apps::commands_t& cmds) {
  std::string s;
  for (const auto& c : cmds)
    if (!c.circuit_form) s += (s.empty() ? "" : ", ") + c.app->get_name();
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App root{
      "zkfleet — distributed Groth16 proving (circom/snarkjs compatible, BN254 and BLS12-381)",
      "zkfleet"};
  root.formatter(zk::apps::formatter());
  root.require_subcommand(1);
  zk::apps::commands_t cmds;
  zk::apps::add_groth16_commands(root, cmds);
  zk::apps::add_circuit_commands(cmds);
  zk::apps::add_demo_command(root, cmds);
  zk::apps::add_timeline_command(root, cmds);
  zk::apps::add_simulate_command(root, cmds);
  zk::apps::add_node_command(root, cmds);
  zk::apps::add_up_command(root, cmds);
  zk::apps::add_client_commands(root, cmds);
  zk::apps::add_operator_commands(root, cmds);
  zk::apps::add_certs_command(root, cmds);
  zk::apps::add_config_command(root, cmds);
  zk::apps::add_filecoin_command(root, cmds);
  zk::apps::add_gateway_command(root, cmds);
  root.footer(
      k_footer);  // after the commands: a subcommand takes its parent's footer when it is made

  const std::string name = argc >= 2 ? argv[1] : "";
  if (name == "--version" || name == "version") {
    std::printf("zkfleet %s\n", ZK_VERSION);
    return 0;
  }
  if (name == "--help" || name == "-h" || name == "help") {
    std::fputs(root.help().c_str(), stdout);
    return 0;
  }
  if (argc < 2) {
    std::fputs(root.help().c_str(), stderr);
    return 2;
  }
  // The command: by its word; setup and prove have a second form, chosen by --circuit.
  const bool circuit = has_circuit_flag(argc, argv);
  command_t* cmd = nullptr;
  for (auto& c : cmds)
    if (c.app->get_name() == (c.circuit_form ? "zkfleet " + name : name) &&
        c.circuit_form == circuit)
      cmd = &c;
  if (!cmd && circuit)  // no --circuit form: the command's only one (it refuses --circuit itself)
    for (auto& c : cmds)
      if (!c.circuit_form && c.app->get_name() == name) cmd = &c;
  if (!cmd) {
    std::fprintf(
        stderr,
        "zkfleet: unknown command '%s' (the commands: %s)\nRun `zkfleet --help` for more.\n",
        name.c_str(), command_names(cmds).c_str());
    return 2;
  }
  try {
    try {
      if (cmd->own)
        cmd->app->parse(argc - 1, argv + 1);  // argv[1], the command's word, as its name
      else
        root.parse(argc, argv);
    } catch (const CLI::CallForHelp&) {
      std::fputs(zk::apps::command_help(*cmd).c_str(), stdout);
      return 0;
    } catch (const CLI::CallForAllHelp&) {
      std::fputs(zk::apps::command_help(*cmd).c_str(), stdout);
      return 0;
    } catch (const CLI::ParseError& e) {
      throw zk::apps::usage_error(zk::apps::describe_parse_error(*cmd, e));
    }
    zk::apps::finish_parse(*cmd);
    return cmd->run();
  } catch (const zk::apps::usage_error& e) {
    std::fprintf(stderr, "zkfleet %s: %s\n%sRun `zkfleet %s --help` for its options.\n",
                 name.c_str(), e.what(), zk::apps::usage_line(*cmd).c_str(), name.c_str());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "zkfleet %s: error: %s\n", name.c_str(), e.what());
    return 1;
  }
}
