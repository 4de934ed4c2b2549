#include "zk/groth16/setup.hpp"

#include <array>
#include <chrono>
#include <cstring>
#include <functional>
#include <optional>
#include <random>
#include <stdexcept>
#include <vector>

#include "zk/base/error.hpp"
#include "zk/base/thread_pool.hpp"
#include "zk/ec/curves.hpp"
#include "zk/ec/fixed_base.hpp"
#include "zk/formats/json.hpp"
#include "zk/formats/paths.hpp"
#include "zk/formats/r1cs.hpp"
#include "zk/formats/zkey_writer.hpp"
#include "zk/groth16/keys.hpp"
#include "zk/groth16/verifier.hpp"
#include "zk/ntt/ntt.hpp"

namespace zk::groth16 {

namespace {

using steady_clock_t = std::chrono::steady_clock;

// Adds the time from construction to destruction to *acc.
class phase_timer_t {
 public:
  explicit phase_timer_t(double* acc) : acc_(acc), begin_(steady_clock_t::now()) {}
  ~phase_timer_t() {
    *acc_ += std::chrono::duration<double>(steady_clock_t::now() - begin_).count();
  }
  phase_timer_t(const phase_timer_t&) = delete;
  phase_timer_t& operator=(const phase_timer_t&) = delete;

 private:
  double* acc_;
  steady_clock_t::time_point begin_;
};

// Uniform element of [1, r): rejection sampling of the top limb masked to r's bit length.
template <class Fr>
Fr draw_nonzero(const std::function<uint64_t()>& word) {
  for (;;) {
    typename Fr::big_t v{};
    for (int i = 0; i < Fr::N; ++i) v.l[i] = word();
    if (Fr::bits % 64 != 0) v.l[Fr::N - 1] &= (uint64_t(1) << (Fr::bits % 64)) - 1;
    if (!v.is_zero() && ff::big_lt(v, Fr::modulus)) return Fr::from_canonical(v);
  }
}

// A canonical little-endian Fr value from r1cs bytes (validated < r by the reader; fs = 8·N
// since the prime matched one of our curves).
template <class Fr>
Fr load_canonical(const uint8_t* le) {
  typename Fr::big_t v{};
  for (int i = 0; i < Fr::N; ++i) {
    uint64_t limb = 0;
    for (int b = 0; b < 8; ++b) limb |= uint64_t(le[8 * i + b]) << (8 * b);
    v.l[i] = limb;
  }
  return Fr::from_canonical(v);
}

template <class Big>
std::vector<uint8_t> le_bytes(const Big& v) {
  std::vector<uint8_t> out(8 * Big::limbs);
  for (int i = 0; i < Big::limbs; ++i)
    for (int b = 0; b < 8; ++b) out[8 * i + b] = uint8_t(v.l[i] >> (8 * b));
  return out;
}

// out[c] = scale·x_c/(τ − x_c) for the points x_c = first·step^c, c < count. With
// scale = (τ^N − 1)/N and {x_c} a whole N-point subgroup (or its coset ω_{2n}·H), this is the
// Lagrange basis L_c(τ) = (τ^N − 1)/N · x_c/(τ − x_c): Π_{j≠c}(x_c − x_j) = N·x_c^{N−1} = N/x_c
// on {x : x^N = 1}. O(count) field work and one inversion per chunk (Montgomery's trick).
template <class Fr>
std::vector<Fr> lagrange_at(const Fr& tau, const Fr& first, const Fr& step, size_t count,
                            const Fr& scale) {
  std::vector<Fr> out(count);
  parallel_for(count, [&](size_t b, size_t e) {
    std::vector<Fr> den(e - b), scratch(e - b);
    Fr x = first * step.pow_u64(b);
    for (size_t c = b; c < e; ++c) {
      out[c] = x;
      den[c - b] = tau - x;
      x = x * step;
    }
    ff::batch_inverse(den.data(), scratch.data(), den.size());
    for (size_t c = b; c < e; ++c) out[c] = scale * out[c] * den[c - b];
  });
  return out;
}

template <class C>
class key_generator_t {
  using fr_t = typename C::fr_t;
  using g1_affine = typename C::g1_affine;
  using g2_affine = typename C::g2_affine;

