#include "zk/bellperson/groth16/verifier.hpp"

#include <cstring>
#include <random>
#include <utility>

#include "zk/msm/msm.hpp"
#include "zk/pairing/pairing.hpp"

namespace zk::bellperson {

namespace {

using g1_jac_t = curve_t::g1_jacobian;
using pair_t = std::pair<g1_affine_t, g2_affine_t>;

// IC_0 + Σ_i s_i·IC_{i+1} for scalars s (Fr, one per public input).
g1_jac_t ic_sum(const verifying_key_t& vk, const std::vector<fr_t>& s, const fr_t& s0) {
  std::vector<uint8_t> scalars(32 * s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    const auto k = s[i].to_canonical();
    std::memcpy(&scalars[32 * i], k.l, 32);
  }
  g1_jac_t acc =
      s.empty() ? g1_jac_t::infinity()
                : msm::msm<curve_t::g1>(vk.ic.data() + 1, scalars.data(), s.size(), fr_t::bits);
  return acc + g1_jac_t::from_affine(vk.ic[0]).mul(s0.to_canonical());
}

check_t check_input_count(const verifying_key_t& vk, size_t n) {
  if (n + 1 == vk.ic.size()) return {};
  return "the key expects " + std::to_string(vk.ic.size() - 1) + " public inputs, got " +
         std::to_string(n);
}

}  // namespace

check_t verify_proof(const verifying_key_t& vk, const proof_t& p, const std::vector<fr_t>& inputs) {
  return groth16::verify(vk.to_groth16(), inputs, p);
}

check_t verify_proofs_batch(const verifying_key_t& vk, const std::vector<proof_t>& proofs,
                            const std::vector<std::vector<fr_t>>& inputs) {
  if (proofs.empty()) return "no proofs";
  if (proofs.size() != inputs.size())
    return std::to_string(proofs.size()) + " proofs for " + std::to_string(inputs.size()) +
           " sets of public inputs";
  for (const auto& x : inputs)
    if (check_t c = check_input_count(vk, x.size()); !c) return c;
  if (proofs.size() == 1) return verify_proof(vk, proofs[0], inputs[0]);

  // Random weights: unpredictable to whoever made the proofs (bellperson draws them from its
  // caller's RNG, OsRng in filecoin-proofs).
  std::random_device rd;
  std::vector<fr_t> z(proofs.size());
  for (auto& w : z) {
    fr_t::big_t v{};
    v.l[0] = (uint64_t(rd()) << 32) | rd();
    v.l[1] = (uint64_t(rd()) << 32) | rd();
    w = fr_t::from_canonical(v);
  }
  // Σ_j z_j·vk_x_j = (Σ_j z_j)·IC_0 + Σ_i (Σ_j z_j·x_{j,i})·IC_i
  fr_t z_sum = fr_t::zero();
  std::vector<fr_t> combined(inputs[0].size(), fr_t::zero());
  for (size_t j = 0; j < proofs.size(); ++j) {
    z_sum += z[j];
    for (size_t i = 0; i < combined.size(); ++i) combined[i] += z[j] * inputs[j][i];
  }
  std::vector<pair_t> pairs;
  pairs.reserve(proofs.size() + 3);
  g1_jac_t c_sum = g1_jac_t::infinity();
  for (size_t j = 0; j < proofs.size(); ++j) {
    const auto zj = z[j].to_canonical();
    pairs.emplace_back(g1_jac_t::from_affine(proofs[j].a).mul(zj).to_affine(), proofs[j].b);
    c_sum += g1_jac_t::from_affine(proofs[j].c).mul(zj);
  }
  const g1_affine_t alpha_z =
      (-g1_jac_t::from_affine(vk.alpha_g1).mul(z_sum.to_canonical())).to_affine();
  pairs.emplace_back(alpha_z, vk.beta_g2);
  pairs.emplace_back((-ic_sum(vk, combined, z_sum)).to_affine(), vk.gamma_g2);
  pairs.emplace_back((-c_sum).to_affine(), vk.delta_g2);
  if (pairing::pairing_product_is_one(pairs.data(), pairs.size())) return {};

  // Which partitions fail.
  std::string bad;
  for (size_t j = 0; j < proofs.size(); ++j)
    if (!verify_proof(vk, proofs[j], inputs[j]))
      bad += (bad.empty() ? "" : ", ") + std::to_string(j);
  return "the pairing check failed for partition" +
         std::string(bad.find(',') == std::string::npos ? " " : "s ") +
         (bad.empty() ? "(none alone: the batch)" : bad);
}

}  // namespace zk::bellperson
