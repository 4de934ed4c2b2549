// MSM against naive sums: random scalars, zero and one scalars, infinity bases, tiny sizes, and
// scalars at the top of the field (signed-digit carries), for G1 and G2 on both curves.
#include "zk/msm/msm.hpp"

#include <doctest/doctest.h>

#include <cstring>
#include <mutex>
#include <type_traits>

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

template <class C, class G>
ec::affine_t<G> random_point() {
  if constexpr (std::is_same_v<G, typename C::g1>)
    return test::random_g1<C>();
  else
    return test::random_g2<C>();
}

// Every kernel path against the portable one, on the same inputs: sizes that use the
// batch-affine buckets (2^12 and up, batch ≥ 128 buckets), scalars with zero, one, r − 1,
// repeated bases (doublings and P + (−P) in one bucket) and infinity bases.
template <class G, class C>
void check_paths(size_t n) {
  using fr = typename C::fr_t;
  std::vector<ec::affine_t<G>> bases(n);
  std::vector<uint8_t> scalars(32 * n);
  const auto g = ec::jacobian_t<G>::from_affine(random_point<C, G>());
  auto acc = g;
  for (size_t i = 0; i < n; ++i) {
    if (i % 64 == 0) acc = ec::jacobian_t<G>::from_affine(random_point<C, G>());
    acc = acc.add_mixed(g.to_affine());
    bases[i] = acc.to_affine();
    if (i % 97 == 5) bases[i] = bases[i - 1];                  // same point twice
    if (i % 97 == 6) bases[i] = -bases[i - 2];                 // its negation
    if (i % 211 == 7) bases[i] = ec::affine_t<G>::infinity();  // the identity
    typename fr::big_t k = test::random_field<fr>().to_canonical();
    if (i % 13 == 0) k = typename fr::big_t{};
    if (i % 13 == 1) k = typename fr::big_t{{1}};
    if (i % 13 == 2) k = (-fr::one()).to_canonical();
    if (i % 97 == 6) std::memcpy(k.l, &scalars[32 * (i - 2)], 32);  // −P with P's scalar
    std::memcpy(&scalars[32 * i], k.l, 32);
  }
  const auto plan = msm::make_plan(scalars.data(), n, fr::bits);
  msm::options_t portable;
  portable.simd = false;
  const auto want = msm::msm<G>(bases.data(), plan, portable);
  CHECK(msm::msm<G>(bases.data(), plan) == want);
  // Base tables (endomorphism images, precompute factor), with and without IFMA.
  for (unsigned dims : {1u, msm::endomorphism_dims<G>()})
    for (unsigned factor : {1u, 2u, 3u}) {
      if (dims == 1 && factor == 1) continue;
      CAPTURE(dims);
      CAPTURE(factor);
      const auto table = msm::make_table<G>(bases.data(), n, dims, factor, fr::bits);
      CHECK(msm::msm<G>(table, plan) == want);
      CHECK(msm::msm<G>(table, plan, portable) == want);
    }
  // Wide windows: the batch-affine buckets (every path) also at these sizes.
  for (unsigned c : {11u, 13u}) {
    msm::options_t wide, wide_portable = portable;
    wide.window = wide_portable.window = c;
    CHECK(msm::msm<G>(bases.data(), plan, wide_portable) == want);
    CHECK(msm::msm<G>(bases.data(), plan, wide) == want);
  }
}

TEST_CASE("MSM kernel paths agree (IFMA against portable), both curves, G1 and G2") {
  for (size_t n : {size_t(700), size_t(1) << 12, size_t(5000)}) {
    CAPTURE(n);
    check_paths<curves::bn254::g1, curves::bn254>(n);
    check_paths<curves::bls12_381::g1, curves::bls12_381>(n);
  }
  check_paths<curves::bn254::g2, curves::bn254>(size_t(1) << 12);
  check_paths<curves::bls12_381::g2, curves::bls12_381>(size_t(1) << 12);
}

