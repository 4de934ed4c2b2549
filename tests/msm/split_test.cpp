// The MSM plan's split flag (SupraSeal C2's split, issue 24 item 4): with and without it the sums
// are equal, and the plan holds what it says (0s dropped and 1s apart only with the split).
#include <doctest/doctest.h>

#include <cstring>

#include "tests/test_util.hpp"
#include "zk/ec/curves.hpp"
#include "zk/formats/packed_witness.hpp"
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

// A packed witness's classes read in place (msm::classed_scalars_t, as the prover reads a packed
// partition): the same plan as the 32-byte values give — same positions, same sums over bases,
// densities, tables and suffixes — and the same values back.
TEST_CASE("MSM plans of classed scalars (a packed witness read in place) equal the values' plans") {
  using C = curves::bls12_381;
  using fr = C::fr_t;
  const size_t n = 4099, first = 777;  // not a whole number of 64-position words
  std::vector<uint8_t> sc(32 * n);
  msm::density_t d;
  for (size_t i = 0; i < n; ++i) {
    const unsigned kind = unsigned(i * 2654435761u) % 10;
    typename fr::big_t k{};
    if (kind >= 4 && kind < 8) k.l[0] = 1;
    if (kind >= 8) k = test::random_field<fr>().to_canonical();
    std::memcpy(&sc[32 * i], k.l, 32);
    d.push((i * 40503u) % 10 < 6 || i == n - 1);
  }
  d.index();
  const uint64_t others = formats::count_others(sc.data(), n);
  std::vector<uint8_t> packed(formats::packed_witness_bytes(n, others));
  formats::pack_witness(sc.data(), n, others, packed.data());
  formats::check_packed_witness(packed.data(), packed.size(), fr::modulus.l, "test");
  const formats::witness_bits_t bits = formats::witness_bits(packed.data());
  const msm::classed_scalars_t cl = bits.classes();
  for (size_t i = 0; i < n; ++i) {
    uint8_t v[32];
    cl.value(i, v);
    REQUIRE(std::memcmp(v, &sc[32 * i], 32) == 0);
  }
  std::vector<C::g1_affine> b1(n);
  std::vector<C::g2_affine> b2(n);
  for (size_t i = 0; i < n; ++i) {
    b1[i] = test::random_g1<C>();
    b2[i] = i % 7 ? b2[i - 1] : test::random_g2<C>();
  }
  const msm::density_t* const densities[] = {nullptr, &d};
  for (const msm::density_t* dens : densities)
    for (bool digits : {true, false}) {
      CAPTURE(digits);
      CAPTURE(dens != nullptr);
      const auto want = msm::make_plan(sc.data(), n, fr::bits, 32, digits, true, dens);
      const auto got = msm::make_plan(cl, fr::bits, digits, true, dens);
      CHECK(got.idx == want.idx);
      CHECK(got.ones == want.ones);
      CHECK(got.digits == want.digits);
      CHECK(msm::msm<C::g1>(b1.data(), got) == msm::msm<C::g1>(b1.data(), want));
      CHECK(msm::msm<C::g2>(b2.data(), got) == msm::msm<C::g2>(b2.data(), want));
      C::g1_jacobian r_got, r_want;
      const size_t skip = dens ? dens->rank(first) : first;
      std::vector<msm::job_t> jobs{msm::msm_job<C::g1>(b1.data() + skip, got, first, r_got),
                                   msm::msm_job<C::g1>(b1.data() + skip, want, first, r_want)};
      msm::run_jobs(jobs);
      CHECK(r_got == r_want);
      const auto t1 = msm::make_table<C::g1>(b1.data(), n, 2, 2, fr::bits);
      const auto t1p = msm::make_table<C::g1>(b1.data(), n, 1, 3, fr::bits);
      CHECK(msm::msm<C::g1>(t1, got) == msm::msm<C::g1>(t1, want));
      CHECK(msm::msm<C::g1>(t1p, got) == msm::msm<C::g1>(t1p, want));
    }
  CHECK_THROWS_AS(msm::make_plan(cl, fr::bits, true, false), std::invalid_argument);
}
