// zkfleet setup --circuit … | zkfleet prove --circuit …: keys and proofs for native circuits
// (zk/circuit/api.hpp). The --circuit flag tells these forms apart from the r1cs/zkey ones.
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "apps/backend.hpp"
#include "apps/commands.hpp"
#include "zk/circuit/api.hpp"

namespace zk::apps {
namespace {

// An option the --circuit forms require.
std::string need(const opt_t& o, const std::string& name) {
  if (!o.given()) throw usage_error(name + " is required with --circuit");
  return o.one();
}

struct circuit_options_t {
  opt_t circuit, params;
};

circuit_options_t add_circuit_options(CLI::App* app) {
  return {
      add_value(app, "--circuit", "NAME", "the native circuit: porep-lite (required)"),
      add_value(app, "--params", "K=V,...", "its shape, e.g. curve=bn254,challenges=2,depth=8")};
}

int run_circuit_setup(const circuit_options_t& co, const opt_t& out, const opt_t& seed) {
  groth16::setup_options_t opt;
  if (seed.given()) opt.seed = parse_uint_arg("--seed", seed.one());
  const std::string name = need(co.circuit, "--circuit");
  const std::string dir = need(out, "--out");
  const std::string params = co.params.one();
  auto r = circuit::setup_circuit(name, params, dir, opt);
  std::printf("%s: %s, %u constraints, %u wires (%u public), digest %s\n", r.shape.c_str(),
              r.curve.c_str(), r.n_constraints, r.n_wires, r.n_public, r.digest.c_str());
  std::printf("  synthesis (shape) %.3f s, r1cs digest %.3f s\n", r.synth_seconds,
              r.digest_seconds);
  if (r.reused) {
    std::printf("  key reused: %s/circuit.zkey was made for this digest\n", dir.c_str());
  } else {
    std::fprintf(stderr,
                 "zkfleet setup: WARNING: development key. Its toxic waste (tau, alpha, beta, "
                 "delta) was made in "
                 "this process, not by a ceremony: never use it to protect anything of value.\n");
    std::printf(
        "  key written to %s (circuit.r1cs, circuit.zkey, verification_key.json), domain 2^%d, "
        "%.2f s\n",
        dir.c_str(), __builtin_ctz(r.setup.domain_size), r.setup.total_seconds());
  }
  return 0;
}

int run_circuit_prove(const circuit_options_t& co, const opt_t& partition_opt, const opt_t& key,
                      const opt_t& backend_mode, const opt_t& verbose, const opt_t& proof,
                      const opt_t& pub) {
  const std::string name = need(co.circuit, "--circuit");
  const std::string dir = need(key, "--key");
  const std::string params = co.params.one();
  const uint32_t partition =
      uint32_t(parse_uint_arg("--partition", partition_opt.one("0"), 0, 0xffffffffu));
  groth16::prove_options_t opt;
  const backend_t backend = choose_backend(backend_mode.one("auto"));
  backend.apply(opt);
  auto r = circuit::prove_circuit(name, params, partition, dir, proof.one(), pub.one(), opt);
  if (verbose.given()) {
    std::printf("%s partition %u: curve %s, %u constraints, %u wires (%u public), domain 2^%d\n",
                name.c_str(), partition, r.curve.c_str(), r.n_constraints, r.n_wires, r.n_public,
                __builtin_ctz(r.domain_size));
    std::printf("  replica %8.3f ms (native data and Merkle paths)\n", r.replica_seconds * 1e3);
    std::printf("  synth  %9.3f ms (%.2f M constraints/s)\n", r.synth_seconds * 1e3,
                r.n_constraints / r.synth_seconds * 1e-6);
    std::printf("  load   %9.3f ms\n  prove  %9.3f ms\n  verify %9.3f ms\n", r.load_seconds * 1e3,
                r.prove_seconds * 1e3, r.verify_seconds * 1e3);
  }
  return 0;
}

}  // namespace

void add_circuit_commands(commands_t& out) {
  {
    command_t c;
    c.own = make_command_app(
        "setup", "Key a native circuit once (development setup, cached by the r1cs's SHA-256)");
    CLI::App* app = c.own.get();
    const circuit_options_t co = add_circuit_options(app);
    const opt_t dir =
        add_value(app, "--out", "DIR",
                  "where circuit.r1cs, circuit.zkey and verification_key.json go (required)");
    const opt_t seed = add_value(app, "--seed", "N", "seed of the toxic waste (reproducible keys)");
    c.app = app;
    c.circuit_form = true;
    c.run = [=] { return run_circuit_setup(co, dir, seed); };
    c.takes = "setup --circuit takes no positional arguments (use --out DIR)";
    out.push_back(std::move(c));
  }
  {
    command_t c;
    c.own = make_command_app(
        "prove", "Prove one partition of a native circuit with its key (from setup --circuit)");
    CLI::App* app = c.own.get();
    const opt_t proof = add_positional(app, "proof.json", "where the proof is written");
    const opt_t pub = add_positional(app, "public.json", "where the public signals are written");
    const circuit_options_t co = add_circuit_options(app);
    const opt_t partition =
        add_value(app, "--partition", "K", "the partition to prove (default 0)");
    const opt_t key =
        add_value(app, "--key", "DIR",
                  "the key's directory, from zkfleet setup --circuit --out DIR (required)");
    const opt_t backend = add_value(app, "--backend", "cpu|cuda|auto",
                                    "the prover backend (default auto: CUDA when usable)");
    const opt_t verbose = add_flag(app, "--verbose", "print each step's time");
    c.app = app;
    c.circuit_form = true;
    c.run = [=] { return run_circuit_prove(co, partition, key, backend, verbose, proof, pub); };
    c.takes = "prove --circuit takes <proof.json> <public.json> after its options";
    out.push_back(std::move(c));
  }
}

}  // namespace zk::apps
