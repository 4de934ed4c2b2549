// GPU equals CPU, bit for bit: the odd-coset NTT (2^1 … 2^22), MSM in G1 and G2 (random, zero,
// one and r−1 scalars, infinity bases; 1 … 2^22 points), and whole proofs with the CUDA
// accelerator on the snarkjs fixtures. The device context: a second proof with the same key
// finds its bases resident (and equals the CPU proof), bases rewritten at the same address are
// not taken from the cache, a tiny VRAM budget makes MSMs stream their bases in chunks (and
// still equal the CPU), and device-timed stage spans lie inside the host's. Without a usable
// device the program says why and exits 77, which CTest reports as skipped.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <random>
#include <set>
#include <utility>

#include "cuda/zkcuda.hpp"
#include "zk/formats/wtns.hpp"
#include "zk/groth16/api.hpp"
#include "zk/groth16/verifier.hpp"
#include "zk/msm/msm.hpp"
#include "zk/ntt/ntt.hpp"

using namespace zk;

namespace {

std::mt19937_64 rng(20261202);

template <class F>
F random_fr() {
  for (;;) {
    typename F::big_t v{};
    for (auto& l : v.l) l = rng();
    v.l[3] &= (1ULL << (F::bits - 192)) - 1;
    if (ff::big_lt(v, F::modulus)) return F::from_canonical(v);
  }
}

// n bases: consecutive multiples of a random point, with every 13th at infinity.
template <class G, class J>
std::vector<ec::affine_t<G>> bases(const ec::affine_t<G>& gen, size_t n) {
  std::vector<J> j(n);
  J acc = J::from_affine(gen).dbl();
  for (size_t i = 0; i < n; ++i) j[i] = i % 13 == 5 ? J::infinity() : (acc = acc.add_mixed(gen));
  std::vector<ec::affine_t<G>> a(n);
  std::vector<typename G::field_t> scratch(n);
  ec::batch_to_affine(j.data(), a.data(), scratch.data(), n);
  return a;
}

template <class F>
std::vector<uint8_t> scalars(size_t n) {
  std::vector<uint8_t> s(32 * n, 0);
  for (size_t i = 0; i < n; ++i) {
    typename F::big_t k{};
    switch (i % 9) {
      case 0:
        break;  // zero
      case 1:
        k.l[0] = 1;
        break;  // one
      case 2:
        k = (-F::one()).to_canonical();
        break;  // r − 1
      default:
        k = random_fr<F>().to_canonical();
    }
    std::memcpy(&s[32 * i], k.l, 32);
  }
  return s;
}

// Scalars the way witnesses have them: all ones, one value repeated, small values (bits, bytes).
// Each piles most points into a few buckets — the load-balanced accumulation's case.
enum class skew_t { ones, repeated, bytes };
template <class F>
std::vector<uint8_t> skewed_scalars(size_t n, skew_t k) {
  std::vector<uint8_t> s(32 * n, 0);
  const auto same = random_fr<F>().to_canonical();
  for (size_t i = 0; i < n; ++i) {
    typename F::big_t v{};
    if (k == skew_t::ones)
      v.l[0] = 1;
    else if (k == skew_t::repeated)
      v = same;
    else
      v.l[0] = rng() % 256;
    std::memcpy(&s[32 * i], v.l, 32);
  }
  return s;
}

// GPU = CPU on n points of the group G (multiples of gen) with scalars s; returns the GPU
// call's timing (how its bases were served).
template <class G, class J, class Fr>
cuda::call_timing_t check_msm_in(const ec::affine_t<G>& gen, size_t n,
                                 const std::vector<uint8_t>& s) {
  auto b = bases<G, J>(gen, n);
  J gpu;
  cuda::status_t st = cuda::msm(b.data(), s.data(), n, &gpu);
  REQUIRE_MESSAGE(bool(st), st.message);
  const cuda::call_timing_t t = cuda::last_call();
  CHECK(gpu == msm::msm<G>(b.data(), s.data(), n, Fr::bits));
  return t;
}

// check_msm_in in G1 or G2 of curve C, with the given scalars, else the mixed ones of scalars().
template <class C>
cuda::call_timing_t check_msm(size_t n, bool g2, std::vector<uint8_t> s = {}) {
  CAPTURE(n);
  CAPTURE(g2);
  using fr = typename C::fr_t;
  if (s.empty()) s = scalars<fr>(n);
  return g2 ? check_msm_in<typename C::g2, typename C::g2_jacobian, fr>(C::g2_generator, n, s)
            : check_msm_in<typename C::g1, typename C::g1_jacobian, fr>(C::g1_generator, n, s);
}

// The GPU's compute_h on random a, b, c of 2^logn against the CPU's: three odd-coset transforms
// and h = a·b − c, canonical.
template <class F>
void check_compute_h(unsigned logn) {
  CAPTURE(logn);
  const size_t n = size_t(1) << logn;
  std::vector<F> a(n), b(n), c(n);
  for (size_t i = 0; i < n; ++i)
    a[i] = random_fr<F>(), b[i] = random_fr<F>(), c[i] = random_fr<F>();
  auto h = a;
  cuda::status_t st = cuda::compute_h(h.data(), b.data(), c.data(), logn);
  REQUIRE_MESSAGE(bool(st), st.message);
  ntt::domain_t<F> d(logn);
  d.to_odd_coset(a.data());
  d.to_odd_coset(b.data());
  d.to_odd_coset(c.data());
  size_t bad = 0;
  for (size_t i = 0; i < n; ++i) {
    const auto expect = (a[i] * b[i] - c[i]).to_canonical();
    bad += std::memcmp(expect.l, h[i].l, sizeof(expect.l)) != 0;
  }
  CHECK(bad == 0);
}

// The GPU's odd-coset NTT of random data of 2^logn against the CPU's.
template <class F>
void check_ntt(unsigned logn) {
  CAPTURE(logn);
  std::vector<F> a(size_t(1) << logn);
  for (auto& x : a) x = random_fr<F>();
  auto b = a;
  ntt::domain_t<F>(logn).to_odd_coset(a.data());
  cuda::status_t st = cuda::ntt_to_odd_coset(b.data(), logn);
  REQUIRE_MESSAGE(bool(st), st.message);
  CHECK(a == b);
}

// Sets the device context's options for a scope, restoring the defaults after.
struct options_scope_t {
  explicit options_scope_t(const cuda::options_t& o) {
    auto st = cuda::set_options(o);
    REQUIRE_MESSAGE(bool(st), st.message);
  }
  ~options_scope_t() { (void)cuda::set_options(cuda::options_t{}); }
};

// The fixtures of this checkout; $ZK_SOURCE_DIR overrides the build's path (a binary built
// here and run on another machine's copy of the tree: scripts/gpu-bundle).
std::string fixture(const char* curve, const char* name) {
  const char* env = std::getenv("ZK_SOURCE_DIR");
  return std::string(env && *env ? env : ZK_SOURCE_DIR) + "/tests/fixtures/" + curve + "/" + name;
}

template <class C>
bool same_proof(const groth16::proof_t<C>& x, const groth16::proof_t<C>& y) {
  return x.a == y.a && x.b == y.b && x.c == y.c;
}

template <class C>
groth16::accelerator_t<C> accelerator() {
  if constexpr (std::is_same_v<C, curves::bn254>)
    return cuda::accelerator_bn254();
  else
    return cuda::accelerator_bls12_381();
}

}  // namespace

