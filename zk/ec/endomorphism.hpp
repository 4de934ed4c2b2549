#pragma once
// Efficient endomorphisms of G1 and G2 and the scalar decompositions they allow.
//
//   G1 (GLV: R. Gallant, R. Lambert, S. Vanstone, CRYPTO 2001). Both curves are y² = x³ + b over
//      Fq with q ≡ 1 mod 3, so φ(x, y) = (β·x, y), β a primitive cube root of unity in Fq, is an
//      endomorphism; on the prime-order group it is multiplication by λ, a cube root of unity
//      mod r (which of the two roots pairs with β is checked in tests/ec). k·P = k₀·P + k₁·φ(P)
//      with |k₀|, |k₁| about √r: half the scalar length.
//   G2 (GLS: S. Galbraith, X. Lin, M. Scott, EUROCRYPT 2009; for BN curves S. Galbraith and
//      M. Scott, "Exponentiation in pairing-friendly groups using homomorphisms", 2008).
//      ψ = untwist ∘ Frobenius ∘ twist: ψ(x, y) = (x̄·c_x, ȳ·c_y), x̄ the Fq2 conjugate; on G2 it is
//      multiplication by p mod r, whose minimal polynomial over Z/r is the 12th cyclotomic one
//      (degree 4), so k·Q = Σ_{i<4} k_i·ψ^i(Q) with |k_i| about r^(1/4): a quarter of the length.
//      ψ²(x, y) = (ω·x, −y) with ω ∈ Fq (c_x·c̄_x; c_y·c̄_y = −1), ψ³ = ψ ∘ ψ².
//
// Decomposition (Babai rounding). The vectors v with Σ v_i·λ^i ≡ 0 (mod r) form a lattice of
// determinant r; B below is a short basis of it (GLV: the extended Euclidean algorithm on (r, λ),
// D. Hankerson, A. Menezes, S. Vanstone, "Guide to Elliptic Curve Cryptography", Alg. 3.74; GLS:
// LLL-reduced; for BLS12-381 it is the base-|x| digit lattice, λ = p ≡ x mod r). Writing
// (k, 0, …, 0) = Σ_j c_j·b_j with c_j = k·adj(B)_{0j}/det B, rounding c_j and subtracting
// Σ_j ⌊c_j⌉·b_j leaves (k₀, …, k_{D−1}) with Σ k_i λ^i ≡ k and |k_i| ≤ ½·Σ_j |b_{j,i}| (plus
// the rounding's 2^-60 slack). ⌊c_j⌉ = (k·g_j + 2^383) >> 384 with g_j = round(2^384·adj(B)_{0j}
// / det B), the constants below (derived once in Python; tests/ec checks each property: basis
// in the lattice, det = ±r, eigenvalues on the generators, recomposition and the bound on random
// and edge scalars). The decomposition is exact whatever the rounding; only the bound uses it.
#include <cstdint>
#include <string_view>

#include "zk/ec/curves.hpp"
#include "zk/ff/bigint.hpp"

namespace zk::ec {

// k ≡ Σ_i (neg_i ? −1 : 1)·mag_i·λ^i (mod r), every mag_i < 2^max_bits ≤ 2^127.
template <int D>
struct split_t {
  unsigned __int128 mag[D];
  bool neg[D];
};

template <int D>
struct lattice_t {
  unsigned __int128 b[D][D];  // b[j][i]: component i of basis vector j, modulo 2^128
  bool b_neg[D][D];           // its sign (|b| < 2^128; BLS12-381's GLV basis needs all 128 bits)
  ff::bigint_t<6> g[D];       // |round(2^384·adj(B)_{0j}/det B)|
  bool g_neg[D];              // its sign
  unsigned max_bits;          // |k_i| < 2^max_bits for every k < 2^256
  static constexpr int dims = D;

