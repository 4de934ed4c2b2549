// Synthesis benchmark (not a test): porep-lite on both curves, shape mode vs prove mode, one
// thread, and the constraint mix with each gadget's own prove-mode rate.
//
//   build/bench_circuit [challenges=4] [depth=20] [repeats=5]
//
// Prints the median of `repeats` runs (single thread). Shape mode records the CSR matrices (plus
// the witness); prove mode computes the witness and a/b/c into preallocated arrays (what `zkfleet
// prove
// --circuit` does), including the nPublic+1 input rows. The native replica (SHA-256 data,
// virtual Poseidon tree: challenges·partitions·depth hashes) is built once, outside the timing.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "bench/bench_util.hpp"
#include "zk/circuit/porep.hpp"

using namespace zk;
using namespace zk::circuit;

namespace {

// Median wall time of repeated runs, in seconds.
template <class F>
double median_s(int repeats, F&& f) {
  return bench::median_ms(repeats, std::forward<F>(f)) * 1e-3;
}

template <class Fr>
void bench_porep(const char* name, porep_params_t p, int repeats) {
  porep_data_t<Fr> data(p);
  uint32_t n_wires = 0, n_constraints = 0;
  double shape_s = median_s(std::max(1, repeats / 2), [&] {
    shape_cs_t<Fr> cs;
    porep_lite(cs, data, 0);
    n_wires = cs.n_wires();
    n_constraints = cs.n_constraints();
  });
  double fresh_s = median_s(repeats, [&] {
    prove_cs_t<Fr> cs(n_wires, n_constraints + 4);
    porep_lite(cs, data, 0);
    cs.finish();
  });
  prove_cs_t<Fr> reused(n_wires, n_constraints + 4);
  double prove_s = median_s(repeats, [&] {
    reused.reset();
    porep_lite(reused, data, 0);
    reused.finish();
  });
  std::printf("%-10s porep-lite C=%u D=%u: %u constraints, %u wires\n", name, p.challenges, p.depth,
              n_constraints, n_wires);
  std::printf("  shape  %8.2f ms  %6.2f M constraints/s\n", shape_s * 1e3,
              n_constraints / shape_s * 1e-6);
  std::printf("  prove  %8.2f ms  %6.2f M constraints/s  (buffers reused: reset())\n",
              prove_s * 1e3, n_constraints / prove_s * 1e-6);
  std::printf("  prove  %8.2f ms  %6.2f M constraints/s  (fresh buffers each time)\n",
              fresh_s * 1e3, n_constraints / fresh_s * 1e-6);
}

// Prove-mode rate of one gadget alone: `count` instances in one system.
template <class Fr, class G>
void bench_gadget(const char* what, int repeats, unsigned count, G&& gadget) {
  uint32_t n = 0;
  prove_cs_t<Fr> cs(count * 30000u, count * 30000u);
  double s = median_s(repeats, [&] {
    cs.reset();
    for (unsigned i = 0; i < count; ++i) gadget(cs, i);
    n = cs.n_constraints();
  });
  std::printf("  %-22s %8u constraints %8.2f ms  %6.2f M constraints/s\n", what, n, s * 1e3,
              n / s * 1e-6);
}

template <class Fr>
void bench_gadgets(int repeats) {
  using cs_t = prove_cs_t<Fr>;
  using lc_t = typename cs_t::lc_t;
  bench_gadget<Fr>("poseidon(2) x 100", repeats, 100, [](cs_t& cs, unsigned i) {
    auto x = cs.alloc(Fr::from_u64(i)), y = cs.alloc(Fr::from_u64(i + 1));
    poseidon2(cs, x, y);
  });
  bench_gadget<Fr>("sha256 block x 4", repeats, 4, [](cs_t& cs, unsigned i) {
    std::vector<lc_t> msg(384), digest(256);
    for (unsigned b = 0; b < 384; ++b) msg[b] = alloc_bit(cs, ((b * 7 + i) % 5) < 2);
    sha256_bits(cs, msg.data(), msg.size(), digest.data());
  });
}

}  // namespace

int main(int argc, char** argv) {
  porep_params_t p;
  p.challenges = argc > 1 ? uint32_t(std::atoi(argv[1])) : 4;
  p.depth = argc > 2 ? uint32_t(std::atoi(argv[2])) : 20;
  const int repeats = argc > 3 ? std::atoi(argv[3]) : 5;
  if (p.challenges < 1 || p.depth < 1 || p.depth > 32 || repeats < 1) {
    std::fprintf(stderr, "usage: bench_circuit [challenges>=1] [depth 1..32] [repeats>=1]\n");
    return 2;
  }
  auto mix = porep_constraint_mix(p);
  std::printf("constraint mix per partition (formula, porep.hpp): total %llu\n",
              (unsigned long long)mix.total);
  auto pct = [&](uint64_t v) { return 100.0 * double(v) / double(mix.total); };
  std::printf(
      "  sha256 %llu (%.1f%%), merkle %llu (%.1f%%), leaf poseidon %llu (%.1f%%), bits %llu "
      "(%.1f%%)\n",
      (unsigned long long)mix.sha256, pct(mix.sha256), (unsigned long long)mix.merkle,
      pct(mix.merkle), (unsigned long long)mix.leaf_poseidon, pct(mix.leaf_poseidon),
      (unsigned long long)(mix.replica_bits + mix.index_and_data_bits),
      pct(mix.replica_bits + mix.index_and_data_bits));
  p.curve = curve_id_t::bn254;
  bench_porep<bn254::fr_t>("bn254", p, repeats);
  bench_gadgets<bn254::fr_t>(repeats);
  p.curve = curve_id_t::bls12_381;
  bench_porep<bls12_381::fr_t>("bls12-381", p, repeats);
  bench_gadgets<bls12_381::fr_t>(repeats);
  return 0;
}
