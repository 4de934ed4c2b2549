#pragma once
// The curves zkfleet proves on, their snarkjs names, and identification from the primes stored in
// .r1cs/.wtns/.zkey headers (docs/formats.md §5; moduli limbs from §5.3).

#include <cctype>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace zk {

// The one identity of a curve. Its values are also the curve's code on the wire (the synth
// buffer header's `curve` field, common/buffer): never renumber them.
enum class curve_id_t : uint16_t { bn254 = 1, bls12_381 = 2 };

// The curve a wire code names, if any.
inline std::optional<curve_id_t> curve_from_code(uint16_t code) {
  if (code == uint16_t(curve_id_t::bn254)) return curve_id_t::bn254;
  if (code == uint16_t(curve_id_t::bls12_381)) return curve_id_t::bls12_381;
  return std::nullopt;
}

// The name snarkjs writes in "curve" fields (ffjavascript curve.name).
inline const char* curve_name(curve_id_t c) {
  switch (c) {
    case curve_id_t::bn254:
      return "bn128";
    case curve_id_t::bls12_381:
      return "bls12381";
  }
  return "unknown";
}

// The name zkfleet's own parameters use (porep-lite's `curve=`, the config): "bn254", "bls12-381".
inline const char* param_name(curve_id_t c) {
  return c == curve_id_t::bn254 ? "bn254" : "bls12-381";
}

// What snarkjs accepts (src/curves.js getCurveFromName): drop non-alphanumerics, upper-case, then
// BN128 / BN254 / ALTBN128 -> bn254, BLS12381 -> bls12_381.
inline std::optional<curve_id_t> parse_curve_name(std::string_view name) {
  std::string norm;
  for (char ch : name) {
    const auto u = static_cast<unsigned char>(ch);
    if (std::isalnum(u)) norm += static_cast<char>(std::toupper(u));
  }
  if (norm == "BN128" || norm == "BN254" || norm == "ALTBN128") return curve_id_t::bn254;
  if (norm == "BLS12381") return curve_id_t::bls12_381;
  return std::nullopt;
}

namespace detail {

// Moduli as 64-bit limbs, least significant first.
struct modulus_limbs_t {
  uint64_t limb[6];
  size_t n_limbs;
};
inline constexpr modulus_limbs_t bn254_q{
    {0x3c208c16d87cfd47, 0x97816a916871ca8d, 0xb85045b68181585d, 0x30644e72e131a029, 0, 0}, 4};
inline constexpr modulus_limbs_t bn254_r{
    {0x43e1f593f0000001, 0x2833e84879b97091, 0xb85045b68181585d, 0x30644e72e131a029, 0, 0}, 4};
inline constexpr modulus_limbs_t bls12_381_q{
    {0xb9feffffffffaaab, 0x1eabfffeb153ffff, 0x6730d2a0f6b0f624, 0x64774b84f38512bf,
     0x4b1ba7b6434bacd7, 0x1a0111ea397fe69a},
    6};
inline constexpr modulus_limbs_t bls12_381_r{
    {0xffffffff00000001, 0x53bda402fffe5bfe, 0x3339d80809a1d805, 0x73eda753299d7d48, 0, 0}, 4};

// The n-byte LE integer equals the modulus (and n is exactly its limb width in bytes).
inline bool equals(const modulus_limbs_t& m, const uint8_t* le, size_t n) {
  if (n != m.n_limbs * 8) return false;
  for (size_t i = 0; i < n; ++i) {
    if (le[i] != uint8_t(m.limb[i / 8] >> (8 * (i % 8)))) return false;
  }
  return true;
}

}  // namespace detail

// Curve whose base field Fq has this modulus (n8q-byte LE), if known.
inline std::optional<curve_id_t> curve_from_base_prime(const uint8_t* le, size_t n) {
  if (detail::equals(detail::bn254_q, le, n)) return curve_id_t::bn254;
  if (detail::equals(detail::bls12_381_q, le, n)) return curve_id_t::bls12_381;
  return std::nullopt;
}

// Curve whose scalar field Fr has this modulus (n8r-byte LE), if known. This is the "prime" of
// .r1cs and .wtns headers.
inline std::optional<curve_id_t> curve_from_scalar_prime(const uint8_t* le, size_t n) {
  if (detail::equals(detail::bn254_r, le, n)) return curve_id_t::bn254;
  if (detail::equals(detail::bls12_381_r, le, n)) return curve_id_t::bls12_381;
  return std::nullopt;
}

}  // namespace zk
