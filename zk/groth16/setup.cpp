#include "zk/groth16/setup.hpp"

#include <array>
#include <functional>
#include <optional>
#include <random>
#include <stdexcept>
#include <vector>

#include "zk/base/clock.hpp"
#include "zk/base/error.hpp"
#include "zk/ec/curves.hpp"
#include "zk/formats/json.hpp"
#include "zk/formats/paths.hpp"
#include "zk/formats/r1cs.hpp"
#include "zk/formats/zkey_writer.hpp"
#include "zk/groth16/keys.hpp"
#include "zk/groth16/verifier.hpp"

namespace zk::groth16 {

namespace {

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

template <class P>
const uint8_t* bytes_of(const P* p) {
  return reinterpret_cast<const uint8_t*>(p);
}

// The r1cs as the generator's constraint source: its wires are already numbered ONE, the public
// outputs, the public inputs, then the private wires (§1), and its rows are the constraints.
template <class Fr>
class r1cs_source_t final : public constraint_source_t<Fr> {
 public:
  explicit r1cs_source_t(const formats::r1cs_file_t& r1cs) : r1cs_(r1cs) {}
  uint64_t constraints() const override { return r1cs_.header().n_constraints; }
  uint64_t inputs() const override { return uint64_t(r1cs_.header().n_public()) + 1; }
  uint64_t variables() const override { return r1cs_.header().n_wires; }
  void for_each_term(const typename constraint_source_t<Fr>::term_visitor_t& visit) const override {
    uint64_t row = 0;
    for (const auto& con : r1cs_.constraints()) {
      const formats::linear_combination_t* lcs[3] = {&con.a, &con.b, &con.c};
      for (int m = 0; m < 3; ++m)
        for (uint32_t k = 0; k < lcs[m]->size(); ++k) {
          const formats::lc_term_t term = (*lcs[m])[k];
          visit(qap_matrix_t(m), row, term.wire, load_canonical<Fr>(term.coef));
        }
      ++row;
    }
  }

 private:
  const formats::r1cs_file_t& r1cs_;
};

// snarkjs's convention (§2.5, §5.4): its nqr's roots, H on the 2n-domain's odd coset, γ = 1, a
// point for every wire in A, B1 and B2 (infinity written as (0, 0)).
template <class Fr>
convention_t<Fr> snarkjs_convention(const setup_options_t& options) {
  convention_t<Fr> c;
  c.domain_generator = 0;
  c.h = h_query_t::odd_coset;
  c.gamma_drawn = false;
  c.queries = query_points_t::every_variable;
  c.draw_secrets = [options](uint64_t n) { return draw_toxic_waste<Fr>(options, uint32_t(n)); };
  return c;
}

// Sections 5..9 of the zkey from the generator's sections: the affine points' bytes as they
// are (affine_t is the zkey layout, §2.2), timed as writing.
template <class C>
class zkey_sink_t final : public point_sink_t<C> {
 public:
  zkey_sink_t(formats::zkey_writer_t& w, double* write_seconds) : w_(w), seconds_(write_seconds) {}

  void begin_section(key_section_t s, uint64_t) override {
    phase_timer_t t(seconds_);
    w_.begin_section(section_id(s));
  }
  void append(const typename C::g1_affine* p, size_t n) override {
    phase_timer_t t(seconds_);
    w_.write(bytes_of(p), n * sizeof(*p));
  }
  void append(const typename C::g2_affine* p, size_t n) override {
    phase_timer_t t(seconds_);
    w_.write(bytes_of(p), n * sizeof(*p));
  }
  void end_section() override {
    phase_timer_t t(seconds_);
    w_.end_section();
  }

 private:
  static uint32_t section_id(key_section_t s) {
    switch (s) {
      case key_section_t::a:
        return formats::zkey_section::points_a;
      case key_section_t::b_g1:
        return formats::zkey_section::points_b1;
      case key_section_t::b_g2:
        return formats::zkey_section::points_b2;
      case key_section_t::l:
        return formats::zkey_section::points_c;
      case key_section_t::h:
        return formats::zkey_section::points_h;
    }
    return 0;
  }
  formats::zkey_writer_t& w_;
  double* seconds_;
};

template <class C>
class zkey_setup_t {
  using fr_t = typename C::fr_t;
  using g1_affine = typename C::g1_affine;
  using g2_affine = typename C::g2_affine;

 public:
  zkey_setup_t(const formats::r1cs_file_t& r1cs, setup_report_t& report,
               const setup_options_t& options)
      : r1cs_(r1cs), rep_(report), opt_(options) {}

