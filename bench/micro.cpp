// Micro-benchmarks of the CPU kernels (not tests): field multiplication (64-bit limbs, and eight
// lanes at once on AVX-512 IFMA), G1/G2 MSM and the NTT.
//
//   build/bench_micro [log2_n=16] [repeats=3]
//
// Prints the median of `repeats` runs per kernel. Random inputs (fixed seed); the bases are
// consecutive multiples of the generator, normalised once. Each MSM is timed with the portable
// kernels and with the IFMA ones in the same process, alternating (the portable figure is the
// path every CPU without IFMA takes; ZK_NO_IFMA=1 forces it for the whole process).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

#include "bench/bench_util.hpp"
#include "zk/base/thread_pool.hpp"
#include "zk/ec/curves.hpp"
#include "zk/ff/ifma.hpp"
#include "zk/msm/msm.hpp"
#include "zk/ntt/ntt.hpp"

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
  msm::options_t portable;
  portable.simd = false;
  std::vector<double> t1p, t1i, t2p, t2i;
  for (int r = 0; r < repeats; ++r) {  // portable and IFMA alternating
    t1p.push_back(median_ms(1, [&] { msm::msm<typename C::g1>(b1.data(), plan, portable); }));
    t1i.push_back(median_ms(1, [&] { msm::msm<typename C::g1>(b1.data(), plan); }));
    t2p.push_back(median_ms(1, [&] { msm::msm<typename C::g2>(b2.data(), plan, portable); }));
    t2i.push_back(median_ms(1, [&] { msm::msm<typename C::g2>(b2.data(), plan); }));
  }
  auto med = [](std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
  };
  std::vector<typename C::fr_t> v(n);
  for (auto& x : v) x = C::fr_t::from_u64(rng());
  auto d = ntt::domain_t<typename C::fr_t>::get(logn);
  double nt = median_ms(repeats, [&] { d->to_odd_coset(v.data()); });
  std::printf(
      "%-10s 2^%u  plan %7.1f ms (c=%u)  msm G1 %8.1f ms portable %8.1f ms IFMA  msm G2 %8.1f ms "
      "portable %8.1f ms IFMA  odd-coset NTT %7.1f ms\n",
      name, logn, plan_ms, plan.c, med(t1p), med(t1i), med(t2p), med(t2i), nt);
}

#ifdef ZK_FF_IFMA
// Eight-lane Montgomery multiplications, four independent vectors: ns per element product.
template <class F>
ZK_IFMA_TARGET double ifma_mul_ns(int iters) {
  using V = ff::ifma::vfield_t<F>;
  typename V::vfe x[4], b = V::broadcast(F::from_u64(11));
  for (int c = 0; c < 4; ++c) x[c] = V::broadcast(F::from_u64(c + 3));
  std::vector<double> t;
  for (int r = 0; r < 3; ++r) {  // (a lambda would not be compiled for IFMA)
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < iters / 4; ++i)
      for (int c = 0; c < 4; ++c) x[c] = V::mul(x[c], b);
    t.push_back(
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(t.begin(), t.end());
  const double ms = t[1];
  alignas(64) uint64_t sink[8 * V::L];
  V::store(sink, x[0]);
  return ms * 1e6 / (double(iters / 4) * 4 * 8) + double(sink[0] & 1) * 1e-12;
}
#endif

template <class F>
void field(const char* name) {
  F a[8], b = F::from_u64(11);
  for (int j = 0; j < 8; ++j) a[j] = F::from_u64(j + 3);
  const int iters = 2000000;
  double ms = median_ms(3, [&] {
    for (int i = 0; i < iters; ++i)
      for (int j = 0; j < 8; ++j) a[j] = a[j] * b;
  });
  std::printf("%-10s mul %.2f ns (throughput, 8 independent chains) [%d]", name,
              ms * 1e6 / (8.0 * iters), int(a[0].l[0] & 1));
#ifdef ZK_FF_IFMA
  if (ff::ifma::available()) {
    const double v = ifma_mul_ns<F>(iters);
    std::printf("   IFMA %.2f ns per element (8 lanes, 4 independent vectors)", v);
  }
#endif
  std::printf("\n");
}

}  // namespace

int main(int argc, char** argv) {
  unsigned logn = argc > 1 ? std::atoi(argv[1]) : 16;
  int repeats = argc > 2 ? std::atoi(argv[2]) : 3;
  std::printf("threads: %u\n", compute_threads());
  field<bn254::fq_t>("bn254 fq");
  field<bls12_381::fq_t>("bls fq");
  run<curves::bn254>("bn254", logn, repeats);
  run<curves::bls12_381>("bls12-381", logn, repeats);
}