 public:
  key_generator_t(const formats::r1cs_file_t& r1cs, setup_report_t& report,
                  const setup_options_t& options)
      : r1cs_(r1cs), rep_(report), opt_(options) {}

  void run(const std::string& zkey_path, const std::string& vkey_path) {
    check_domain();
    evaluate();
    make_header_points();
    write_zkey(zkey_path);
    write_vkey(vkey_path);
  }

 private:
  // §2.6: n = smallest power of two ≥ nConstraints + nPublic + 1; the H points need the
  // 2n-domain (§2.5), so log2(n) + 1 must not exceed the 2-adicity of r − 1.
  void check_domain() {
    const auto& h = r1cs_.header();
    const uint64_t rows = uint64_t(h.n_constraints) + h.n_public() + 1;
    unsigned log_n = 0;
    while ((uint64_t(1) << log_n) < rows) ++log_n;
    if (log_n + 1 > fr_t::params_t::two_adicity) {
      throw format_error(r1cs_.path() + ": " + std::to_string(h.n_constraints) + " constraints + " +
                         std::to_string(h.n_public()) +
                         " public signals + 1 = " + std::to_string(rows) + " QAP rows need a 2^" +
                         std::to_string(log_n) + " domain, and its H points a 2^" +
                         std::to_string(log_n + 1) + " domain, beyond the field's 2-adicity " +
                         std::to_string(fr_t::params_t::two_adicity));
    }
    log_n_ = log_n;
    n_ = size_t(1) << log_n;
    rep_.domain_size = uint32_t(n_);
    rep_.n_coefficients = r1cs_.nnz()[0] + r1cs_.nnz()[1] + h.n_public() + 1;
  }

  // The key's scalars: A_i, B_i at τ and the IC/C combinations (§2.5).
  void evaluate() {
    phase_timer_t t(&rep_.evaluate_seconds);
    const auto& h = r1cs_.header();
    const uint32_t n_vars = h.n_wires, n_pub = h.n_public();
    tw_ = draw_toxic_waste<fr_t>(opt_, uint32_t(n_));
    const fr_t& tau = tw_.tau;

    // L_c(τ) on the n-domain {ω_n^c}.
    const fr_t omega_n = ntt::root_of_unity<fr_t>(log_n_);
    const fr_t tau_n = tau.pow_u64(n_);
    const fr_t n_inv = fr_t::from_u64(n_).inverse();
    std::vector<fr_t> lag =
        lagrange_at(tau, fr_t::one(), omega_n, n_, (tau_n - fr_t::one()) * n_inv);

    // A_i, B_i, C_i = Σ_c m_{c,i}·L_c(τ) over the r1cs rows, then the input rows
    // {A, row nConstraints+s, wire s, 1} (§2.4).
    a_.assign(n_vars, fr_t::zero());
    b_.assign(n_vars, fr_t::zero());
    std::vector<fr_t> c(n_vars, fr_t::zero());
    auto accumulate = [](std::vector<fr_t>& acc, const formats::linear_combination_t& lc,
                         const fr_t& l) {
      for (uint32_t k = 0; k < lc.size(); ++k) {
        const formats::lc_term_t term = lc[k];
        acc[term.wire] += load_canonical<fr_t>(term.coef) * l;
      }
    };
    uint32_t row = 0;
    for (const auto& con : r1cs_.constraints()) {
      accumulate(a_, con.a, lag[row]);
      accumulate(b_, con.b, lag[row]);
      accumulate(c, con.c, lag[row]);
      ++row;
    }
    for (uint32_t s = 0; s <= n_pub; ++s) a_[s] += lag[h.n_constraints + s];

    // IC: β·A_i + α·B_i + C_i for i ≤ nPublic (γ = 1); C: the same over δ for i > nPublic.
    const fr_t delta_inv = tw_.delta.inverse();
    ic_.resize(n_pub + 1);
    priv_.resize(n_vars - n_pub - 1);
    parallel_for(n_vars, [&](size_t b, size_t e) {
      for (size_t i = b; i < e; ++i) {
        const fr_t v = tw_.beta * a_[i] + tw_.alpha * b_[i] + c[i];
        if (i <= n_pub)
          ic_[i] = v;
        else
          priv_[i - n_pub - 1] = v * delta_inv;
      }
    });

    // H[j] = L^{(2n)}_{2j+1}(τ)/δ: the 2n-domain basis at the odd points ω_2n·ω_n^j (§2.5),
    // scale (τ^{2n} − 1)/(2n)/δ.
    const fr_t omega_2n = ntt::root_of_unity<fr_t>(log_n_ + 1);
    const fr_t h_scale =
        (tau_n.sqr() - fr_t::one()) * (n_inv * fr_t::from_u64(2).inverse()) * delta_inv;
    h_ = lagrange_at(tau, omega_2n, omega_n, n_, h_scale);
  }