// Jobs: several MSMs (G1 and G2, one over a suffix of the plan) as one set of tasks equal the
// MSMs run alone; every job finishes exactly once.
TEST_CASE("MSM jobs: run together, suffixes of a plan, each finished once") {
  using C = curves::bn254;
  using fr = C::fr_t;
  const size_t n = 3000, first = 1234;
  std::vector<C::g1_affine> b1(n);
  std::vector<C::g2_affine> b2(n);
  std::vector<uint8_t> sc(32 * n);
  for (size_t i = 0; i < n; ++i) {
    b1[i] = test::random_g1<C>();
    b2[i] = i % 5 ? b2[i - 1] : test::random_g2<C>();
    typename fr::big_t k = test::random_field<fr>().to_canonical();
    if (i % 9 == 0) k = typename fr::big_t{{1}};
    if (i % 9 == 1) k = typename fr::big_t{};
    std::memcpy(&sc[32 * i], k.l, 32);
  }
  const auto plan = msm::make_plan(sc.data(), n, fr::bits);
  const auto suffix_plan = msm::make_plan(sc.data() + 32 * first, n - first, fr::bits);
  C::g1_jacobian r1, r3;
  C::g2_jacobian r2;
  std::vector<msm::job_t> jobs;
  jobs.push_back(msm::msm_job<C::g1>(b1.data(), plan, 0, r1));
  jobs.push_back(msm::msm_job<C::g2>(b2.data(), plan, 0, r2));
  jobs.push_back(msm::msm_job<C::g1>(b1.data() + first, plan, first, r3));
  std::vector<int> done(jobs.size(), 0);
  std::mutex mu;
  msm::run_jobs(jobs, [&](size_t k) {
    std::lock_guard<std::mutex> lk(mu);
    ++done[k];
  });
  CHECK(done == std::vector<int>{1, 1, 1});
  CHECK(r1 == msm::msm<C::g1>(b1.data(), plan));
  CHECK(r2 == msm::msm<C::g2>(b2.data(), plan));
  CHECK(r3 == msm::msm<C::g1>(b1.data() + first, suffix_plan));
  // The same suffix over base tables (GLV images, two shifted copies).
  const auto t1 = msm::make_table<C::g1>(b1.data() + first, n - first, 2, 2, fr::bits);
  const auto t2 = msm::make_table<C::g2>(b2.data(), n, 4, 1, fr::bits);
  C::g1_jacobian r4;
  C::g2_jacobian r5;
  std::vector<msm::job_t> tjobs;
  tjobs.push_back(msm::msm_job<C::g1>(t1, plan, first, r4));
  tjobs.push_back(msm::msm_job<C::g2>(t2, plan, 0, r5));
  msm::run_jobs(tjobs);
  CHECK(r4 == r3);
  CHECK(r5 == r2);
  // A suffix past every scalar, and no jobs at all.
  C::g1_jacobian none;
  std::vector<msm::job_t> empty{msm::msm_job<C::g1>(b1.data(), plan, n, none)};
  msm::run_jobs(empty);
  CHECK(none.is_infinity());
  std::vector<msm::job_t> no_jobs;
  msm::run_jobs(no_jobs);
}

