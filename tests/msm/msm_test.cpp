// MSM against naive sums: random scalars, zero and one scalars, infinity bases, tiny sizes, and
// scalars at the top of the field (signed-digit carries), for G1 and G2 on both curves.
#include "common/msm/msm.hpp"

#include <doctest/doctest.h>

#include <cstring>

#include "tests/test_util.hpp"

using namespace zk;

namespace {

template <class G, class C>
void check_msm(size_t n, const std::vector<ec::affine_t<G>>& pool) {
  using jac = ec::jacobian_t<G>;
  using fr = typename C::fr_t;
  std::vector<ec::affine_t<G>> bases(n);
  std::vector<uint8_t> scalars(32 * n);
  jac expect = jac::infinity();
  for (size_t i = 0; i < n; ++i) {
    bases[i] = pool[i % pool.size()];
    if (i % 11 == 3) bases[i] = ec::affine_t<G>::infinity();
    typename fr::big_t k;
    switch (i % 7) {
      case 0:
        k = typename fr::big_t{};
        break;  // zero
      case 1:
        k = typename fr::big_t{{1}};
        break;  // one
      case 2:
        k = (-fr::one()).to_canonical();
        break;  // r − 1
      case 3:
        k = typename fr::big_t{{2}};
        break;
      default:
        k = test::random_field<fr>().to_canonical();
    }
    std::memcpy(&scalars[32 * i], k.l, 32);
    expect += jac::from_affine(bases[i]).mul(k);
  }
  auto got = msm::msm<G>(bases.data(), scalars.data(), n, fr::bits);
  CHECK(got == expect);
}

template <class C>
void run_all() {
  std::vector<typename C::g1_affine> p1;
  std::vector<typename C::g2_affine> p2;
  for (int i = 0; i < 16; ++i)
    p1.push_back(test::random_g1<C>()), p2.push_back(test::random_g2<C>());
  for (size_t n : {size_t(0), size_t(1), size_t(2), size_t(3), size_t(7), size_t(64), size_t(300),
                   size_t(2000)}) {
    CAPTURE(n);
    check_msm<typename C::g1, C>(n, p1);
    if (n <= 300) check_msm<typename C::g2, C>(n, p2);
  }
}

}  // namespace

TEST_CASE("MSM BN254 against naive sums") { run_all<curves::bn254>(); }
TEST_CASE("MSM BLS12-381 against naive sums") { run_all<curves::bls12_381>(); }

TEST_CASE("MSM with all-zero and all-one scalars") {
  using C = curves::bn254;
  std::vector<C::g1_affine> bases(5000);
  for (auto& b : bases) b = test::random_g1<C>();
  std::vector<uint8_t> zeros(32 * bases.size(), 0), ones(32 * bases.size(), 0);
  C::g1_jacobian sum = C::g1_jacobian::infinity();
  for (size_t i = 0; i < bases.size(); ++i) ones[32 * i] = 1, sum = sum.add_mixed(bases[i]);
  CHECK(msm::msm<C::g1>(bases.data(), zeros.data(), bases.size(), 254).is_infinity());
  CHECK(msm::msm<C::g1>(bases.data(), ones.data(), bases.size(), 254) == sum);
}
