#include "zk/groth16/verifier.hpp"

#include <cstring>

#include "zk/msm/msm.hpp"
#include "zk/pairing/pairing.hpp"

namespace zk::groth16 {

template <class C>
check_t verify(const verifying_key_t<C>& vk, const std::vector<typename C::fr_t>& x,
               const proof_t<C>& proof) {
  if (x.size() + 1 != vk.ic.size())
    return "the key expects " + std::to_string(vk.ic.size() - 1) + " public inputs, got " +
           std::to_string(x.size());
  const auto r = C::fr_t::modulus;
  if (!proof.a.is_on_curve() || !proof.b.is_on_curve() || !proof.c.is_on_curve())
    return "a proof point is not on the curve";
  if (!C::g1_jacobian::from_affine(proof.a).mul(r).is_infinity() ||
      !C::g2_jacobian::from_affine(proof.b).mul(r).is_infinity() ||
      !C::g1_jacobian::from_affine(proof.c).mul(r).is_infinity())
    return "a proof point is not in the prime-order subgroup";
  // vk_x = IC₀ + Σ x_i·IC_i
  std::vector<uint8_t> scalars(32 * x.size());
  for (size_t i = 0; i < x.size(); ++i) {
    auto k = x[i].to_canonical();
    std::memcpy(&scalars[32 * i], k.l, 32);
  }
  auto vk_x = msm::msm<typename C::g1>(vk.ic.data() + 1, scalars.data(), x.size(), C::fr_t::bits)
                  .add_mixed(vk.ic[0])
                  .to_affine();
  using pair_t = std::pair<typename C::g1_affine, typename C::g2_affine>;
  const pair_t pairs[] = {
      {-proof.a, proof.b}, {vk.alpha1, vk.beta2}, {vk_x, vk.gamma2}, {proof.c, vk.delta2}};
  if (!pairing::pairing_product_is_one(pairs, 4)) return "the pairing check failed";
  return {};
}

template <class C>
formats::gt_json_t alphabeta_json(const typename C::g1_affine& alpha1,
                                  const typename C::g2_affine& beta2) {
  auto e = pairing::pairing(alpha1, beta2);
  formats::gt_json_t j;
  const typename C::fq2_t* parts[2][3] = {{&e.c0.c0, &e.c0.c1, &e.c0.c2},
                                          {&e.c1.c0, &e.c1.c1, &e.c1.c2}};
  for (int i = 0; i < 2; ++i)
    for (int k = 0; k < 3; ++k) {
      j[i][k][0] = parts[i][k]->c0.to_string();
      j[i][k][1] = parts[i][k]->c1.to_string();
    }
  return j;
}

template check_t verify<curves::bn254>(const verifying_key_t<curves::bn254>&,
                                       const std::vector<bn254::fr_t>&,
                                       const proof_t<curves::bn254>&);
template check_t verify<curves::bls12_381>(const verifying_key_t<curves::bls12_381>&,
                                           const std::vector<bls12_381::fr_t>&,
                                           const proof_t<curves::bls12_381>&);
template formats::gt_json_t alphabeta_json<curves::bn254>(const curves::bn254::g1_affine&,
                                                          const curves::bn254::g2_affine&);
template formats::gt_json_t alphabeta_json<curves::bls12_381>(const curves::bls12_381::g1_affine&,
                                                              const curves::bls12_381::g2_affine&);

}  // namespace zk::groth16
