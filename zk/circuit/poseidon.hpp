#pragma once
// Poseidon (Grassi, Khovratovich, Rechberger, Roy, Schofnegger, eprint 2019/458) as circomlib
// computes it (circomlibjs src/poseidon_reference.js; circomlib's poseidon.circom is the same
// permutation in optimised form):
//
//   state = [0, in_1, …, in_n]   (t = n + 1)
//   for round i in 0 .. R_F + R_P − 1:
//     ARK    state[j] += C[t·i + j]
//     S-box  x ↦ x⁵ on every element (full rounds: the first and last R_F/2 rounds),
//            on state[0] only (the R_P partial rounds in the middle)
//     MIX    state'[i] = Σ_j M[i][j]·state[j]
//   out = state[0]
//
// Parameters (poseidon_constants.hpp, made by scripts/gen/poseidon_constants.py):
//   BN254       circomlibjs's poseidon_constants.json, t = 2..5 (R_F = 8, R_P = 56, 57, 56, 60)
//   BLS12-381   zkfleet's instance, t = 3 only: R_F = 8, R_P = 57, α = 5, round constants
//               SHA-256("zkfleet/poseidon/bls12-381/t=3/C" ‖ u32be(i)) mod r, Cauchy MDS
//               M[i][j] = 1/(i + t + j). Not interoperable with any other library.
//
// Cost: each S-box is three multiplications (x², x⁴, x⁵: 3 constraints, as circomlib's Sigma);
// ARK and MIX are linear and fold into linear combinations. Poseidon(2) (t = 3) is
// (8·3 + 57)·3 = 243 constraints.
#include <array>
#include <stdexcept>
#include <string>
#include <vector>

#include "zk/circuit/gadgets_bits.hpp"
#include "zk/ff/bls12_381.hpp"
#include "zk/ff/bn254.hpp"

namespace zk::circuit {

template <class Fr>
struct poseidon_params_t {
  unsigned t = 0, rounds_f = 0, rounds_p = 0;
  std::vector<Fr> c;  // t·(R_F + R_P) round constants, round by round
  std::vector<Fr> m;  // t·t, m[i·t + j] = M[i][j]

  unsigned constraints() const { return 3 * (rounds_f * t + rounds_p); }
};

// The parameters for width t; throws std::invalid_argument naming t when the field has none.
// Defined for zk::bn254::fr_t (t = 2..5) and zk::bls12_381::fr_t (t = 3).
template <class Fr>
const poseidon_params_t<Fr>& poseidon_params(unsigned t);
template <>
const poseidon_params_t<bn254::fr_t>& poseidon_params<bn254::fr_t>(unsigned t);
template <>
const poseidon_params_t<bls12_381::fr_t>& poseidon_params<bls12_381::fr_t>(unsigned t);

inline constexpr unsigned poseidon_max_t = 5;

// Poseidon(in[0..n)) for 1 ≤ n ≤ 4 (t = n + 1): a linear combination of the last round's wires.
template <class CS>
lc_of_t<CS> poseidon(CS& cs, const lc_of_t<CS>* in, unsigned n) {
  using Fr = typename CS::fr_t;
  using lc_t = lc_of_t<CS>;
  const unsigned t = n + 1;
  const poseidon_params_t<Fr>& p = poseidon_params<Fr>(t);
  std::array<lc_t, poseidon_max_t> state{}, next{};
  for (unsigned j = 1; j < t; ++j) state[j] = in[j - 1];
  auto sbox = [&](lc_t& x) {
    lc_t x2 = mul(cs, x, x);
    lc_t x4 = mul(cs, x2, x2);
    lc_t x5 = mul(cs, x4, x);
    x = std::move(x5);
  };
  const unsigned rounds = p.rounds_f + p.rounds_p, half_f = p.rounds_f / 2;
  for (unsigned r = 0; r < rounds; ++r) {
    for (unsigned j = 0; j < t; ++j) state[j] += cs.constant(p.c[t * r + j]);
    if (r < half_f || r >= half_f + p.rounds_p) {
      for (unsigned j = 0; j < t; ++j) sbox(state[j]);
    } else {
      sbox(state[0]);
    }
    for (unsigned i = 0; i < t; ++i) {
      lc_t acc = state[0] * p.m[i * t];
      for (unsigned j = 1; j < t; ++j) acc += state[j] * p.m[i * t + j];
      next[i] = std::move(acc);
    }
    std::swap(state, next);
  }
  return state[0];
}

template <class CS>
lc_of_t<CS> poseidon2(CS& cs, const lc_of_t<CS>& x, const lc_of_t<CS>& y) {
  const lc_of_t<CS> in[2] = {x, y};
  return poseidon(cs, in, 2);
}

// The same permutation on values (no constraints).
template <class Fr>
Fr poseidon_native(const Fr* in, unsigned n) {
  native_cs_t<Fr> cs;
  std::array<value_lc_t<Fr>, poseidon_max_t> v{};
  for (unsigned i = 0; i < n; ++i) v[i].value = in[i];
  return poseidon(cs, v.data(), n).value;
}

}  // namespace zk::circuit
