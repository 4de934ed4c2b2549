#include "zk/circuit/poseidon.hpp"

#include "zk/circuit/poseidon_constants.hpp"
#include "zk/ff/bls12_381.hpp"
#include "zk/ff/bn254.hpp"

namespace zk::circuit {
namespace {

template <class Fr, size_t NC, size_t NM>
poseidon_params_t<Fr> make(unsigned t, unsigned rounds_p, const uint64_t (&c)[NC][4],
                           const uint64_t (&m)[NM][4]) {
  static_assert(NM <= poseidon_max_t * poseidon_max_t);
  auto fe = [](const uint64_t(&limbs)[4]) {
    typename Fr::big_t v{};
    for (int k = 0; k < 4; ++k) v.l[k] = limbs[k];
    return Fr::from_canonical(v);
  };
  poseidon_params_t<Fr> p;
  p.t = t;
  p.rounds_f = 8;
  p.rounds_p = rounds_p;
  for (const auto& x : c) p.c.push_back(fe(x));
  for (const auto& x : m) p.m.push_back(fe(x));
  if (p.c.size() != t * (p.rounds_f + p.rounds_p) || p.m.size() != t * t)
    throw std::logic_error("poseidon_constants.hpp: table sizes do not match t = " +
                           std::to_string(t));
  return p;
}

[[noreturn]] void no_width(const char* field, unsigned t, const char* have) {
  throw std::invalid_argument(std::string("poseidon: no parameters for t = ") + std::to_string(t) +
                              " on " + field + " (have " + have + ")");
}

}  // namespace

template <>
const poseidon_params_t<bn254::fr_t>& poseidon_params<bn254::fr_t>(unsigned t) {
  namespace pt = poseidon_tables;
  using Fr = bn254::fr_t;
  static const poseidon_params_t<Fr> p2 =
      make<Fr>(2, pt::bn254_t2_rounds_p, pt::bn254_t2_c, pt::bn254_t2_m);
  static const poseidon_params_t<Fr> p3 =
      make<Fr>(3, pt::bn254_t3_rounds_p, pt::bn254_t3_c, pt::bn254_t3_m);
  static const poseidon_params_t<Fr> p4 =
      make<Fr>(4, pt::bn254_t4_rounds_p, pt::bn254_t4_c, pt::bn254_t4_m);
  static const poseidon_params_t<Fr> p5 =
      make<Fr>(5, pt::bn254_t5_rounds_p, pt::bn254_t5_c, pt::bn254_t5_m);
  switch (t) {
    case 2:
      return p2;
    case 3:
      return p3;
    case 4:
      return p4;
    case 5:
      return p5;
    default:
      no_width("BN254", t, "t = 2..5");
  }
}

template <>
const poseidon_params_t<bls12_381::fr_t>& poseidon_params<bls12_381::fr_t>(unsigned t) {
  namespace pt = poseidon_tables;
  using Fr = bls12_381::fr_t;
  static const poseidon_params_t<Fr> p3 =
      make<Fr>(3, pt::bls12_381_t3_rounds_p, pt::bls12_381_t3_c, pt::bls12_381_t3_m);
  if (t != 3) no_width("BLS12-381", t, "t = 3");
  return p3;
}

}  // namespace zk::circuit