  // [α]₁ [β]₁ [δ]₁, [β]₂ [γ]₂ [δ]₂ (§2.3), IC, and the fixed-base tables.
  void make_header_points() {
    {
      phase_timer_t t(&rep_.g2_seconds);
      g2_table_.emplace(C::g2_generator, fr_t::bits);
      beta2_ = g2_table_->mul(tw_.beta.to_canonical()).to_affine();
      delta2_ = g2_table_->mul(tw_.delta.to_canonical()).to_affine();
      gamma2_ = C::g2_generator;  // γ = 1 (snarkjs zkey_new)
    }
    phase_timer_t t(&rep_.g1_seconds);
    g1_table_.emplace(C::g1_generator, fr_t::bits);
    alpha1_ = g1_table_->mul(tw_.alpha.to_canonical()).to_affine();
    beta1_ = g1_table_->mul(tw_.beta.to_canonical()).to_affine();
    delta1_ = g1_table_->mul(tw_.delta.to_canonical()).to_affine();
    ic_points_.resize(ic_.size());
    g1_table_->mul_batch(ic_.data(), ic_points_.data(), ic_.size());
  }

  template <class P>
  static const uint8_t* bytes_of(const P* p) {
    return reinterpret_cast<const uint8_t*>(p);
  }

  // One G1 point section: [s_i]₁ for the scalars, computed then streamed out.
  void write_g1_section(formats::zkey_writer_t& w, uint32_t id, const std::vector<fr_t>& s,
                        std::vector<g1_affine>& buf) {
    {
      phase_timer_t t(&rep_.g1_seconds);
      buf.resize(s.size());
      g1_table_->mul_batch(s.data(), buf.data(), s.size());
    }
    phase_timer_t t(&rep_.write_seconds);
    w.begin_section(id);
    w.write(bytes_of(buf.data()), buf.size() * sizeof(g1_affine));
    w.end_section();
  }