TEST_CASE_TEMPLATE("NTT odd coset: GPU equals CPU, 2^0 … 2^22", F, bn254::fr_t, bls12_381::fr_t) {
  for (unsigned logn = 0; logn <= 22; logn += (logn < 12 ? 1 : 5)) check_ntt<F>(logn);
}

TEST_CASE_TEMPLATE("compute_h whole (three odd-coset NTTs, h = a·b − c, canonical): GPU equals CPU",
                   F, bn254::fr_t, bls12_381::fr_t) {
  for (unsigned logn : {0u, 1u, 7u, 10u, 11u, 16u, 21u}) check_compute_h<F>(logn);
}

// Small sizes of everything, for compute-sanitizer (bench/gpu runs memcheck, racecheck and
// initcheck on this case alone: every kernel, tile shape and MSM path, in seconds).
TEST_CASE("sanitizer set: small NTTs, compute_h, MSMs resident and streamed") {
  using F = bn254::fr_t;
  using C = curves::bn254;
  for (unsigned logn : {0u, 1u, 10u, 11u}) {
    check_ntt<F>(logn);
    check_compute_h<F>(logn);
  }
  for (size_t n : {size_t(1), size_t(7), size_t(1000)}) {
    check_msm<C>(n, false);
    check_msm<C>(n, true);
  }
  check_msm<C>(3000, false, skewed_scalars<F>(3000, skew_t::ones));
  cuda::options_t o;
  o.vram_budget = 1;
  o.stream_chunk_points = 1000;
  options_scope_t scope(o);
  for (size_t n : {size_t(7), size_t(2500)}) CHECK(check_msm<C>(n, false).streamed);
}

