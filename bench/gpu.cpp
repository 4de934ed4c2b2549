// GPU kernel timings (not a test): the odd-coset NTT and MSM in G1 and G2 at 2^from … 2^to, on
// both curves, whole-call wall time (host ↔ device copies included: the entry points take host
// memory) and kernel time (CUDA events), median of `repeats` — the MSM bases are resident in VRAM
// after the first repeat (the key cache). Then, per curve and size, the MSM G1's three ways of
// getting its bases, timed with CUDA events (cuda::last_call): a miss (uploaded into the cache), a
// hit (resident), and streamed in chunks (VRAM budget forced to 1 byte); upload / kernels / total
// ms each. And MSM G1 by scalar distribution: uniform, a witness's (mostly 0 and 1), all ones.
//
//   build/bench_gpu [from=20] [to=24] [repeats=3]
//
// Bases: 2^16 distinct points tiled to size (MSM cost does not depend on distinctness);
// scalars: uniform below r. Exits 77 (and says why) without a usable device.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "bench/bench_util.hpp"
#include "cuda/zkcuda.hpp"

using namespace zk;
using zk::bench::median_ms;
using zk::bench::random_scalars;

namespace {

template <class G, class J>
std::vector<ec::affine_t<G>> tiled_bases(const ec::affine_t<G>& gen, size_t n) {
  const size_t distinct = std::min<size_t>(n, size_t(1) << 16);
  std::vector<J> j(distinct);
  J acc = J::from_affine(gen);
  for (auto& x : j) x = acc = acc.add_mixed(gen);
  std::vector<ec::affine_t<G>> a(n);
  std::vector<typename G::field_t> scratch(distinct);
  ec::batch_to_affine(j.data(), a.data(), scratch.data(), distinct);
  for (size_t i = distinct; i < n; ++i) a[i] = a[i % distinct];
  return a;
}

void check(const cuda::status_t& s) {
  if (!s) {
    std::fprintf(stderr, "bench_gpu: %s\n", s.message.c_str());
    std::exit(1);
  }
}

// Median whole-call wall ms and median kernel ms (CUDA events: cuda::last_call().compute_ms) of
// `repeats` calls of f.
struct timed_t {
  double wall_ms, kernel_ms;
};
template <class F>
timed_t median_call(int repeats, F&& f) {
  std::vector<double> kernel;
  const double wall = median_ms(repeats, [&] {
    f();
    kernel.push_back(cuda::last_call().compute_ms);
  });
  std::sort(kernel.begin(), kernel.end());
  return {wall, kernel[kernel.size() / 2]};
}

template <class C>
void run(const char* name, unsigned from, unsigned to, int repeats) {
  using fr = typename C::fr_t;
  std::mt19937_64 rng(1);
  for (unsigned lg = from; lg <= to; ++lg) {
    const size_t n = size_t(1) << lg;
    const std::vector<uint8_t> sc = random_scalars(rng, n);
    std::vector<fr> v(n);
    for (auto& x : v) x = fr::from_u64(rng());
    const timed_t ntt = median_call(repeats, [&] { check(cuda::ntt_to_odd_coset(v.data(), lg)); });
    auto b1 = tiled_bases<typename C::g1, typename C::g1_jacobian>(C::g1_generator, n);
    typename C::g1_jacobian r1;
    const timed_t g1 =
        median_call(repeats, [&] { check(cuda::msm(b1.data(), sc.data(), n, &r1)); });
    b1 = {};
    auto b2 = tiled_bases<typename C::g2, typename C::g2_jacobian>(C::g2_generator, n);
    typename C::g2_jacobian r2;
    const timed_t g2 =
        median_call(repeats, [&] { check(cuda::msm(b2.data(), sc.data(), n, &r2)); });
    std::printf("| %s | 2^%u | %.2f / %.2f | %.2f / %.2f | %.2f / %.2f |\n", name, lg, ntt.wall_ms,
                ntt.kernel_ms, g1.wall_ms, g1.kernel_ms, g2.wall_ms, g2.kernel_ms);
    std::fflush(stdout);
  }
}

// A witness's scalars: about 45 % zeros, 45 % ones, 10 % random (bit-heavy circuits).
std::vector<uint8_t> witness_scalars(std::mt19937_64& rng, size_t n) {
  std::vector<uint8_t> sc = random_scalars(rng, n);
  for (size_t i = 0; i < n; ++i) {
    const uint64_t r = rng() % 20;
    if (r < 18) {
      std::memset(&sc[32 * i], 0, 32);
      sc[32 * i] = uint8_t(r % 2);
    }
  }
  return sc;
}

// MSM G1 with bases resident: uniform scalars against a witness's and all ones (the skewed
// cases the load-balanced accumulation is for).
template <class C>
void skewed(const char* name, unsigned from, unsigned to, int repeats) {
  std::mt19937_64 rng(3);
  for (unsigned lg = from; lg <= to; ++lg) {
    const size_t n = size_t(1) << lg;
    auto b1 = tiled_bases<typename C::g1, typename C::g1_jacobian>(C::g1_generator, n);
    typename C::g1_jacobian r1;
    auto time = [&](const std::vector<uint8_t>& sc) {
      return median_ms(repeats, [&] { check(cuda::msm(b1.data(), sc.data(), n, &r1)); });
    };
    const double uniform = time(random_scalars(rng, n)), witness = time(witness_scalars(rng, n));
    std::vector<uint8_t> ones(32 * n, 0);
    for (size_t i = 0; i < n; ++i) ones[32 * i] = 1;
    const double all_ones = time(ones);
    std::printf("| %s | 2^%u | %.2f | %.2f | %.2f |\n", name, lg, uniform, witness, all_ones);
    std::fflush(stdout);
  }
}

template <class C>
void residency(const char* name, unsigned from, unsigned to) {
  std::mt19937_64 rng(2);
  for (unsigned lg = from; lg <= to; ++lg) {
    const size_t n = size_t(1) << lg;
    const std::vector<uint8_t> sc = random_scalars(rng, n);
    auto b1 = tiled_bases<typename C::g1, typename C::g1_jacobian>(C::g1_generator, n);
    typename C::g1_jacobian r1;
    auto call = [&] {
      check(cuda::msm(b1.data(), sc.data(), n, &r1));
      return cuda::last_call();
    };
    check(cuda::forget_cached_bases());
    const cuda::call_timing_t miss = call();
    const cuda::call_timing_t hit = call();
    cuda::options_t tiny;
    tiny.vram_budget = 1;
    check(cuda::set_options(tiny));
    const cuda::call_timing_t streamed = call();
    check(cuda::set_options(cuda::options_t{}));
    auto cell = [](const cuda::call_timing_t& t) {
      char buf[96];
      std::snprintf(buf, sizeof buf, "%.2f / %.2f / %.2f", t.upload_ms, t.compute_ms, t.total_ms);
      return std::string(buf);
    };
    std::printf("| %s | 2^%u | %s | %s | %s (%u chunks) |\n", name, lg, cell(miss).c_str(),
                cell(hit).c_str(), cell(streamed).c_str(), streamed.chunks);
    std::fflush(stdout);
  }
}

}  // namespace

