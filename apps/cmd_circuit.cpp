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

struct circuit_args {
  std::map<std::string, std::string> flags;
  std::vector<std::string> positional;
  bool has(const std::string& f) const { return flags.count(f) != 0; }
  const std::string& need(const std::string& f) const {
    auto it = flags.find(f);
    if (it == flags.end()) throw usage_error(f + " is required with --circuit");
    return it->second;
  }
};

// Every flag here takes a value except those in `bare`.
circuit_args parse(const std::vector<std::string>& args, const std::vector<std::string>& valued,
                   const std::vector<std::string>& bare) {
  circuit_args p;
  auto in = [](const std::vector<std::string>& v, const std::string& s) {
    for (const auto& x : v)
      if (x == s) return true;
    return false;
  };
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a.rfind("--", 0) != 0) {
      p.positional.push_back(a);
    } else if (in(bare, a)) {
      p.flags[a] = "";
    } else if (in(valued, a)) {
      if (i + 1 >= args.size()) throw usage_error(a + " needs a value");
      p.flags[a] = args[++i];
    } else {
      throw usage_error("unknown option " + a);
    }
  }
  return p;
}

}  // namespace

bool has_circuit_flag(const std::vector<std::string>& args) {
  for (const auto& a : args)
    if (a == "--circuit") return true;
  return false;
}

int cmd_circuit_setup(const std::vector<std::string>& args) {
  auto p = parse(args, {"--circuit", "--params", "--out", "--seed"}, {});
  if (!p.positional.empty()) throw usage_error("setup --circuit takes no positional arguments (use --out DIR)");
  groth16::setup_options opt;
  if (p.has("--seed")) opt.seed = parse_uint_arg("--seed", p.flags["--seed"]);
  const std::string& name = p.need("--circuit");
  const std::string& dir = p.need("--out");
  const std::string params = p.has("--params") ? p.flags["--params"] : "";
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
  auto p = parse(args, {"--circuit", "--params", "--partition", "--key", "--backend"}, {"--verbose"});
  if (p.positional.size() != 2)
    throw usage_error("prove --circuit takes <proof.json> <public.json> after its options");
  const std::string& name = p.need("--circuit");
  const std::string& dir = p.need("--key");
  const std::string params = p.has("--params") ? p.flags["--params"] : "";
  const uint32_t partition =
      p.has("--partition") ? uint32_t(parse_uint_arg("--partition", p.flags["--partition"], 0, 0xffffffffu)) : 0;
  groth16::prove_options opt;
  const backend_t backend = choose_backend(p.has("--backend") ? p.flags["--backend"] : "auto");
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