  // k: four little-endian 64-bit limbs (any k < 2^256; the scalars are < r).
  constexpr split_t<D> split(const uint64_t k[4]) const {
    using u128_t = unsigned __int128;
    u128_t c[D] = {};
    for (int j = 0; j < D; ++j) {
      // bits [384, 512) of k·g_j + 2^383: the low 128 bits of the rounded quotient (the
      // arithmetic below is mod 2^128, exact because every |k_i| < 2^127).
      uint64_t prod[11] = {};
      for (int a = 0; a < 4; ++a) {
        u128_t carry = 0;
        for (int bb = 0; bb < 6; ++bb) {
          carry += (u128_t)k[a] * g[j].l[bb] + prod[a + bb];
          prod[a + bb] = uint64_t(carry);
          carry >>= 64;
        }
        for (int t = a + 6; carry; ++t) {
          carry += prod[t];
          prod[t] = uint64_t(carry);
          carry >>= 64;
        }
      }
      u128_t carry = (u128_t)prod[5] + (uint64_t(1) << 63);
      for (int t = 6; t < 11; ++t) {
        carry = (carry >> 64) + prod[t];
        prod[t] = uint64_t(carry);
      }
      const u128_t q = (u128_t)prod[6] | ((u128_t)prod[7] << 64);
      c[j] = g_neg[j] ? u128_t(0) - q : q;
    }
    split_t<D> out{};
    for (int i = 0; i < D; ++i) {
      u128_t v = i == 0 ? ((u128_t)k[0] | ((u128_t)k[1] << 64)) : 0;
      for (int j = 0; j < D; ++j) v -= c[j] * b[j][i];
      const __int128 s = (__int128)v;
      out.neg[i] = s < 0;
      out.mag[i] = s < 0 ? u128_t(0) - v : v;
    }
    return out;
  }
};

namespace detail {
// "−123", "456" → the value modulo 2^128 (compile time).
constexpr unsigned __int128 s128(std::string_view s) {
  const bool neg = !s.empty() && s[0] == '-';
  ff::bigint_t<2> v{};
  ff::parse_bigint(neg ? s.substr(1) : s, v);
  const unsigned __int128 m = (unsigned __int128)v.l[0] | ((unsigned __int128)v.l[1] << 64);
  return neg ? (unsigned __int128)0 - m : m;
}
constexpr ff::bigint_t<6> mag384(std::string_view s) {
  ff::bigint_t<6> v{};
  ff::parse_bigint(s[0] == '-' ? s.substr(1) : s, v);
  return v;
}
template <class F>
constexpr F fe_hex(std::string_view hex) {
  typename F::big_t v{};
  ff::parse_bigint(hex, v);
  return F::from_canonical(v);
}
template <int D>
constexpr lattice_t<D> lattice(const char* const (&b)[D][D], const char* const (&g)[D],
                               unsigned max_bits) {
  lattice_t<D> l{};
  for (int j = 0; j < D; ++j) {
    for (int i = 0; i < D; ++i) {
      l.b[j][i] = s128(b[j][i]);
      l.b_neg[j][i] = b[j][i][0] == '-';
    }
    l.g[j] = mag384(g[j]);
    l.g_neg[j] = g[j][0] == '-';
  }
  l.max_bits = max_bits;
  return l;
}
}  // namespace detail

// Per curve: φ on G1 (β, λ, its 2-dimensional lattice) and ψ on G2 (c_x, c_y, ω, the
// 4-dimensional lattice of λ_ψ = p mod r).
template <class C>
struct endomorphisms_t;

template <>
struct endomorphisms_t<curves::bn254> {
  using C = curves::bn254;
  static constexpr C::fq_t beta =
      detail::fe_hex<C::fq_t>("0x59e26bcea0d48bacd4f263f1acdb5c4f5763473177fffffe");
  static constexpr ff::bigint_t<4> lambda{
      {0x8b17ea66b99c90ddULL, 0x5bfc41088d8daaa7ULL, 0xb3c4d79d41a91758ULL, 0}};
  static constexpr const char* g1_basis[2][2] = {
      {"9931322734385697763", "-147946756881789319000765030803803410728"},
      {"147946756881789319010696353538189108491", "9931322734385697763"}};
  static constexpr const char* g1_g[2] = {
      "0x2d91d232ec7e0b3d76eb9c714773a6ef28fa7d32d2fafba64",
      "0x24ccef014a773d2cf7a7bd9d4391eb18da5e38cfb5eaa26d9869375169b9bdffa"};
  static constexpr lattice_t<2> g1_lattice = detail::lattice(g1_basis, g1_g, 126);

