// bellperson's parameter generator (zk/bellperson/groth16/generator.hpp) on a small circuit of
// bellperson's gadgets, checked without the generator's code: the .params reads back checked and
// agrees with the .vk; its sections are as long as the shape's densities say; every point is
// recomputed at the seed's τ from the matrices with naive Lagrange products (ω from 7 directly);
// and a proof made from the file's points with naive polynomial arithmetic verifies, and fails
// for other public inputs.
#include "zk/bellperson/groth16/generator.hpp"

#include <doctest/doctest.h>

#include <array>
#include <vector>

#include "tests/bellperson/toy_circuit.hpp"
#include "tests/test_util.hpp"
#include "zk/bellperson/gadgets/num.hpp"
#include "zk/bellperson/gadgets/uint32.hpp"
#include "zk/bellperson/groth16/files.hpp"
#include "zk/bellperson/groth16/verifier.hpp"

using namespace zk::bellperson;
using zk::test::temp_dir_t;
using zk::test::toy_circuit;
using zk::test::toy_values_t;

namespace {

using g1_jacobian_t = curve_t::g1_jacobian;
using g2_jacobian_t = curve_t::g2_jacobian;

// ω = 7^((r−1)/n), n = 2^log_n.
fr_t domain_root(unsigned log_n) {
  fr_t::big_t t = fr_t::modulus;
  t.l[0] -= 1;
  for (unsigned i = 0; i < log_n; ++i)
    for (int j = 0; j < fr_t::N; ++j)
      t.l[j] = (t.l[j] >> 1) | (j + 1 < fr_t::N ? t.l[j + 1] << 63 : 0);
  return fr_t::from_u64(7).pow(t);
}

g1_affine_t g1_of(const fr_t& k) {
  return g1_jacobian_t::from_affine(curve_t::g1_generator).mul(k.to_canonical()).to_affine();
}
g2_affine_t g2_of(const fr_t& k) {
  return g2_jacobian_t::from_affine(curve_t::g2_generator).mul(k.to_canonical()).to_affine();
}

// Σ k_i·P_i, one multiplication at a time.
template <class J, class P>
J naive_msm(const std::vector<P>& points, const std::vector<fr_t>& k) {
  J acc = J::infinity();
  for (size_t i = 0; i < points.size(); ++i)
    acc += J::from_affine(points[i]).mul(k[i].to_canonical());
  return acc;
}

}  // namespace

