#include "zk/groth16/keys.hpp"

#include <cstring>
#include <stdexcept>

#include "zk/base/error.hpp"
#include "zk/ec/with_curve.hpp"

namespace zk::groth16 {
namespace {

template <class T>
T load_point(const uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}

template <class F>
F parse_coord(const std::string& s, const std::string& where) {
  F v;
  if (!F::from_string(s, v))
    throw std::runtime_error(where + ": '" + s + "' is not a field element below q");
  return v;
}

}  // namespace

template <class C>
proving_key_t<C> proving_key_t<C>::view(const formats::zkey_file_t& zkey) {
  const auto& h = zkey.header();
  if (h.curve != curves::curve_id_of<C>)
    throw std::runtime_error(zkey.path() + ": key is for curve " + curve_name(h.curve) +
                             ", expected " + std::string(C::snarkjs_name));
  static_assert(sizeof(g1_t) == 2 * sizeof(typename C::fq_t), "affine G1 must be x ‖ y");
  static_assert(sizeof(g2_t) == 4 * sizeof(typename C::fq_t),
                "affine G2 must be x.c0 ‖ x.c1 ‖ y.c0 ‖ y.c1");
  if (h.g1_size() != sizeof(g1_t) || h.g2_size() != sizeof(g2_t))
    throw std::runtime_error(zkey.path() + ": unexpected point size for " +
                             std::string(C::snarkjs_name));
  proving_key_t pk;
  pk.file = &zkey;
  pk.n_vars = h.n_vars;
  pk.n_public = h.n_public;
  pk.domain_size = h.domain_size;
  pk.log_domain = h.log2_domain_size;
  pk.alpha1 = load_point<g1_t>(h.alpha1);
  pk.beta1 = load_point<g1_t>(h.beta1);
  pk.delta1 = load_point<g1_t>(h.delta1);
  pk.beta2 = load_point<g2_t>(h.beta2);
  pk.gamma2 = load_point<g2_t>(h.gamma2);
  pk.delta2 = load_point<g2_t>(h.delta2);
  pk.ic = reinterpret_cast<const g1_t*>(zkey.ic().data);
  pk.a = reinterpret_cast<const g1_t*>(zkey.a().data);
  pk.b1 = reinterpret_cast<const g1_t*>(zkey.b1().data);
  pk.b2 = reinterpret_cast<const g2_t*>(zkey.b2().data);
  pk.c = reinterpret_cast<const g1_t*>(zkey.c().data);
  pk.h = reinterpret_cast<const g1_t*>(zkey.h().data);
  pk.coefficients = zkey.coefficients();
  return pk;
}

template <class C>
formats::g1_json_t g1_to_json(const typename C::g1_affine& p) {
  if (p.is_infinity()) return formats::g1_json_t::infinity();
  return formats::g1_json_t::affine(p.x.to_string(), p.y.to_string());
}

template <class C>
formats::g2_json_t g2_to_json(const typename C::g2_affine& p) {
  if (p.is_infinity()) return formats::g2_json_t::infinity();
  return formats::g2_json_t::affine({p.x.c0.to_string(), p.x.c1.to_string()},
                                    {p.y.c0.to_string(), p.y.c1.to_string()});
}

template <class C>
typename C::g1_affine g1_from_json(const formats::g1_json_t& j, const std::string& where) {
  using fq = typename C::fq_t;
  using jac = typename C::g1_jacobian;
  fq x = parse_coord<fq>(j.x, where + "[0]"), y = parse_coord<fq>(j.y, where + "[1]");
  fq z = parse_coord<fq>(j.z, where + "[2]");
  if (z.is_zero()) return C::g1_affine::infinity();
  typename C::g1_affine p = z.is_one() ? typename C::g1_affine{x, y} : jac{x, y, z}.to_affine();
  if (!p.is_on_curve())
    throw std::runtime_error(where + ": point is not on the " + std::string(C::snarkjs_name) +
                             " G1 curve");
  return p;
}

template <class C>
typename C::g2_affine g2_from_json(const formats::g2_json_t& j, const std::string& where) {
  using fq = typename C::fq_t;
  using fq2 = typename C::fq2_t;
  auto pair = [&](const std::array<std::string, 2>& v, const char* idx) {
    return fq2{parse_coord<fq>(v[0], where + idx + "[0]"),
               parse_coord<fq>(v[1], where + idx + "[1]")};
  };
  fq2 x = pair(j.x, "[0]"), y = pair(j.y, "[1]"), z = pair(j.z, "[2]");
  if (z.is_zero()) return C::g2_affine::infinity();
  typename C::g2_affine p =
      z.is_one() ? typename C::g2_affine{x, y} : typename C::g2_jacobian{x, y, z}.to_affine();
  if (!p.is_on_curve())
    throw std::runtime_error(where + ": point is not on the " + std::string(C::snarkjs_name) +
                             " G2 twist curve");
  return p;
}

template <class C>
verifying_key_t<C> verifying_key_t<C>::from_zkey(const proving_key_t<C>& pk) {
  verifying_key_t vk;
  vk.alpha1 = pk.alpha1;
  vk.beta2 = pk.beta2;
  vk.gamma2 = pk.gamma2;
  vk.delta2 = pk.delta2;
  vk.ic.assign(pk.ic, pk.ic + pk.n_public + 1);
  return vk;
}

template <class C>
verifying_key_t<C> verifying_key_t<C>::from_json(const formats::vkey_json_t& j,
                                                 const std::string& path) {
  auto curve = parse_curve_name(j.curve);
  if (!curve || *curve != curves::curve_id_of<C>)
    throw std::runtime_error(path + ": curve '" + j.curve + "' is not " +
                             std::string(C::snarkjs_name));
  if (j.ic.size() != size_t(j.n_public) + 1)
    throw std::runtime_error(path + ": IC has " + std::to_string(j.ic.size()) +
                             " points, nPublic+1 = " + std::to_string(j.n_public + 1) +
                             " expected");
  verifying_key_t vk;
  vk.alpha1 = g1_from_json<C>(j.alpha1, path + ": vk_alpha_1");
  vk.beta2 = g2_from_json<C>(j.beta2, path + ": vk_beta_2");
  vk.gamma2 = g2_from_json<C>(j.gamma2, path + ": vk_gamma_2");
  vk.delta2 = g2_from_json<C>(j.delta2, path + ": vk_delta_2");
  for (size_t i = 0; i < j.ic.size(); ++i)
    vk.ic.push_back(g1_from_json<C>(j.ic[i], path + ": IC[" + std::to_string(i) + "]"));
  return vk;
}

template <class C>
formats::vkey_json_t verifying_key_t<C>::to_json() const {
  formats::vkey_json_t j;
  j.curve = std::string(C::snarkjs_name);
  j.n_public = uint32_t(ic.size() - 1);
  j.alpha1 = g1_to_json<C>(alpha1);
  j.beta2 = g2_to_json<C>(beta2);
  j.gamma2 = g2_to_json<C>(gamma2);
  j.delta2 = g2_to_json<C>(delta2);
  for (const auto& p : ic) j.ic.push_back(g1_to_json<C>(p));
  return j;
}

template <class C>
formats::proof_json_t proof_t<C>::to_json() const {
  formats::proof_json_t j;
  j.a = g1_to_json<C>(a);
  j.b = g2_to_json<C>(b);
  j.c = g1_to_json<C>(c);
  j.curve = std::string(C::snarkjs_name);
  return j;
}

template <class C>
proof_t<C> proof_t<C>::from_json(const formats::proof_json_t& j, const std::string& path) {
  if (!j.curve.empty()) {
    auto curve = parse_curve_name(j.curve);
    if (!curve || *curve != curves::curve_id_of<C>)
      throw std::runtime_error(path + ": proof is for curve '" + j.curve + "', the key is " +
                               std::string(C::snarkjs_name));
  }
  return proof_t{g1_from_json<C>(j.a, path + ": pi_a"), g2_from_json<C>(j.b, path + ": pi_b"),
                 g1_from_json<C>(j.c, path + ": pi_c")};
}

template <class C>
std::vector<typename C::fr_t> public_from_json(const std::vector<std::string>& s,
                                               const std::string& path) {
  std::vector<typename C::fr_t> out(s.size());
  for (size_t i = 0; i < s.size(); ++i)
    if (!C::fr_t::from_string(s[i], out[i]))
      throw std::runtime_error(path + ": [" + std::to_string(i) + "] '" + s[i] +
                               "' is not a field element below r");
  return out;
}

#define ZK_INSTANTIATE(C)                                                               \
  template struct proving_key_t<C>;                                                     \
  template struct verifying_key_t<C>;                                                   \
  template struct proof_t<C>;                                                           \
  template formats::g1_json_t g1_to_json<C>(const C::g1_affine&);                       \
  template formats::g2_json_t g2_to_json<C>(const C::g2_affine&);                       \
  template C::g1_affine g1_from_json<C>(const formats::g1_json_t&, const std::string&); \
  template C::g2_affine g2_from_json<C>(const formats::g2_json_t&, const std::string&); \
  template std::vector<C::fr_t> public_from_json<C>(const std::vector<std::string>&,    \
                                                    const std::string&);
ZK_INSTANTIATE(curves::bn254)
ZK_INSTANTIATE(curves::bls12_381)
#undef ZK_INSTANTIATE

}  // namespace zk::groth16
