#include "zk/filecoin/api/dev_params.hpp"

#include <chrono>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <type_traits>
#include <vector>

#include "zk/base/sha256.hpp"
#include "zk/base/thread_pool.hpp"
#include "zk/bellperson/groth16/files.hpp"
#include "zk/bellperson/groth16/key.hpp"
#include "zk/ec/fixed_base.hpp"
#include "zk/ntt/ntt.hpp"

namespace zk::filecoin {
namespace {

fr_t draw(uint64_t seed, const char* name) {
  for (uint32_t attempt = 0;; ++attempt) {
    sha256_t h;
    static const char tag[] = "zkfleet/filecoin-dev-params/v1";
    h.update(tag, sizeof(tag) - 1);
    uint8_t s[8];
    for (int i = 0; i < 8; ++i) s[i] = uint8_t(seed >> (8 * i));
    h.update(s, 8);
    h.update(name, std::strlen(name));
    uint8_t a[4] = {uint8_t(attempt), uint8_t(attempt >> 8), uint8_t(attempt >> 16),
                    uint8_t(attempt >> 24)};
    h.update(a, 4);
    auto d = h.finalize();
    d[31] &= 0x3f;
    fr_t::big_t v{};
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 8; ++j) v.l[i] |= uint64_t(d[8 * i + j]) << (8 * j);
    if (!ff::big_lt(v, fr_t::modulus)) continue;
    const fr_t x = fr_t::from_canonical(v);
    if (!x.is_zero()) return x;
  }
}

// Σ over the rows of m (and the input constraints when `inputs_in_a`) of coefficient · L_row,
// into per-variable sums (inputs, then aux).
void evaluate(const bellperson::r1cs_shape_t& s, const bellperson::r1cs_matrix_t& m,
              const std::vector<fr_t>& lag, bool inputs_in_a, std::vector<fr_t>& in,
              std::vector<fr_t>& aux) {
  in.assign(s.counts.inputs, fr_t::zero());
  aux.assign(s.counts.aux, fr_t::zero());
  for (uint64_t row = 0; row < s.counts.constraints; ++row)
    for (uint64_t t = m.row_ptr[row]; t < m.row_ptr[row + 1]; ++t) {
      const bellperson::var_t v{m.var[t]};
      const fr_t x = s.coeffs[m.coeff[t]] * lag[row];
      (v.is_input() ? in[v.index()] : aux[v.index()]) += x;
    }
  if (inputs_in_a)
    for (uint32_t i = 0; i < s.counts.inputs; ++i) in[i] += lag[s.counts.constraints + i];
}

}  // namespace

