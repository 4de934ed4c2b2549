#pragma once
// BLS12-381 points in the ZCash serialisation that bellperson, blstrs and blst write
// (docs/filecoin.md §3; supranational/blst src/e1.c, src/e2.c; filecoin-project/blstrs
// src/g1.rs, src/g2.rs):
//
//   G1 uncompressed 96 bytes  x ‖ y, each 48 bytes big-endian
//   G1 compressed   48 bytes  x
//   G2 uncompressed 192 bytes x.c1 ‖ x.c0 ‖ y.c1 ‖ y.c0 (the imaginary part first)
//   G2 compressed   96 bytes  x.c1 ‖ x.c0
//
// The top three bits of byte 0 are flags: 0x80 compressed, 0x40 the point at infinity (then
// every other bit of the encoding is zero), 0x20 (compressed only) y is the lexicographically
// larger of ±y — for Fq2 the larger c1, or when c1 = 0 the larger c0. Coordinates must be below
// p. A compressed point is decompressed with a square root (p ≡ 3 mod 4).
//
// Subgroup membership uses the endomorphisms (zk/ec/endomorphism.hpp) as blst does (M. Scott,
// "A note on group membership tests for G1, G2 and GT on BLS pairing-friendly curves", eprint
// 2021/1130): P ∈ G1 ⟺ σ(P) = [−z²]P with σ(x, y) = (β²x, y); Q ∈ G2 ⟺ ψ(Q) = [z]Q; z =
// −0xd201000000010000. Each costs one or two multiplications by the 64-bit |z| instead of one
// by the 255-bit r.
#include <cstddef>
#include <cstdint>

#include "zk/ec/curves.hpp"

namespace zk::bellperson {

using curve_t = zk::curves::bls12_381;
using fr_t = curve_t::fr_t;

// blstrs Scalar::MULTIPLICATIVE_GENERATOR: the generator of bellperson's domain
// (ω = 7^((r−1)/2^log n); snarkjs's roots come from the nqr 5 instead) and the coset shift of its
// prover's h.
inline constexpr uint64_t multiplicative_generator = 7;
using fq_t = curve_t::fq_t;
using fq2_t = curve_t::fq2_t;
using g1_affine_t = curve_t::g1_affine;
using g2_affine_t = curve_t::g2_affine;

constexpr size_t g1_compressed_size = 48;
constexpr size_t g1_uncompressed_size = 96;
constexpr size_t g2_compressed_size = 96;
constexpr size_t g2_uncompressed_size = 192;

// How much a decoder checks beyond the encoding itself (flags, coordinates below p; a
// compressed x must have a square root for y, so it is always on the curve).
enum class point_check_t {
  none,      // trusted input: an uncompressed point is not checked to lie on the curve
  on_curve,  // on the curve (bellperson's "unchecked" reads do as much: blst checks it)
  subgroup,  // on the curve and in the prime-order subgroup (bellperson's checked reads)
};

enum class point_status_t {
  ok,
  bad_flags,        // a flag combination no encoder writes (or the wrong compression)
  not_canonical,    // a coordinate ≥ p
  not_on_curve,     // (x, y) not on the curve, or no y for a compressed x
  not_in_subgroup,  // on the curve, outside the prime-order subgroup
};
// "flag bits …", "coordinate not below the field modulus p", …
const char* point_status_text(point_status_t s);

template <class P>
struct decoded_t {
  P point;  // infinity is (0, 0) (ec::affine_t's convention); meaningful only when ok
  point_status_t status = point_status_t::ok;
  bool ok() const { return status == point_status_t::ok; }
};

decoded_t<g1_affine_t> decode_g1_compressed(const uint8_t* in, point_check_t check);
decoded_t<g1_affine_t> decode_g1_uncompressed(const uint8_t* in, point_check_t check);
decoded_t<g2_affine_t> decode_g2_compressed(const uint8_t* in, point_check_t check);
decoded_t<g2_affine_t> decode_g2_uncompressed(const uint8_t* in, point_check_t check);

void encode_g1_compressed(const g1_affine_t& p, uint8_t out[g1_compressed_size]);
void encode_g1_uncompressed(const g1_affine_t& p, uint8_t out[g1_uncompressed_size]);
void encode_g2_compressed(const g2_affine_t& p, uint8_t out[g2_compressed_size]);
void encode_g2_uncompressed(const g2_affine_t& p, uint8_t out[g2_uncompressed_size]);

// Prime-order subgroup membership of a point on the curve (infinity is a member).
bool in_g1(const g1_affine_t& p);
bool in_g2(const g2_affine_t& q);

// Square roots (false when there is none); the root returned is either one.
bool sqrt_fq(const fq_t& a, fq_t& root);
bool sqrt_fq2(const fq2_t& a, fq2_t& root);
// y > p − y (lexicographically largest, the 0x20 flag); for Fq2: c1 decides unless it is 0.
bool lexicographically_largest(const fq_t& y);
bool lexicographically_largest(const fq2_t& y);

// An Fq element from 48 big-endian bytes; false when ≥ p.
bool fq_from_be(const uint8_t* in, fq_t& out);
void fq_to_be(const fq_t& x, uint8_t* out);

}  // namespace zk::bellperson
