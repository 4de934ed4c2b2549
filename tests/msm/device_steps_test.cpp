// The CUDA MSM's steps (cuda/msm_steps.hpp) run on the host, thread by thread in the order the
// kernels launch them (a stable sort standing in for CUB's radix sort), against the CPU MSM: the
// device algorithm — digits, load-balanced levels, segment reduction, window combination, the
// resident single pass and the streamed chunks — is checked on every build, GPU or not.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstring>
#include <numeric>
#include <vector>

#include "cuda/msm_steps.hpp"
#include "tests/test_util.hpp"
#include "zk/msm/msm.hpp"

using namespace zk;
namespace steps = zk::cuda::msm_steps;

namespace {

// Runs the levels of one pass over sorted keys (m entries) as accumulate_pass launches them.
// add0 adds a level-0 entry, add_sums(sums) makes the adder of a later level's partial sums.
// Checks the invariants the workspace relies on: a level never emits more than its bound, and
// the last level emits nothing (else partial sums would be lost).
template <class Acc, class Add0, class AddSums>
void run_levels(const std::vector<uint32_t>& keys0, uint32_t nkeys, const Add0& add0,
                const AddSums& add_sums, std::vector<Acc>& buckets,
                unsigned* levels_run = nullptr) {
  const size_t m = keys0.size();
  const steps::levels_t lv = steps::plan_levels(m, nkeys);
  std::vector<uint32_t> part_keys[2], counts, emit_at;
  std::vector<Acc> part_sums[2];
  size_t len = m;
  for (unsigned l = 0; l < lv.count; ++l) {
    const size_t threads = lv.threads[l], range = lv.range[l];
    REQUIRE(len <= lv.bound[l]);
    const uint32_t* keys = l == 0 ? keys0.data() : part_keys[(l - 1) & 1].data();
    counts.assign(threads + 1, 0);
    for (size_t t = 0; t <= threads; ++t) counts[t] = steps::count_open(keys, len, nkeys, range, t);
    REQUIRE(counts[threads] == 0);
    emit_at.assign(threads + 1, 0);
    std::exclusive_scan(counts.begin(), counts.end(), emit_at.begin(), uint32_t(0));
    const size_t next = emit_at[threads];
    if (l + 1 < lv.count)
      REQUIRE(next <= lv.bound[l + 1]);
    else
      REQUIRE(next == 0);
    auto& out_keys = part_keys[l & 1];
    auto& out_sums = part_sums[l & 1];
    out_keys.assign(next, ~0u);
    out_sums.assign(next, Acc::infinity());
    for (size_t t = 0; t < threads; ++t) {
      if (l == 0)
        steps::sum_runs(keys, len, nkeys, range, t, add0, buckets.data(), emit_at.data(),
                        out_keys.data(), out_sums.data());
      else
        steps::sum_runs(keys, len, nkeys, range, t, add_sums(part_sums[(l - 1) & 1]),
                        buckets.data(), emit_at.data(), out_keys.data(), out_sums.data());
    }
    for (size_t j = 0; j < next; ++j) REQUIRE(out_keys[j] < nkeys);  // every emitted slot written
    len = next;
  }
  if (levels_run) *levels_run = lv.count;
}

// msm_impl's sequence on the host. chunk = 0: resident (one pass); else streamed chunks of that
// many points, each with its own digits, sort and levels, adding into the same buckets.
template <class G>
ec::jacobian_t<G> device_msm_on_host(const ec::affine_t<G>* bases, const uint8_t* scalars, size_t n,
                                     unsigned bits, size_t chunk = 0) {
  using xyzz = ec::xyzz_t<G>;
  const unsigned c = steps::window_bits(n);
  steps::offsets_t off{};
  const unsigned windows = msm::signed_digit_windows(bits, c, off.h);
  const uint32_t nb = uint32_t(1) << (c - 1), nkeys = windows * nb,
                 segments = nkeys / steps::kSegment;
  if (chunk == 0) chunk = n;
  std::vector<xyzz> buckets(nkeys, xyzz::infinity());
  for (size_t lo = 0; lo < n; lo += chunk) {
    const size_t pts = std::min(chunk, n - lo), m = size_t(windows) * pts;
    std::vector<uint64_t> s(4 * pts);
    std::memcpy(s.data(), scalars + 32 * lo, 32 * pts);
    std::vector<uint32_t> keys(m), vals(m);
    for (size_t i = 0; i < pts; ++i)
      steps::digits_at(s.data(), i, pts, c, windows, off, keys.data(), vals.data());
    std::vector<size_t> order(m);
    std::iota(order.begin(), order.end(), size_t(0));
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return keys[a] < keys[b]; });
    std::vector<uint32_t> keys_sorted(m), vals_sorted(m);
    for (size_t j = 0; j < m; ++j) keys_sorted[j] = keys[order[j]], vals_sorted[j] = vals[order[j]];
    run_levels<xyzz>(
        keys_sorted, nkeys, steps::add_base_t<G>{bases + lo, vals_sorted.data()},
        [](const std::vector<xyzz>& sums) { return steps::add_partial_t<G>{sums.data()}; },
        buckets);
  }
  std::vector<xyzz> seg(segments);
  for (uint32_t t = 0; t < segments; ++t) seg[t] = steps::reduce_segment(buckets.data(), nb, t);
  return steps::combine_windows<G>(seg.data(), windows, c, nb);
}

enum class kind_t { mixed, ones, equal, small, zeros };

