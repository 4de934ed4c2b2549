#pragma once
// proof.json, public.json and verification_key.json as snarkjs writes and reads them
// (docs/formats.md §3.7, §4). Curve-agnostic: every coordinate is a decimal string of the
// canonical value; conversion and range checks (< p) belong to the field layer.
//
// Writers reproduce the bytes of the snarkjs 0.7.6 CLI (bfj with {space: 1}, the same as
// JSON.stringify(x, null, 1) but for empty arrays): one-space indent, keys in snarkjs's order,
// no trailing newline. Readers check structure and that every number string
// matches /^[0-9]+$/ or /^0x[0-9a-fA-F]+$/ (ffjavascript unstringifyBigInts); errors name the
// file and the JSON path, e.g. "proof.json: pi_b[1][0]: expected a decimal string".

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace zk::formats {

// Projective coordinates as snarkjs writes them; affine points have z = "1" (G2: ["1","0"]).
// Any other z makes snarkjs read the point as Jacobian (§7.14).
struct g1_json_t {
  std::string x, y, z = "1";

  static g1_json_t affine(std::string x, std::string y) {
    return {std::move(x), std::move(y), "1"};
  }
  static g1_json_t infinity() { return {"0", "1", "0"}; }
};

// Fq2 coordinates as (c0, c1), the order of the zkey and of snarkjs JSON (§7.3).
struct g2_json_t {
  std::array<std::string, 2> x, y, z{"1", "0"};

  static g2_json_t affine(std::array<std::string, 2> x, std::array<std::string, 2> y) {
    return {std::move(x), std::move(y), {"1", "0"}};
  }
  static g2_json_t infinity() { return {{"0", "0"}, {"1", "0"}, {"0", "0"}}; }
};

struct proof_json_t {
  g1_json_t a;  // pi_a
  g2_json_t b;  // pi_b
  g1_json_t c;  // pi_c
  std::string protocol = "groth16";
  std::string curve;  // "bn128" / "bls12381" (curve_name()); rapidsnark omits it: "" when absent
};

// e(α₁, β₂) ∈ Fq12 as snarkjs nests it: [2][3][2] (Fq12 = Fq6[w], Fq6 = Fq2[v]).
using gt_json_t = std::array<std::array<std::array<std::string, 2>, 3>, 2>;

struct vkey_json_t {
  std::string protocol = "groth16";
  std::string curve;
  uint32_t n_public = 0;
  g1_json_t alpha1;           // vk_alpha_1
  g2_json_t beta2;            // vk_beta_2
  g2_json_t gamma2;           // vk_gamma_2
  g2_json_t delta2;           // vk_delta_2
  gt_json_t alphabeta;        // vk_alphabeta_12 (informational; empty strings when absent on read)
  std::vector<g1_json_t> ic;  // IC, nPublic+1 points
};

// ---- proof.json ----
std::string proof_to_json(const proof_json_t& proof);
// `name` labels errors (usually the file path).
proof_json_t parse_proof_json(std::string_view text, std::string_view name);
void write_proof_json(const std::string& path, const proof_json_t& proof);
proof_json_t read_proof_json(const std::string& path);

// ---- public.json: the public signals w[1..nPublic] as decimal strings ----
std::string public_to_json(const std::vector<std::string>& signals);
std::vector<std::string> parse_public_json(std::string_view text, std::string_view name);
void write_public_json(const std::string& path, const std::vector<std::string>& signals);
std::vector<std::string> read_public_json(const std::string& path);

// ---- verification_key.json ----
// The reader requires protocol "groth16", a curve name snarkjs accepts, and IC of nPublic+1.
std::string vkey_to_json(const vkey_json_t& vkey);
vkey_json_t parse_vkey_json(std::string_view text, std::string_view name);
void write_vkey_json(const std::string& path, const vkey_json_t& vkey);
vkey_json_t read_vkey_json(const std::string& path);

// ---- numbers ----
// /^[0-9]+$/ or /^0x[0-9a-fA-F]+$/, what snarkjs's unstringifyBigInts turns into a BigInt.
bool is_number_string(std::string_view s);
// Decimal rendering of an n-byte little-endian integer ("0" for zero).
std::string le_to_decimal(const uint8_t* le, size_t n);
// Parses decimal or 0x-hex into n little-endian bytes; false on garbage or if it does not fit.
bool decimal_to_le(std::string_view s, uint8_t* out, size_t n);

}  // namespace zk::formats
