// The AVX-512 IFMA field arithmetic (zk/ff/ifma.hpp) against fp_t, lane by lane: random
// elements and the edges (0, 1, p − 1, R mod p); the radix-2^52 round trip. Skipped (with a
// message) on a CPU without IFMA.
#include "zk/ff/ifma.hpp"

#include <doctest/doctest.h>

#include "tests/test_util.hpp"
#include "zk/ff/bls12_381.hpp"
#include "zk/ff/bn254.hpp"

using namespace zk;

#ifdef ZK_FF_IFMA
namespace {

template <class F>
struct lanes_t {
  alignas(64) uint64_t w[ff::ifma::radix52_t<F>::L * 8];
  void set(int lane, const F& x) {
    uint64_t t[ff::ifma::radix52_t<F>::L];
    ff::ifma::split52(x, t);
    for (int j = 0; j < ff::ifma::radix52_t<F>::L; ++j) w[j * 8 + lane] = t[j];
  }
  F get(int lane) const {
    uint64_t t[ff::ifma::radix52_t<F>::L];
    for (int j = 0; j < ff::ifma::radix52_t<F>::L; ++j) t[j] = w[j * 8 + lane];
    return ff::ifma::join52<F>(t);
  }
};

template <class F>
ZK_IFMA_TARGET void ops(const lanes_t<F>& a, const lanes_t<F>& b, lanes_t<F>* out) {
  using V = ff::ifma::vfield_t<F>;
  const auto x = V::load(a.w), y = V::load(b.w);
  V::store(out[0].w, V::mul(x, y));
  V::store(out[1].w, V::add(x, y));
  V::store(out[2].w, V::sub(x, y));
  V::store(out[3].w, V::sqr(x));
  V::store(out[4].w, V::neg(x));
  const __mmask8 z = V::is_zero(x);
  for (int lane = 0; lane < 8; ++lane) out[5].w[lane] = (z >> lane) & 1;
}

template <class F>
void check_field(int rounds) {
  const F edges[] = {F::zero(),           F::one(),       -F::one(),
                     F::from_mont(F::r1), F::from_u64(2), -F::from_u64(2)};
  for (int round = 0; round < rounds; ++round) {
    F x[8], y[8];
    lanes_t<F> a, b, out[6];
    for (int lane = 0; lane < 8; ++lane) {
      x[lane] = test::random_field<F>();
      y[lane] = test::random_field<F>();
      if (round < 6 && lane < 6) x[lane] = edges[(round + lane) % 6], y[lane] = edges[lane];
      a.set(lane, x[lane]);
      b.set(lane, y[lane]);
      REQUIRE(a.get(lane) == x[lane]);  // radix round trip
    }
    ops<F>(a, b, out);
    for (int lane = 0; lane < 8; ++lane) {
      CAPTURE(round);
      CAPTURE(lane);
      REQUIRE(out[0].get(lane) == x[lane] * y[lane]);
      REQUIRE(out[1].get(lane) == x[lane] + y[lane]);
      REQUIRE(out[2].get(lane) == x[lane] - y[lane]);
      REQUIRE(out[3].get(lane) == x[lane].sqr());
      REQUIRE(out[4].get(lane) == -x[lane]);
      REQUIRE(out[5].w[lane] == uint64_t(x[lane].is_zero()));
    }
  }
}

}  // namespace

TEST_CASE("IFMA field arithmetic equals fp_t (BN254 Fq, BLS12-381 Fq, both Fr)") {
  if (!ff::ifma::cpu_has_ifma()) {
    MESSAGE("skipped: this CPU has no AVX-512 IFMA");
    return;
  }
  check_field<bn254::fq_t>(2000);
  check_field<bn254::fr_t>(500);
  check_field<bls12_381::fq_t>(2000);
  check_field<bls12_381::fr_t>(500);
}
#endif
