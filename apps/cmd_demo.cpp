// zkfleet demo: proves and verifies the bundled fixtures (both curves), prints each prover
// stage's time, then the timeline of the run: the waterfall and the stats. When the actor
// cluster lands, this becomes the embedded cluster demo.
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "apps/commands.hpp"
#include "common/groth16/api.hpp"
#include "common/timeline/recorder.hpp"
#include "common/timeline/render.hpp"

#ifndef ZK_FIXTURES_DIR
#define ZK_FIXTURES_DIR "tests/fixtures"
#endif

namespace zk::apps {
namespace {

timeline::stage to_timeline(groth16::stage s) {
  switch (s) {
    case groth16::stage::build_ab: return timeline::stage::build_ab;
    case groth16::stage::compute_h: return timeline::stage::compute_h;
    case groth16::stage::msm_a: return timeline::stage::msm_a;
    case groth16::stage::msm_b1: return timeline::stage::msm_b1;
    case groth16::stage::msm_b2: return timeline::stage::msm_b2;
    case groth16::stage::msm_c: return timeline::stage::msm_c;
    case groth16::stage::msm_h: return timeline::stage::msm_h;
    case groth16::stage::assemble: return timeline::stage::assemble;
    case groth16::stage::verify: return timeline::stage::verify;
  }
  return timeline::stage::gpu;
}

unsigned terminal_width() {
  if (const char* c = std::getenv("COLUMNS")) {
    int v = std::atoi(c);
    if (v >= 40) return unsigned(v);
  }
  return 100;
}

}  // namespace

int cmd_demo(const std::vector<std::string>& args) {
  namespace fs = std::filesystem;
  std::string trace_path;
  std::vector<std::string> pos;
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--trace") {
      if (i + 1 >= args.size()) throw usage_error("--trace needs a file name");
      trace_path = args[++i];
    } else if (args[i].rfind("--", 0) == 0) {
      throw usage_error("unknown option " + args[i]);
    } else {
      pos.push_back(args[i]);
    }
  }
  if (pos.size() > 1) throw usage_error("demo takes at most one argument: the fixtures directory");
  fs::path root = pos.empty() ? fs::path(ZK_FIXTURES_DIR) : fs::path(pos[0]);
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

  // One node (this process), one track: the CPU prover.
  timeline::recorder_t rec(0);
  timeline::aggregator_t agg;
  agg.names().nodes[0] = "demo";
  agg.names().tracks[{0, 0}] = "prover (cpu)";

  const char* names[] = {"build_ab", "compute_h", "msm_a", "msm_b1", "msm_b2", "msm_c", "msm_h", "assemble", "verify"};
  std::printf("%-22s %-8s %7s", "circuit", "curve", "domain");
  for (const char* n : names) std::printf(" %9s", n);
  std::printf(" %9s %s\n", "total ms", "check");
  int failures = 0;
  uint64_t job = 0;
  for (const auto& d : dirs) {
    ++job;
    std::string label = d.parent_path().filename().string() + "/" + d.filename().string();
    double ms[9] = {};
    groth16::prove_options opt;
    opt.observe = [&](groth16::stage s, uint64_t b, uint64_t e) {
      ms[int(s)] += double(e - b) * 1e-6;
      rec.record({job, 0, to_timeline(s), timeline::phase::begin, 0, 0, int64_t(b), 0});
      rec.record({job, 0, to_timeline(s), timeline::phase::end, 0, 0, int64_t(e), 0});
    };
    fs::path proof = out / (d.parent_path().filename().string() + "-" + d.filename().string() + "-proof.json");
    fs::path pub = out / (d.parent_path().filename().string() + "-" + d.filename().string() + "-public.json");
    rec.begin(job, 0, timeline::stage::gpu, 0);
    auto r = groth16::prove_files((d / "circuit.zkey").string(), (d / "witness.wtns").string(), proof.string(),
                                  pub.string(), opt);
    rec.end(job, 0, timeline::stage::gpu, 0);
    auto v = groth16::verify_files((d / "verification_key.json").string(), pub.string(), proof.string());
    rec.instant(job, 0, timeline::stage::done, 0);
    failures += !v.valid;
    std::printf("%-22s %-8s %5s%-2d", label.c_str(), r.curve.c_str(), "2^", __builtin_ctz(r.domain_size));
    for (double x : ms) std::printf(" %9.2f", x);
    std::printf(" %9.2f %s\n", (r.load_seconds + r.prove_seconds + r.verify_seconds) * 1e3,
                v.valid ? "valid" : ("INVALID: " + v.reason).c_str());
  }
  std::printf("\nproofs and public signals written under %s; each checked against the fixture's "
              "verification_key.json\n",
              out.string().c_str());

  std::vector<timeline::event_t> events;
  rec.drain(events);
  agg.add(events);
  auto all = agg.events();
  std::printf("\ntimeline (one job per circuit; G = proving, | = verified):\n%s\n",
              timeline::render_ascii(all, agg.names(), terminal_width()).c_str());
  std::printf("%s", timeline::render_stats(timeline::compute_stats(all, agg.names())).c_str());
  if (!trace_path.empty()) {
    agg.save(trace_path);
    std::printf("events saved to %s (zkfleet timeline --format chrome %s > trace.json opens in Perfetto)\n",
                trace_path.c_str(), trace_path.c_str());
  }
  return failures ? 1 : 0;
}

// zkfleet timeline --format ascii|chrome|json|stats|prometheus <events-file>
int cmd_timeline(const std::vector<std::string>& args) {
  std::string format = "ascii", file;
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--format") {
      if (i + 1 >= args.size()) throw usage_error("--format needs one of ascii, chrome, json, stats, prometheus");
      format = args[++i];
    } else if (args[i].rfind("--", 0) == 0) {
      throw usage_error("unknown option " + args[i]);
    } else if (file.empty()) {
      file = args[i];
    } else {
      throw usage_error("timeline takes one events file");
    }
  }
  if (file.empty()) throw usage_error("timeline needs an events file (e.g. from zkfleet demo --trace FILE)");
  auto agg = timeline::aggregator_t::load(file);
  auto ev = agg.events();
  if (format == "ascii") std::printf("%s", timeline::render_ascii(ev, agg.names(), terminal_width()).c_str());
  else if (format == "chrome" || format == "json") std::printf("%s", timeline::render_chrome(ev, agg.names()).c_str());
  else if (format == "stats") std::printf("%s", timeline::render_stats(timeline::compute_stats(ev, agg.names())).c_str());
  else if (format == "prometheus") std::printf("%s", timeline::render_prometheus(ev).c_str());
  else throw usage_error("unknown --format '" + format + "' (ascii, chrome, json, stats, prometheus)");
  return 0;
}

}  // namespace zk::apps
