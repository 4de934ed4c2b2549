// zkfleet prove | verify | setup | demo
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <optional>

#include "apps/backend.hpp"
#include "apps/commands.hpp"
#include "common/groth16/api.hpp"
#include "common/groth16/setup.hpp"

namespace zk::apps {
namespace {

void print_stage_table(const std::vector<std::pair<groth16::stage, double>>& stages) {
  for (const auto& [s, secs] : stages) std::printf("  %-10s %9.3f ms\n", groth16::stage_name(s), secs * 1e3);
}

}  // namespace

int cmd_prove(const std::vector<std::string>& args) {
  auto p = parse_args(args, {bare("--verbose"), bare("--no-verify"), flag_t("--backend", "cpu, cuda or auto")});
  if (p.positional.size() != 4) throw usage_error("prove takes <circuit.zkey> <witness.wtns> <proof.json> <public.json>");
  std::vector<std::pair<groth16::stage, double>> stages;
  groth16::prove_options opt;
  opt.self_verify = !p.has("--no-verify");
  const backend_t backend = choose_backend(p.one("--backend", "auto"));
  backend.apply(opt);
  if (p.has("--verbose"))
    opt.observe = [&](groth16::stage s, uint64_t b, uint64_t e) { stages.emplace_back(s, double(e - b) * 1e-9); };
  auto r = groth16::prove_files(p.positional[0], p.positional[1], p.positional[2], p.positional[3], opt);
  if (p.has("--verbose")) {
    std::printf("%s: curve %s, %u wires (%u public), domain 2^%d, backend %s\n", p.positional[0].c_str(),
                r.curve.c_str(), r.n_vars, r.n_public, __builtin_ctz(r.domain_size), backend.name.c_str());
    std::printf("  %-10s %9.3f ms\n", "load", r.load_seconds * 1e3);
    print_stage_table(stages);
    std::printf("  %-10s %9.3f ms (prove) + %.3f ms (load) + %.3f ms (verify)\n", "total", r.prove_seconds * 1e3,
                r.load_seconds * 1e3, r.verify_seconds * 1e3);
  }
  return 0;
}

int cmd_verify(const std::vector<std::string>& args) {
  auto p = parse_args(args, {});
  if (p.positional.size() != 3) throw usage_error("verify takes <verification_key.json> <public.json> <proof.json>");
  auto r = groth16::verify_files(p.positional[0], p.positional[1], p.positional[2]);
  if (r.valid) {
    std::printf("OK: proof is valid\n");
    return 0;
  }
  std::printf("INVALID: %s\n", r.reason.c_str());
  return 1;
}

int cmd_setup(const std::vector<std::string>& args) {
  auto p = parse_args(args, {"--seed"});
  if (p.positional.size() != 3) throw usage_error("setup takes <circuit.r1cs> <circuit.zkey> <verification_key.json>");
  groth16::setup_options opt;
  if (p.has("--seed")) opt.seed = parse_uint_arg("--seed", p.one("--seed"));
  std::fprintf(stderr,
               "zkfleet setup: WARNING: development key. Its toxic waste (tau, alpha, beta, delta) was made in "
               "this process, not by a ceremony: never use it to protect anything of value.\n");
  auto r = groth16::dev_setup(p.positional[0], p.positional[1], p.positional[2], opt);
  std::printf("%s: %s, %u constraints, %u wires (%u public), domain 2^%d, written to %s and %s in %.2f s\n",
              p.positional[0].c_str(), formats::curve_name(r.curve), r.n_constraints, r.n_vars, r.n_public,
              __builtin_ctz(r.domain_size), p.positional[1].c_str(), p.positional[2].c_str(), r.total_seconds());
  return 0;
}

}  // namespace zk::apps
