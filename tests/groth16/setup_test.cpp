// Development key generation: the fixed-base multiplier against double-and-add, and dev_setup on
// the committed fixtures — file structure, the key's points recomputed from the seed's toxic
// waste with naive Lagrange products, and a proof made with the key that must verify.
#include "zk/groth16/setup.hpp"

#include <doctest/doctest.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "tests/test_util.hpp"
#include "zk/base/error.hpp"
#include "zk/ec/curves.hpp"
#include "zk/ec/fixed_base.hpp"
#include "zk/formats/json.hpp"
#include "zk/formats/r1cs.hpp"
#include "zk/formats/zkey.hpp"
#include "zk/groth16/api.hpp"
#include "zk/groth16/keys.hpp"
#include "zk/ntt/ntt.hpp"
#include "zk/pairing/pairing.hpp"

namespace {

using namespace zk;

using zk::test::read_text;
using zk::test::temp_dir_t;

template <class C>
std::string curve_dir();
template <>
std::string curve_dir<curves::bn254>() {
  return "bn254";
}
template <>
std::string curve_dir<curves::bls12_381>() {
  return "bls12_381";
}

template <class P>
P load_point(const uint8_t* bytes) {
  P p;
  std::memcpy(&p, bytes, sizeof p);
  return p;
}

template <class Fr>
Fr fr_from_le(const uint8_t* le) {
  typename Fr::big_t v{};
  std::memcpy(v.l, le, sizeof v.l);
  return Fr::from_canonical(v);
}

// Σ_w d_w·2^{W·w}·G with d_w·2^{W·w} ≡ 2d·2^{W·top} − r: for BN254 and W = 10, d = 12 makes the
// batched path double in its top window (partial sum ≡ the table point).
template <class Fr, unsigned W>
std::vector<Fr> edge_scalars() {
  const Fr two = Fr::from_u64(2);
  const unsigned top = (Fr::bits + 1 + W - 1) / W - 1;
  std::vector<Fr> k = {Fr::zero(),
                       Fr::one(),
                       two,
                       -Fr::one(),
                       -two,
                       Fr::from_u64((1u << (W - 1))),
                       Fr::from_u64((1u << (W - 1)) + 1),
                       Fr::from_u64((1u << W) - 1),
                       Fr::from_u64(1u << W)};
  const Fr top_unit = two.pow_u64(uint64_t(W) * top);
  for (uint64_t d = 1; d <= 32; ++d) k.push_back(Fr::from_u64(2 * d) * top_unit);
  for (int i = 0; i < 48; ++i) k.push_back(test::random_field<Fr>());
  return k;
}

template <class G, class Fr>
void check_fixed_base(const typename ec::affine_t<G>& gen) {
  using jac = ec::jacobian_t<G>;
  ec::fixed_base_t<G> table(gen, Fr::bits);
  const std::vector<Fr> k = edge_scalars<Fr, ec::fixed_base_t<G>::window_bits>();
  std::vector<ec::affine_t<G>> batch(k.size()), small(k.size());
  table.mul_batch(k.data(), batch.data(), k.size());
  table.mul_batch(k.data(), small.data(), k.size(), 7);  // many chunks, a ragged last one
  const jac g = jac::from_affine(gen);
  for (size_t i = 0; i < k.size(); ++i) {
    const auto expect = g.mul(k[i].to_canonical()).to_affine();
    CAPTURE(i);
    CHECK(table.mul(k[i].to_canonical()).to_affine() == expect);
    CHECK(batch[i] == expect);
    CHECK(small[i] == expect);
  }
  CHECK(batch[0].is_infinity());  // k = 0 → (0, 0), the zkey's infinity
}

}  // namespace

#define ZK_CURVES curves::bn254, curves::bls12_381

TEST_CASE_TEMPLATE("fixed-base multiplication equals double-and-add", C, ZK_CURVES) {
  using fr_t = typename C::fr_t;
  SUBCASE("G1") { check_fixed_base<typename C::g1, fr_t>(C::g1_generator); }
  SUBCASE("G2") { check_fixed_base<typename C::g2, fr_t>(C::g2_generator); }
  SUBCASE("another base, another window width") {
    const auto p = test::random_g1<C>();
    ec::fixed_base_t<typename C::g1, 4> table(p, fr_t::bits);
    for (int i = 0; i < 16; ++i) {
      const fr_t k = test::random_field<fr_t>();
      CHECK(table.mul(k.to_canonical()).to_affine() ==
            C::g1_jacobian::from_affine(p).mul(k.to_canonical()).to_affine());
    }
  }
}

