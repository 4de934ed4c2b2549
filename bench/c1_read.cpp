// Benchmark of the C1 reader (zk/filecoin/api/c1.hpp parse_c1): time and peak RSS of reading a
// C1 file, and a C1 of any registered proof's shape to read (not a test).
//
//   build/bench_c1_read write PROOF OUT [--wrap] [--seed N]
//       a C1 of PROOF's exact shape (c1_shape) with random values: domains uniformly random below
//       r, node indices below the node count, positions below the arity, the right layer indices;
//       written by write_c1_json (or write_c1_wrapper_json with --wrap). Not a valid proof (the
//       reader checks shapes and ranges, not hashes), but the numbers have real widths:
//       StackedDrg32GiBV1_1 gives about 38 MB, 51 MB wrapped.
//   build/bench_c1_read wrap IN OUT
//       IN (a C1, e.g. a sealed one) rewritten as the lotus-bench / curio wrapper.
//   build/bench_c1_read read FILE [REPEATS=5] [--dom]
//       reads FILE into memory, then parse_c1 REPEATS times (--dom: nlohmann::json::parse of the
//       text instead, the DOM that a reader walking a json value would start from); prints one
//       line: bytes, the median time, MB/s, the RSS once the text is read, and the peak RSS
//       (getrusage ru_maxrss) after the parses. One process per figure: the peak is the run's.
//
// bench/c1_read.sh runs it for two builds (before and after a change) alternately.
#include <sys/resource.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <string>

#include "bench/bench_util.hpp"
#include "tests/filecoin/shaped_c1.hpp"
#include "zk/base/files.hpp"
#include "zk/filecoin/api/c1.hpp"
#include "zk/filecoin/api/registry.hpp"

using namespace zk::filecoin;

namespace {

// A C1 of p's shape with random values (tests/filecoin/shaped_c1.hpp).
c1_output_t random_c1(const registered_proof_t& p, uint64_t seed) {
  std::mt19937_64 rng(seed);
  auto dom = [&] {
    domain_t d{};
    for (auto& b : d) b = uint8_t(rng());
    d[31] = uint8_t(rng() % 0x73);  // r = 0x73ed…: a top byte below 0x73 is below r
    return d;
  };
  return zk::filecoin::testing::shaped_c1(p, dom, [&](uint64_t bound) { return rng() % bound; });
}

// VmRSS of this process in KiB (/proc/self/status).
long rss_kib() {
  std::ifstream f("/proc/self/status");
  std::string line;
  while (std::getline(f, line))
    if (line.rfind("VmRSS:", 0) == 0) return std::atol(line.c_str() + 6);
  return -1;
}

long peak_rss_kib() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_maxrss;
}

int usage() {
  std::fprintf(stderr,
               "usage: bench_c1_read write PROOF OUT [--wrap] [--seed N]\n"
               "       bench_c1_read wrap IN OUT\n"
               "       bench_c1_read read FILE [REPEATS=5] [--dom]\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) return usage();
  const std::string mode = argv[1];
  try {
    if (mode == "write") {
      if (argc < 4) return usage();
      bool wrap = false;
      uint64_t seed = 1;
      for (int i = 4; i < argc; ++i) {
        if (std::strcmp(argv[i], "--wrap") == 0)
          wrap = true;
        else if (std::strcmp(argv[i], "--seed") == 0 && i + 1 < argc)
          seed = std::strtoull(argv[++i], nullptr, 10);
        else
          return usage();
      }
      const c1_output_t c1 = random_c1(registered_proof(argv[2]), seed);
      validate_c1(c1);
      const std::string text = wrap ? write_c1_wrapper_json(c1, 7) : write_c1_json(c1);
      zk::write_file_atomic(argv[3], text);
      std::printf("bench_c1_read: wrote %s: %zu bytes (%s%s)\n", argv[3], text.size(), argv[2],
                  wrap ? ", wrapped" : "");
      return 0;
    }
    if (mode == "wrap") {
      if (argc != 4) return usage();
      const c1_read_t r = read_c1_file(argv[2]);
      zk::write_file_atomic(argv[3], write_c1_wrapper_json(r.c1, 7));
      return 0;
    }
    if (mode != "read") return usage();
    int repeats = 5;
    bool dom = false;
    for (int i = 3; i < argc; ++i) {
      if (std::strcmp(argv[i], "--dom") == 0)
        dom = true;
      else if (std::atoi(argv[i]) > 0)
        repeats = std::atoi(argv[i]);
      else
        return usage();
    }
    const std::string text = zk::read_text(argv[2]);
    const long before = rss_kib();
    size_t check = 0;
    const double ms = zk::bench::median_ms(repeats, [&] {
      if (dom) {
        const nlohmann::json j = nlohmann::json::parse(text);
        check += j.size();
      } else {
        const c1_read_t r = parse_c1(text, argv[2]);
        check += r.c1.vanilla_proofs.size();
      }
    });
    std::printf(
        "%s: %s %zu bytes, median of %d: %.3f ms, %.1f MB/s; RSS with the text %ld KiB, peak %ld "
        "KiB (%zu)\n",
        argv[2], dom ? "nlohmann DOM" : "parse_c1", text.size(), repeats, ms,
        double(text.size()) / 1e3 / ms, before, peak_rss_kib(), check);
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_c1_read: %s\n", e.what());
    return 1;
  }
}
