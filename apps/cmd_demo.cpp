// zkfleet demo: proves and verifies the bundled fixtures (both curves) and prints each
// prover stage's time. When the actor cluster lands, this becomes the embedded cluster demo.
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "apps/commands.hpp"
#include "common/groth16/api.hpp"

#ifndef ZK_FIXTURES_DIR
#define ZK_FIXTURES_DIR "tests/fixtures"
#endif

namespace zk::apps {

int cmd_demo(const std::vector<std::string>& args) {
  namespace fs = std::filesystem;
  if (args.size() > 1) throw usage_error("demo takes at most one argument: the fixtures directory");
  fs::path root = args.empty() ? fs::path(ZK_FIXTURES_DIR) : fs::path(args[0]);
  if (!fs::is_directory(root)) throw std::runtime_error(root.string() + ": no such fixtures directory");
  fs::path out = fs::temp_directory_path() / ("zkfleet-demo-" + std::to_string(::getpid()));
  fs::create_directories(out);

  std::vector<fs::path> dirs;
  for (const auto& curve : fs::directory_iterator(root))
    if (curve.is_directory())
      for (const auto& c : fs::directory_iterator(curve.path()))
        if (fs::exists(c.path() / "circuit.zkey") && fs::exists(c.path() / "witness.wtns")) dirs.push_back(c.path());
  std::sort(dirs.begin(), dirs.end());
  if (dirs.empty()) throw std::runtime_error(root.string() + ": no fixtures (circuit.zkey + witness.wtns) found");

  const char* names[] = {"build_ab", "compute_h", "msm_a", "msm_b1", "msm_b2", "msm_c", "msm_h", "assemble", "verify"};
  std::printf("%-22s %-8s %7s", "circuit", "curve", "domain");
  for (const char* n : names) std::printf(" %9s", n);
  std::printf(" %9s %s\n", "total ms", "check");
  int failures = 0;
  for (const auto& d : dirs) {
    std::string label = d.parent_path().filename().string() + "/" + d.filename().string();
    double ms[9] = {};
    groth16::prove_options opt;
    opt.observe = [&](groth16::stage s, uint64_t b, uint64_t e) { ms[int(s)] += double(e - b) * 1e-6; };
    fs::path proof = out / (d.parent_path().filename().string() + "-" + d.filename().string() + "-proof.json");
    fs::path pub = out / (d.parent_path().filename().string() + "-" + d.filename().string() + "-public.json");
    auto r = groth16::prove_files((d / "circuit.zkey").string(), (d / "witness.wtns").string(), proof.string(),
                                  pub.string(), opt);
    auto v = groth16::verify_files((d / "verification_key.json").string(), pub.string(), proof.string());
    failures += !v.valid;
    std::printf("%-22s %-8s %5s%-2d", label.c_str(), r.curve.c_str(), "2^", __builtin_ctz(r.domain_size));
    for (double x : ms) std::printf(" %9.2f", x);
    std::printf(" %9.2f %s\n", (r.load_seconds + r.prove_seconds + r.verify_seconds) * 1e3,
                v.valid ? "valid" : ("INVALID: " + v.reason).c_str());
  }
  std::printf("\nproofs and public signals written under %s; each checked against the fixture's "
              "verification_key.json\n", out.string().c_str());
  return failures ? 1 : 0;
}

}  // namespace zk::apps
