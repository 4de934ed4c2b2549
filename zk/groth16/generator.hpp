#pragma once
// The one Groth16 key generator: the QAP of a constraint system evaluated at τ, and the key's
// points [s]₁ / [s]₂ for the scalars s that follow from it, streamed section by section to a
// writer. Development keys only — the secrets are drawn in this process, NOT by a ceremony.
// Two writers sit on it: snarkjs's .zkey + verification_key.json (zk/groth16/setup.hpp,
// docs/formats.md §2) and bellperson's .params + .vk (zk/bellperson/groth16/generator.hpp,
// bellperson 0.27 src/groth16/generator.rs). What differs between them is a convention_t.
//
// The constraint system (constraint_source_t): rows 0 … m−1 of A, B, C over one numbering of the
// variables, ONE = 0 and the other public inputs 1 … ℓ−1 first, then every other variable. Both
// conventions put the input rows in the same place — appended, {A, row m+i, variable i,
// coefficient 1} for i < ℓ (snarkjs §2.4; bellperson's generator enforces Input(i)·0 = 0 after
// the circuit "to ensure full density of IC query") — so that is not a convention_t field, and
//
//   domain  n = the smallest power of two ≥ m + ℓ, ω = root of unity of order n from the
//           convention's generator (snarkjs: its nqr, §5.4; bellperson: 7, blstrs's
//           MULTIPLICATIVE_GENERATOR)
//   L_c(τ)  = (τⁿ − 1)/n · ω^c/(τ − ω^c), the Lagrange basis of {ω^c} at τ
//   a_j(τ)  = Σ_c A_{c,j}·L_c(τ), likewise b_j(τ) and c_j(τ), input rows included
//   vk      [α]₁ [β]₁ [δ]₁, [β]₂ [γ]₂ [δ]₂ (γ = 1, [γ]₂ = the G2 generator, unless drawn)
//   ic      [(β·a_j + α·b_j + c_j)/γ]₁ for j < ℓ
//   l       [(β·a_j + α·b_j + c_j)/δ]₁ for j ≥ ℓ (snarkjs's C section)
//   a       [a_j(τ)]₁, b_g1 [b_j(τ)]₁, b_g2 [b_j(τ)]₂: for every variable, or for the variables
//           in the densities only (query_points_t)
//   h       odd_coset:     [L^{(2n)}_{2j+1}(τ)/δ]₁, j < n, the 2n-domain's basis at its odd points
//                          ω_{2n}·ω^j (snarkjs §2.5: its prover evaluates h on that coset)
//           powers_of_tau: [τ^i·(τⁿ − 1)/δ]₁, i < n − 1 (bellperson: h's coefficients)
//
// Cost: the evaluation is one pass over the terms and O(n) field work for the basis (one
// inversion per chunk, Montgomery's trick); the points are fixed-base multiplications
// (ec/fixed_base.hpp). Memory: a_j(τ), b_j(τ) and β·a_j + α·b_j + c_j for every variable (the
// basis only during the evaluation) and one chunk of points (2^20 in G1, 2^18 in G2): a section
// is computed and handed to the sink a chunk at a time, never held whole.
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "zk/ec/curves.hpp"
#include "zk/ec/fixed_base.hpp"

namespace zk::groth16 {

enum class qap_matrix_t : uint8_t { a, b, c };

// A constraint system as the generator reads it (zk/groth16/setup.cpp: a circom .r1cs;
// zk/bellperson/groth16/generator.cpp: a bellperson shape).
template <class Fr>
class constraint_source_t {
 public:
  // One term: coeff (Montgomery form) at (row, var) of matrix m.
  using term_visitor_t =
      std::function<void(qap_matrix_t m, uint64_t row, uint64_t var, const Fr& coeff)>;

