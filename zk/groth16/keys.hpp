#pragma once
// Typed, zero-copy views of a Groth16 key, and conversions between points and their JSON
// form (decimal, affine, c0 before c1: docs/formats.md §3.7, §4).
//
// A zkey's point sections are arrays of Montgomery little-endian affine coordinates with
// (0, 0) for infinity (§2.2) — the in-memory layout of ec::affine_t — so the proving key points
// straight into the mapped file: nothing is copied or converted.
#include <string>
#include <vector>

#include "zk/ec/curves.hpp"
#include "zk/formats/json.hpp"
#include "zk/formats/zkey.hpp"

namespace zk::groth16 {

template <class C>
struct proving_key_t {
  using g1_t = typename C::g1_affine;
  using g2_t = typename C::g2_affine;

  const formats::zkey_file_t* file = nullptr;
  uint32_t n_vars = 0, n_public = 0, domain_size = 0, log_domain = 0;
  g1_t alpha1, beta1, delta1;  // [α]₁ [β]₁ [δ]₁
  g2_t beta2, gamma2, delta2;  // [β]₂ [γ]₂ [δ]₂
  const g1_t* ic = nullptr;    // nPublic+1: [βA_i + αB_i + C_i]₁ for public wires
  const g1_t* a = nullptr;     // nVars: [A_i(τ)]₁
  const g1_t* b1 = nullptr;    // nVars: [B_i(τ)]₁
  const g2_t* b2 = nullptr;    // nVars: [B_i(τ)]₂
  const g1_t* c = nullptr;  // nVars−nPublic−1: [(βA_i + αB_i + C_i)/δ]₁, wires nPublic+1…
  const g1_t* h = nullptr;            // n: [L^{(2n)}_{2j+1}(τ)/δ]₁
  formats::coef_span_t coefficients;  // A and B entries, value = coef·R² (§2.4)

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