namespace {

// Naive Lagrange basis of the N-point domain {ω^k}: L_c(τ) = Π_{k≠c} (τ − ω^k)/(ω^c − ω^k).
template <class Fr>
Fr naive_lagrange(const Fr& tau, const Fr& omega, size_t n_points, size_t c) {
  const Fr wc = omega.pow_u64(c);
  Fr num = Fr::one(), den = Fr::one(), wk = Fr::one();
  for (size_t k = 0; k < n_points; ++k, wk = wk * omega) {
    if (k == c) continue;
    num = num * (tau - wk);
    den = den * (wc - wk);
  }
  return num * den.inverse();
}

template <class C>
void check_key(const std::string& fixture, uint64_t seed) {
  using fr_t = typename C::fr_t;
  using g1_affine = typename C::g1_affine;
  using g2_affine = typename C::g2_affine;
  using g1_jacobian = typename C::g1_jacobian;
  using g2_jacobian = typename C::g2_jacobian;
  const std::string dir = test::fixture_dir(curve_dir<C>(), fixture);
  temp_dir_t tmp;
  const std::string zkey_path = tmp.file("circuit.zkey"),
                    vkey_path = tmp.file("verification_key.json");
  groth16::setup_options_t opt;
  opt.seed = seed;
  const auto rep = groth16::dev_setup(dir + "/circuit.r1cs", zkey_path, vkey_path, opt);

  const formats::r1cs_file_t r1cs(dir + "/circuit.r1cs");
  const auto& rh = r1cs.header();
  const uint32_t n_pub = rh.n_public(), n_vars = rh.n_wires;
  CHECK(rep.curve == *r1cs.curve());
  CHECK(rep.n_constraints == rh.n_constraints);
  CHECK(rep.n_vars == n_vars);
  CHECK(rep.n_public == n_pub);
  CHECK(rep.domain_size == 1024);  // both fixtures: ~1000 constraints + 2 public + 1

  // --- the file, reread ---------------------------------------------------------------------
  const formats::zkey_file_t zkey(zkey_path);
  const auto& h = zkey.header();
  REQUIRE(h.curve == rep.curve);
  CHECK(h.n_vars == n_vars);
  CHECK(h.n_public == n_pub);
  CHECK(h.domain_size == rep.domain_size);
  const uint64_t n_coef = r1cs.nnz()[0] + r1cs.nnz()[1] + n_pub + 1;
  CHECK(rep.n_coefficients == n_coef);
  REQUIRE(zkey.coefficients().count == n_coef);
  CHECK(zkey.coefficients_sorted_by_constraint());
  REQUIRE(zkey.circuit_hash() != nullptr);

  // Section 4: value·R⁻² is the r1cs coefficient (§2.4): the first constraint's A then B terms,
  // and the nPublic+1 input rows at the end, value 1·R².
  {
    const auto coefs = zkey.coefficients();
    const formats::r1cs_constraint_t first =
        *r1cs.constraints().begin();                         // a copy: the iterator is a temporary
    const fr_t r_inv = fr_t::from_mont(fr_t::r2).inverse();  // the element R⁻¹ mod r
    uint64_t k = 0;
    for (uint32_t m = 0; m < 2; ++m) {
      const auto& lc = m == 0 ? first.a : first.b;
      for (uint32_t t = 0; t < lc.size(); ++t, ++k) {
        const auto rec = coefs[k];
        CHECK(rec.matrix == m);
        CHECK(rec.constraint == 0);
        CHECK(rec.signal == lc[t].wire);
        CHECK(fr_from_le<fr_t>(rec.value) * r_inv * r_inv == fr_from_le<fr_t>(lc[t].coef));
      }
    }
    for (uint32_t s = 0; s <= n_pub; ++s) {
      const auto rec = coefs[n_coef - n_pub - 1 + s];
      CHECK(rec.matrix == 0);
      CHECK(rec.constraint == rh.n_constraints + s);
      CHECK(rec.signal == s);
      CHECK(std::memcmp(rec.value, fr_t::r2.l, 32) == 0);
    }
  }

  // Every point on its curve.
  const auto g1_at = [](const formats::point_span_t& s, uint64_t i) {
    return load_point<g1_affine>(s[i]);
  };
  const auto g2_at = [](const formats::point_span_t& s, uint64_t i) {
    return load_point<g2_affine>(s[i]);
  };
  for (const auto& span : {zkey.ic(), zkey.a(), zkey.b1(), zkey.c(), zkey.h()})
    for (uint64_t i = 0; i < span.count; ++i) REQUIRE(g1_at(span, i).is_on_curve());
  for (uint64_t i = 0; i < zkey.b2().count; ++i) REQUIRE(g2_at(zkey.b2(), i).is_on_curve());
  const auto alpha1 = load_point<g1_affine>(h.alpha1), beta1 = load_point<g1_affine>(h.beta1),
             delta1 = load_point<g1_affine>(h.delta1);
  const auto beta2 = load_point<g2_affine>(h.beta2), gamma2 = load_point<g2_affine>(h.gamma2),
             delta2 = load_point<g2_affine>(h.delta2);
  CHECK(gamma2 == C::g2_generator);  // γ = 1 (snarkjs)

  // --- the points, recomputed from the seed ------------------------------------------------
  const auto tw = groth16::draw_toxic_waste<fr_t>(opt, h.domain_size);
  const auto g1 = [](const fr_t& s) {
    return g1_jacobian::from_affine(C::g1_generator).mul(s.to_canonical()).to_affine();
  };
  const auto g2 = [](const fr_t& s) {
    return g2_jacobian::from_affine(C::g2_generator).mul(s.to_canonical()).to_affine();
  };
  CHECK(alpha1 == g1(tw.alpha));
  CHECK(beta1 == g1(tw.beta));
  CHECK(delta1 == g1(tw.delta));
  CHECK(beta2 == g2(tw.beta));
  CHECK(delta2 == g2(tw.delta));

  // A_i, B_i, C_i(τ) of a public and a private wire from the r1cs with naive Lagrange products
  // (input rows included, §2.4), against A, B1, B2, IC and C (§2.5).
  const size_t n = h.domain_size;
  const fr_t omega = ntt::root_of_unity<fr_t>(h.log2_domain_size);
  std::vector<fr_t> lag(n);
  for (size_t c = 0; c < n; ++c) lag[c] = naive_lagrange(tw.tau, omega, n, c);
  for (uint32_t wire : {uint32_t(1), n_vars - 1}) {
    CAPTURE(wire);
    fr_t abc[3] = {fr_t::zero(), fr_t::zero(), fr_t::zero()};
    uint32_t row = 0;
    for (const auto& con : r1cs.constraints()) {
      const formats::linear_combination_t* lcs[3] = {&con.a, &con.b, &con.c};
      for (int m = 0; m < 3; ++m)
        for (uint32_t t = 0; t < lcs[m]->size(); ++t)
          if ((*lcs[m])[t].wire == wire) abc[m] += fr_from_le<fr_t>((*lcs[m])[t].coef) * lag[row];
      ++row;
    }
    if (wire <= n_pub) abc[0] += lag[rh.n_constraints + wire];
    CHECK(g1_at(zkey.a(), wire) == g1(abc[0]));
    CHECK(g1_at(zkey.b1(), wire) == g1(abc[1]));
    CHECK(g2_at(zkey.b2(), wire) == g2(abc[1]));
    const fr_t k = tw.beta * abc[0] + tw.alpha * abc[1] + abc[2];
    if (wire <= n_pub)
      CHECK(g1_at(zkey.ic(), wire) == g1(k));
    else
      CHECK(g1_at(zkey.c(), wire - n_pub - 1) == g1(k * tw.delta.inverse()));
  }
  // H[j] = [L^{(2n)}_{2j+1}(τ)/δ]₁ on the 2n-point domain (§2.5).
  const fr_t omega_2n = ntt::root_of_unity<fr_t>(h.log2_domain_size + 1);
  for (size_t j : {size_t(0), size_t(1), n - 1}) {
    CAPTURE(j);
    CHECK(g1_at(zkey.h(), j) ==
          g1(naive_lagrange(tw.tau, omega_2n, 2 * n, 2 * j + 1) * tw.delta.inverse()));
  }

  // --- verification_key.json agrees with the zkey --------------------------------------------
  const auto vk_json = formats::read_vkey_json(vkey_path);
  CHECK(vk_json.curve == std::string(C::snarkjs_name));
  CHECK(vk_json.n_public == n_pub);
  const auto vk = groth16::verifying_key_t<C>::from_json(vk_json, vkey_path);
  CHECK(vk.alpha1 == alpha1);
  CHECK(vk.beta2 == beta2);
  CHECK(vk.gamma2 == gamma2);
  CHECK(vk.delta2 == delta2);
  REQUIRE(vk.ic.size() == n_pub + 1);
  for (uint32_t i = 0; i <= n_pub; ++i) CHECK(vk.ic[i] == g1_at(zkey.ic(), i));
  const auto ab = pairing::pairing(alpha1, beta2);
  const typename decltype(ab)::fq6_t* halves[2] = {&ab.c0, &ab.c1};
  for (int i = 0; i < 2; ++i) {
    const typename C::fq2_t* c[3] = {&halves[i]->c0, &halves[i]->c1, &halves[i]->c2};
    for (int k = 0; k < 3; ++k) {
      CHECK(vk_json.alphabeta[i][k][0] == c[k]->c0.to_string());
      CHECK(vk_json.alphabeta[i][k][1] == c[k]->c1.to_string());
    }
  }

  // --- a proof with this key verifies (snarkjs's own check is in tests/interop) ----------------
  const std::string proof = tmp.file("proof.json"), pub = tmp.file("public.json");
  groth16::prove_options_t popt;
  popt.self_verify = false;  // verified below, through the JSON files
  groth16::prove_files(zkey_path, dir + "/witness.wtns", proof, pub, popt);
  const auto valid = groth16::verify_files(vkey_path, pub, proof);
  CHECK_MESSAGE(valid.ok(), valid.reason());
  // …and not against the snarkjs ceremony key of the same circuit, nor for other publics.
  CHECK_FALSE(groth16::verify_files(dir + "/verification_key.json", pub, proof).ok());
  CHECK(formats::read_public_json(pub) == formats::read_public_json(dir + "/public.json"));
}

}  // namespace

