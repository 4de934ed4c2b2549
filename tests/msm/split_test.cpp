// The MSM plan's split flag (SupraSeal C2's split, issue 24 item 4): with and without it the sums
// are equal, and the plan holds what it says (0s dropped and 1s apart only with the split).
#include <doctest/doctest.h>

#include "tests/test_util.hpp"
#include "zk/ec/curves.hpp"
#include "zk/msm/msm.hpp"

using namespace zk;

TEST_CASE("MSM split on and off give the same sum on a 0/1-heavy witness") {
  using C = curves::bls12_381;
  using fr = C::fr_t;
  const size_t n = 3000;
  std::vector<C::g1_affine> b1(n);
  std::vector<C::g2_affine> b2(n);
  std::vector<typename fr::big_t> k(n);
  size_t zeros = 0, ones = 0;
  for (size_t i = 0; i < n; ++i) {
    b1[i] = test::random_g1<C>();
    b2[i] = i % 7 ? b2[i - 1] : test::random_g2<C>();
    const unsigned kind = unsigned(i * 2654435761u) % 10;
    k[i] = {};
    if (kind < 4) {
      ++zeros;
    } else if (kind < 8) {
      k[i].l[0] = 1;
      ++ones;
    } else {
      k[i] = test::random_field<fr>().to_canonical();
    }
  }
  const auto* s = reinterpret_cast<const uint8_t*>(k.data());
  const auto split = msm::make_plan(s, n, fr::bits, 32, true, true);
  const auto plain = msm::make_plan(s, n, fr::bits, 32, true, false);
  CHECK(split.ones.size() == ones);
  CHECK(split.idx.size() == n - zeros - ones);
  CHECK(plain.ones.empty());
  CHECK(plain.idx.size() == n);
  CHECK(msm::msm<C::g1>(b1.data(), split).to_affine() ==
        msm::msm<C::g1>(b1.data(), plain).to_affine());
  CHECK(msm::msm<C::g2>(b2.data(), split).to_affine() ==
        msm::msm<C::g2>(b2.data(), plain).to_affine());
  // and both equal the naive sum
  ec::jacobian_t<C::g1> naive = ec::jacobian_t<C::g1>::infinity();
  for (size_t i = 0; i < n; ++i)
    naive = naive + ec::jacobian_t<C::g1>::from_affine(b1[i]).mul(k[i]);
  CHECK(naive.to_affine() == msm::msm<C::g1>(b1.data(), split).to_affine());
}
