#include "zk/bellperson/groth16/generator.hpp"

#include <cstring>
#include <stdexcept>

#include "zk/base/sha256.hpp"
#include "zk/bellperson/groth16/files.hpp"

namespace zk::bellperson {
namespace {

using groth16::key_section_t;

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

// The .params sections, in file order, straight into the writer (it checks every section's
// count when the next begins and at finish).
class params_sink_t final : public groth16::point_sink_t<curve_t> {
 public:
  explicit params_sink_t(params_writer_t& w) : w_(w) {}
  void begin_section(key_section_t, uint64_t count) override {
    w_.begin_section(count);
    points_ += count;
  }
  void append(const g1_affine_t* p, size_t n) override { w_.append_g1(p, n); }
  void append(const g2_affine_t* p, size_t n) override { w_.append_g2(p, n); }
  void end_section() override {}
  uint64_t points() const { return points_; }

 private:
  params_writer_t& w_;
  uint64_t points_ = 0;
};

}  // namespace

shape_source_t::shape_source_t(const r1cs_shape_t& shape) : s_(shape) {
  if (!shape.has_matrices)
    throw std::invalid_argument(
        "bellperson generator: the circuit's shape was recorded without its matrices");
}

void shape_source_t::for_each_term(const term_visitor_t& visit) const {
  const r1cs_matrix_t* ms[3] = {&s_.a, &s_.b, &s_.c};
  const uint64_t inputs = s_.counts.inputs;
  for (int k = 0; k < 3; ++k) {
    const r1cs_matrix_t& m = *ms[k];
    for (uint64_t row = 0; row < s_.counts.constraints; ++row)
      for (uint64_t t = m.row_ptr[row]; t < m.row_ptr[row + 1]; ++t) {
        const var_t v{m.var[t]};
        visit(groth16::qap_matrix_t(k), row, v.is_input() ? v.index() : inputs + v.index(),
              s_.coeffs[m.coeff[t]]);
      }
  }
}

groth16::secrets_t<fr_t> dev_secrets(uint64_t seed, uint64_t domain_size) {
  groth16::secrets_t<fr_t> s;
  s.tau = draw(seed, "tau");
  for (uint32_t k = 0; s.tau.pow_u64(domain_size) == fr_t::one(); ++k)
    s.tau = draw(seed + 0x9e3779b97f4a7c15ull * (k + 1), "tau");
  s.alpha = draw(seed, "alpha");
  s.beta = draw(seed, "beta");
  s.gamma = draw(seed, "gamma");
  s.delta = draw(seed, "delta");
  return s;
}

groth16::convention_t<fr_t> generator_convention(uint64_t seed) {
  groth16::convention_t<fr_t> c;
  c.domain_generator = multiplicative_generator;
  c.h = groth16::h_query_t::powers_of_tau;
  c.gamma_drawn = true;
  c.queries = groth16::query_points_t::density;
  c.draw_secrets = [seed](uint64_t n) { return dev_secrets(seed, n); };
  return c;
}

generated_params_t generate_parameters(const r1cs_shape_t& shape, uint64_t seed,
                                       const std::string& params_path, const std::string& vk_path) {
  const shape_source_t source(shape);
  groth16::key_generator_t<curve_t> gen(source, generator_convention(seed));
  const auto& k = gen.vk();
  verifying_key_t vk;
  vk.alpha_g1 = k.alpha1;
  vk.beta_g1 = k.beta1;
  vk.beta_g2 = k.beta2;
  vk.gamma_g2 = k.gamma2;
  vk.delta_g1 = k.delta1;
  vk.delta_g2 = k.delta2;
  vk.ic = k.ic;
  generated_params_t r;
  r.domain = gen.domain_size();
  if (!params_path.empty()) {
    params_writer_t w(params_path, vk);
    params_sink_t sink(w);
    for (key_section_t s : {key_section_t::h, key_section_t::l, key_section_t::a,
                            key_section_t::b_g1, key_section_t::b_g2})
      gen.write_section(s, sink);
    w.finish();
    r.points = sink.points();
  }
  write_vk_file(vk_path, vk);
  return r;
}

}  // namespace zk::bellperson
