// zkfleet — the command line. One binary, subcommands; each is a thin layer over common/.
//
//   zkfleet prove  <circuit.zkey> <witness.wtns> <proof.json> <public.json>   (rapidsnark's CLI)
//   zkfleet verify <verification_key.json> <public.json> <proof.json>         (snarkjs's order)
//   zkfleet setup  <circuit.r1cs> <circuit.zkey> <verification_key.json>      (development keys)
//   zkfleet demo   [fixtures-dir] [--trace events-file] [--lookahead N|auto] ...
//   zkfleet timeline [--format ascii|chrome|json|stats|prometheus] (<events-file> | --config F)
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <exception>
#include <filesystem>
#include <string>
#include <vector>

#include "apps/commands.hpp"

namespace {

void usage(FILE* out) {
  std::fprintf(out,
               "zkfleet — distributed Groth16 proving (circom/snarkjs compatible, BN254 and BLS12-381)\n"
               "\n"
               "usage:\n"
               "  zkfleet prove  <circuit.zkey> <witness.wtns> <proof.json> <public.json> [--verbose] [--no-verify] [--backend cpu|cuda|auto]\n"
               "  zkfleet verify <verification_key.json> <public.json> <proof.json>\n"
               "  zkfleet setup  <circuit.r1cs> <circuit.zkey> <verification_key.json> [--seed N]\n"
               "  zkfleet setup  --circuit porep-lite --params curve=bn254,challenges=2,depth=8 --out DIR [--seed N]\n"
               "  zkfleet prove  --circuit porep-lite --params ... --partition K --key DIR <proof.json> <public.json> [--verbose]\n"
               "  zkfleet demo   [fixtures-dir] [--trace events-file] [--lookahead N|auto] [--synth-nodes N]\n"
               "                 [--porep curve=bn254,challenges=2,depth=16] [--porep-jobs N] [--partitions N] [--no-circom]\n"
               "  zkfleet timeline [--format ascii|chrome|json|stats|prometheus] [--save FILE] (<events-file> | --config <file.yaml>)\n"
               "  zkfleet simulate --config <file.yaml> [--trace events-file] [--rows N]   (SIMULATED farm)\n"
               "  zkfleet node   --config <file.yaml> [--node NAME]      one node of the cluster (its roles)\n"
               "  zkfleet up     --config <file.yaml>                    every node, one process each; down stops them\n"
               "  zkfleet down   --config <file.yaml>\n"
               "  zkfleet submit --config <file.yaml> --circuit ID [--input FILE]... [--partitions N] [--priority P]\n"
               "  zkfleet status --config <file.yaml> [JOB]              a job, or (no JOB) every node's memory\n"
               "  zkfleet cancel --config <file.yaml> JOB\n"
               "  zkfleet await  --config <file.yaml> JOB [--out DIR] [--timeout SECONDS]\n"
               "\n"
               "exit status: 0 success (verify: proof valid), 1 failure or invalid proof, 2 usage error\n");
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    usage(stderr);
    return 2;
  }
  std::string cmd = argv[1];
  std::vector<std::string> args(argv + 2, argv + argc);
  if (std::find(args.begin(), args.end(), "--help") != args.end() ||
      std::find(args.begin(), args.end(), "-h") != args.end()) {  // `zkfleet <cmd> --help`
    usage(stdout);
    return 0;
  }
  try {
    if (cmd == "prove") return zk::apps::has_circuit_flag(args) ? zk::apps::cmd_circuit_prove(args) : zk::apps::cmd_prove(args);
    if (cmd == "verify") return zk::apps::cmd_verify(args);
    if (cmd == "setup") return zk::apps::has_circuit_flag(args) ? zk::apps::cmd_circuit_setup(args) : zk::apps::cmd_setup(args);
    if (cmd == "demo") return zk::apps::cmd_demo(args);
    if (cmd == "timeline") return zk::apps::cmd_timeline(args);
    if (cmd == "simulate") return zk::apps::cmd_simulate(args);
    if (cmd == "node") return zk::apps::cmd_node(args);
    if (cmd == "up") return zk::apps::cmd_up(args);
    if (cmd == "down") return zk::apps::cmd_down(args);
    if (cmd == "submit") return zk::apps::cmd_submit(args);
    if (cmd == "status") return zk::apps::cmd_status(args);
    if (cmd == "await") return zk::apps::cmd_await(args);
    if (cmd == "cancel") return zk::apps::cmd_cancel(args);
    if (cmd == "help" || cmd == "--help" || cmd == "-h") {
      usage(stdout);
      return 0;
    }
    std::fprintf(stderr, "zkfleet: unknown command '%s'\n\n", cmd.c_str());
    usage(stderr);
    return 2;
  } catch (const zk::apps::usage_error& e) {
    std::fprintf(stderr, "zkfleet %s: %s\n\n", cmd.c_str(), e.what());
    usage(stderr);
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "zkfleet %s: error: %s\n", cmd.c_str(), e.what());
    return 1;
  }
}
