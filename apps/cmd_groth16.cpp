// zkfleet prove | verify | setup: the file forms (the --circuit forms: apps/cmd_circuit.cpp).
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <optional>

#include "apps/backend.hpp"
#include "apps/commands.hpp"
#include "zk/groth16/api.hpp"
#include "zk/groth16/setup.hpp"

namespace zk::apps {
namespace {

// Each stage's time and where it ran.
void print_stage_table(const std::vector<groth16::stage_span_t>& stages) {
  for (const auto& s : stages)
    std::printf("  %-10s %9.3f ms  %s\n", groth16::stage_name(s.stage),
                double(s.end_ns - s.begin_ns) * 1e-6, groth16::backend_name(s.backend));
}

}  // namespace

namespace {

int run_prove(const opt_t& zkey, const opt_t& wtns, const opt_t& proof, const opt_t& pub,
              const opt_t& verbose, const opt_t& no_verify, const opt_t& backend_mode,
              const opt_t& precompute, const opt_t& endomorphism) {
  const bool verbosely = verbose.given();
  std::vector<groth16::stage_span_t> stages;
  groth16::prove_options_t opt;
  opt.self_verify = !no_verify.given();
  opt.precompute.endomorphism = endomorphism.given();
  if (precompute.given()) {
    const uint64_t f = parse_uint_arg("--precompute", precompute.one());
    if (f < 1 || f > 16) throw std::runtime_error("--precompute: the factor must be 1..16");
    opt.precompute.factor = unsigned(f);
  }
  const backend_t backend = choose_backend(backend_mode.one("auto"));
  backend.apply(opt);
  if (verbosely) opt.observe = [&](const groth16::stage_span_t& s) { stages.push_back(s); };
  auto r = groth16::prove_files(zkey.one(), wtns.one(), proof.one(), pub.one(), opt);
  if (verbosely) {
    std::printf("%s: curve %s, %u wires (%u public), domain 2^%d, backend %s\n", zkey.one().c_str(),
                r.curve.c_str(), r.n_vars, r.n_public, __builtin_ctz(r.domain_size),
                backend.name.c_str());
    std::printf("  %-10s %9.3f ms\n", "load", r.load_seconds * 1e3);
    print_stage_table(stages);
    std::printf("  %-10s %9.3f ms (prove) + %.3f ms (load) + %.3f ms (verify)\n", "total",
                r.prove_seconds * 1e3, r.load_seconds * 1e3, r.verify_seconds * 1e3);
  }
  return 0;
}

int run_verify(const opt_t& vk, const opt_t& pub, const opt_t& proof) {
  const check_t r = groth16::verify_files(vk.one(), pub.one(), proof.one());
  if (r.ok()) {
    std::printf("OK: proof is valid\n");
    return 0;
  }
  std::printf("INVALID: %s\n", r.reason().c_str());
  return 1;
}

int run_setup(const opt_t& r1cs, const opt_t& zkey, const opt_t& vk, const opt_t& seed) {
  groth16::setup_options_t opt;
  if (seed.given()) opt.seed = parse_uint_arg("--seed", seed.one());
  std::fprintf(stderr,
               "zkfleet setup: WARNING: development key. Its toxic waste (tau, alpha, beta, delta) "
               "was made in "
               "this process, not by a ceremony: never use it to protect anything of value.\n");
  auto r = groth16::dev_setup(r1cs.one(), zkey.one(), vk.one(), opt);
  std::printf(
      "%s: %s, %u constraints, %u wires (%u public), domain 2^%d, written to %s and %s in %.2f s\n",
      r1cs.one().c_str(), curve_name(r.curve), r.n_constraints, r.n_vars, r.n_public,
      __builtin_ctz(r.domain_size), zkey.one().c_str(), vk.one().c_str(), r.total_seconds());
  return 0;
}

}  // namespace

void add_groth16_commands(CLI::App& root, commands_t& out) {
  {
    CLI::App* app = add_command(
        root, "prove",
        "Prove with a .zkey and a .wtns (rapidsnark's arguments); the proof is verified "
        "before it is written");
    app->footer(
        "The native circuit form: zkfleet prove --circuit NAME --params ... --partition K --key "
        "DIR "
        "<proof.json> <public.json> (`zkfleet prove --circuit porep-lite --help`).");
    const opt_t zkey =
        add_positional(app, "circuit.zkey", "the proving key (snarkjs format, Groth16)");
    const opt_t wtns = add_positional(app, "witness.wtns", "the witness (snarkjs / circom format)");
    const opt_t proof = add_positional(app, "proof.json", "where the proof is written");
    const opt_t pub = add_positional(app, "public.json", "where the public signals are written");
    const opt_t verbose = add_flag(app, "--verbose", "print each stage's time");
    const opt_t no_verify =
        add_flag(app, "--no-verify", "skip verifying the proof with the key before writing it");
    const opt_t backend = add_value(app, "--backend", "cpu|cuda|auto",
                                    "the prover backend (default auto: CUDA when usable)");
    const opt_t precompute =
        add_value(app, "--precompute", "F",
                  "CPU: build F shifted copies of every base before proving (off: 1); pays "
                  "off for keys kept across proofs, not for one proof");
    const opt_t endomorphism = add_flag(
        app, "--endomorphism", "CPU: also build the GLV (G1) and GLS (G2) images of the bases");
    command_t c;
    c.app = app;
    c.run = [=] {
      return run_prove(zkey, wtns, proof, pub, verbose, no_verify, backend, precompute,
                       endomorphism);
    };
    c.takes = "prove takes <circuit.zkey> <witness.wtns> <proof.json> <public.json>";
    out.push_back(std::move(c));
  }
  {
    CLI::App* app = add_command(
        root, "verify", "Verify a proof (snarkjs's argument order); exit 0 when valid, 1 when not");
    const opt_t vk =
        add_positional(app, "verification_key.json", "the verification key (snarkjs format)");
    const opt_t pub = add_positional(app, "public.json", "the public signals");
    const opt_t proof = add_positional(app, "proof.json", "the proof");
    command_t c;
    c.app = app;
    c.run = [=] { return run_verify(vk, pub, proof); };
    c.takes = "verify takes <verification_key.json> <public.json> <proof.json>";
    out.push_back(std::move(c));
  }
  {
    CLI::App* app = add_command(
        root, "setup",
        "Development keys for a circom r1cs (NOT a ceremony: the toxic waste lives in this "
        "process)");
    app->footer(
        "The native circuit form: zkfleet setup --circuit NAME --params ... --out DIR "
        "(`zkfleet setup --circuit porep-lite --help`).");
    const opt_t r1cs = add_positional(app, "circuit.r1cs", "the circuit (circom's r1cs)");
    const opt_t zkey = add_positional(app, "circuit.zkey", "where the proving key is written");
    const opt_t vk =
        add_positional(app, "verification_key.json", "where the verification key is written");
    const opt_t seed = add_value(app, "--seed", "N", "seed of the toxic waste (reproducible keys)");
    command_t c;
    c.app = app;
    c.run = [=] { return run_setup(r1cs, zkey, vk, seed); };
    c.takes = "setup takes <circuit.r1cs> <circuit.zkey> <verification_key.json>";
    out.push_back(std::move(c));
  }
}

}  // namespace zk::apps