template <class G, class Fr>
void check(kind_t k, size_t n, const std::vector<ec::affine_t<G>>& pool) {
  CAPTURE(n);
  CAPTURE(int(k));
  std::vector<ec::affine_t<G>> bases(n);
  std::vector<uint8_t> scalars(32 * n);
  const auto same = test::random_field<Fr>().to_canonical();
  for (size_t i = 0; i < n; ++i) {
    bases[i] = i % 13 == 5 ? ec::affine_t<G>::infinity() : pool[i % pool.size()];
    typename Fr::big_t v{};
    switch (k) {
      case kind_t::mixed:
        v = i % 5 == 0   ? typename Fr::big_t{}
            : i % 5 == 1 ? typename Fr::big_t{{1}}
            : i % 5 == 2 ? (-Fr::one()).to_canonical()
                         : test::random_field<Fr>().to_canonical();
        break;
      case kind_t::ones:
        v = typename Fr::big_t{{1}};
        break;
      case kind_t::equal:
        v = same;
        break;
      case kind_t::small:
        v = typename Fr::big_t{{test::rng()() % 16}};
        break;
      case kind_t::zeros:
        break;
    }
    std::memcpy(&scalars[32 * i], v.l, 32);
  }
  const auto expect = msm::msm<G>(bases.data(), scalars.data(), n, Fr::bits);
  CHECK(device_msm_on_host<G>(bases.data(), scalars.data(), n, Fr::bits) == expect);
  if (n > 1)
    CHECK(device_msm_on_host<G>(bases.data(), scalars.data(), n, Fr::bits, n / 3 + 1) == expect);
}

template <class C>
void run_curve(size_t n1, size_t n2) {
  std::vector<typename C::g1_affine> p1;
  std::vector<typename C::g2_affine> p2;
  for (int i = 0; i < 16; ++i)
    p1.push_back(test::random_g1<C>()), p2.push_back(test::random_g2<C>());
  using fr = typename C::fr_t;
  for (size_t n : {size_t(1), size_t(2), size_t(7), size_t(300), n1})
    check<typename C::g1, fr>(kind_t::mixed, n, p1);
  for (kind_t k : {kind_t::ones, kind_t::equal, kind_t::small, kind_t::zeros})
    check<typename C::g1, fr>(k, n1, p1);
  for (size_t n : {size_t(1), size_t(5), n2}) check<typename C::g2, fr>(kind_t::mixed, n, p2);
  check<typename C::g2, fr>(kind_t::ones, n2, p2);
}

// An accumulator that counts: the levels must deliver every entry's weight to its bucket.
struct count_t {
  uint64_t v = 0;
  static count_t infinity() { return {}; }
  count_t& operator+=(const count_t& o) {
    v += o.v;
    return *this;
  }
};

}  // namespace

TEST_CASE("device MSM steps on the host equal the CPU MSM, BN254") {
  run_curve<curves::bn254>(5000, 600);
}
TEST_CASE("device MSM steps on the host equal the CPU MSM, BLS12-381") {
  run_curve<curves::bls12_381>(3000, 400);
}

TEST_CASE("device MSM levels deliver every entry to its bucket, whatever the bucket sizes") {
  auto& rng = test::rng();
  for (int round = 0; round < 60; ++round) {
    const uint32_t nkeys = uint32_t(1) << (2 + rng() % 12);
    const size_t m = 1 + rng() % 40000;
    std::vector<uint32_t> keys(m);
    switch (round % 5) {
      case 0:
        for (auto& k : keys) k = uint32_t(rng() % nkeys);
        break;  // uniform
      case 1:
        for (auto& k : keys) k = rng() % 10 ? 0 : uint32_t(rng() % nkeys);
        break;  // one giant bucket
      case 2:
        for (auto& k : keys) k = uint32_t(rng() % 3);
        break;  // few buckets
      case 3:   // geometric bucket sizes
        for (auto& k : keys)
          k = std::min<uint32_t>(nkeys - 1, uint32_t(__builtin_ctzll(rng() | (1ull << 40))));
        break;
      case 4:  // a tail of invalid keys (zero digits), most entries
        for (auto& k : keys) k = rng() % 4 ? nkeys : uint32_t(rng() % nkeys);
        break;
    }
    std::sort(keys.begin(), keys.end());
    std::vector<uint64_t> weight(m);
    std::vector<uint64_t> expect(nkeys, 0);
    for (size_t j = 0; j < m; ++j) {
      weight[j] = 1 + rng() % 1000;
      if (keys[j] < nkeys) expect[keys[j]] += weight[j];
    }
    std::vector<count_t> buckets(nkeys);
    unsigned levels = 0;
    run_levels<count_t>(
        keys, nkeys, [&](count_t& acc, size_t j) { acc.v += weight[j]; },
        [](const std::vector<count_t>& sums) {
          return [&sums](count_t& acc, size_t j) { acc += sums[j]; };
        },
        buckets, &levels);
    CAPTURE(round);
    CAPTURE(m);
    CAPTURE(nkeys);
    CAPTURE(levels);
    for (uint32_t k = 0; k < nkeys; ++k) REQUIRE(buckets[k].v == expect[k]);
  }
}

TEST_CASE("device MSM levels: one bucket holding everything takes a few short levels") {
  // 2^22 entries in one bucket (a witness of ones): no thread sums more than its range.
  const uint32_t nkeys = 17u << 15;
  const auto lv = steps::plan_levels(size_t(1) << 22, nkeys);
  CHECK(lv.count <= 6);
  for (unsigned l = 0; l < lv.count; ++l) CHECK(lv.range[l] <= 32);
  CHECK(lv.threads[lv.count - 1] == 1);
}
