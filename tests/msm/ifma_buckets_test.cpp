// The IFMA bucket accumulator alone (zk/msm/ifma_buckets.hpp) against plain Jacobian sums:
// Σ_k (k+1)·bucket_k after many additions, with few buckets (conflicts that fill the queue and
// spill), repeated and negated points (doublings, P + (−P) in the batch), infinity points, and
// bucket counts on both sides of the segmented reduction. Skipped without AVX-512 IFMA.
#include "zk/msm/ifma_buckets.hpp"

#include <doctest/doctest.h>

#include <array>
#include <type_traits>
#include <vector>

#include "tests/test_util.hpp"

using namespace zk;

#ifdef ZK_FF_IFMA
namespace {

template <class C, class G>
ec::affine_t<G> random_point() {
  if constexpr (std::is_same_v<G, typename C::g1>)
    return test::random_g1<C>();
  else
    return test::random_g2<C>();
}

template <class C, class G>
void check_buckets(size_t nb, size_t batch, size_t adds, size_t distinct) {
  using jac = ec::jacobian_t<G>;
  std::vector<ec::affine_t<G>> pool;
  for (size_t i = 0; i < distinct; ++i) pool.push_back(random_point<C, G>());
  pool.push_back(ec::affine_t<G>::infinity());
  std::vector<jac> want(nb, jac::infinity());
  msm::ifma_buckets_t<G> acc(nb, batch);
  auto& rng = test::rng();
  for (size_t i = 0; i < adds; ++i) {
    const uint32_t k = uint32_t(rng() % nb);
    const auto* p = &pool[rng() % pool.size()];
    const bool neg = rng() & 1;
    acc.add(k, p, neg);
    want[k] = want[k].add_mixed(neg ? -*p : *p);
  }
  jac expect = jac::infinity();
  for (size_t k = 0; k < nb; ++k) expect += want[k].mul(ff::bigint_t<1>{{uint64_t(k + 1)}});
  CHECK(acc.reduce().to_jacobian() == expect);
}

template <class C>
void check_curve() {
  struct shape_t {
    size_t nb, batch, adds, distinct;
  };
  for (auto [nb, batch, adds, distinct] :
       {shape_t{8, 16, 400, 5}, shape_t{40, 16, 2000, 3}, shape_t{64, 32, 3000, 50},
        shape_t{256, 64, 5000, 1000}, shape_t{1024, 128, 20000, 7},
        shape_t{1024, 128, 20000, 4000}}) {
    CAPTURE(nb);
    CAPTURE(distinct);
    check_buckets<C, typename C::g1>(nb, batch, adds, distinct);
    check_buckets<C, typename C::g2>(nb, batch, adds / 4, distinct);
  }
  // Empty: no additions at all, and only infinity points.
  msm::ifma_buckets_t<typename C::g1> none(128, 16);
  CHECK(none.reduce().is_infinity());
  const auto inf = C::g1_affine::infinity();
  msm::ifma_buckets_t<typename C::g1> infs(128, 16);
  for (uint32_t k = 0; k < 128; ++k) infs.add(k, &inf, k & 1);
  CHECK(infs.reduce().is_infinity());
}

}  // namespace

TEST_CASE("IFMA buckets: Σ (k+1)·bucket_k equals plain sums (BN254, BLS12-381, G1, G2)") {
  if (!ff::ifma::cpu_has_ifma()) {
    MESSAGE("skipped: this CPU has no AVX-512 IFMA");
    return;
  }
  check_curve<curves::bn254>();
  check_curve<curves::bls12_381>();
}
#endif