TEST_CASE_TEMPLATE("MSM G1 and G2: GPU equals CPU", C, curves::bn254, curves::bls12_381) {
  for (size_t n : {size_t(1), size_t(2), size_t(3), size_t(100), size_t(1) << 12, size_t(1) << 16,
                   size_t(1) << 20})
    CHECK(check_msm<C>(n, false).resident);
  for (size_t n : {size_t(1), size_t(7), size_t(1000), size_t(1) << 16})
    CHECK(check_msm<C>(n, true).resident);
}

TEST_CASE_TEMPLATE(
    "MSM with witness-like scalars (ones, one repeated value, bytes): GPU equals CPU", C,
    curves::bn254, curves::bls12_381) {
  for (skew_t k : {skew_t::ones, skew_t::repeated, skew_t::bytes}) {
    CAPTURE(int(k));
    for (size_t n : {size_t(3000), size_t(1) << 20})
      check_msm<C>(n, false, skewed_scalars<typename C::fr_t>(n, k));
    check_msm<C>(size_t(1) << 14, true, skewed_scalars<typename C::fr_t>(size_t(1) << 14, k));
  }
}

TEST_CASE_TEMPLATE("MSM with a tiny VRAM budget streams its bases in chunks and equals the CPU", C,
                   curves::bn254, curves::bls12_381) {
  cuda::options_t o;
  o.vram_budget = 1;             // nothing fits: every MSM streams
  o.stream_chunk_points = 1000;  // many chunks, both slots reused, a short last chunk
  options_scope_t scope(o);
  CHECK(cuda::get_stats().resident_bytes == 0);  // set_options evicted everything
  CHECK(cuda::get_stats().resident_sections == 0);
  for (size_t n :
       {size_t(1), size_t(999), size_t(1000), size_t(1001), size_t(4097), size_t(1) << 16}) {
    for (bool g2 : {false, true}) {
      if (g2 && n > 4097) continue;
      auto t = check_msm<C>(n, g2);
      CHECK(t.streamed);
      CHECK_FALSE(t.resident);
      CHECK(t.chunks == (n + 999) / 1000);
    }
  }
  // Large enough for 16-bit windows (c depends on n, not on the chunk).
  cuda::options_t big = o;
  big.stream_chunk_points = (size_t(1) << 20) / 3;
  options_scope_t scope2(big);
  auto t = check_msm<C>((size_t(1) << 20) + 5, false);
  CHECK(t.streamed);
  CHECK(t.chunks == 4);
}

TEST_CASE(
    "the key cache: bases rewritten at the same address are uploaded again, not taken stale") {
  using C = curves::bn254;
  const size_t n = 5000;
  auto s = scalars<C::fr_t>(n);
  auto b = bases<C::g1, C::g1_jacobian>(C::g1_generator, n);
  C::g1_jacobian gpu;
  REQUIRE(bool(cuda::msm_g1_bn254(b.data(), s.data(), n, &gpu)));
  REQUIRE(bool(cuda::msm_g1_bn254(b.data(), s.data(), n, &gpu)));
  CHECK(cuda::last_call().cache_hit);
  std::reverse(b.begin(), b.end());  // same address, same size, other points
  REQUIRE(bool(cuda::msm_g1_bn254(b.data(), s.data(), n, &gpu)));
  CHECK_FALSE(cuda::last_call().cache_hit);
  CHECK(cuda::last_call().resident);
  CHECK(gpu == msm::msm<C::g1>(b.data(), s.data(), n, C::fr_t::bits));
}

TEST_CASE("MSM G1 BN254 at 2^22: GPU equals CPU") {
  check_msm<curves::bn254>(size_t(1) << 22, false);
}

