// prover_t::assemble (constant-time r, s) against §3.6's formula computed with the
// variable-time Jacobian arithmetic, on random and degenerate MSM results and randomizers.
#include <doctest/doctest.h>

#include "tests/test_util.hpp"
#include "zk/formats/zkey.hpp"
#include "zk/groth16/prover.hpp"

using namespace zk;

namespace {

template <class C>
groth16::proof_t<C> reference_assemble(const groth16::proving_key_t<C>& pk,
                                       const groth16::msm_results_t<C>& m,
                                       const typename C::fr_t& r, const typename C::fr_t& s) {
  using j1 = typename C::g1_jacobian;
  using j2 = typename C::g2_jacobian;
  const auto rk = r.to_canonical(), sk = s.to_canonical(), rsk = (r * s).to_canonical();
  const j1 delta1 = j1::from_affine(pk.delta1);
  const j1 pi_a = m.a.add_mixed(pk.alpha1) + delta1.mul(rk);
  const j2 pi_b = m.b2.add_mixed(pk.beta2) + j2::from_affine(pk.delta2).mul(sk);
  const j1 b1 = m.b1.add_mixed(pk.beta1) + delta1.mul(sk);
  const j1 pi_c = m.c + m.h + pi_a.mul(sk) + b1.mul(rk) - delta1.mul(rsk);
  return groth16::proof_t<C>{pi_a.to_affine(), pi_b.to_affine(), pi_c.to_affine()};
}

template <class C>
void check_assemble(const std::string& curve) {
  using fr = typename C::fr_t;
  using j1 = typename C::g1_jacobian;
  using j2 = typename C::g2_jacobian;
  formats::zkey_file_t zkey(test::fixture_dir(curve, "mulchain") + "/circuit.zkey");
  auto pk = groth16::proving_key_t<C>::view(zkey);
  groth16::prover_t<C> prover(pk);
  auto g1 = [] { return j1::from_affine(test::random_g1<C>()); };
  auto check = [&](const groth16::msm_results_t<C>& m, const fr& r, const fr& s) {
    const auto got = prover.assemble(m, r, s), expect = reference_assemble(pk, m, r, s);
    CHECK(got.a == expect.a);
    CHECK(got.b == expect.b);
    CHECK(got.c == expect.c);
  };
  groth16::msm_results_t<C> m{g1(), g1(), g1(), g1(), j2::from_affine(test::random_g2<C>())};
  for (int i = 0; i < 4; ++i) check(m, test::random_field<fr>(), test::random_field<fr>());
  check(m, fr::zero(), fr::zero());
  check(m, fr::one(), -fr::one());
  // MSM results at infinity (an all-zero witness part), and one that cancels α₁.
  groth16::msm_results_t<C> zero{j1::infinity(), j1::infinity(), j1::infinity(), j1::infinity(),
                                 j2::infinity()};
  check(zero, test::random_field<fr>(), test::random_field<fr>());
  check(zero, fr::zero(), fr::zero());
  groth16::msm_results_t<C> cancel = m;
  cancel.a = -j1::from_affine(pk.alpha1);
  check(cancel, fr::zero(), test::random_field<fr>());
}

}  // namespace

TEST_CASE("assemble equals the reference formula: BN254") {
  check_assemble<curves::bn254>("bn254");
}
TEST_CASE("assemble equals the reference formula: BLS12-381") {
  check_assemble<curves::bls12_381>("bls12_381");
}