  void write_zkey(const std::string& path) {
    static_assert(sizeof(g1_affine) == 2 * sizeof(typename C::fq_t), "affine_t is the zkey layout");
    static_assert(sizeof(g2_affine) == 4 * sizeof(typename C::fq_t), "affine_t is the zkey layout");
    const auto& rh = r1cs_.header();
    const auto q = le_bytes(C::fq_t::modulus), r = le_bytes(fr_t::modulus);

    std::optional<formats::zkey_writer_t> w;
    {
      phase_timer_t t(&rep_.write_seconds);
      formats::zkey_header_t h;
      h.curve = rep_.curve;
      h.n8q = uint32_t(sizeof(typename C::fq_t));
      h.q = q.data();
      h.n8r = uint32_t(sizeof(fr_t));
      h.r = r.data();
      h.n_vars = rh.n_wires;
      h.n_public = rh.n_public();
      h.domain_size = uint32_t(n_);
      h.log2_domain_size = log_n_;
      h.alpha1 = bytes_of(&alpha1_);
      h.beta1 = bytes_of(&beta1_);
      h.beta2 = bytes_of(&beta2_);
      h.gamma2 = bytes_of(&gamma2_);
      h.delta1 = bytes_of(&delta1_);
      h.delta2 = bytes_of(&delta2_);
      w.emplace(path, h, rep_.n_coefficients);

      w->begin_section(formats::zkey_section::ic);
      w->write(bytes_of(ic_points_.data()), ic_points_.size() * sizeof(g1_affine));
      w->end_section();
      write_coefficients(*w);
    }

    std::vector<g1_affine> buf;
    write_g1_section(*w, formats::zkey_section::points_a, a_, buf);
    write_g1_section(*w, formats::zkey_section::points_b1, b_, buf);
    {
      std::vector<g2_affine> b2(b_.size());
      {
        phase_timer_t t(&rep_.g2_seconds);
        g2_table_->mul_batch(b_.data(), b2.data(), b_.size());
      }
      phase_timer_t t(&rep_.write_seconds);
      w->begin_section(formats::zkey_section::points_b2);
      w->write(bytes_of(b2.data()), b2.size() * sizeof(g2_affine));
      w->end_section();
    }
    write_g1_section(*w, formats::zkey_section::points_c, priv_, buf);
    write_g1_section(*w, formats::zkey_section::points_h, h_, buf);

    phase_timer_t t(&rep_.write_seconds);
    // Section 10 circuit hash: left all zero. snarkjs's is a blake2b-512 over the initial key's
    // points in bellman MPC-params order; only `snarkjs zkey verify` compares it, and that check
    // needs a powers-of-tau ceremony this key does not have. snarkjs and rapidsnark provers
    // ignore section 10 (§2.1); zero marks "no ceremony transcript" with 0 contributions.
    const std::array<uint8_t, formats::zkey_circuit_hash_size> circuit_hash{};
    w->finish(circuit_hash.data());
  }

  // Section 4 (§2.4): per r1cs constraint its A terms then its B terms, value coef·R² mod r as a
  // canonical LE integer, i.e. the Montgomery limbs of coef·R; then the nPublic+1 input rows
  // {A, nConstraints+s, s, 1·R²}.
  void write_coefficients(formats::zkey_writer_t& w) {
    const fr_t r_mod = fr_t::from_mont(fr_t::r2);  // the element R mod r (limbs R² mod r)
    w.begin_section(formats::zkey_section::coefficients);
    auto put = [&](uint32_t matrix, uint32_t row, const formats::linear_combination_t& lc) {
      for (uint32_t k = 0; k < lc.size(); ++k) {
        const formats::lc_term_t term = lc[k];
        const auto value = le_bytes((load_canonical<fr_t>(term.coef) * r_mod).raw());
        w.add_coefficient(matrix, row, term.wire, value.data());
      }
    };
    uint32_t row = 0;
    for (const auto& con : r1cs_.constraints()) {
      put(0, row, con.a);
      put(1, row, con.b);
      ++row;
    }
    const auto one_r2 = le_bytes(fr_t::r2);
    const uint32_t n_constraints = r1cs_.header().n_constraints;
    for (uint32_t s = 0; s <= r1cs_.header().n_public(); ++s)
      w.add_coefficient(0, n_constraints + s, s, one_r2.data());
    w.end_section();
  }

  // verification_key.json (§4): α₁, β₂, γ₂, δ₂, e(α₁, β₂), IC.
  void write_vkey(const std::string& path) {
    phase_timer_t t(&rep_.write_seconds);
    verifying_key_t<C> vk{alpha1_, beta2_, gamma2_, delta2_, ic_points_};
    formats::vkey_json_t j = vk.to_json();
    j.alphabeta = alphabeta_json<C>(alpha1_, beta2_);
    formats::write_vkey_json(path, j);
  }

