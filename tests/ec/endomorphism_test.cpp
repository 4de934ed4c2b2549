// GLV on G1 and GLS on G2 (zk/ec/endomorphism.hpp): the constants' defining properties (β a
// primitive cube root of unity, λ its eigenvalue, ψ's eigenvalue p mod r, each basis vector in
// the lattice, det = ±r), and the decompositions: Σ k_i·λ^i ≡ k and |k_i| < 2^max_bits on random
// scalars and on the edges (0, 1, r − 1, λ, multiples of basis vectors, 2^255 − 1), and at point
// level Σ ±k_i·E^i(P) = k·P.
#include "zk/ec/endomorphism.hpp"

#include <doctest/doctest.h>

#include <vector>

#include "tests/test_util.hpp"

using namespace zk;

namespace {

template <class Fr, int D>
Fr recompose(const ec::split_t<D>& s, const Fr& lambda) {
  Fr acc = Fr::zero(), pw = Fr::one();
  for (int i = 0; i < D; ++i) {
    typename Fr::big_t m{};
    m.l[0] = uint64_t(s.mag[i]);
    m.l[1] = uint64_t(s.mag[i] >> 64);
    // |k_i| < 2^127 < r: the canonical integer is the value itself.
    const Fr ki = Fr::from_canonical(m);
    acc += (s.neg[i] ? -ki : ki) * pw;
    pw *= lambda;
  }
  return acc;
}

template <class Fr, int D>
std::vector<typename Fr::big_t> edge_scalars(const ec::lattice_t<D>& l, const Fr& lambda) {
  std::vector<typename Fr::big_t> ks;
  ks.push_back({});
  ks.push_back({{1}});
  ks.push_back({{2}});
  ks.push_back((-Fr::one()).to_canonical());
  ks.push_back((-Fr::from_u64(2)).to_canonical());
  ks.push_back(lambda.to_canonical());
  ks.push_back((lambda - Fr::one()).to_canonical());
  ks.push_back((lambda * lambda).to_canonical());
  // Σ_i b_{j,i}·λ^i ≡ 0: multiples and neighbours of the basis vectors' first coordinates.
  for (int j = 0; j < D; ++j) {
    const unsigned __int128 m = l.b_neg[j][0] ? 0 - l.b[j][0] : l.b[j][0];
    typename Fr::big_t v{};
    v.l[0] = uint64_t(m);
    v.l[1] = uint64_t(m >> 64);
    const Fr f = Fr::from_canonical(v);
    for (const Fr& x : {f, f + Fr::one(), f - Fr::one(), f * Fr::from_u64(3), -f})
      ks.push_back(x.to_canonical());
  }
  typename Fr::big_t top{};
  for (int i = 0; i < 4; ++i) top.l[i] = ~0ULL;
  top.l[3] >>= 1;  // 2^255 − 1 (not reduced: the split takes any k < 2^256)
  ks.push_back(top);
  return ks;
}

template <class Fr, int D>
void check_split(const ec::lattice_t<D>& l, const Fr& lambda, int random_count) {
  // The lattice: Σ_i b_{j,i}·λ^i ≡ 0 for every basis vector.
  for (int j = 0; j < D; ++j) {
    Fr acc = Fr::zero(), pw = Fr::one();
    for (int i = 0; i < D; ++i) {
      const unsigned __int128 m = l.b_neg[j][i] ? 0 - l.b[j][i] : l.b[j][i];
      typename Fr::big_t v{};
      v.l[0] = uint64_t(m);
      v.l[1] = uint64_t(m >> 64);
      const Fr f = Fr::from_canonical(v);
      acc += (l.b_neg[j][i] ? -f : f) * pw;
      pw *= lambda;
    }
    CHECK(acc.is_zero());
  }
  auto ks = edge_scalars<Fr, D>(l, lambda);
  for (int i = 0; i < random_count; ++i) ks.push_back(test::random_field<Fr>().to_canonical());
  for (const auto& k : ks) {
    const auto s = l.split(k.l);
    // k itself may exceed r (2^255 − 1): compare modulo r.
    typename Fr::big_t kr = k;
    while (!ff::big_lt(kr, Fr::modulus)) ff::big_sub(kr, kr, Fr::modulus);
    REQUIRE(recompose(s, lambda) == Fr::from_canonical(kr));
    for (int i = 0; i < D; ++i) REQUIRE((s.mag[i] >> l.max_bits) == 0);
  }
}

template <class C>
void check_curve() {
  using E = ec::endomorphisms_t<C>;
  using Fr = typename C::fr_t;
  using Fq = typename C::fq_t;
  const Fr lambda = Fr::from_canonical(E::lambda);
  const Fr lpsi = Fr::from_canonical(E::psi_lambda);
  // β³ = 1 ≠ β; λ² + λ + 1 ≡ 0 mod r; ψ's λ is p mod r: its order divides 12, it is a root of
  // the 12th cyclotomic polynomial x⁴ − x² + 1.
  CHECK(E::beta * E::beta * E::beta == Fq::one());
  CHECK(E::beta != Fq::one());
  CHECK((lambda * lambda + lambda + Fr::one()).is_zero());
  const Fr l2 = lpsi * lpsi;
  CHECK((l2 * l2 - l2 + Fr::one()).is_zero());
  // Eigenvalues on the generators and on random points.
  for (int i = 0; i < 4; ++i) {
    const auto p = i == 0 ? C::g1_generator : test::random_g1<C>();
    CHECK(C::g1_jacobian::from_affine(ec::phi<C>(p)) ==
          C::g1_jacobian::from_affine(p).mul(E::lambda));
    const auto q = i == 0 ? C::g2_generator : test::random_g2<C>();
    auto want = C::g2_jacobian::from_affine(q);
    for (unsigned e = 1; e < 4; ++e) {
      want = want.mul(E::psi_lambda);
      const auto got = ec::psi_pow<C>(q, e);
      CHECK(got.is_on_curve());
      CHECK(C::g2_jacobian::from_affine(got) == want);
    }
  }
  CHECK(ec::phi<C>(C::g1_affine::infinity()).is_infinity());
  CHECK(ec::psi_pow<C>(C::g2_affine::infinity(), 3).is_infinity());
  check_split<Fr, 2>(E::g1_lattice, lambda, 3000);
  check_split<Fr, 4>(E::g2_lattice, lpsi, 3000);
  // Point level: k·P = Σ ±k_i·E^i(P).
  for (int i = 0; i < 3; ++i) {
    const auto k = test::random_field<Fr>().to_canonical();
    const auto p = test::random_g1<C>();
    const auto s1 = E::g1_lattice.split(k.l);
    auto sum = C::g1_jacobian::infinity();
    const typename C::g1_affine img[2] = {p, ec::phi<C>(p)};
    for (int e = 0; e < 2; ++e) {
      const ff::bigint_t<2> m{{uint64_t(s1.mag[e]), uint64_t(s1.mag[e] >> 64)}};
      const auto t = C::g1_jacobian::from_affine(s1.neg[e] ? -img[e] : img[e]).mul(m);
      sum += t;
    }
    CHECK(sum == C::g1_jacobian::from_affine(p).mul(k));
    const auto q = test::random_g2<C>();
    const auto s2 = E::g2_lattice.split(k.l);
    auto sum2 = C::g2_jacobian::infinity();
    for (unsigned e = 0; e < 4; ++e) {
      const ff::bigint_t<2> m{{uint64_t(s2.mag[e]), uint64_t(s2.mag[e] >> 64)}};
      const auto img2 = ec::psi_pow<C>(q, e);
      sum2 += C::g2_jacobian::from_affine(s2.neg[e] ? -img2 : img2).mul(m);
    }
    CHECK(sum2 == C::g2_jacobian::from_affine(q).mul(k));
  }
}

}  // namespace

TEST_CASE("GLV (G1) and GLS (G2) endomorphisms and decompositions, BN254") {
  check_curve<curves::bn254>();
}
TEST_CASE("GLV (G1) and GLS (G2) endomorphisms and decompositions, BLS12-381") {
  check_curve<curves::bls12_381>();
}
