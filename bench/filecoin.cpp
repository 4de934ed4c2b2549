// Benchmarks of zk/filecoin's readers (not tests): the subgroup check of bellperson parameter
// points, one thread and the whole compute pool, and opening a .params file checked and
// unchecked.
//
//   build/bench_filecoin [g1_points=262144] [g2_points=32768] [repeats=3]
//
// Writes a .params file of valid points (consecutive multiples of the generators) under $TMPDIR:
// h, l, a, b_g1 share the G1 points 1/2, 1/4, 1/8, 1/8; b_g2 the G2 points. Prints points/s of
//   decode + on-curve + subgroup check (the endomorphism tests, zk/bellperson/groth16/points.hpp)
//   on one thread, and of the [r]·P check it replaces; params_file_t(checked): every point, in
//   parallel on compute_threads() threads (ZK_THREADS); params_file_t(unchecked) + read_g1/read_g2
//   of every point (decode only).
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "bench/bench_util.hpp"
#include "zk/base/thread_pool.hpp"
#include "zk/bellperson/groth16/files.hpp"

using namespace zk;
using namespace zk::bellperson;
using zk::bench::median_ms;

namespace {

template <class G>
std::vector<ec::affine_t<G>> multiples(const ec::affine_t<G>& gen, size_t n) {
  using jac = ec::jacobian_t<G>;
  std::vector<jac> j(n);
  jac acc = jac::from_affine(gen);
  for (size_t i = 0; i < n; ++i) j[i] = acc = acc.add_mixed(gen);
  std::vector<ec::affine_t<G>> a(n);
  std::vector<typename G::field_t> scratch(n);
  ec::batch_to_affine(j.data(), a.data(), scratch.data(), n);
  return a;
}

}  // namespace

