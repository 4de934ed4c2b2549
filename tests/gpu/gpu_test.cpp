// GPU equals CPU, bit for bit: the odd-coset NTT (2^1 … 2^22), MSM in G1 and G2 (random, zero,
// one and r−1 scalars, infinity bases; 1 … 2^22 points), and whole proofs with the CUDA
// accelerator on the snarkjs fixtures. Without a usable device the program says why and exits
// 77, which CTest reports as skipped.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <random>

#include "common/formats/wtns.hpp"
#include "common/groth16/api.hpp"
#include "common/groth16/verifier.hpp"
#include "common/msm/msm.hpp"
#include "common/ntt/ntt.hpp"
#include "cuda/zkcuda.hpp"

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
      case 0: break;                                    // zero
      case 1: k.l[0] = 1; break;                        // one
      case 2: k = (-F::one()).to_canonical(); break;    // r − 1
      default: k = random_fr<F>().to_canonical();
    }
    std::memcpy(&s[32 * i], k.l, 32);
  }
  return s;
}

template <class C>
void check_msm(size_t n, bool g2) {
  CAPTURE(n);
  auto s = scalars<typename C::fr_t>(n);
  if (!g2) {
    auto b = bases<typename C::g1, typename C::g1_jacobian>(C::g1_generator, n);
    typename C::g1_jacobian gpu;
    cuda::status_t st;
    if constexpr (std::is_same_v<C, curves::bn254>) st = cuda::msm_g1_bn254(b.data(), s.data(), n, &gpu);
    else st = cuda::msm_g1_bls12_381(b.data(), s.data(), n, &gpu);
    REQUIRE_MESSAGE(bool(st), st.message);
    CHECK(gpu == msm::msm<typename C::g1>(b.data(), s.data(), n, C::fr_t::bits));
  } else {
    auto b = bases<typename C::g2, typename C::g2_jacobian>(C::g2_generator, n);
    typename C::g2_jacobian gpu;
    cuda::status_t st;
    if constexpr (std::is_same_v<C, curves::bn254>) st = cuda::msm_g2_bn254(b.data(), s.data(), n, &gpu);
    else st = cuda::msm_g2_bls12_381(b.data(), s.data(), n, &gpu);
    REQUIRE_MESSAGE(bool(st), st.message);
    CHECK(gpu == msm::msm<typename C::g2>(b.data(), s.data(), n, C::fr_t::bits));
  }
}

}  // namespace

TEST_CASE_TEMPLATE("NTT odd coset: GPU equals CPU, 2^1 … 2^22", F, bn254::fr_t, bls12_381::fr_t) {
  for (unsigned logn = 1; logn <= 22; logn += (logn < 12 ? 1 : 5)) {
    CAPTURE(logn);
    std::vector<F> a(size_t(1) << logn);
    for (auto& x : a) x = random_fr<F>();
    auto b = a;
    ntt::domain_t<F>(logn).to_odd_coset(a.data());
    cuda::status_t st;
    if constexpr (std::is_same_v<F, bn254::fr_t>) st = cuda::ntt_to_odd_coset_bn254(b.data(), logn);
    else st = cuda::ntt_to_odd_coset_bls12_381(b.data(), logn);
    REQUIRE_MESSAGE(bool(st), st.message);
    CHECK(a == b);
  }
}

TEST_CASE_TEMPLATE("MSM G1 and G2: GPU equals CPU", C, curves::bn254, curves::bls12_381) {
  for (size_t n : {size_t(1), size_t(2), size_t(3), size_t(100), size_t(1) << 12, size_t(1) << 16, size_t(1) << 20})
    check_msm<C>(n, false);
  for (size_t n : {size_t(1), size_t(7), size_t(1000), size_t(1) << 16}) check_msm<C>(n, true);
}

TEST_CASE("MSM G1 BN254 at 2^22: GPU equals CPU") { check_msm<curves::bn254>(size_t(1) << 22, false); }

TEST_CASE("whole proofs with the CUDA accelerator verify (snarkjs fixtures)") {
  auto acc_bn = cuda::accelerator_bn254();
  auto acc_bls = cuda::accelerator_bls12_381();
  for (const char* curve : {"bn254", "bls12_381"})
    for (const char* name : {"mulchain", "poseidon"}) {
      std::string dir = std::string(ZK_SOURCE_DIR) + "/tests/fixtures/" + curve + "/" + name;
      CAPTURE(dir);
      auto out = std::filesystem::temp_directory_path() / "zkfleet-gpu-test";
      std::filesystem::create_directories(out);
      groth16::prove_options opt;
      opt.bn254_accelerator = &acc_bn;
      opt.bls12_381_accelerator = &acc_bls;
      auto r = groth16::prove_files(dir + "/circuit.zkey", dir + "/witness.wtns", (out / "proof.json").string(),
                                    (out / "public.json").string(), opt);
      auto v = groth16::verify_files(dir + "/verification_key.json", (out / "public.json").string(),
                                     (out / "proof.json").string());
      CHECK_MESSAGE(v.valid, v.reason);
      (void)r;
    }
}

int main(int argc, char** argv) {
  std::string why;
  if (!cuda::device_available(&why)) {
    std::printf("SKIPPED: no usable CUDA device: %s\n", why.c_str());
    return 77;
  }
  std::printf("CUDA device: %s\n", cuda::device_name().c_str());
  doctest::Context ctx(argc, argv);
  return ctx.run();
}