  virtual ~constraint_source_t() = default;
  virtual uint64_t constraints() const = 0;  // m: the rows (the input rows not included)
  virtual uint64_t inputs() const = 0;       // ℓ: ONE and the public inputs, variables [0, ℓ)
  virtual uint64_t variables() const = 0;    // all of them, ONE included
  // Every term of A, B and C once, in any order; var < variables(), row < constraints().
  virtual void for_each_term(const term_visitor_t& visit) const = 0;
};

template <class Fr>
struct secrets_t {
  Fr tau, alpha, beta, gamma, delta;  // gamma = 1 unless the convention draws it
};

enum class h_query_t {
  odd_coset,      // n points [L^{(2n)}_{2j+1}(τ)/δ]₁ (snarkjs)
  powers_of_tau,  // n − 1 points [τ^i·(τⁿ − 1)/δ]₁ (bellperson)
};

enum class query_points_t {
  // A point per variable in a, b_g1 and b_g2, the point at infinity included (snarkjs).
  every_variable,
  // bellperson's densities (its prover's DensityTrackers, src/lc.rs): a holds the variables with
  // a nonzero coefficient in some row of A (the input rows make that every input), b_g1 and b_g2
  // those with a nonzero coefficient in some row of B; in variable order. bellperson's generator
  // drops the points at infinity of these queries instead, which are these variables except
  // with negligible probability over τ.
  density,
};

template <class Fr>
struct convention_t {
  uint64_t domain_generator = 0;  // ω = generator^((r−1)/n) (ntt::root_of_unity; 0: snarkjs's nqr)
  h_query_t h = h_query_t::odd_coset;
  bool gamma_drawn = false;  // γ from the secrets, IC over γ; else γ = 1
  query_points_t queries = query_points_t::every_variable;
  // τ, α, β, δ (and γ when gamma_drawn) for a domain of n points, called once. τ must not be a
  // point of the domain (of the 2n-domain for odd_coset): the basis divides by τ − ω^c.
  std::function<secrets_t<Fr>(uint64_t domain_size)> draw_secrets;
};

// The sections of a proving key (the verifying key's points, IC included, are vk()).
enum class key_section_t { a, b_g1, b_g2, l, h };

// [α]₁ [β]₁ [δ]₁ [β]₂ [γ]₂ [δ]₂ and IC.
template <class C>
struct vk_points_t {
  typename C::g1_affine alpha1, beta1, delta1;
  typename C::g2_affine beta2, gamma2, delta2;
  std::vector<typename C::g1_affine> ic;  // ℓ
};

// Where the points of a section go: begin_section, appends in variable (or index) order, each at
// most one chunk, end_section. G1 sections call the G1 append, b_g2 the G2 one.
template <class C>
class point_sink_t {
 public:
  virtual ~point_sink_t() = default;
  virtual void begin_section(key_section_t s, uint64_t count) = 0;
  virtual void append(const typename C::g1_affine* points, size_t n) = 0;
  virtual void append(const typename C::g2_affine* points, size_t n) = 0;
  virtual void end_section() = 0;
};

// Seconds per phase, summed over the generator's life.
struct generator_timings_t {
  double evaluate_seconds = 0;  // secrets, basis, a/b/c_j(τ), each section's scalars
  double g1_seconds = 0;        // fixed-base G1: table, vk points, IC, the G1 sections
  double g2_seconds = 0;        // fixed-base G2: table, vk points, b_g2
};

// log₂ of the smallest power of two ≥ rows (the QAP domain of that many rows).
unsigned log2_domain(uint64_t rows);

// Curves: curves::bn254 and curves::bls12_381 (instantiated in generator.cpp).
template <class C>
class key_generator_t {
 public:
  using fr_t = typename C::fr_t;
  using g1_affine = typename C::g1_affine;
  using g2_affine = typename C::g2_affine;

  // G1 / G2 points handed to a sink at a time.
  static constexpr size_t g1_chunk = size_t(1) << 20;
  static constexpr size_t g2_chunk = size_t(1) << 18;

  // Draws the secrets, evaluates the QAP at τ and makes the verifying key's points. Throws
  // std::invalid_argument when the domain (2n for odd_coset) exceeds the field's 2-adicity.
  key_generator_t(const constraint_source_t<fr_t>& source, const convention_t<fr_t>& convention);

  unsigned log_domain_size() const { return log_n_; }
  uint64_t domain_size() const { return n_; }
  const vk_points_t<C>& vk() const { return vk_; }
  uint64_t section_size(key_section_t s) const;
  // Computes section s and hands it to the sink a chunk at a time (any order, any number of
  // times).
  void write_section(key_section_t s, point_sink_t<C>& sink);
  const generator_timings_t& timings() const { return timings_; }

 private:
  void evaluate(const constraint_source_t<fr_t>& source);
  void make_vk();

  convention_t<fr_t> conv_;
  uint64_t inputs_ = 0, variables_ = 0;
  unsigned log_n_ = 0;
  uint64_t n_ = 0;
  secrets_t<fr_t> sec_{};
  std::vector<fr_t> a_, b_;             // a_j(τ), b_j(τ)
  std::vector<fr_t> k_;                 // β·a_j + α·b_j + c_j
  std::vector<bool> in_a_, in_b_;       // the densities (query_points_t::density)
  uint64_t a_count_ = 0, b_count_ = 0;  // points in a, in b_g1 (and b_g2)
  std::optional<ec::fixed_base_t<typename C::g1>> g1_table_;
  std::optional<ec::fixed_base_t<typename C::g2>> g2_table_;
  vk_points_t<C> vk_;
  generator_timings_t timings_;
};

}  // namespace zk::groth16