TEST_CASE_TEMPLATE("dev_setup: the fixture keys are snarkjs keys of the circuit", C, ZK_CURVES) {
  SUBCASE("mulchain") { check_key<C>("mulchain", 1); }
  SUBCASE("poseidon") { check_key<C>("poseidon", 2); }
}

TEST_CASE("dev_setup: a seed fixes the key, no seed draws a fresh one") {
  const std::string r1cs = test::fixture_dir("bn254", "mulchain") + "/circuit.r1cs";
  temp_dir_t tmp;
  groth16::setup_options_t seeded;
  seeded.seed = 7;
  groth16::dev_setup(r1cs, tmp.file("a.zkey"), tmp.file("a.json"), seeded);
  groth16::dev_setup(r1cs, tmp.file("b.zkey"), tmp.file("b.json"), seeded);
  groth16::dev_setup(r1cs, tmp.file("c.zkey"), tmp.file("c.json"), {});
  CHECK(read_text(tmp.file("a.zkey")) == read_text(tmp.file("b.zkey")));
  CHECK(read_text(tmp.file("a.json")) == read_text(tmp.file("b.json")));
  CHECK(read_text(tmp.file("a.zkey")) != read_text(tmp.file("c.zkey")));
  CHECK(read_text(tmp.file("a.zkey")).size() == read_text(tmp.file("c.zkey")).size());
}

