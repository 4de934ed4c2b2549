#include "zk/bellperson/groth16/points.hpp"

#include <cstring>

#include "zk/ec/endomorphism.hpp"

namespace zk::bellperson {

namespace {

using big6_t = fq_t::big_t;
using endo_t = ec::endomorphisms_t<curve_t>;

constexpr uint8_t flag_compressed = 0x80, flag_infinity = 0x40, flag_sign = 0x20;
constexpr uint64_t z_abs = 0xd201000000010000ULL;           // |z|, z < 0
constexpr fq_t beta_squared = endo_t::beta * endo_t::beta;  // σ's cube root of unity

// (p + 1) / 4 and (p − 3) / 4 (p ≡ 3 mod 4).
constexpr big6_t shifted_modulus(uint64_t add, bool subtract) {
  big6_t e = fq_t::modulus, k{};
  k.l[0] = add;
  if (subtract)
    ff::big_sub(e, e, k);
  else
    ff::big_add(e, e, k);
  for (int s = 0; s < 2; ++s)
    for (int i = 0; i < 6; ++i) e.l[i] = (e.l[i] >> 1) | (i + 1 < 6 ? e.l[i + 1] << 63 : 0);
  return e;
}
constexpr big6_t p_plus_1_over_4 = shifted_modulus(1, false);
constexpr big6_t p_minus_3_over_4 = shifted_modulus(3, true);
// (p − 1) / 2
constexpr big6_t p_minus_1_over_2 = [] {
  big6_t e = fq_t::modulus;
  e.l[0] -= 1;
  for (int i = 0; i < 6; ++i) e.l[i] = (e.l[i] >> 1) | (i + 1 < 6 ? e.l[i + 1] << 63 : 0);
  return e;
}();

// Everything of byte 0 below the flags and bytes 1 … n−1 are zero.
bool rest_is_zero(const uint8_t* in, size_t n) {
  uint8_t acc = in[0] & 0x1f;
  for (size_t i = 1; i < n; ++i) acc |= in[i];
  return acc == 0;
}

// 48 big-endian bytes with the three flag bits cleared.
bool fq_from_be_masked(const uint8_t* in, fq_t& out) {
  uint8_t b[48];
  std::memcpy(b, in, 48);
  b[0] &= 0x1f;
  return fq_from_be(b, out);
}

template <class G>
ec::jacobian_t<G> times_z_abs(const ec::jacobian_t<G>& p) {
  // |z| = 0xd201000000010000: 63 doublings, 5 additions (left to right from bit 62).
  ec::jacobian_t<G> r = p;
  for (int i = 62; i >= 0; --i) {
    r = r.dbl();
    if ((z_abs >> i) & 1) r += p;
  }
  return r;
}

bool g1_on_curve(const g1_affine_t& p) { return p.y.sqr() == p.x.sqr() * p.x + curve_t::g1::b(); }
bool g2_on_curve(const g2_affine_t& p) { return p.y.sqr() == p.x.sqr() * p.x + curve_t::g2::b(); }

template <class P>
decoded_t<P> fail(point_status_t s) {
  decoded_t<P> d{P::infinity(), s};
  return d;
}

}  // namespace

const char* point_status_text(point_status_t s) {
  switch (s) {
    case point_status_t::ok:
      return "ok";
    case point_status_t::bad_flags:
      return "invalid flag bits (compressed 0x80 / infinity 0x40 / sign 0x20)";
    case point_status_t::not_canonical:
      return "coordinate not below the field modulus p";
    case point_status_t::not_on_curve:
      return "point not on the curve";
    case point_status_t::not_in_subgroup:
      return "point not in the prime-order subgroup";
  }
  return "?";
}

bool fq_from_be(const uint8_t* in, fq_t& out) {
  big6_t v{};
  for (int i = 0; i < 48; ++i) v.l[(47 - i) / 8] |= uint64_t(in[i]) << (8 * ((47 - i) % 8));
  if (!ff::big_lt(v, fq_t::modulus)) return false;
  out = fq_t::from_canonical(v);
  return true;
}

void fq_to_be(const fq_t& x, uint8_t* out) {
  const big6_t v = x.to_canonical();
  for (int i = 0; i < 48; ++i) out[i] = uint8_t(v.l[(47 - i) / 8] >> (8 * ((47 - i) % 8)));
}

bool sqrt_fq(const fq_t& a, fq_t& root) {
  const fq_t r = a.pow(p_plus_1_over_4);
  if (r.sqr() != a) return false;
  root = r;
  return true;
}

// G. Adj and F. Rodríguez-Henríquez, "Square root computation over even extension fields",
// IEEE TC 2014, Algorithm 9 (q ≡ 3 mod 4, Fq2 = Fq[i]/(i² + 1)).
bool sqrt_fq2(const fq2_t& a, fq2_t& root) {
  if (a.is_zero()) {
    root = a;
    return true;
  }
  const fq2_t a1 = a.pow(p_minus_3_over_4);
  const fq2_t alpha = a1 * (a1 * a);
  const fq2_t a0 = alpha.conjugate() * alpha;  // α^q · α: the norm of α
  const fq2_t minus_one = -fq2_t::one();
  if (a0 == minus_one) return false;
  const fq2_t x0 = a1 * a;
  fq2_t x;
  if (alpha == minus_one) {
    x = fq2_t{-x0.c1, x0.c0};  // i · x0
  } else {
    const fq2_t b = (fq2_t::one() + alpha).pow(p_minus_1_over_2);
    x = b * x0;
  }
  if (x.sqr() != a) return false;
  root = x;
  return true;
}

bool lexicographically_largest(const fq_t& y) {
  return ff::big_lt(p_minus_1_over_2, y.to_canonical());
}
bool lexicographically_largest(const fq2_t& y) {
  if (!y.c1.is_zero()) return lexicographically_largest(y.c1);
  return lexicographically_largest(y.c0);
}

bool in_g1(const g1_affine_t& p) {
  if (p.is_infinity()) return true;
  // σ(P) = (β²·x, y) = [−z²]P  ⟺  [z²]P = (β²·x, −y) (blst POINTonE1_in_G1).
  const auto j = curve_t::g1_jacobian::from_affine(p);
  const auto z2p = times_z_abs(times_z_abs(j));
  const g1_affine_t want{p.x * beta_squared, -p.y};
  return z2p == curve_t::g1_jacobian::from_affine(want);
}

bool in_g2(const g2_affine_t& q) {
  if (q.is_infinity()) return true;
  // ψ(Q) = [z]Q = −[|z|]Q (blst POINTonE2_in_G2).
  const auto zq = times_z_abs(curve_t::g2_jacobian::from_affine(q));
  const g2_affine_t psi = ec::psi_pow<curve_t>(q, 1);
  return zq == curve_t::g2_jacobian::from_affine(-psi);
}

decoded_t<g1_affine_t> decode_g1_compressed(const uint8_t* in, point_check_t check) {
  using result_t = decoded_t<g1_affine_t>;
  if (!(in[0] & flag_compressed)) return fail<g1_affine_t>(point_status_t::bad_flags);
  if (in[0] & flag_infinity) {
    if ((in[0] & flag_sign) || !rest_is_zero(in, g1_compressed_size))
      return fail<g1_affine_t>(point_status_t::bad_flags);
    return result_t{g1_affine_t::infinity(), point_status_t::ok};
  }
  fq_t x;
  if (!fq_from_be_masked(in, x)) return fail<g1_affine_t>(point_status_t::not_canonical);
  fq_t y;
  if (!sqrt_fq(x.sqr() * x + curve_t::g1::b(), y))
    return fail<g1_affine_t>(point_status_t::not_on_curve);
  if (lexicographically_largest(y) != bool(in[0] & flag_sign)) y = -y;
  const g1_affine_t p{x, y};
  // (0, ±2) lies on the curve, not in G1; blst refuses it even unchecked.
  if (check != point_check_t::none && x.is_zero())
    return fail<g1_affine_t>(point_status_t::not_in_subgroup);
  if (check == point_check_t::subgroup && !in_g1(p))
    return fail<g1_affine_t>(point_status_t::not_in_subgroup);
  return result_t{p, point_status_t::ok};
}

decoded_t<g1_affine_t> decode_g1_uncompressed(const uint8_t* in, point_check_t check) {
  using result_t = decoded_t<g1_affine_t>;
  if (in[0] & (flag_compressed | flag_sign)) return fail<g1_affine_t>(point_status_t::bad_flags);
  if (in[0] & flag_infinity) {
    if (!rest_is_zero(in, g1_uncompressed_size))
      return fail<g1_affine_t>(point_status_t::bad_flags);
    return result_t{g1_affine_t::infinity(), point_status_t::ok};
  }
  g1_affine_t p;
  if (!fq_from_be_masked(in, p.x) || !fq_from_be(in + 48, p.y))
    return fail<g1_affine_t>(point_status_t::not_canonical);
  if (check != point_check_t::none) {
    if (!g1_on_curve(p)) return fail<g1_affine_t>(point_status_t::not_on_curve);
    // (0, ±2) lies on the curve, not in G1; blst refuses it even unchecked.
    if (p.x.is_zero()) return fail<g1_affine_t>(point_status_t::not_in_subgroup);
    if (check == point_check_t::subgroup && !in_g1(p))
      return fail<g1_affine_t>(point_status_t::not_in_subgroup);
  }
  return result_t{p, point_status_t::ok};
}

decoded_t<g2_affine_t> decode_g2_compressed(const uint8_t* in, point_check_t check) {
  using result_t = decoded_t<g2_affine_t>;
  if (!(in[0] & flag_compressed)) return fail<g2_affine_t>(point_status_t::bad_flags);
  if (in[0] & flag_infinity) {
    if ((in[0] & flag_sign) || !rest_is_zero(in, g2_compressed_size))
      return fail<g2_affine_t>(point_status_t::bad_flags);
    return result_t{g2_affine_t::infinity(), point_status_t::ok};
  }
  fq2_t x;
  if (!fq_from_be_masked(in, x.c1) || !fq_from_be(in + 48, x.c0))
    return fail<g2_affine_t>(point_status_t::not_canonical);
  fq2_t y;
  if (!sqrt_fq2(x.sqr() * x + curve_t::g2::b(), y))
    return fail<g2_affine_t>(point_status_t::not_on_curve);
  if (lexicographically_largest(y) != bool(in[0] & flag_sign)) y = -y;
  const g2_affine_t q{x, y};
  if (check == point_check_t::subgroup && !in_g2(q))
    return fail<g2_affine_t>(point_status_t::not_in_subgroup);
  return result_t{q, point_status_t::ok};
}

decoded_t<g2_affine_t> decode_g2_uncompressed(const uint8_t* in, point_check_t check) {
  using result_t = decoded_t<g2_affine_t>;
  if (in[0] & (flag_compressed | flag_sign)) return fail<g2_affine_t>(point_status_t::bad_flags);
  if (in[0] & flag_infinity) {
    if (!rest_is_zero(in, g2_uncompressed_size))
      return fail<g2_affine_t>(point_status_t::bad_flags);
    return result_t{g2_affine_t::infinity(), point_status_t::ok};
  }
  g2_affine_t q;
  if (!fq_from_be_masked(in, q.x.c1) || !fq_from_be(in + 48, q.x.c0) ||
      !fq_from_be(in + 96, q.y.c1) || !fq_from_be(in + 144, q.y.c0))
    return fail<g2_affine_t>(point_status_t::not_canonical);
  if (check != point_check_t::none) {
    if (q.is_infinity() || !g2_on_curve(q)) return fail<g2_affine_t>(point_status_t::not_on_curve);
    if (check == point_check_t::subgroup && !in_g2(q))
      return fail<g2_affine_t>(point_status_t::not_in_subgroup);
  }
  return result_t{q, point_status_t::ok};
}

void encode_g1_compressed(const g1_affine_t& p, uint8_t out[g1_compressed_size]) {
  if (p.is_infinity()) {
    std::memset(out, 0, g1_compressed_size);
    out[0] = flag_compressed | flag_infinity;
    return;
  }
  fq_to_be(p.x, out);
  out[0] |= flag_compressed | (lexicographically_largest(p.y) ? flag_sign : 0);
}

void encode_g1_uncompressed(const g1_affine_t& p, uint8_t out[g1_uncompressed_size]) {
  if (p.is_infinity()) {
    std::memset(out, 0, g1_uncompressed_size);
    out[0] = flag_infinity;
    return;
  }
  fq_to_be(p.x, out);
  fq_to_be(p.y, out + 48);
}

void encode_g2_compressed(const g2_affine_t& q, uint8_t out[g2_compressed_size]) {
  if (q.is_infinity()) {
    std::memset(out, 0, g2_compressed_size);
    out[0] = flag_compressed | flag_infinity;
    return;
  }
  fq_to_be(q.x.c1, out);
  fq_to_be(q.x.c0, out + 48);
  out[0] |= flag_compressed | (lexicographically_largest(q.y) ? flag_sign : 0);
}

void encode_g2_uncompressed(const g2_affine_t& q, uint8_t out[g2_uncompressed_size]) {
  if (q.is_infinity()) {
    std::memset(out, 0, g2_uncompressed_size);
    out[0] = flag_infinity;
    return;
  }
  fq_to_be(q.x.c1, out);
  fq_to_be(q.x.c0, out + 48);
  fq_to_be(q.y.c1, out + 96);
  fq_to_be(q.y.c0, out + 144);
}

}  // namespace zk::bellperson