TEST_CASE("whole proofs with the CUDA accelerator verify (snarkjs fixtures)") {
  auto acc_bn = cuda::accelerator_bn254();
  auto acc_bls = cuda::accelerator_bls12_381();
  for (const char* curve : {"bn254", "bls12_381"})
    for (const char* name : {"mulchain", "poseidon"}) {
      std::string dir = fixture(curve, name);
      CAPTURE(dir);
      // ZK_GPU_PROOF_DIR: keep each proof with its public signals and verification key there
      // (bench/gpu brings them back from the GPU machine for snarkjs: bench/gpu-verify).
      const char* keep = std::getenv("ZK_GPU_PROOF_DIR");
      auto out = keep && *keep ? std::filesystem::path(keep) / (std::string(curve) + "-" + name)
                               : std::filesystem::temp_directory_path() /
                                     ("zkfleet-gpu-test-" + std::to_string(::getpid()));
      std::filesystem::create_directories(out);
      std::filesystem::remove(out /
                              "proof.json");  // nothing of an earlier run can pass for this one
      groth16::prove_options_t opt;
      opt.accelerators.bn254 = &acc_bn;
      opt.accelerators.bls12_381 = &acc_bls;
      auto r =
          groth16::prove_files(dir + "/circuit.zkey", dir + "/witness.wtns",
                               (out / "proof.json").string(), (out / "public.json").string(), opt);
      auto v = groth16::verify_files(dir + "/verification_key.json", (out / "public.json").string(),
                                     (out / "proof.json").string());
      CHECK_MESSAGE(v.ok(), v.reason());
      if (keep && *keep)
        std::filesystem::copy_file(dir + "/verification_key.json", out / "verification_key.json",
                                   std::filesystem::copy_options::overwrite_existing);
      (void)r;
    }
}

// A second proof with the same key (same prover, key mapped throughout) finds every base section
// resident; both GPU proofs equal the CPU proof with the same r, s. The stage spans the prover
// reports (prove_loaded wraps its observer with device_timed_observer): a GPU stage's span is the
// device span the accelerator handed over for it, which lies after the previous stage's report and
// before its own; every other stage had no device work and keeps its host span; the spans follow
// one another without overlapping. The first proof, observed by nobody, leaves no stale span in
// the second's compute_h.
template <class C>
void same_key_twice(const char* curve, const char* name) {
  const std::string dir = fixture(curve, name);
  CAPTURE(dir);
  formats::zkey_file_t zkey(dir + "/circuit.zkey");
  formats::wtns_file_t wtns(dir + "/witness.wtns");
  auto pk = groth16::proving_key_t<C>::view(zkey);
  auto acc = accelerator<C>();
  // Each take of the real device span, as it happened: whether there was one, the span, and
  // when it was taken (host clock).
  struct take_t {
    bool had;
    uint64_t b, e, at;
  };
  std::vector<take_t> takes;
  auto real_take = acc.take_device_span;
  acc.take_device_span = [&takes, real_take](uint64_t& b, uint64_t& e) {
    const bool had = real_take(b, e);
    takes.push_back({had, b, e, groth16::now_ns()});
    return had;
  };
  groth16::prover_t<C> cpu(pk), gpu(pk);
  gpu.set_accelerator(&acc);
  const auto r = C::fr_t::from_u64(20261202), s = C::fr_t::from_u64(77);
  const auto want = cpu.prove(wtns.values(), r, s);

  REQUIRE(bool(cuda::forget_cached_bases()));
  cuda::reset_stats();
  const auto first = gpu.prove(wtns.values(), r, s);
  const auto st1 = cuda::get_stats();
  CHECK(st1.base_uploads >= 4);  // h, a, b1, b2 (and c when the circuit has private wires)
  CHECK(st1.base_hits == 0);
  CHECK(st1.streamed_msms == 0);
  CHECK(st1.ntt_calls == 1);  // compute_h whole: its three transforms in one call

  std::vector<std::pair<groth16::prover_stage_t, std::pair<uint64_t, uint64_t>>> reported;
  std::vector<groth16::stage_backend_t> backends;
  takes.clear();
  const uint64_t start = groth16::now_ns();
  const auto second = gpu.prove(wtns.values(), r, s, [&](const groth16::stage_span_t& sp) {
    reported.push_back({sp.stage, {sp.begin_ns, sp.end_ns}});
    backends.push_back(sp.backend);
  });
  const uint64_t stop = groth16::now_ns();
  const auto st2 = cuda::get_stats();
  CHECK(st2.base_uploads == st1.base_uploads);  // nothing uploaded again
  CHECK(st2.base_hits == st1.base_uploads);     // every section found resident
  CHECK(st2.streamed_msms == 0);
  CHECK(st2.resident_bytes > 0);
  CHECK(st2.resident_sections == st1.base_uploads);  // one cached section per upload

  CHECK(same_proof(first, want));
  CHECK(same_proof(second, want));

  // One take when the observer was made (it drops what earlier, unobserved calls left), then one
  // per stage that prove_loaded marks (build_ab is marked by prove before the wrapper exists).
  REQUIRE(reported.size() == std::size(groth16::all_prover_stages));
  REQUIRE(takes.size() == reported.size());
  // The first proof, observed by nobody, left its device spans pending: the wrapper took them
  // when it was made (and dropped them: compute_h's span below starts after that take).
  CHECK(takes[0].had);
  std::set<groth16::prover_stage_t> seen;
  uint64_t prev_end = start, prev_take = takes[0].at;
  for (size_t i = 0; i < reported.size(); ++i) {
    const auto [st, span] = reported[i];
    const auto [b, e] = span;
    CAPTURE(std::string(groth16::stage_name(st)));
    CHECK(seen.insert(st).second);  // each stage once
    CHECK(prev_end <= b);
    CHECK(b <= e);
    CHECK(e <= stop);
    prev_end = e;
    if (st == groth16::prover_stage_t::build_ab) continue;  // before the wrapper: no take
    const take_t& t = takes[i];                             // takes[0] was the wrapper's own
    const bool on_gpu =
        st == groth16::prover_stage_t::compute_h || st == groth16::prover_stage_t::msm_a ||
        st == groth16::prover_stage_t::msm_b1 || st == groth16::prover_stage_t::msm_b2 ||
        st == groth16::prover_stage_t::msm_c || st == groth16::prover_stage_t::msm_h;
    CHECK(t.had == on_gpu);
    CHECK((backends[i] == groth16::stage_backend_t::accelerator) == on_gpu);
    if (on_gpu) {
      CHECK(b == t.b);  // the device's span was reported
      CHECK(e == t.e);
      CHECK(prev_take <= b);  // its calls began after the previous stage was marked
      CHECK(e <= t.at);       // and ended before this one was
    }
    prev_take = t.at;
  }
}

