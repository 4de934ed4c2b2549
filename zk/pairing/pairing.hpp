#pragma once
// Optimal ate pairing e: G1 × G2 → GT ⊂ Fq12* for BN254 and BLS12-381, normalised exactly as
// snarkjs (iden3/wasmcurves) normalises it, so that e(α₁, β₂) equals vk_alphabeta_12 of a
// snarkjs verification_key.json (docs/formats.md §4).
//
//   BN254      a(P, Q) = (f_{6x+2,Q}(P) · l_{[6x+2]Q, π(Q)}(P) · l_{[6x+2]Q+π(Q), −π²(Q)}(P))^e
//              x = 4965661367192848881, D-type twist E': y² = x³ + 3/ξ, ξ = 9 + u
//              (F. Vercauteren, "Optimal pairings", IEEE TIT 2010; eprint 2008/096).
//   BLS12-381  a(P, Q) = conj(f_{|x|,Q}(P))^e,   x = −0xd201000000010000,
//              M-type twist E': y² = x³ + 4ξ, ξ = 1 + u.
//
// The final exponent e is a fixed multiple of (q¹² − 1)/r, the same one wasmcurves uses:
//   BN254      e = (q⁶ − 1)(q² + 1) · 2x(6x² + 3x + 1) · (q⁴ − q² + 1)/r
//              (L. Fuentes-Castañeda, E. Knapp, F. Rodríguez-Henríquez, "Faster hashing to G2",
//              SAC 2011; the chain of libff, arkworks, gnark and wasmcurves)
//   BLS12-381  e = (q⁶ − 1)(q² + 1) · 3 · (q⁴ − q² + 1)/r, using
//              3(q⁴ − q² + 1)/r = (x − 1)²(x + q)(x² + q² − 1) + 3
//              (D. Hayashida, K. Hayasaka, T. Teruya, eprint 2020/875)
// Both multiples are prime to r, so the map stays bilinear and non-degenerate; a product of
// pairings is 1 independently of the choice.
//
// The Miller loop keeps T ∈ E'(Fq2) in homogeneous projective coordinates and evaluates the
// lines at the affine P ∈ E(Fq): C. Costello, T. Lange, M. Naehrig, "Faster pairing
// computations on curves with high-degree twists", PKC 2010 (eprint 2009/615), and D. F. Aranha,
// K. Karabina, P. Longa, C. Gebotys, J. López, "Faster explicit formulas for computing pairings
// over ordinary curves", EUROCRYPT 2011 (eprint 2010/526).
//
// Inputs are affine points with .x, .y and .is_infinity() (ec::affine_t or anything shaped like
// it); the curve is chosen from the type of .x. A pair with a point at infinity contributes 1.
// No subgroup check is made here (snarkjs makes none either): callers that need one do it first.
#include <cstddef>
#include <initializer_list>
#include <type_traits>
#include <utility>

#include "zk/pairing/tower.hpp"

