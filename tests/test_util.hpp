#pragma once
// Shared helpers for the doctest suites: deterministic random field elements and points.
#include <cstdint>
#include <random>
#include <string>

#include "common/ec/curves.hpp"

namespace zk::test {

inline std::mt19937_64& rng() {
  static std::mt19937_64 g(0x5eed2026);
  return g;
}

// Uniform-ish element of F (rejection sampling on the top limb).
template <class F>
F random_field() {
  for (;;) {
    typename F::big_t v{};
    for (int i = 0; i < F::N; ++i) v.l[i] = rng()();
    v.l[F::N - 1] &= (F::bits % 64 == 0) ? ~0ULL : ((1ULL << (F::bits % 64)) - 1);
    if (ff::big_lt(v, F::modulus)) return F::from_canonical(v);
  }
}

template <class F2>
F2 random_fq2() {
  using F = typename F2::base_t;
  return F2{random_field<F>(), random_field<F>()};
}

// A random point of the prime-order subgroup: [k]·generator.
template <class C>
typename C::g1_affine random_g1() {
  auto k = random_field<typename C::fr_t>().to_canonical();
  return C::g1_jacobian::from_affine(C::g1_generator).mul(k).to_affine();
}
template <class C>
typename C::g2_affine random_g2() {
  auto k = random_field<typename C::fr_t>().to_canonical();
  return C::g2_jacobian::from_affine(C::g2_generator).mul(k).to_affine();
}

inline std::string fixture_dir(const std::string& curve, const std::string& name) {
  return std::string(ZK_SOURCE_DIR) + "/tests/fixtures/" + curve + "/" + name;
}

}  // namespace zk::test