int main(int argc, char** argv) {
  const size_t n1 = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 262144;
  const size_t n2 = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 32768;
  const int repeats = argc > 3 ? std::atoi(argv[3]) : 3;
  std::printf("bench_filecoin: %zu G1 + %zu G2 points, %u compute threads, median of %d\n", n1, n2,
              compute_threads(), repeats);

  const auto p1 = multiples<curve_t::g1>(curve_t::g1_generator, n1);
  const auto p2 = multiples<curve_t::g2>(curve_t::g2_generator, n2);
  std::vector<uint8_t> e1(n1 * g1_uncompressed_size), e2(n2 * g2_uncompressed_size);
  for (size_t i = 0; i < n1; ++i) encode_g1_uncompressed(p1[i], &e1[i * g1_uncompressed_size]);
  for (size_t i = 0; i < n2; ++i) encode_g2_uncompressed(p2[i], &e2[i * g2_uncompressed_size]);

  // One thread: decode + subgroup check, and the [r]·P check for comparison (fewer points).
  const size_t m1 = std::min<size_t>(n1, 20000), m2 = std::min<size_t>(n2, 4000);
  size_t bad = 0;
  const double t1 = median_ms(repeats, [&] {
    for (size_t i = 0; i < m1; ++i)
      bad += !decode_g1_uncompressed(&e1[i * 96], point_check_t::subgroup).ok();
  });
  const double t2 = median_ms(repeats, [&] {
    for (size_t i = 0; i < m2; ++i)
      bad += !decode_g2_uncompressed(&e2[i * 192], point_check_t::subgroup).ok();
  });
  const double c1 = median_ms(repeats, [&] {
    for (size_t i = 0; i < m1; ++i)
      bad += !decode_g1_uncompressed(&e1[i * 96], point_check_t::on_curve).ok();
  });
  const auto r = curve_t::fr_t::modulus;
  const size_t s1 = std::min<size_t>(m1, 2000), s2 = std::min<size_t>(m2, 500);
  const double naive1 = median_ms(repeats, [&] {
    for (size_t i = 0; i < s1; ++i)
      bad += !curve_t::g1_jacobian::from_affine(p1[i]).mul(r).is_infinity();
  });
  const double naive2 = median_ms(repeats, [&] {
    for (size_t i = 0; i < s2; ++i)
      bad += !curve_t::g2_jacobian::from_affine(p2[i]).mul(r).is_infinity();
  });
  if (bad != 0) {
    std::fprintf(stderr, "bench_filecoin: %zu points failed their check\n", bad);
    return 1;
  }
  std::printf("one thread, decode + on-curve + subgroup (endomorphism tests):\n");
  std::printf("  G1 %10.0f points/s   (decode + on-curve only: %.0f/s)\n", m1 / t1 * 1e3,
              m1 / c1 * 1e3);
  std::printf("  G2 %10.0f points/s\n", m2 / t2 * 1e3);
  std::printf("one thread, the [r]·P check instead: G1 %.0f points/s, G2 %.0f points/s\n",
              s1 / naive1 * 1e3, s2 / naive2 * 1e3);

  // A .params file of these points.
  const char* tmp = std::getenv("TMPDIR");
  const std::string path = std::string(tmp && *tmp ? tmp : "/tmp") + "/bench_filecoin_" +
                           std::to_string(::getpid()) + ".params";
  verifying_key_t vk;
  vk.alpha_g1 = p1[0];
  vk.beta_g1 = p1[1];
  vk.beta_g2 = p2[0];
  vk.gamma_g2 = p2[1 % n2];
  vk.delta_g1 = p1[2];
  vk.delta_g2 = p2[2 % n2];
  vk.ic.assign(p1.begin(), p1.begin() + 40);
  {
    params_writer_t w(path, vk);
    const size_t counts[4] = {n1 / 2, n1 / 4, n1 / 8, n1 - n1 / 2 - n1 / 4 - n1 / 8};
    size_t at = 0;
    for (size_t c : counts) {
      w.begin_section(c);
      w.append_g1(p1.data() + at, c);
      at += c;
    }
    w.begin_section(n2);
    w.append_g2(p2.data(), n2);
    w.finish();
  }
  const double mb = double(std::filesystem::file_size(path)) / (1 << 20);
  const double open_checked =
      median_ms(repeats, [&] { params_file_t p(path, params_file_t::mode_t::checked); });
  std::vector<g1_affine_t> out1(n1);
  std::vector<g2_affine_t> out2(n2);
  const double open_unchecked = median_ms(repeats, [&] {
    params_file_t p(path, params_file_t::mode_t::unchecked);
    size_t at = 0;
    for (size_t s = 0; s < 4; ++s) {
      p.read_g1(p.section(s), 0, p.section(s).count, out1.data() + at);
      at += p.section(s).count;
    }
    p.read_g2(p.b_g2(), 0, n2, out2.data());
  });
  std::filesystem::remove(path);
  std::printf(".params of %.1f MiB (%zu G1 + %zu G2 points), %u threads:\n", mb, n1, n2,
              compute_threads());
  std::printf(
      "  open checked (every point on the curve and in its subgroup): %.0f ms = %.0f "
      "points/s\n",
      open_checked, (n1 + n2) / open_checked * 1e3);
  std::printf("  open unchecked + read every point: %.0f ms = %.0f points/s\n", open_unchecked,
              (n1 + n2) / open_unchecked * 1e3);
  // The official 2 KiB parameters (tests/filecoin-ref README: 10,325,694 G1 + 685,522 G2
  // points, 1.1 GB) at these rates.
  const double g1_rate = m1 / t1 * 1e3, g2_rate = m2 / t2 * 1e3;
  std::printf(
      "  2 KiB .params (10,325,694 G1 + 685,522 G2) checked, estimated: %.0f s on one "
      "thread, %.0f s on %u\n",
      10325694 / g1_rate + 685522 / g2_rate,
      (10325694 / g1_rate + 685522 / g2_rate) / compute_threads(), compute_threads());
  return 0;
}
