// The CUDA NTT's order of work (cuda/ntt.cu) run on the host: the odd-coset schedule of tile
// passes, each tile loaded, transformed stage by stage and stored (scaled on the last inverse
// pass) with the shared functions of zk/ntt/butterfly.hpp — against the CPU domain's
// to_odd_coset, for every size up to 2^14 and tile limits down to one stage per pass.
#include <doctest/doctest.h>

#include <vector>

#include "tests/test_util.hpp"
#include "zk/ff/bls12_381.hpp"
#include "zk/ff/bn254.hpp"
#include "zk/ntt/butterfly.hpp"
#include "zk/ntt/ntt.hpp"

using namespace zk;

namespace {

// tile_kernel's work, tile by tile, for the whole schedule.
template <class Fr>
void odd_coset_by_tiles(std::vector<Fr>& a, unsigned log_n, unsigned max_log) {
  const size_t n = a.size(), half_n = n / 2;
  const Fr omega = ntt::root_of_unity<Fr>(log_n);
  std::vector<Fr> tw(half_n ? half_n : 1);
  Fr w = Fr::one();
  for (auto& t : tw) t = w, w = w * omega;
  const Fr n_inv = Fr::from_u64(n).inverse(), g_n_inv = ntt::root_of_unity<Fr>(log_n + 1) * n_inv;

  ntt::tile_pass_t passes[128];
  const unsigned count = ntt::odd_coset_schedule(log_n, max_log, passes);
  unsigned stages_dif = 0, stages_dit = 0;
  for (unsigned p = 0; p < count; ++p) {
    const auto& pass = passes[p];
    (pass.dit ? stages_dit : stages_dif) += pass.S;
    REQUIRE(pass.S <= max_log);
    // exactly one pass scales: the last inverse-DIF pass
    CHECK(pass.scale == (!pass.dit && (p + 1 == count || passes[p + 1].dit)));
    const size_t size = size_t(1) << pass.S;
    std::vector<Fr> t(size);
    std::vector<bool> touched(n, false);
    for (size_t tile = 0; tile < (n >> pass.S); ++tile) {
      const size_t base = ntt::tile_base(tile, pass.u, pass.S);
      for (size_t i = 0; i < size; ++i) {
        REQUIRE(base + i * pass.u < n);
        REQUIRE_FALSE(touched[base + i * pass.u]);  // the tiles partition the array
        touched[base + i * pass.u] = true;
        t[i] = a[base + i * pass.u];
      }
      for (unsigned k = 0; k < pass.S; ++k) {
        const unsigned s = pass.dit ? k : pass.S - 1 - k;
        for (size_t b = 0; b < size / 2; ++b) {
          if (pass.dit)
            ntt::dit_tile_butterfly(t.data(), b, s, tile, pass.u, tw.data(), half_n);
          else
            ntt::dif_tile_butterfly<true>(t.data(), b, s, tile, pass.u, tw.data(), half_n);
        }
      }
      for (size_t i = 0; i < size; ++i) {
        const size_t at = base + i * pass.u;
        a[at] =
            pass.scale ? ntt::coset_scale_at(t[i], at, n, log_n, tw.data(), n_inv, g_n_inv) : t[i];
      }
    }
  }
  CHECK(stages_dif == log_n);
  CHECK(stages_dit == log_n);
}

}  // namespace

TEST_CASE_TEMPLATE("device NTT tile passes on the host equal the CPU odd-coset transform", F,
                   bn254::fr_t, bls12_381::fr_t) {
  for (unsigned log_n = 0; log_n <= 14; ++log_n) {
    for (unsigned max_log : {1u, 3u, 10u}) {
      if (log_n > 11 && max_log == 1) continue;  // slow and adds nothing
      CAPTURE(log_n);
      CAPTURE(max_log);
      std::vector<F> a(size_t(1) << log_n);
      for (auto& v : a) v = test::random_field<F>();
      std::vector<F> expect = a;
      ntt::domain_t<F>(log_n).to_odd_coset(expect.data());
      odd_coset_by_tiles(a, log_n, max_log);
      REQUIRE(a == expect);
    }
  }
}

TEST_CASE("device NTT schedule: 2^24 in 3 + 3 passes of 8 stages") {
  ntt::tile_pass_t p[128];
  REQUIRE(ntt::odd_coset_schedule(24, 10, p) == 6);
  for (int i = 0; i < 6; ++i) CHECK(p[i].S == 8);
  CHECK(p[0].u == (size_t(1) << 16));
  CHECK(p[2].u == 1);
  CHECK(p[2].scale);
  CHECK(p[3].u == 1);
  CHECK(p[5].u == (size_t(1) << 16));
}