  // ξ = 9 + u (D-type twist): c_x = ξ^((p−1)/3), c_y = ξ^((p−1)/2).
  static constexpr C::fq2_t psi_x{
      detail::fe_hex<C::fq_t>("0x2fb347984f7911f74c0bec3cf559b143b78cc310c2c3330c99e39557176f553d"),
      detail::fe_hex<C::fq_t>(
          "0x16c9e55061ebae204ba4cc8bd75a079432ae2a1d0b7c9dce1665d51c640fcba2")};
  static constexpr C::fq2_t psi_y{
      detail::fe_hex<C::fq_t>("0x063cf305489af5dcdc5ec698b6e2f9b9dbaae0eda9c95998dc54014671a0135a"),
      detail::fe_hex<C::fq_t>(
          "0x07c03cbcac41049a0704b5a7ec796f2b21807dc98fa25bd282d37f632623b0e3")};
  static constexpr C::fq_t psi2_x =
      detail::fe_hex<C::fq_t>("0x30644e72e131a0295e6dd9e7e0acccb0c28f069fbb966e3de4bd44e5607cfd48");
  static constexpr ff::bigint_t<4> psi_lambda{{0xf83e9682e87cfd46ULL, 0x6f4d8248eeb859fbULL, 0, 0}};
  static constexpr const char* g2_basis[4][4] = {
      {"9931322734385697762", "4965661367192848882", "-4965661367192848881", "4965661367192848881"},
      {"-4965661367192848881", "4965661367192848881", "-4965661367192848881",
       "-9931322734385697763"},
      {"4965661367192848882", "4965661367192848881", "4965661367192848881", "-9931322734385697762"},
      {"9931322734385697763", "-4965661367192848881", "-4965661367192848882",
       "-4965661367192848881"}};
  static constexpr const char* g2_g[4] = {
      "0x9e80318ab0d92b9308e5da66fc7184ae46f4bda995d51bb17d1fff2e5ce18e26500bb9ebe34b87b6",
      "-0x9e80318ab0d92b9555b4ca7ba3e5577f2dff291532e42728353ccca0e558c73bc638c5d5d685c43f",
      "0x9e80318ab0d92b9555b4ca7ba3e55782071c4c43fac4daffa3f693b55c93362e55e0990306357ea3",
      "0x9e80318ab0d92b9555b4ca7ba3e5577dc170977dcef3cd3f23038c29bb8bb4ffd69f2f027ee767b0"};
  static constexpr lattice_t<4> g2_lattice = detail::lattice(g2_basis, g2_g, 64);
};

template <>
struct endomorphisms_t<curves::bls12_381> {
  using C = curves::bls12_381;
  static constexpr C::fq_t beta = detail::fe_hex<C::fq_t>(
      "0x1a0111ea397fe699ec02408663d4de85aa0d857d89759ad4897d29650fb85f9b409427eb4f49fffd8bfd000000"
      "00aaac");
  static constexpr ff::bigint_t<4> lambda{{0x00000000ffffffffULL, 0xac45a4010001a402ULL, 0, 0}};
  static constexpr const char* g1_basis[2][2] = {{"1", "228988810152649578064853576960394133504"},
                                                 {"228988810152649578064853576960394133503", "-1"}};
  static constexpr const char* g1_g[2] = {
      "0x2355094edfede377c38b5dcb707e08ed3",
      "0x17c6becf1e01faadd63f6e522f6cfee30389f49a7268bf7a3da5e4f8d896c72da"};
  static constexpr lattice_t<2> g1_lattice = detail::lattice(g1_basis, g1_g, 127);

  // ξ = 1 + u (M-type twist): c_x = 1/ξ^((p−1)/3), c_y = 1/ξ^((p−1)/2).
  static constexpr C::fq2_t psi_x{
      C::fq_t::zero(),
      detail::fe_hex<C::fq_t>("0x1a0111ea397fe699ec02408663d4de85aa0d857d89759ad4897d29650fb85f9b40"
                              "9427eb4f49fffd8bfd00000000aaad")};
  static constexpr C::fq2_t psi_y{
      detail::fe_hex<C::fq_t>("0x135203e60180a68ee2e9c448d77a2cd91c3dedd930b1cf60ef396489f61eb45e30"
                              "4466cf3e67fa0af1ee7b04121bdea2"),
      detail::fe_hex<C::fq_t>("0x06af0e0437ff400b6831e36d6bd17ffe48395dabc2d3435e77f76e17009241c5ee"
                              "67992f72ec05f4c81084fbede3cc09")};
  static constexpr C::fq_t psi2_x = beta;
  static constexpr ff::bigint_t<4> psi_lambda{
      {0x2dfefffeffff0001ULL, 0x53bda402fffe5bfeULL, 0x3339d80809a1d805ULL, 0x73eda753299d7d48ULL}};
  static constexpr const char* g2_basis[4][4] = {{"15132376222941642752", "1", "0", "0"},
                                                 {"0", "15132376222941642752", "1", "0"},
                                                 {"0", "0", "15132376222941642752", "1"},
                                                 {"1", "0", "-1", "-15132376222941642752"}};
  static constexpr const char* g2_g[4] = {
      "0x1381204ca56cd56b533cfcc0d3e76ec2892078a5e8573b29cf77cf78a2942e441bf413b309e17ac17",
      "-0x17c6becf1e01faadd63f6e522f6cfee2e034eb4b927adc027a1a872d6818be407",
      "0x1cfbe4f7bd0027db2b2ef66a238a975bfd467e85511a23797", "0x2355094edfede377c38b5dcb707e08ed3"};
  static constexpr lattice_t<4> g2_lattice = detail::lattice(g2_basis, g2_g, 63);
};

// φ(P) = (β·x, y) = [λ]P on G1.
template <class C>
constexpr typename C::g1_affine phi(const typename C::g1_affine& p) {
  if (p.is_infinity()) return p;
  return {p.x * endomorphisms_t<C>::beta, p.y};
}

// ψ^e(Q) = [λ_ψ^e]Q on G2, e = 0…3.
template <class C>
constexpr typename C::g2_affine psi_pow(const typename C::g2_affine& q, unsigned e) {
  using E = endomorphisms_t<C>;
  if (q.is_infinity() || e == 0) return q;
  typename C::g2_affine r = q;
  if (e >= 2) r = {{r.x.c0 * E::psi2_x, r.x.c1 * E::psi2_x}, -r.y};
  if (e % 2) r = {r.x.conjugate() * E::psi_x, r.y.conjugate() * E::psi_y};
  return r;
}

}  // namespace zk::ec