// A plan over a density (bellperson's queries: a base only for the variables in the density)
// reads the witness in place and pairs position i with base rank(i): the same sum as the plain
// MSM over the compacted scalars, with and without the 0/1 split, over bases and over tables, for
// a suffix, G1 and G2.
TEST_CASE("MSM over a density equals the MSM of the compacted scalars") {
  using C = curves::bls12_381;
  using fr = C::fr_t;
  const size_t n = 5000, first = 777;
  std::vector<uint8_t> sc(32 * n);
  msm::density_t d;
  std::vector<uint8_t> packed, packed_suffix;
  size_t in_suffix = 0;
  for (size_t i = 0; i < n; ++i) {
    typename fr::big_t k = test::random_field<fr>().to_canonical();
    if (i % 5 == 0) k = typename fr::big_t{{1}};
    if (i % 7 == 1) k = typename fr::big_t{};
    std::memcpy(&sc[32 * i], k.l, 32);
    const bool set = (i * 2654435761u) % 10 < 6 || i == n - 1;  // ~60 %, the last one set
    d.push(set);
    if (set) {
      packed.insert(packed.end(), &sc[32 * i], &sc[32 * i] + 32);
      if (i >= first)
        packed_suffix.insert(packed_suffix.end(), &sc[32 * i], &sc[32 * i] + 32), ++in_suffix;
    }
  }
  d.index();
  REQUIRE(d.count() == packed.size() / 32);
  CHECK(d.rank(0) == 0);
  CHECK(d.rank(n) == d.count());
  std::vector<C::g1_affine> b1(d.count());
  std::vector<C::g2_affine> b2(d.count());
  for (size_t i = 0; i < b1.size(); ++i) {
    b1[i] = test::random_g1<C>();
    b2[i] = i % 7 ? b2[i - 1] : test::random_g2<C>();
  }
  const size_t m = d.count();
  const auto want1 = msm::msm<C::g1>(b1.data(), packed.data(), m, fr::bits);
  const auto want2 = msm::msm<C::g2>(b2.data(), packed.data(), m, fr::bits);
  const size_t skip = d.rank(first);
  const auto want_suffix =
      msm::msm<C::g1>(b1.data() + skip, packed_suffix.data(), in_suffix, fr::bits);
  for (bool split : {true, false})
    for (bool digits : {true, false}) {
      CAPTURE(split);
      CAPTURE(digits);
      const auto plan = msm::make_plan(sc.data(), n, fr::bits, 32, digits, split, &d);
      CHECK(msm::msm<C::g1>(b1.data(), plan) == want1);
      CHECK(msm::msm<C::g2>(b2.data(), plan) == want2);
      C::g1_jacobian r;
      std::vector<msm::job_t> jobs{msm::msm_job<C::g1>(b1.data() + skip, plan, first, r)};
      msm::run_jobs(jobs);
      CHECK(r == want_suffix);
      const auto t1 = msm::make_table<C::g1>(b1.data(), m, 2, 2, fr::bits);
      const auto t2 = msm::make_table<C::g2>(b2.data(), m, 4, 1, fr::bits);
      CHECK(msm::msm<C::g1>(t1, plan) == want1);
      CHECK(msm::msm<C::g2>(t2, plan) == want2);
    }
  // A density shorter than the scalars is refused.
  msm::density_t short_d = msm::density_t::all(n - 1);
  CHECK_THROWS_AS(msm::make_plan(sc.data(), n, fr::bits, 32, true, true, &short_d),
                  std::invalid_argument);
}

TEST_CASE("density: push, append at and off a word boundary, rank") {
  msm::density_t a;
  for (size_t i = 0; i < 70; ++i) a.push(i % 3 == 0);
  msm::density_t b = msm::density_t::all(64);
  msm::density_t ab = a;
  ab.append(b);
  msm::density_t ba = b;
  ba.append(a);
  ab.index();
  ba.index();
  CHECK(ab.size() == 134);
  CHECK(ab.count() == a.count() + 64);
  CHECK(ba.count() == a.count() + 64);
  for (size_t i = 0; i < 70; ++i) {
    CHECK(ab.test(i) == (i % 3 == 0));
    CHECK(ba.test(64 + i) == (i % 3 == 0));
  }
  size_t set = 0;
  for (size_t i = 0; i <= ab.size(); ++i) {
    CHECK(ab.rank(i) == set);
    if (i < ab.size() && ab.test(i)) ++set;
  }
  CHECK(msm::density_t::all(65).count() == 65);
  CHECK(msm::density_t::all(65, false).count() == 0);
}
