// The constant-time scalar multiplication (ec::ct_mul) against double-and-add (jacobian_t::mul)
// on both curves and both groups: random scalars, the edge scalars 0, 1, 2, r − 1, r and the
// all-ones 2^bits − 1, every window digit, the point at infinity; and the complete projective
// formulas against the Jacobian ones, including their exceptional cases.
#include "zk/ec/ct_mul.hpp"

#include <doctest/doctest.h>

#include <vector>

#include "tests/test_util.hpp"
#include "zk/ec/curves.hpp"

using namespace zk;

namespace {

template <class G, class Fr>
void check_ct_mul(const ec::affine_t<G>& gen, const ec::affine_t<G>& other) {
  using jac = ec::jacobian_t<G>;
  using proj = ec::projective_t<G>;
  using big = typename Fr::big_t;
  constexpr unsigned bits = Fr::bits;

  std::vector<big> scalars;
  big k{};
  scalars.push_back(k);  // 0
  k.l[0] = 1;
  scalars.push_back(k);  // 1
  k.l[0] = 2;
  scalars.push_back(k);  // 2
  k.l[0] = 15;
  scalars.push_back(k);  // one full window
  k.l[0] = 16;
  scalars.push_back(k);  // a window of zeros below a one
  k = Fr::modulus;
  k.l[0] -= 1;
  scalars.push_back(k);            // r − 1
  scalars.push_back(Fr::modulus);  // r: the identity
  for (int i = 0; i < Fr::N; ++i) k.l[i] = ~0ULL;
  k.l[Fr::N - 1] >>= 64 * Fr::N - bits;
  scalars.push_back(k);  // 2^bits − 1: every digit 15
  for (int i = 0; i < Fr::N; ++i) k.l[i] = 0x0123456789abcdefULL ^ (uint64_t(i) << 60);
  k.l[Fr::N - 1] &= (1ULL << (bits % 64)) - 1;
  scalars.push_back(k);  // every digit 0..15
  for (int i = 0; i < 12; ++i) scalars.push_back(test::random_field<Fr>().to_canonical());

  const jac bases[] = {jac::from_affine(gen), jac::from_affine(other), jac::infinity(),
                       jac::from_affine(gen).dbl() + jac::from_affine(other)};
  for (const jac& p : bases) {
    for (const big& s : scalars) {
      const jac expect = p.mul(s);
      const jac got = ec::ct_mul(p, s, bits);
      CHECK(got == expect);
      CHECK(got.to_affine() == expect.to_affine());
      CHECK(got.is_on_curve());
      // The projective entry point, the full 256-bit width and the affine result agree.
      CHECK(ec::ct_mul(proj::from_jacobian(p), s).to_affine() == expect.to_affine());
    }
  }
  // The identity in, the identity out, in its canonical Jacobian form.
  const jac inf = ec::ct_mul(jac::infinity(), scalars.back(), bits);
  CHECK(inf.is_infinity());
  CHECK(inf.to_affine() == ec::affine_t<G>::infinity());
  // Bits at and above `bits` are not read.
  big high = scalars[1];
  high.l[Fr::N - 1] |= 1ULL << 63;
  CHECK(ec::ct_mul(jac::from_affine(gen), high, bits) == jac::from_affine(gen));
}

template <class G>
void check_complete_formulas(const ec::affine_t<G>& a, const ec::affine_t<G>& b) {
  using jac = ec::jacobian_t<G>;
  using proj = ec::projective_t<G>;
  using aff = ec::affine_t<G>;
  const proj p = proj::from_affine(a), q = proj::from_affine(b), o = proj::identity();
  const jac pj = jac::from_affine(a), qj = jac::from_affine(b);
  CHECK((p + q).to_jacobian() == pj + qj);
  CHECK((p + p).to_jacobian() == pj.dbl());  // the addition law is also a doubling
  CHECK(p.dbl().to_jacobian() == pj.dbl());
  CHECK((p + (-p)).to_affine() == aff::infinity());
  CHECK((p - q).to_jacobian() == pj - qj);
  CHECK((p + o).to_affine() == a);
  CHECK((o + p).to_affine() == a);
  CHECK((o + o).to_affine() == aff::infinity());
  CHECK(o.dbl().to_affine() == aff::infinity());
  CHECK(proj::from_affine(aff::infinity()).to_affine() == aff::infinity());
  CHECK(proj::from_jacobian(jac::infinity()).to_jacobian().is_infinity());
  // Round trips through every representation.
  const jac sum = pj.dbl() + qj;
  CHECK(proj::from_jacobian(sum).to_jacobian() == sum);
  CHECK(proj::from_jacobian(sum).to_affine() == sum.to_affine());
  // select picks whole points.
  CHECK(proj::select(~0ULL, p, q).to_affine() == a);
  CHECK(proj::select(0, p, q).to_affine() == b);
}

}  // namespace

TEST_CASE_TEMPLATE("ct_mul equals double-and-add on G1 and G2", C, curves::bn254,
                   curves::bls12_381) {
  using fr = typename C::fr_t;
  check_ct_mul<typename C::g1, fr>(C::g1_generator, test::random_g1<C>());
  check_ct_mul<typename C::g2, fr>(C::g2_generator, test::random_g2<C>());
}

TEST_CASE_TEMPLATE("complete projective formulas agree with the Jacobian ones", C, curves::bn254,
                   curves::bls12_381) {
  check_complete_formulas<typename C::g1>(C::g1_generator, test::random_g1<C>());
  check_complete_formulas<typename C::g2>(C::g2_generator, test::random_g2<C>());
}

TEST_CASE_TEMPLATE("ct_field_t arithmetic equals fp_t's", C, curves::bn254, curves::bls12_381) {
  using fq = typename C::fq_t;
  using fq2 = typename C::fq2_t;
  using ct1 = ec::ct_field_t<fq>;
  using ct2 = ec::ct_field_t<fq2>;
  // Edge values: 0, 1, p − 1 (sums and differences that wrap either way).
  const fq minus_one = -fq::one();
  std::vector<fq> xs = {fq::zero(), fq::one(), minus_one};
  for (int i = 0; i < 8; ++i) xs.push_back(test::random_field<fq>());
  for (const fq& a : xs)
    for (const fq& b : xs) {
      const ct1 x = ct1::from(a), y = ct1::from(b);
      CHECK((x + y).value() == a + b);
      CHECK((x - y).value() == a - b);
      CHECK((x * y).value() == a * b);
      CHECK((-x).value() == -a);
      const fq2 u{a, b}, v{b, a + fq::one()};
      const ct2 s = ct2::from(u), t = ct2::from(v);
      CHECK((s + t).value() == u + v);
      CHECK((s - t).value() == u - v);
      CHECK((s * t).value() == u * v);
      CHECK(s.sqr().value() == u.sqr());
      CHECK(s.inverse().value() == u.inverse());
    }
  CHECK(ct1::zero().zero_mask() == ~0ULL);
  CHECK(ct1::one().zero_mask() == 0);
  CHECK(ct2::from(fq2{fq::zero(), fq::one()}).zero_mask() == 0);
  CHECK(ct1::zero().inverse().value().is_zero());
}
