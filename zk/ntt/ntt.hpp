#pragma once
// Number-theoretic transforms over Fr with exactly the roots snarkjs uses
// (docs/formats.md §5.4): ω_k = nqr^((r−1)/2^k), nqr the smallest quadratic non-residue.
//
// The roots are g^((r−1)/2^k) for a generator g of the field's 2-power roots: snarkjs's nqr by
// default; bellperson / ff / blstrs use the field's multiplicative generator (7 for BLS12-381
// Fr), which gives other roots and so another assignment of constraints to domain points — a
// domain must be built with the generator the key was made for.
//
// Conventions (§3.3): forward(a) computes X_k = Σ_j a_j·ω_n^{jk} (natural order in and out);
// inverse is the same with ω_n⁻¹ and a factor 1/n. to_odd_coset() maps evaluations on
// {ω_n^i} to evaluations on the odd coset {ω_2n^{2i+1}} — the compute_h step of the prover —
// as one DIF inverse transform (natural → bit-reversed), a pointwise scaling by ω_2n^j/n in
// bit-reversed order, and one DIT forward transform (bit-reversed → natural): no bit-reversal
// permutation is ever materialised.
//
// Multithreaded over the compute pool; stages whose butterflies span more than a cache block
// run stage by stage across threads, the rest run block by block (each block in cache).
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace zk::ntt {

// ω_k = generator^((r−1)/2^k) for 0 ≤ k ≤ Fr::params_t::two_adicity (ω_0 = 1, ω_1 = −1);
// generator 0: the field's nqr (snarkjs). The generator must be a quadratic non-residue.
template <class Fr>
Fr root_of_unity(unsigned k, uint64_t generator = 0);

template <class Fr>
class domain_t {
 public:
  // generator: as root_of_unity's (0: snarkjs's nqr).
  explicit domain_t(unsigned log_n, uint64_t generator = 0);

  size_t size() const { return size_t(1) << log_n_; }
  unsigned log_size() const { return log_n_; }
  const Fr& omega() const { return omega_; }

  void forward(Fr* a) const;
  void inverse(Fr* a) const;
  // parallel = false: on the calling thread alone (a task beside others on the compute pool).
  void to_odd_coset(Fr* a, bool parallel = true) const;

  // bellperson's coset (src/domain.rs coset_fft / icoset_fft, shift = the multiplicative
  // generator): evaluations on {ω^i} → evaluations on {shift·ω^i}, natural order in and out
  // (one DIF inverse, a scaling by shift^j/n in bit-reversed order, one DIT forward).
  void to_coset(Fr* a, const Fr& shift) const;
  // Evaluations on {shift·ω^i} (natural order) → the coefficients of the polynomial that takes
  // them, natural order (one DIF inverse, a scaling by shift^−j/n, one bit-reversal).
  void coset_to_coefficients(Fr* a, const Fr& shift) const;

  // A shared, lazily built domain per size and generator (the prover reuses twiddles).
  static std::shared_ptr<const domain_t> get(unsigned log_n, uint64_t generator = 0);

 private:
  // chunks: parallel_for's (0: one per compute thread, 1: the calling thread only).
  template <bool Inverse>
  void dif(Fr* a, size_t chunks = 0) const;  // natural → bit-reversed, with ω (or ω⁻¹)
  void dit(Fr* a, size_t chunks = 0) const;  // bit-reversed → natural, with ω
  void bit_reverse(Fr* a) const;
  unsigned log_n_;
  Fr omega_;
  // ω^i for i < n/2: the only table. ω^−i = −ω^{n/2−i} (ω^{n/2} = −1) and the coset factors
  // ω_2n^j are derived from it, so a domain costs n/2 elements of memory.
  std::vector<Fr> tw_;
  Fr n_inv_, coset_gen_n_inv_;  // 1/n and ω_2n/n
};

}  // namespace zk::ntt
