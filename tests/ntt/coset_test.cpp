// bellperson's roots and coset (zk/ntt/ntt.hpp generator parameter; docs/filecoin.md §13): the
// domain of generator 7 against ff's ROOT_OF_UNITY, to_coset against direct evaluation at
// 7·ω^i, and coset_to_coefficients back to the coefficients.
#include <doctest/doctest.h>

#include "tests/test_util.hpp"
#include "zk/base/hex.hpp"
#include "zk/ff/bls12_381.hpp"
#include "zk/ntt/ntt.hpp"

using namespace zk;
using F = bls12_381::fr_t;

TEST_CASE("roots of generator 7 (ff / blstrs ROOT_OF_UNITY) differ from snarkjs's") {
  const F w7 = ntt::root_of_unity<F>(32, 7);
  // ROOT_OF_UNITY = GENERATOR^t, GENERATOR = 7 (zkcrypto/bls12_381 src/scalar.rs; blstrs keeps
  // the same value in Montgomery form, 0x5bf3adda…), canonical big-endian hex.
  CHECK(ff::to_hex(w7.to_canonical()) ==
        "0x16a2a19edfe81f20d09b681922c813b4b63683508c2280b93829971f439f0d2b");
  CHECK(!(w7 == ntt::root_of_unity<F>(32)));
  F w = w7;
  for (int i = 0; i < 31; ++i) w = w.sqr();
  CHECK(w == -F::one());
  CHECK(ntt::domain_t<F>(5, 7).omega() == ntt::root_of_unity<F>(5, 7));
}

TEST_CASE("to_coset and coset_to_coefficients against direct evaluation") {
  const F shift = F::from_u64(7);
  for (unsigned logn : {0u, 1u, 3u, 6u, 13u}) {
    CAPTURE(logn);
    const size_t n = size_t(1) << logn;
    ntt::domain_t<F> d(logn, 7);
    std::vector<F> coeffs(n);
    for (auto& v : coeffs) v = test::random_field<F>();
    std::vector<F> x = coeffs;
    d.forward(x.data());  // evaluations on ω^i
    d.to_coset(x.data(), shift);
    for (size_t i = 0; i < n; i += (n > 64 ? 97 : 1)) {
      const F at = shift * d.omega().pow_u64(i);
      F acc = F::zero(), p = F::one();
      for (size_t j = 0; j < n; ++j) acc += coeffs[j] * p, p = p * at;
      REQUIRE(x[i] == acc);
    }
    d.coset_to_coefficients(x.data(), shift);
    REQUIRE(x == coeffs);
  }
}
