// Micro-benchmarks of the CPU kernels (not tests): field multiplication, G1/G2 MSM and the NTT.
//
//   build/bench_micro [log2_n=16] [repeats=3]
//
// Prints the median of `repeats` runs per kernel. Random inputs (fixed seed); the bases are
// consecutive multiples of the generator, normalised once.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

#include "bench/bench_util.hpp"
#include "common/ec/curves.hpp"
#include "common/msm/msm.hpp"
#include "common/ntt/ntt.hpp"
#include "common/util/thread_pool.hpp"

using namespace zk;
using zk::bench::median_ms;

namespace {

template <class G>
std::vector<ec::affine_t<G>> make_bases(const ec::affine_t<G>& gen, size_t n) {
  using jac = ec::jacobian_t<G>;
  std::vector<jac> j(n);
  jac acc = jac::from_affine(gen).dbl();
  for (size_t i = 0; i < n; ++i) j[i] = acc = acc.add_mixed(gen);
  std::vector<ec::affine_t<G>> a(n);
  std::vector<typename G::field_t> scratch(n);
  ec::batch_to_affine(j.data(), a.data(), scratch.data(), n);
  return a;
}

template <class C>
void run(const char* name, unsigned logn, int repeats) {
  size_t n = size_t(1) << logn;
  std::mt19937_64 rng(42);
  const std::vector<uint8_t> scalars = bench::random_scalars(rng, n);
  auto b1 = make_bases<typename C::g1>(C::g1_generator, n);
  auto b2 = make_bases<typename C::g2>(C::g2_generator, n);
  auto plan = msm::make_plan(scalars.data(), n, C::fr_t::bits);
  double plan_ms = median_ms(repeats, [&] { msm::make_plan(scalars.data(), n, C::fr_t::bits); });
  double g1 = median_ms(repeats, [&] { msm::msm<typename C::g1>(b1.data(), plan); });
  double g2 = median_ms(repeats, [&] { msm::msm<typename C::g2>(b2.data(), plan); });
  std::vector<typename C::fr_t> v(n);
  for (auto& x : v) x = C::fr_t::from_u64(rng());
  auto d = ntt::domain_t<typename C::fr_t>::get(logn);
  double nt = median_ms(repeats, [&] { d->to_odd_coset(v.data()); });
  std::printf(
      "%-10s 2^%u  plan %7.1f ms  msm G1 %8.1f ms  msm G2 %8.1f ms  (c=%u)  odd-coset NTT %7.1f "
      "ms\n",
      name, logn, plan_ms, g1, g2, plan.c, nt);
}

template <class F>
void field(const char* name) {
  F a[8], b = F::from_u64(11);
  for (int j = 0; j < 8; ++j) a[j] = F::from_u64(j + 3);
  const int iters = 2000000;
  double ms = median_ms(3, [&] {
    for (int i = 0; i < iters; ++i)
      for (int j = 0; j < 8; ++j) a[j] = a[j] * b;
  });
  std::printf("%-10s mul %.2f ns (throughput, 8 independent chains) [%d]\n", name,
              ms * 1e6 / (8.0 * iters), int(a[0].l[0] & 1));
}

}  // namespace

int main(int argc, char** argv) {
  unsigned logn = argc > 1 ? std::atoi(argv[1]) : 16;
  int repeats = argc > 2 ? std::atoi(argv[2]) : 3;
  std::printf("threads: %u\n", util::compute_threads());
  field<bn254::fq_t>("bn254 fq");
  field<bls12_381::fq_t>("bls fq");
  run<curves::bn254>("bn254", logn, repeats);
  run<curves::bls12_381>("bls12-381", logn, repeats);
}
