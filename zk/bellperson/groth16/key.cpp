#include "zk/bellperson/groth16/key.hpp"

#include <stdexcept>
#include <string>

namespace zk::bellperson {

namespace {

std::string count_mismatch(const params_file_t& f, const char* section, uint64_t got, uint64_t want,
                           const char* what) {
  return f.path() + ": section " + section + " has " + std::to_string(got) +
         " points, the circuit needs " + std::to_string(want) + " (" + what +
         "): parameters for another circuit";
}

// The sizes a file for this circuit has; throws naming the first that is not.
void check_sizes(const params_file_t& f, const r1cs_shape_t& s) {
  auto need = [&](bool ok, const std::string& why) {
    if (!ok) throw std::invalid_argument(why);
  };
  need(f.vk().ic.size() == s.counts.inputs,
       f.path() + ": the verifying key has " + std::to_string(f.vk().ic.size()) +
           " IC points, the circuit " + std::to_string(s.counts.inputs) +
           " inputs: parameters for another circuit");
  const uint64_t n = s.domain_size();
  need(f.h().count == n - 1, count_mismatch(f, "h", f.h().count, n - 1, "domain − 1"));
  need(f.l().count == s.counts.aux,
       count_mismatch(f, "l", f.l().count, s.counts.aux, "aux variables"));
  const uint64_t na = uint64_t(s.counts.inputs) + s.a_aux.count();
  need(f.a().count == na, count_mismatch(f, "a", f.a().count, na, "inputs + aux variables in A"));
  const uint64_t nb = uint64_t(s.b_input.count()) + s.b_aux.count();
  need(f.b_g1().count == nb, count_mismatch(f, "b_g1", f.b_g1().count, nb, "variables in B"));
  need(f.b_g2().count == nb, count_mismatch(f, "b_g2", f.b_g2().count, nb, "variables in B"));
}

template <class P, class Read>
std::vector<P> decode(const params_file_t& f, const params_file_t::section_t& sec, Read read) {
  std::vector<P> out(sec.count);
  read(sec, out.data());
  f.mapping().advise_dontneed(sec.offset, sec.count * sec.point_size);
  return out;
}

}  // namespace

params_key_t::params_key_t(const params_file_t& f, const r1cs_shape_t& s) {
  check_sizes(f, s);
  auto g1 = [&f](const params_file_t::section_t& sec, g1_affine_t* out) {
    f.read_g1(sec, 0, sec.count, out);
  };
  h_ = decode<g1_affine_t>(f, f.h(), g1);
  l_ = decode<g1_affine_t>(f, f.l(), g1);
  a_ = decode<g1_affine_t>(f, f.a(), g1);
  b_g1_ = decode<g1_affine_t>(f, f.b_g1(), g1);
  b_g2_ =
      decode<g2_affine_t>(f, f.b_g2(), [&f](const params_file_t::section_t& sec, g2_affine_t* out) {
        f.read_g2(sec, 0, sec.count, out);
      });

  // The densities over the witness (inputs ‖ aux): every input has an a point.
  a_density_ = msm::density_t::all(s.counts.inputs);
  a_density_.append(s.a_aux);
  a_density_.index();
  b_density_ = s.b_input;
  b_density_.append(s.b_aux);
  b_density_.index();

  const verifying_key_t& vk = f.vk();
  pk_.n_vars = s.counts.inputs + s.counts.aux;
  pk_.n_public = s.counts.inputs - 1;
  pk_.domain_size = uint32_t(s.domain_size());
  while ((uint64_t(1) << pk_.log_domain) < pk_.domain_size) ++pk_.log_domain;
  pk_.alpha1 = vk.alpha_g1;
  pk_.beta1 = vk.beta_g1;
  pk_.delta1 = vk.delta_g1;
  pk_.beta2 = vk.beta_g2;
  pk_.gamma2 = vk.gamma_g2;
  pk_.delta2 = vk.delta_g2;
  pk_.ic = vk.ic.data();
  pk_.a = a_.data();
  pk_.b1 = b_g1_.data();
  pk_.b2 = b_g2_.data();
  pk_.c = l_.data();
  pk_.h = h_.data();
  pk_.a_density = &a_density_;
  pk_.b_density = &b_density_;
  pk_.h_form = groth16::h_form_t::coset_quotient;
  pk_.domain_generator = multiplicative_generator;
  vk_ = vk.to_groth16();
  pk_.ic = vk_.ic.data();
}

uint64_t params_key_t::bytes() const {
  return (h_.size() + l_.size() + a_.size() + b_g1_.size()) * sizeof(g1_affine_t) +
         b_g2_.size() * sizeof(g2_affine_t) + a_density_.bytes() + b_density_.bytes() +
         vk_.ic.size() * sizeof(g1_affine_t);
}

uint64_t params_key_t::bytes_for(const params_file_t& f, const r1cs_shape_t& s) {
  check_sizes(f, s);  // the file's sections are the circuit's sizes
  return bytes_for(s);
}

uint64_t params_key_t::bytes_for(const r1cs_shape_t& s) {
  // The sections check_sizes requires: h (domain − 1), l (aux), a (inputs + aux in A), b_g1 and
  // b_g2 (variables in B), and the verifying key's IC points (one per input).
  const uint64_t vars = uint64_t(s.counts.inputs) + s.counts.aux;
  const uint64_t na = uint64_t(s.counts.inputs) + s.a_aux.count();
  const uint64_t nb = uint64_t(s.b_input.count()) + s.b_aux.count();
  const uint64_t density = 2 * ((vars + 63) / 64 * 8 + ((vars + 63) / 64 + 1) * 8);
  return (s.domain_size() - 1 + s.counts.aux + na + nb + s.counts.inputs) * sizeof(g1_affine_t) +
         nb * sizeof(g2_affine_t) + density;
}

}  // namespace zk::bellperson
