#pragma once
// Typed, zero-copy views of a Groth16 key, and conversions between points and their JSON
// form (decimal, affine, c0 before c1: docs/formats.md §3.7, §4).
//
// One prover proves with every key (groth16::prover_t); a key is a view of
//   * a snarkjs .zkey: its point sections are arrays of Montgomery little-endian affine
//     coordinates with (0, 0) for infinity (§2.2) — the in-memory layout of ec::affine_t — so the
//     view points straight into the mapped file: nothing is copied or converted; or
//   * a bellperson .params (zk/bellperson/groth16/key.hpp): its ZCash-encoded bases decoded once
//     into the same layout; the a, b_g1, b_g2 queries hold points only for the variables in the
//     circuit's densities (the generator drops those at infinity), and h pairs with the quotient's
//     coefficients on bellperson's coset (docs/filecoin.md §13).
// Both number the variables the same way: ONE, the public inputs, then the private ones (a
// bellperson witness is its input assignment, ONE first, then its aux assignment).
#include <string>
#include <vector>

#include "zk/ec/curves.hpp"
#include "zk/formats/json.hpp"
#include "zk/formats/zkey.hpp"
#include "zk/msm/density.hpp"

namespace zk::groth16 {

// How the H points pair with the quotient p = a·b − c (compute_h).
enum class h_form_t : uint8_t {
  // snarkjs (docs/formats.md §3.3): p on the odd coset of the 2n-domain, its n values against
  // the n points [L^{(2n)}_{2j+1}(τ)/δ]₁.
  odd_coset,
  // bellperson (docs/filecoin.md §13): a, b, c to the coset g·ω^i of the domain of generator g,
  // p/Z there, back to coefficients: h's n − 1 coefficients against [τ^i·Z(τ)/δ]₁, i < n − 1.
  coset_quotient,
};

template <class C>
struct proving_key_t {
  using g1_t = typename C::g1_affine;
  using g2_t = typename C::g2_affine;

  const formats::zkey_file_t* file = nullptr;  // a zkey's mapping (null for a bellperson key)
  uint32_t n_vars = 0, n_public = 0, domain_size = 0, log_domain = 0;
  g1_t alpha1, beta1, delta1;  // [α]₁ [β]₁ [δ]₁
  g2_t beta2, gamma2, delta2;  // [β]₂ [γ]₂ [δ]₂
  const g1_t* ic = nullptr;  // nPublic+1: [βA_i + αB_i + C_i]₁ (/γ for bellperson) for publics
  const g1_t* a = nullptr;   // [A_i(τ)]₁ for the variables in a_density (every one without)
  const g1_t* b1 = nullptr;  // [B_i(τ)]₁ for the variables in b_density (every one without)
  const g2_t* b2 = nullptr;  // [B_i(τ)]₂, as b1
  const g1_t* c = nullptr;  // nVars−nPublic−1: [(βA_i + αB_i + C_i)/δ]₁, variables nPublic+1…
                            // (bellperson's L query)
  const g1_t* h = nullptr;  // h_points(): the H query, as h_form says
  // The variables the a and b1/b2 queries have points for, in order (not owned); null: every
  // variable (a zkey writes a point for each, infinity included).
  const msm::density_t* a_density = nullptr;
  const msm::density_t* b_density = nullptr;
  h_form_t h_form = h_form_t::odd_coset;
  // The generator of the domain's roots and, for coset_quotient, the coset's shift (0: snarkjs's
  // nqr; bellperson: the field's multiplicative generator, 7 for BLS12-381).
  uint64_t domain_generator = 0;
  formats::coef_span_t coefficients;  // zkey: the A and B entries, value = coef·R² (§2.4)

  uint64_t a_points() const { return a_density ? a_density->count() : n_vars; }
  uint64_t b_points() const { return b_density ? b_density->count() : n_vars; }
  uint64_t c_points() const { return uint64_t(n_vars) - n_public - 1; }
  uint64_t h_points() const {
    return h_form == h_form_t::odd_coset ? domain_size : uint64_t(domain_size) - 1;
  }

  // Views the zkey; throws format_error if the key's curve is not C.
  static proving_key_t view(const formats::zkey_file_t& zkey);
};

template <class C>
struct verifying_key_t {
  typename C::g1_affine alpha1;
  typename C::g2_affine beta2, gamma2, delta2;
  std::vector<typename C::g1_affine> ic;  // nPublic+1

  static verifying_key_t from_zkey(const proving_key_t<C>& pk);
  // Reads and validates (numbers < q, points on their curves) a parsed verification_key.json.
  static verifying_key_t from_json(const formats::vkey_json_t& j, const std::string& path);
  formats::vkey_json_t to_json() const;  // without vk_alphabeta_12 (the caller adds it)
};

template <class C>
struct proof_t {
  typename C::g1_affine a;
  typename C::g2_affine b;
  typename C::g1_affine c;

  formats::proof_json_t to_json() const;
  // Validates coordinates (< q) and that the points lie on their curves.
  static proof_t from_json(const formats::proof_json_t& j, const std::string& path);
};

// Point ⇄ JSON. from_json throws std::runtime_error naming `where` (file and JSON path) when a
// coordinate is ≥ q or the point is not on the curve; z = 0 reads as infinity, z ≠ 1 as
// Jacobian (as snarkjs does).
template <class C>
formats::g1_json_t g1_to_json(const typename C::g1_affine& p);
template <class C>
formats::g2_json_t g2_to_json(const typename C::g2_affine& p);
template <class C>
typename C::g1_affine g1_from_json(const formats::g1_json_t& j, const std::string& where);
template <class C>
typename C::g2_affine g2_from_json(const formats::g2_json_t& j, const std::string& where);

// Public signals (decimal strings < r) → Fr; throws naming the file and index.
template <class C>
std::vector<typename C::fr_t> public_from_json(const std::vector<std::string>& s,
                                               const std::string& path);

}  // namespace zk::groth16
