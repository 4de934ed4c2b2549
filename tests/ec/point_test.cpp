// Curve points: known generators and constants, group order, and agreement of the Jacobian,
// XYZZ and affine formulas (including their special cases) on both curves and both groups.
#include <doctest/doctest.h>

#include "tests/test_util.hpp"
#include "zk/ec/curves.hpp"

using namespace zk;

namespace {

template <class G>
void check_group(const ec::affine_t<G>& gen) {
  using jac = ec::jacobian_t<G>;
  using xyzz = ec::xyzz_t<G>;
  using aff = ec::affine_t<G>;
  REQUIRE(gen.is_on_curve());
  jac g = jac::from_affine(gen);
  // P + P = 2P through every formula
  CHECK(g + g == g.dbl());
  CHECK(g.add_mixed(gen) == g.dbl());
  CHECK(xyzz::from_affine(gen).add_mixed(gen).to_jacobian() == g.dbl());
  CHECK(xyzz::from_affine(gen).dbl().to_jacobian() == g.dbl());
  // P + (−P) = O
  CHECK((g + (-g)).is_infinity());
  CHECK(g.add_mixed(-gen).is_infinity());
  CHECK(xyzz::from_affine(gen).add_mixed(-gen).is_infinity());
  // identities
  CHECK(g + jac::infinity() == g);
  CHECK(g.add_mixed(aff::infinity()) == g);
  CHECK(jac::infinity().add_mixed(gen) == g);
  CHECK(aff::infinity().is_on_curve());
  CHECK(jac::infinity().to_affine().is_infinity());
  // a chain of mixed additions agrees across representations
  jac j = g.dbl();
  xyzz x = xyzz::from_affine(j.to_affine());
  jac acc = j;
  for (int i = 0; i < 20; ++i) {
    aff step = (g.mul(ff::bigint_t<1>{{uint64_t(3 + i)}})).to_affine();
    acc = acc.add_mixed(step);
    x = x.add_mixed(step);
    j = j + jac::from_affine(step);
  }
  CHECK(acc == j);
  CHECK(x.to_jacobian() == j);
  CHECK(x.to_affine() == j.to_affine());
  CHECK(j.is_on_curve());
  CHECK((x + xyzz::from_affine(gen)).to_jacobian() == x.add_mixed(gen).to_jacobian());
  // scalar multiplication is a homomorphism: [a]P + [b]P = [a+b]P
  ff::bigint_t<1> a{{123456789}}, b{{987654321}}, ab{{123456789ULL + 987654321ULL}};
  CHECK(g.mul(a) + g.mul(b) == g.mul(ab));
}

}  // namespace

TEST_CASE_TEMPLATE("G1 and G2 group law and order", C, curves::bn254, curves::bls12_381) {
  check_group<typename C::g1>(C::g1_generator);
  check_group<typename C::g2>(C::g2_generator);
  // [r]G = O: the generators have the scalar field's prime order
  auto r = C::fr_t::modulus;
  CHECK(C::g1_jacobian::from_affine(C::g1_generator).mul(r).is_infinity());
  CHECK(C::g2_jacobian::from_affine(C::g2_generator).mul(r).is_infinity());
  auto r_minus_1 = r;
  r_minus_1.l[0] -= 1;
  CHECK(C::g1_jacobian::from_affine(C::g1_generator).mul(r_minus_1).to_affine() ==
        -C::g1_generator);
}

TEST_CASE("BN254 twist coefficient is 3/(9+u)") {
  using fq = bn254::fq_t;
  using fq2 = bn254::fq2_t;
  fq2 xi{fq::from_u64(9), fq::one()};
  CHECK(curves::bn254::g2::b() * xi == fq2{fq::from_u64(3), fq::zero()});
}

TEST_CASE("a point off the curve is detected") {
  auto p = curves::bn254::g1_generator;
  p.y = p.y + bn254::fq_t::one();
  CHECK_FALSE(p.is_on_curve());
  auto q = curves::bls12_381::g2_generator;
  q.x.c1 = q.x.c1 + bls12_381::fq_t::one();
  CHECK_FALSE(q.is_on_curve());
}

TEST_CASE_TEMPLATE("batch_to_affine matches one-by-one conversion", C, curves::bn254,
                   curves::bls12_381) {
  using jac = typename C::g1_jacobian;
  std::vector<jac> pts;
  jac g = jac::from_affine(C::g1_generator);
  for (int i = 0; i < 9; ++i)
    pts.push_back(i == 4 ? jac::infinity() : (g = g.dbl() + jac::from_affine(C::g1_generator)));
  std::vector<typename C::g1_affine> out(pts.size());
  std::vector<typename C::fq_t> scratch(pts.size());
  ec::batch_to_affine(pts.data(), out.data(), scratch.data(), pts.size());
  for (size_t i = 0; i < pts.size(); ++i) CHECK(out[i] == pts[i].to_affine());
}