  const formats::r1cs_file_t& r1cs_;
  setup_report_t& rep_;
  const setup_options_t& opt_;
  unsigned log_n_ = 0;
  size_t n_ = 0;
  toxic_waste_t<fr_t> tw_{};
  std::vector<fr_t> a_, b_;  // A_i(τ), B_i(τ) for every wire
  std::vector<fr_t> ic_;     // β·A_i + α·B_i + C_i, i ≤ nPublic
  std::vector<fr_t> priv_;   // (β·A_i + α·B_i + C_i)/δ, i > nPublic
  std::vector<fr_t> h_;      // L^{(2n)}_{2j+1}(τ)/δ
  std::optional<ec::fixed_base_t<typename C::g1>> g1_table_;
  std::optional<ec::fixed_base_t<typename C::g2>> g2_table_;
  g1_affine alpha1_{}, beta1_{}, delta1_{};
  g2_affine beta2_{}, gamma2_{}, delta2_{};
  std::vector<g1_affine> ic_points_;
};

}  // namespace

template <class Fr>
toxic_waste_t<Fr> draw_toxic_waste(const setup_options_t& options, uint32_t domain_size) {
  std::optional<std::mt19937_64> prng;
  std::optional<std::random_device> rd;
  std::function<uint64_t()> word;
  if (options.seed) {
    prng.emplace(*options.seed);
    word = [&] { return (*prng)(); };
  } else {
    rd.emplace();  // /dev/urandom (or the CPU's generator) on the platforms we build for
    word = [&] { return (uint64_t((*rd)()) << 32) | (*rd)(); };
  }

  toxic_waste_t<Fr> tw;
  const uint64_t two_n = uint64_t(domain_size) * 2;
  do {
    tw.tau = draw_nonzero<Fr>(word);
  } while (tw.tau.pow_u64(two_n).is_one());
  tw.alpha = draw_nonzero<Fr>(word);
  tw.beta = draw_nonzero<Fr>(word);
  tw.delta = draw_nonzero<Fr>(word);
  return tw;
}

template toxic_waste_t<curves::bn254::fr_t> draw_toxic_waste<curves::bn254::fr_t>(
    const setup_options_t&, uint32_t);
template toxic_waste_t<curves::bls12_381::fr_t> draw_toxic_waste<curves::bls12_381::fr_t>(
    const setup_options_t&, uint32_t);

setup_report_t dev_setup(const std::string& r1cs_path, const std::string& zkey_path,
                         const std::string& vkey_path, const setup_options_t& options) {
  formats::check_outputs(
      {{"the circuit (.r1cs)", r1cs_path}},
      {{"the proving key output (.zkey)", zkey_path}, {"the verification key output", vkey_path}});
  setup_report_t rep;
  std::optional<formats::r1cs_file_t> r1cs;
  {
    phase_timer_t t(&rep.read_seconds);
    r1cs.emplace(r1cs_path);
  }
  const auto curve = r1cs->curve();
  if (!curve) {
    const auto& h = r1cs->header();
    throw format_error(r1cs_path + ": prime " + hex_le_number(h.prime, h.fs) +
                       " is the scalar field of neither BN254 nor BLS12-381");
  }
  const auto& h = r1cs->header();
  rep.curve = *curve;
  rep.n_constraints = h.n_constraints;
  rep.n_vars = h.n_wires;
  rep.n_public = h.n_public();
  // (r1cs_file_t already refused 1 + nPubOut + nPubIn + nPrvIn > nWires.)
  switch (*curve) {
    case curve_id_t::bn254:
      key_generator_t<curves::bn254>(*r1cs, rep, options).run(zkey_path, vkey_path);
      break;
    case curve_id_t::bls12_381:
      key_generator_t<curves::bls12_381>(*r1cs, rep, options).run(zkey_path, vkey_path);
      break;
  }
  return rep;
}

}  // namespace zk::groth16
