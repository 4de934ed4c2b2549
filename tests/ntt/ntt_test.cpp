// NTT with snarkjs's roots: known root values, round trips, agreement with a naive DFT, and the
// odd-coset evaluation of compute_h against direct polynomial evaluation.
#include "zk/ntt/ntt.hpp"

#include <doctest/doctest.h>

#include "tests/test_util.hpp"
#include "zk/base/hex.hpp"
#include "zk/ff/bls12_381.hpp"
#include "zk/ff/bn254.hpp"

using namespace zk;

TEST_CASE("snarkjs roots of unity (docs/formats.md §5.1, §5.2)") {
  CHECK(ntt::root_of_unity<bn254::fr_t>(28).to_string() ==
        "19103219067921713944291392827692070036145651957329286315305642004821462161904");
  CHECK(ff::to_hex(ntt::root_of_unity<bls12_381::fr_t>(32).to_canonical()) ==
        "0x212d79e5b416b6f0fd56dc8d168d6c0c4024ff270b3e0941b788f500b912f1f");
  CHECK(ntt::root_of_unity<bn254::fr_t>(1) == -bn254::fr_t::one());
  // ω_k has order exactly 2^k
  auto w = ntt::root_of_unity<bn254::fr_t>(10);
  for (int i = 0; i < 9; ++i) w = w.sqr();
  CHECK(w == -bn254::fr_t::one());
}

TEST_CASE_TEMPLATE("NTT against a naive DFT and round trip", F, bn254::fr_t, bls12_381::fr_t) {
  for (unsigned logn : {0u, 1u, 2u, 3u, 5u, 8u, 13u, 14u}) {
    CAPTURE(logn);
    size_t n = size_t(1) << logn;
    ntt::domain_t<F> d(logn);
    std::vector<F> a(n), x;
    for (auto& v : a) v = test::random_field<F>();
    x = a;
    d.forward(x.data());
    if (logn <= 8) {
      for (size_t k = 0; k < n; ++k) {
        F acc = F::zero(), wk = d.omega().pow_u64(k), w = F::one();
        for (size_t j = 0; j < n; ++j) acc += a[j] * w, w = w * wk;
        REQUIRE(x[k] == acc);
      }
    }
    d.inverse(x.data());
    REQUIRE(x == a);
  }
}

TEST_CASE_TEMPLATE("to_odd_coset evaluates on ω_2n·⟨ω_n⟩", F, bn254::fr_t, bls12_381::fr_t) {
  for (unsigned logn : {1u, 4u, 9u, 13u}) {
    CAPTURE(logn);
    size_t n = size_t(1) << logn;
    ntt::domain_t<F> d(logn);
    std::vector<F> coeffs(n), evals(n);
    for (auto& v : coeffs) v = test::random_field<F>();
    evals = coeffs;
    d.forward(evals.data());  // evaluations on ⟨ω_n⟩
    d.to_odd_coset(evals.data());
    F g = ntt::root_of_unity<F>(logn + 1);
    for (size_t i : {size_t(0), size_t(1), n / 2, n - 1}) {
      F x = g * d.omega().pow_u64(i), acc = F::zero();
      for (size_t j = n; j-- > 0;) acc = acc * x + coeffs[j];  // Horner
      REQUIRE(evals[i] == acc);
    }
  }
}