namespace zk::pairing {

enum class family_t { bn, bls12 };
// D-type: E' = E/ξ, ψ(x, y) = (x·w², y·w³); M-type: E' = E·ξ, ψ(x, y) = (x/w², y/w³).
enum class twist_t { d_type, m_type };

// Digits of n > 0, least significant first, for left-to-right square-and-multiply:
// w = 1 plain binary; w ≥ 2 width-w NAF (odd digits |d| < 2^(w−1), any w consecutive digits
// hold at most one non-zero; w = 2 is the ordinary NAF). The top digit is positive, and is 1
// for w ≤ 2.
struct signed_digits_t {
  int8_t d[130];
  int len;
};
constexpr signed_digits_t signed_digits(unsigned __int128 n, unsigned w) {
  signed_digits_t r{};
  while (n != 0) {
    int z = 0;
    if (n & 1) {
      if (w == 1) {
        z = 1;
      } else {
        z = (int)(n & ((1u << w) - 1));
        if (z >= (1 << (w - 1))) z -= 1 << w;
      }
      n = z > 0 ? n - (unsigned)z : n + (unsigned)(-z);
    }
    r.d[r.len++] = (int8_t)z;
    n >>= 1;
  }
  return r;
}

struct bn254_params_t {
  using tower_t = bn254_tower_t;
  using fq_t = zk::bn254::fq_t;
  using fq2_t = zk::bn254::fq2_t;
  using fq12_t = fp12_t<tower_t>;
  static constexpr family_t family = family_t::bn;
  static constexpr twist_t twist = twist_t::d_type;
  // The BN parameter (q, r are polynomials in x; wasmcurves finalExpZ).
  static constexpr uint64_t x_abs = 4965661367192848881ULL;
  static constexpr bool x_negative = false;
  // Miller loop over 6x + 2 = 29793968203157093288 (65 bits): NAF, 22 non-zero digits
  // (binary has 37).
  static constexpr unsigned __int128 ate_loop_abs = (unsigned __int128)x_abs * 6 + 2;
  static constexpr bool ate_loop_negative = false;
  static constexpr unsigned ate_loop_window = 2;
  // f^x in the hard part: width-4 NAF, 13 multiplications + 3 for the table (NAF: 23).
  static constexpr unsigned x_window = 4;
  // b' = 3/ξ of the D-type twist (docs/formats.md §5.1).
  static constexpr fq2_t twist_b =
      fq2_t{fq_t::from_u64(3), fq_t::zero()} * tower_xi<tower_t>().inverse();
};

struct bls12_381_params_t {
  using tower_t = bls12_381_tower_t;
  using fq_t = zk::bls12_381::fq_t;
  using fq2_t = zk::bls12_381::fq2_t;
  using fq12_t = fp12_t<tower_t>;
  static constexpr family_t family = family_t::bls12;
  static constexpr twist_t twist = twist_t::m_type;
  // x = −0xd201000000010000
  static constexpr uint64_t x_abs = 0xd201000000010000ULL;
  static constexpr bool x_negative = true;
  // Miller loop over x itself: |x|, then a conjugation for the sign. |x| has 6 set bits, so plain
  // binary (63 doublings, 5 additions) beats any NAF (one doubling longer) here and in f^x.
  static constexpr unsigned __int128 ate_loop_abs = x_abs;
  static constexpr bool ate_loop_negative = true;
  static constexpr unsigned ate_loop_window = 1;
  static constexpr unsigned x_window = 1;
  // b' = 4ξ = 4 + 4u of the M-type twist (docs/formats.md §5.2).
  static constexpr fq2_t twist_b = fq2_t{fq_t::from_u64(4), fq_t::from_u64(4)};
};

// A finite affine point of G1 (coordinates in Fq) and of G2 (on the twist, in Fq2).
template <class C>
struct g1_coords_t {
  typename C::fq_t x, y;
};
template <class C>
struct g2_coords_t {
  typename C::fq2_t x, y;
};

// --- core, instantiated in pairing.cpp for both curves ------------------------------------------

// Π_i f_i(P_i, Q_i) for the optimal ate Miller functions, one shared accumulator (one Fq12
// squaring per loop step for all pairs). Points must be finite.
template <class C>
typename C::fq12_t multi_miller_loop(const g1_coords_t<C>* p, const g2_coords_t<C>* q, size_t n);

// f^e with e as above: easy part f^((q⁶ − 1)(q² + 1)), then the curve's hard-part chain.
template <class C>
typename C::fq12_t final_exponentiation(const typename C::fq12_t& f);

// f^x (x signed, the curve parameter) for f in the cyclotomic subgroup: signed digits of |x|
// (C::x_window), Granger–Scott squarings, inverses by conjugation.
template <class C>
typename C::fq12_t cyclotomic_exp_by_x(const typename C::fq12_t& f);

extern template bn254_params_t::fq12_t multi_miller_loop<bn254_params_t>(
    const g1_coords_t<bn254_params_t>*, const g2_coords_t<bn254_params_t>*, size_t);
extern template bls12_381_params_t::fq12_t multi_miller_loop<bls12_381_params_t>(
    const g1_coords_t<bls12_381_params_t>*, const g2_coords_t<bls12_381_params_t>*, size_t);
extern template bn254_params_t::fq12_t final_exponentiation<bn254_params_t>(
    const bn254_params_t::fq12_t&);
extern template bls12_381_params_t::fq12_t final_exponentiation<bls12_381_params_t>(
    const bls12_381_params_t::fq12_t&);
extern template bn254_params_t::fq12_t cyclotomic_exp_by_x<bn254_params_t>(
    const bn254_params_t::fq12_t&);
extern template bls12_381_params_t::fq12_t cyclotomic_exp_by_x<bls12_381_params_t>(
    const bls12_381_params_t::fq12_t&);

// --- front ends over any affine point type -------------------------------------------------------

// The pairing parameters of the curve whose base field is Fq.
template <class Fq>
struct params_for_t;
template <>
struct params_for_t<zk::bn254::fq_t> {
  using type = bn254_params_t;
};
template <>
struct params_for_t<zk::bls12_381::fq_t> {
  using type = bls12_381_params_t;
};
template <class G1A>
using params_of_t = typename params_for_t<std::decay_t<decltype(std::declval<G1A>().x)>>::type;

namespace detail {
// Drops pairs with a point at infinity (they contribute 1) and runs one Miller loop on the rest.
template <class G1A, class G2A>
typename params_of_t<G1A>::fq12_t miller_loop_pairs(const std::pair<G1A, G2A>* pairs, size_t n) {
  using C = params_of_t<G1A>;
  static_assert(std::is_same_v<std::decay_t<decltype(std::declval<G2A>().x)>, typename C::fq2_t>,
                "G1 and G2 points of different curves");
  constexpr size_t chunk = 8;
  g1_coords_t<C> p[chunk];
  g2_coords_t<C> q[chunk];
  auto f = C::fq12_t::one();
  size_t m = 0;
  for (size_t i = 0; i < n; ++i) {
    if (pairs[i].first.is_infinity() || pairs[i].second.is_infinity()) continue;
    p[m] = {pairs[i].first.x, pairs[i].first.y};
    q[m] = {pairs[i].second.x, pairs[i].second.y};
    if (++m == chunk) {
      f *= multi_miller_loop<C>(p, q, m);
      m = 0;
    }
  }
  if (m > 0) f *= multi_miller_loop<C>(p, q, m);
  return f;
}
}  // namespace detail

// Miller loop of one pair (1 if either point is at infinity); not yet exponentiated.
template <class G1A, class G2A>
typename params_of_t<G1A>::fq12_t miller_loop(const G1A& p, const G2A& q) {
  std::pair<G1A, G2A> pq{p, q};
  return detail::miller_loop_pairs(&pq, 1);
}

// e(P, Q).
template <class G1A, class G2A>
typename params_of_t<G1A>::fq12_t pairing(const G1A& p, const G2A& q) {
  return final_exponentiation<params_of_t<G1A>>(miller_loop(p, q));
}

// Π e(P_i, Q_i) with one Miller accumulator and one final exponentiation.
template <class G1A, class G2A>
typename params_of_t<G1A>::fq12_t pairing_product(const std::pair<G1A, G2A>* pairs, size_t n) {
  return final_exponentiation<params_of_t<G1A>>(detail::miller_loop_pairs(pairs, n));
}

// Π e(P_i, Q_i) == 1: the Groth16 check e(−A, B)·e(α, β)·e(vk_x, γ)·e(C, δ) == 1.
template <class G1A, class G2A>
bool pairing_product_is_one(const std::pair<G1A, G2A>* pairs, size_t n) {
  return pairing_product(pairs, n).is_one();
}
// pairing_product_is_one({std::pair{a, b}, std::pair{c, d}, …})
template <class G1A, class G2A>
bool pairing_product_is_one(std::initializer_list<std::pair<G1A, G2A>> pairs) {
  return pairing_product_is_one(pairs.begin(), pairs.size());
}

}  // namespace zk::pairing