  void run(const std::string& zkey_path, const std::string& vkey_path) {
    check_domain();
    const r1cs_source_t<fr_t> source(r1cs_);
    key_generator_t<C> gen(source, snarkjs_convention<fr_t>(opt_));
    write_zkey(gen, zkey_path);
    write_vkey(gen.vk(), vkey_path);
    rep_.evaluate_seconds += gen.timings().evaluate_seconds;
    rep_.g1_seconds += gen.timings().g1_seconds;
    rep_.g2_seconds += gen.timings().g2_seconds;
  }

 private:
  // §2.6: n = smallest power of two ≥ nConstraints + nPublic + 1; the H points need the
  // 2n-domain (§2.5), so log2(n) + 1 must not exceed the 2-adicity of r − 1.
  void check_domain() {
    const auto& h = r1cs_.header();
    const uint64_t rows = uint64_t(h.n_constraints) + h.n_public() + 1;
    const unsigned log_n = log2_domain(rows);
    if (log_n + 1 > fr_t::params_t::two_adicity) {
      throw format_error(r1cs_.path() + ": " + std::to_string(h.n_constraints) + " constraints + " +
                         std::to_string(h.n_public()) +
                         " public signals + 1 = " + std::to_string(rows) + " QAP rows need a 2^" +
                         std::to_string(log_n) + " domain, and its H points a 2^" +
                         std::to_string(log_n + 1) + " domain, beyond the field's 2-adicity " +
                         std::to_string(fr_t::params_t::two_adicity));
    }
    rep_.domain_size = uint32_t(uint64_t(1) << log_n);
    rep_.n_coefficients = r1cs_.nnz()[0] + r1cs_.nnz()[1] + h.n_public() + 1;
  }

  void write_zkey(key_generator_t<C>& gen, const std::string& path) {
    static_assert(sizeof(g1_affine) == 2 * sizeof(typename C::fq_t), "affine_t is the zkey layout");
    static_assert(sizeof(g2_affine) == 4 * sizeof(typename C::fq_t), "affine_t is the zkey layout");
    const auto& rh = r1cs_.header();
    const auto& vk = gen.vk();
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
      h.domain_size = uint32_t(gen.domain_size());
      h.log2_domain_size = gen.log_domain_size();
      h.alpha1 = bytes_of(&vk.alpha1);
      h.beta1 = bytes_of(&vk.beta1);
      h.beta2 = bytes_of(&vk.beta2);
      h.gamma2 = bytes_of(&vk.gamma2);
      h.delta1 = bytes_of(&vk.delta1);
      h.delta2 = bytes_of(&vk.delta2);
      w.emplace(path, h, rep_.n_coefficients);

      w->begin_section(formats::zkey_section::ic);
      w->write(bytes_of(vk.ic.data()), vk.ic.size() * sizeof(g1_affine));
      w->end_section();
      write_coefficients(*w);
    }

    // Sections 5..9 in id order: A, B1, B2, C (the generator's l), H.
    zkey_sink_t<C> sink(*w, &rep_.write_seconds);
    for (key_section_t s : {key_section_t::a, key_section_t::b_g1, key_section_t::b_g2,
                            key_section_t::l, key_section_t::h})
      gen.write_section(s, sink);

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
  void write_vkey(const vk_points_t<C>& k, const std::string& path) {
    phase_timer_t t(&rep_.write_seconds);
    verifying_key_t<C> vk{k.alpha1, k.beta2, k.gamma2, k.delta2, k.ic};
    formats::vkey_json_t j = vk.to_json();
    j.alphabeta = alphabeta_json<C>(k.alpha1, k.beta2);
    formats::write_vkey_json(path, j);
  }

  const formats::r1cs_file_t& r1cs_;
  setup_report_t& rep_;
  const setup_options_t& opt_;
};

}  // namespace

template <class Fr>
secrets_t<Fr> draw_toxic_waste(const setup_options_t& options, uint32_t domain_size) {
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

  secrets_t<Fr> tw;
  const uint64_t two_n = uint64_t(domain_size) * 2;
  do {
    tw.tau = draw_nonzero<Fr>(word);
  } while (tw.tau.pow_u64(two_n).is_one());
  tw.alpha = draw_nonzero<Fr>(word);
  tw.beta = draw_nonzero<Fr>(word);
  tw.delta = draw_nonzero<Fr>(word);
  tw.gamma = Fr::one();
  return tw;
}

template secrets_t<curves::bn254::fr_t> draw_toxic_waste<curves::bn254::fr_t>(
    const setup_options_t&, uint32_t);
template secrets_t<curves::bls12_381::fr_t> draw_toxic_waste<curves::bls12_381::fr_t>(
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
      zkey_setup_t<curves::bn254>(*r1cs, rep, options).run(zkey_path, vkey_path);
      break;
    case curve_id_t::bls12_381:
      zkey_setup_t<curves::bls12_381>(*r1cs, rep, options).run(zkey_path, vkey_path);
      break;
  }
  return rep;
}

}  // namespace zk::groth16