dev_params_report_t make_dev_params(const circuit_config_t& c, uint64_t seed,
                                    const std::string& dir, const std::string& name, bool vk_only) {
  const auto t0 = std::chrono::steady_clock::now();
  using curve = bellperson::curve_t;
  auto shape = circuit_shape(c, true);
  const bellperson::r1cs_shape_t& s = *shape;
  const uint64_t n = s.domain_size();
  unsigned log_n = 0;
  while ((uint64_t(1) << log_n) < n) ++log_n;

  fr_t tau = draw(seed, "tau");
  for (uint32_t k = 0; tau.pow_u64(n) == fr_t::one(); ++k)
    tau = draw(seed + 0x9e3779b97f4a7c15ull * (k + 1), "tau");
  const fr_t alpha = draw(seed, "alpha"), beta = draw(seed, "beta"), gamma = draw(seed, "gamma"),
             delta = draw(seed, "delta");
  const fr_t z = tau.pow_u64(n) - fr_t::one();
  const fr_t omega = ntt::root_of_unity<fr_t>(log_n, bellperson::domain_generator);

  // Lagrange basis at τ: (τⁿ − 1)/n · ωⁱ/(τ − ωⁱ).
  std::vector<fr_t> lag(n);
  const fr_t scale = z * fr_t::from_u64(n).inverse();
  parallel_for(n, [&](size_t b, size_t e) {
    std::vector<fr_t> den(e - b), scratch(e - b);
    fr_t x = omega.pow_u64(b);
    for (size_t i = b; i < e; ++i) {
      lag[i] = x;
      den[i - b] = tau - x;
      x = x * omega;
    }
    ff::batch_inverse(den.data(), scratch.data(), den.size());
    for (size_t i = b; i < e; ++i) lag[i] = scale * lag[i] * den[i - b];
  });
  std::vector<fr_t> a_in, a_aux, b_in, b_aux, c_in, c_aux;
  evaluate(s, s.a, lag, true, a_in, a_aux);
  evaluate(s, s.b, lag, false, b_in, b_aux);
  evaluate(s, s.c, lag, false, c_in, c_aux);
  std::vector<fr_t>().swap(lag);

  ec::fixed_base_t<curve::g1> g1(curve::g1_generator, fr_t::bits);
  ec::fixed_base_t<curve::g2> g2(curve::g2_generator, fr_t::bits);
  auto g1_of = [&](const fr_t& k) { return g1.mul(k.to_canonical()).to_affine(); };
  auto g2_of = [&](const fr_t& k) { return g2.mul(k.to_canonical()).to_affine(); };

  bellperson::verifying_key_t vk;
  vk.alpha_g1 = g1_of(alpha);
  vk.beta_g1 = g1_of(beta);
  vk.beta_g2 = g2_of(beta);
  vk.gamma_g2 = g2_of(gamma);
  vk.delta_g1 = g1_of(delta);
  vk.delta_g2 = g2_of(delta);
  const fr_t gamma_inv = gamma.inverse(), delta_inv = delta.inverse();
  std::vector<fr_t> k(s.counts.inputs);
  for (uint32_t i = 0; i < s.counts.inputs; ++i)
    k[i] = (beta * a_in[i] + alpha * b_in[i] + c_in[i]) * gamma_inv;
  vk.ic.resize(k.size());
  g1.mul_batch(k.data(), vk.ic.data(), k.size());

  std::filesystem::create_directories(dir);
  dev_params_report_t r;
  r.digest = s.digest_hex();
  r.domain = n;
  r.vk_path = dir + "/" + name + ".vk";
  if (!vk_only) {
    r.params_path = dir + "/" + name + ".params";
    bellperson::params_writer_t w(r.params_path, vk);
    // One section of points scalar·generator, computed and written a chunk at a time (G2 points
    // are twice the size and far slower: smaller chunks).
    auto put = [&](const std::vector<fr_t>& scalars, const auto& gen, auto point) {
      using point_t = decltype(point);
      constexpr bool is_g2 = std::is_same_v<point_t, bellperson::g2_affine_t>;
      w.begin_section(scalars.size());
      const size_t chunk = size_t(1) << (is_g2 ? 18 : 20);
      std::vector<point_t> pts;
      for (size_t b = 0; b < scalars.size(); b += chunk) {
        const size_t m = std::min(chunk, scalars.size() - b);
        pts.resize(m);
        gen.mul_batch(scalars.data() + b, pts.data(), m);
        if constexpr (is_g2)
          w.append_g2(pts.data(), m);
        else
          w.append_g1(pts.data(), m);
      }
      r.points += scalars.size();
    };
    auto put_g1 = [&](const std::vector<fr_t>& scalars) {
      put(scalars, g1, bellperson::g1_affine_t{});
    };
    // h: τⁱ·Z(τ)/δ
    std::vector<fr_t> sc(n - 1);
    const fr_t zd = z * delta_inv;
    parallel_for(sc.size(), [&](size_t b, size_t e) {
      fr_t x = tau.pow_u64(b) * zd;
      for (size_t i = b; i < e; ++i) sc[i] = x, x = x * tau;
    });
    put_g1(sc);
    sc.resize(s.counts.aux);
    parallel_for(sc.size(), [&](size_t b, size_t e) {
      for (size_t i = b; i < e; ++i)
        sc[i] = (beta * a_aux[i] + alpha * b_aux[i] + c_aux[i]) * delta_inv;
    });
    put_g1(sc);
    sc = a_in;
    for (uint32_t i = 0; i < s.counts.aux; ++i)
      if (s.a_aux.test(i)) sc.push_back(a_aux[i]);
    put_g1(sc);
    sc.clear();
    for (uint32_t i = 0; i < s.counts.inputs; ++i)
      if (s.b_input.test(i)) sc.push_back(b_in[i]);
    for (uint32_t i = 0; i < s.counts.aux; ++i)
      if (s.b_aux.test(i)) sc.push_back(b_aux[i]);
    put_g1(sc);
    put(sc, g2, bellperson::g2_affine_t{});  // the same B scalars in G2
    w.finish();
  }
  bellperson::write_vk_file(r.vk_path, vk);
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

}  // namespace zk::filecoin
