// zkfleet setup --circuit … | zkfleet prove --circuit …: keys and proofs for native circuits
// (common/circuit/api.hpp). The --circuit flag tells these forms apart from the r1cs/zkey ones.
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "apps/backend.hpp"
#include "apps/commands.hpp"
#include "common/circuit/api.hpp"

namespace zk::apps {
namespace {

// A flag the --circuit forms require.
std::string need(const args_t& p, const std::string& f) {
  if (!p.has(f)) throw usage_error(f + " is required with --circuit");
  return p.one(f);
}

}  // namespace

bool has_circuit_flag(const std::vector<std::string>& args) {
  for (const auto& a : args)
    if (a == "--circuit") return true;
  return false;
}

int cmd_circuit_setup(const std::vector<std::string>& args) {
  auto p = parse_args(args, {"--circuit", "--params", flag_t("--out", "a directory"), "--seed"});
  if (!p.positional.empty()) throw usage_error("setup --circuit takes no positional arguments (use --out DIR)");
  groth16::setup_options opt;
  if (p.has("--seed")) opt.seed = parse_uint_arg("--seed", p.one("--seed"));
  const std::string name = need(p, "--circuit");
  const std::string dir = need(p, "--out");
  const std::string params = p.one("--params");
  auto r = circuit::setup_circuit(name, params, dir, opt);
  std::printf("%s: %s, %u constraints, %u wires (%u public), digest %s\n", r.shape.c_str(), r.curve.c_str(),
              r.n_constraints, r.n_wires, r.n_public, r.digest.c_str());
  std::printf("  synthesis (shape) %.3f s, r1cs digest %.3f s\n", r.synth_seconds, r.digest_seconds);
  if (r.reused) {
    std::printf("  key reused: %s/circuit.zkey was made for this digest\n", dir.c_str());
  } else {
    std::fprintf(stderr,
                 "zkfleet setup: WARNING: development key. Its toxic waste (tau, alpha, beta, delta) was made in "
                 "this process, not by a ceremony: never use it to protect anything of value.\n");
    std::printf("  key written to %s (circuit.r1cs, circuit.zkey, verification_key.json), domain 2^%d, %.2f s\n",
                dir.c_str(), __builtin_ctz(r.setup.domain_size), r.setup.total_seconds());
  }
  return 0;
}

int cmd_circuit_prove(const std::vector<std::string>& args) {
  auto p = parse_args(args, {"--circuit", "--params", "--partition", flag_t("--key", "a directory"),
                             flag_t("--backend", "cpu, cuda or auto"), bare("--verbose")});
  if (p.positional.size() != 2)
    throw usage_error("prove --circuit takes <proof.json> <public.json> after its options");
  const std::string name = need(p, "--circuit");
  const std::string dir = need(p, "--key");
  const std::string params = p.one("--params");
  const uint32_t partition = uint32_t(parse_uint_arg("--partition", p.one("--partition", "0"), 0, 0xffffffffu));
  groth16::prove_options opt;
  const backend_t backend = choose_backend(p.one("--backend", "auto"));
  backend.apply(opt);
  auto r = circuit::prove_circuit(name, params, partition, dir, p.positional[0], p.positional[1], opt);
  if (p.has("--verbose")) {
    std::printf("%s partition %u: curve %s, %u constraints, %u wires (%u public), domain 2^%d\n", name.c_str(),
                partition, r.curve.c_str(), r.n_constraints, r.n_wires, r.n_public, __builtin_ctz(r.domain_size));
    std::printf("  replica %8.3f ms (native data and Merkle paths)\n", r.replica_seconds * 1e3);
    std::printf("  synth  %9.3f ms (%.2f M constraints/s)\n", r.synth_seconds * 1e3,
                r.n_constraints / r.synth_seconds * 1e-6);
    std::printf("  load   %9.3f ms\n  prove  %9.3f ms\n  verify %9.3f ms\n", r.load_seconds * 1e3,
                r.prove_seconds * 1e3, r.verify_seconds * 1e3);
  }
  return 0;
}

}  // namespace zk::apps