int main(int argc, char** argv) {
  unsigned from = argc > 1 ? unsigned(std::atoi(argv[1])) : 20,
           to = argc > 2 ? unsigned(std::atoi(argv[2])) : 24;
  int repeats = argc > 3 ? std::atoi(argv[3]) : 3;
  if (auto st = cuda::device_status(); !st) {
    std::printf("SKIPPED: no usable CUDA device: %s\n", st.message.c_str());
    return 77;
  }
  std::printf(
      "device: %s; ms as whole call (host↔device copies included) / kernels alone (CUDA events), "
      "median of %d; MSM bases resident after the first call\n\n",
      cuda::device_name().c_str(), repeats);
  std::printf("| curve | n | odd-coset NTT ms | MSM G1 ms | MSM G2 ms |\n|---|---|---|---|---|\n");
  run<curves::bn254>("BN254", from, to, repeats);
  run<curves::bls12_381>("BLS12-381", from, to, repeats);

  std::printf("\nMSM G1 by scalar distribution (bases resident), whole-call ms, median of %d\n\n",
              repeats);
  std::printf(
      "| curve | n | uniform | witness-like (45 %% 0, 45 %% 1) | all ones "
      "|\n|---|---|---|---|---|\n");
  skewed<curves::bn254>("BN254", from, to, repeats);
  skewed<curves::bls12_381>("BLS12-381", from, to, repeats);

  std::printf(
      "\nMSM G1 by where its bases come from; upload / kernels / total ms (CUDA events), one call "
      "each\n\n");
  std::printf(
      "| curve | n | miss: uploaded into the cache | hit: resident | streamed (budget 1 byte) |\n"
      "|---|---|---|---|---|\n");
  residency<curves::bn254>("BN254", from, to);
  residency<curves::bls12_381>("BLS12-381", from, to);
  const cuda::stats_t st = cuda::get_stats();
  std::printf(
      "\nkey cache: %llu uploads, %llu hits, %llu evictions, %llu streamed MSMs (%llu chunks), "
      "%.1f MiB resident\n",
      (unsigned long long)st.base_uploads, (unsigned long long)st.base_hits,
      (unsigned long long)st.base_evictions, (unsigned long long)st.streamed_msms,
      (unsigned long long)st.streamed_chunks, double(st.resident_bytes) / (1 << 20));
}