TEST_CASE(
    "bellperson generator: a gadget circuit's parameters, checked point by point and by a proof") {
  const toy_values_t values{{0x01234567u, 0x89abcdefu, 0xdeadbeefu, 0x0badf00du},
                            fr_t::from_u64(123456789)};
  shape_cs_t shape_cs(true);
  toy_circuit(shape_cs, values);
  const r1cs_shape_t s = shape_cs.finish();
  const uint32_t inputs = s.counts.inputs, aux = s.counts.aux, m = s.counts.constraints;
  REQUIRE(inputs == 3);  // ONE, the packed word, x²
  CHECK(m == 295);       // a domain of 512 with the 3 input constraints
  const uint64_t n = s.domain_size();
  unsigned log_n = 0;
  while ((uint64_t(1) << log_n) < n) ++log_n;
  // The densities leave variables out, so the sparse sections are a real test.
  CHECK(s.a_aux.count() < aux);
  CHECK(s.b_aux.count() < aux);
  CHECK(s.b_input.count() < inputs);
  CHECK(!s.a_aux.test(aux - 1));  // y: only a cancelled term in A
  CHECK(!s.a_aux.test(aux - 2));  // z: only in B
  CHECK(s.b_aux.test(aux - 2));

  temp_dir_t tmp;
  const std::string params_path = tmp.file("toy.params"), vk_path = tmp.file("toy.vk");
  const uint64_t seed = 11;
  const generated_params_t g = generate_parameters(s, seed, params_path, vk_path);
  CHECK(g.domain == n);

  // --- the files, read back ------------------------------------------------------------------
  const params_file_t pf(params_path, params_file_t::mode_t::checked);
  const verifying_key_t& vk = pf.vk();
  const verifying_key_t vk_file = read_vk_file(vk_path).vk;
  CHECK(vk_file.alpha_g1 == vk.alpha_g1);
  CHECK(vk_file.beta_g1 == vk.beta_g1);
  CHECK(vk_file.beta_g2 == vk.beta_g2);
  CHECK(vk_file.gamma_g2 == vk.gamma_g2);
  CHECK(vk_file.delta_g1 == vk.delta_g1);
  CHECK(vk_file.delta_g2 == vk.delta_g2);
  CHECK(vk_file.ic == vk.ic);
  REQUIRE(vk.ic.size() == inputs);
  const uint64_t nb = uint64_t(s.b_input.count()) + s.b_aux.count();
  REQUIRE(pf.h().count == n - 1);
  REQUIRE(pf.l().count == aux);
  REQUIRE(pf.a().count == uint64_t(inputs) + s.a_aux.count());
  REQUIRE(pf.b_g1().count == nb);
  REQUIRE(pf.b_g2().count == nb);
  CHECK(g.points == (n - 1) + aux + pf.a().count + 2 * nb);
  auto g1_section = [&](const params_file_t::section_t& sec) {
    std::vector<g1_affine_t> p(sec.count);
    pf.read_g1(sec, 0, sec.count, p.data());
    return p;
  };
  const auto h_pts = g1_section(pf.h()), l_pts = g1_section(pf.l()), a_pts = g1_section(pf.a()),
             b1_pts = g1_section(pf.b_g1());
  std::vector<g2_affine_t> b2_pts(nb);
  pf.read_g2(pf.b_g2(), 0, nb, b2_pts.data());

  // --- every point at the seed's τ -------------------------------------------------------------
  const auto sec = dev_secrets(seed, n);
  const fr_t omega = domain_root(log_n);
  REQUIRE(omega.pow_u64(n) == fr_t::one());
  REQUIRE(omega.pow_u64(n / 2) != fr_t::one());
  CHECK(vk.alpha_g1 == g1_of(sec.alpha));
  CHECK(vk.beta_g1 == g1_of(sec.beta));
  CHECK(vk.beta_g2 == g2_of(sec.beta));
  CHECK(vk.gamma_g2 == g2_of(sec.gamma));
  CHECK(vk.delta_g1 == g1_of(sec.delta));
  CHECK(vk.delta_g2 == g2_of(sec.delta));
  // L_i(τ) = Π_{k≠i} (τ − ω^k)/(ω^i − ω^k).
  std::vector<fr_t> pw(n), lag(n);
  pw[0] = fr_t::one();
  for (uint64_t i = 1; i < n; ++i) pw[i] = pw[i - 1] * omega;
  for (uint64_t i = 0; i < n; ++i) {
    fr_t num = fr_t::one(), den = fr_t::one();
    for (uint64_t k = 0; k < n; ++k)
      if (k != i) num = num * (sec.tau - pw[k]), den = den * (pw[i] - pw[k]);
    lag[i] = num * den.inverse();
  }
  // u_j(τ) for matrix M over variables (inputs, then aux), input rows in A.
  const uint64_t vars = uint64_t(inputs) + aux;
  auto at_tau = [&](const r1cs_matrix_t& mat) {
    std::vector<fr_t> u(vars, fr_t::zero());
    for (uint64_t row = 0; row < m; ++row)
      for (uint64_t t = mat.row_ptr[row]; t < mat.row_ptr[row + 1]; ++t) {
        const var_t v{mat.var[t]};
        u[v.is_input() ? v.index() : inputs + v.index()] += s.coeffs[mat.coeff[t]] * lag[row];
      }
    return u;
  };
  std::vector<fr_t> at = at_tau(s.a);
  const std::vector<fr_t> bt = at_tau(s.b), ct = at_tau(s.c);
  for (uint32_t i = 0; i < inputs; ++i) at[i] += lag[m + i];
  const fr_t gamma_inv = sec.gamma.inverse(), delta_inv = sec.delta.inverse();
  auto kj = [&](uint64_t j) { return sec.beta * at[j] + sec.alpha * bt[j] + ct[j]; };
  for (uint32_t i = 0; i < inputs; ++i) CHECK(vk.ic[i] == g1_of(kj(i) * gamma_inv));
  for (uint32_t i = 0; i < aux; ++i) CHECK(l_pts[i] == g1_of(kj(inputs + i) * delta_inv));
  // The query's variables in order: every input in A, then the densities.
  std::vector<uint64_t> a_vars, b_vars;
  for (uint32_t i = 0; i < inputs; ++i) {
    a_vars.push_back(i);
    if (s.b_input.test(i)) b_vars.push_back(i);
  }
  for (uint32_t i = 0; i < aux; ++i) {
    if (s.a_aux.test(i)) a_vars.push_back(inputs + i);
    if (s.b_aux.test(i)) b_vars.push_back(inputs + i);
  }
  for (size_t k = 0; k < a_vars.size(); ++k) CHECK(a_pts[k] == g1_of(at[a_vars[k]]));
  for (size_t k = 0; k < b_vars.size(); ++k) {
    CHECK(b1_pts[k] == g1_of(bt[b_vars[k]]));
    CHECK(b2_pts[k] == g2_of(bt[b_vars[k]]));
  }
  const fr_t z_tau = sec.tau.pow_u64(n) - fr_t::one();
  fr_t tau_i = fr_t::one();
  for (uint64_t i = 0; i + 1 < n; ++i, tau_i = tau_i * sec.tau)
    CHECK(h_pts[i] == g1_of(tau_i * z_tau * delta_inv));

  // --- a proof from the file's points ------------------------------------------------------------
  std::vector<fr_t> in(inputs), ax(aux), ea(n, fr_t::zero()), eb(n, fr_t::zero()),
      ec(n, fr_t::zero());
  const assignment_view_t view{in.data(), ax.data(), ea.data(), eb.data(), ec.data(), s.counts};
  prove_cs_t prove_cs(view);
  prove_cs.alloc_input(fr_t::one());
  toy_circuit(prove_cs, values);
  REQUIRE(prove_cs.counts() == s.counts);
  append_input_constraints(view, s.counts);
  for (uint64_t i = 0; i < n; ++i) REQUIRE(ea[i] * eb[i] == ec[i]);
  std::vector<fr_t> w(in);
  w.insert(w.end(), ax.begin(), ax.end());
  // Coefficients of the polynomials through (ω^i, e_i): c_k = n⁻¹·Σ_i e_i·ω^{−ik}.
  const fr_t n_inv = fr_t::from_u64(n).inverse();
  auto coefficients = [&](const std::vector<fr_t>& e) {
    std::vector<fr_t> c(n, fr_t::zero());
    for (uint64_t k = 0; k < n; ++k) {
      for (uint64_t i = 0; i < n; ++i) c[k] += e[i] * pw[(n - (i * k) % n) % n];
      c[k] = c[k] * n_inv;
    }
    return c;
  };
  const auto pa = coefficients(ea), pb = coefficients(eb), pc = coefficients(ec);
  // p = a·b − c, divided by Z = Xⁿ − 1: h (n − 1 coefficients) and a zero remainder.
  std::vector<fr_t> p(2 * n - 1, fr_t::zero());
  for (uint64_t i = 0; i < n; ++i)
    for (uint64_t j = 0; j < n; ++j) p[i + j] += pa[i] * pb[j];
  for (uint64_t i = 0; i < n; ++i) p[i] -= pc[i];
  std::vector<fr_t> h(n - 1, fr_t::zero());
  for (uint64_t k = 2 * n - 2; k >= n; --k) {
    h[k - n] = p[k];
    p[k - n] += p[k];
  }
  for (uint64_t i = 0; i < n; ++i) REQUIRE(p[i].is_zero());

  auto pick = [&](const std::vector<uint64_t>& vs) {
    std::vector<fr_t> k;
    for (uint64_t v : vs) k.push_back(w[v]);
    return k;
  };
  const fr_t r = zk::test::random_field<fr_t>(), sr = zk::test::random_field<fr_t>();
  const g1_jacobian_t delta1 = g1_jacobian_t::from_affine(vk.delta_g1);
  const g1_jacobian_t a = g1_jacobian_t::from_affine(vk.alpha_g1) +
                          naive_msm<g1_jacobian_t>(a_pts, pick(a_vars)) +
                          delta1.mul(r.to_canonical());
  const g1_jacobian_t b1 = g1_jacobian_t::from_affine(vk.beta_g1) +
                           naive_msm<g1_jacobian_t>(b1_pts, pick(b_vars)) +
                           delta1.mul(sr.to_canonical());
  const g2_jacobian_t b2 = g2_jacobian_t::from_affine(vk.beta_g2) +
                           naive_msm<g2_jacobian_t>(b2_pts, pick(b_vars)) +
                           g2_jacobian_t::from_affine(vk.delta_g2).mul(sr.to_canonical());
  const g1_jacobian_t c = naive_msm<g1_jacobian_t>(l_pts, ax) + naive_msm<g1_jacobian_t>(h_pts, h) +
                          a.mul(sr.to_canonical()) + b1.mul(r.to_canonical()) -
                          delta1.mul((r * sr).to_canonical());
  const proof_t proof{a.to_affine(), b2.to_affine(), c.to_affine()};
  const std::vector<fr_t> publics(in.begin() + 1, in.end());
  const auto valid = verify_proof(vk, proof, publics);
  CHECK_MESSAGE(valid.ok(), valid.reason());
  std::vector<fr_t> other = publics;
  other[1] += fr_t::one();
  CHECK_FALSE(verify_proof(vk, proof, other).ok());

  // --- a seed fixes the files; the key alone is the same key -------------------------------------
  const generated_params_t g2 =
      generate_parameters(s, seed, tmp.file("again.params"), tmp.file("again.vk"));
  CHECK(g2.points == g.points);
  CHECK(zk::test::read_text(tmp.file("again.params")) == zk::test::read_text(params_path));
  const generated_params_t vk_only = generate_parameters(s, seed, "", tmp.file("only.vk"));
  CHECK(vk_only.points == 0);
  CHECK(zk::test::read_text(tmp.file("only.vk")) == zk::test::read_text(vk_path));
  generate_parameters(s, seed + 1, "", tmp.file("other.vk"));
  CHECK(zk::test::read_text(tmp.file("other.vk")) != zk::test::read_text(vk_path));
}

TEST_CASE("bellperson generator: a shape without matrices is refused") {
  shape_cs_t cs(false);
  toy_circuit(cs, toy_values_t{});
  const r1cs_shape_t s = cs.finish();
  temp_dir_t tmp;
  CHECK_THROWS_AS(generate_parameters(s, 1, tmp.file("x.params"), tmp.file("x.vk")),
                  std::invalid_argument);
}