TEST_CASE(
    "the key cache: a second proof with the same key hits the cache and equals the CPU proof") {
  same_key_twice<curves::bn254>("bn254", "mulchain");
  same_key_twice<curves::bn254>("bn254", "poseidon");
  same_key_twice<curves::bls12_381>("bls12_381", "mulchain");
}

TEST_CASE("whole proofs with every MSM streamed (tiny VRAM budget) equal the CPU proof") {
  cuda::options_t o;
  o.vram_budget = 1;
  o.stream_chunk_points = 100;
  options_scope_t scope(o);
  using C = curves::bn254;
  const std::string dir = fixture("bn254", "poseidon");
  formats::zkey_file_t zkey(dir + "/circuit.zkey");
  formats::wtns_file_t wtns(dir + "/witness.wtns");
  auto pk = groth16::proving_key_t<C>::view(zkey);
  auto acc = cuda::accelerator_bn254();
  groth16::prover_t<C> cpu(pk), gpu(pk);
  gpu.set_accelerator(&acc);
  const auto r = C::fr_t::from_u64(5), s = C::fr_t::from_u64(6);
  cuda::reset_stats();
  const auto got = gpu.prove(wtns.values(), r, s);
  const auto st = cuda::get_stats();
  CHECK(st.base_uploads == 0);
  CHECK(st.base_hits == 0);
  CHECK(st.streamed_msms >= 4);
  CHECK(st.resident_bytes == 0);
  CHECK(same_proof(got, cpu.prove(wtns.values(), r, s)));
}

int main(int argc, char** argv) {
  if (auto st = cuda::device_status(); !st) {
    std::printf("SKIPPED: no usable CUDA device: %s\n", st.message.c_str());
    return 77;
  }
  std::printf("CUDA device: %s\n", cuda::device_name().c_str());
  doctest::Context ctx(argc, argv);
  return ctx.run();
}