TEST_CASE("dev_setup: an r1cs over an unknown prime is rejected, naming the file") {
  const std::string src = test::fixture_dir("bn254", "mulchain") + "/circuit.r1cs";
  temp_dir_t tmp;
  const std::string bad = tmp.file("other_prime.r1cs");
  std::filesystem::copy_file(src, bad);
  {
    // Header payload = u32 fs, then the prime: make it r + 2 (coefficients stay below it).
    const formats::r1cs_file_t r1cs(src);
    const uint64_t prime_at = r1cs.file().unique(formats::r1cs_section::header).offset + 4;
    std::fstream f(bad, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(std::streamoff(prime_at));
    uint8_t prime[32];
    std::memcpy(prime, r1cs.header().prime, 32);
    prime[0] += 2;  // r ends in 0x...01: no carry
    f.write(reinterpret_cast<const char*>(prime), 32);
  }
  try {
    groth16::dev_setup(bad, tmp.file("x.zkey"), tmp.file("x.json"));
    FAIL("no error");
  } catch (const format_error& e) {
    CHECK(std::string(e.what()).find(bad) != std::string::npos);
  }
  CHECK_FALSE(std::filesystem::exists(tmp.file("x.zkey")));
  CHECK_FALSE(std::filesystem::exists(tmp.file("x.json")));
}
