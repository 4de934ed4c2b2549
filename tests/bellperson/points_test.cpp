// zk/bellperson/groth16/points: the ZCash encoding of BLS12-381 points (flags, canonical
// coordinates, decompression, subgroup checks). The encodings of real files — the polka-storage key
// and proof, the 124 official regression proofs — are checked byte for byte in verify_test.cpp and
// regression_test.cpp.
#include "zk/bellperson/groth16/points.hpp"

#include <doctest/doctest.h>

#include <cstring>

#include "tests/test_util.hpp"

using namespace zk::bellperson;
using zk::test::random_g1;
using zk::test::random_g2;

namespace {

const auto r = curve_t::fr_t::modulus;

bool slow_in_g1(const g1_affine_t& p) {
  return curve_t::g1_jacobian::from_affine(p).mul(r).is_infinity();
}
bool slow_in_g2(const g2_affine_t& q) {
  return curve_t::g2_jacobian::from_affine(q).mul(r).is_infinity();
}

// A point on the curve found from x = seed, seed + 1, … (almost never in the subgroup).
g1_affine_t curve_point_g1(uint64_t seed) {
  for (uint64_t x = seed;; ++x) {
    const fq_t fx = fq_t::from_u64(x);
    fq_t y;
    if (sqrt_fq(fx.sqr() * fx + curve_t::g1::b(), y)) return {fx, y};
  }
}
g2_affine_t curve_point_g2(uint64_t seed) {
  for (uint64_t x = seed;; ++x) {
    const fq2_t fx{fq_t::from_u64(x), fq_t::from_u64(x * 3 + 1)};
    fq2_t y;
    if (sqrt_fq2(fx.sqr() * fx + curve_t::g2::b(), y)) return {fx, y};
  }
}

}  // namespace

TEST_CASE("points: G1 round trips, both encodings, both signs, infinity") {
  for (int i = 0; i < 20; ++i) {
    g1_affine_t p = random_g1<curve_t>();
    if (i % 2) p = -p;
    uint8_t c[48], u[96];
    encode_g1_compressed(p, c);
    encode_g1_uncompressed(p, u);
    CHECK((c[0] & 0x80) != 0);
    CHECK((u[0] & 0xe0) == 0);
    CHECK(bool(c[0] & 0x20) == lexicographically_largest(p.y));
    const auto dc = decode_g1_compressed(c, point_check_t::subgroup);
    const auto du = decode_g1_uncompressed(u, point_check_t::subgroup);
    REQUIRE(dc.ok());
    REQUIRE(du.ok());
    CHECK(dc.point == p);
    CHECK(du.point == p);
  }
  uint8_t c[48], u[96];
  encode_g1_compressed(g1_affine_t::infinity(), c);
  encode_g1_uncompressed(g1_affine_t::infinity(), u);
  CHECK(c[0] == 0xc0);
  CHECK(u[0] == 0x40);
  CHECK(decode_g1_compressed(c, point_check_t::subgroup).point.is_infinity());
  CHECK(decode_g1_uncompressed(u, point_check_t::subgroup).point.is_infinity());
}

TEST_CASE("points: G2 round trips (x.c1 first), both signs, infinity") {
  for (int i = 0; i < 10; ++i) {
    g2_affine_t q = random_g2<curve_t>();
    if (i % 2) q = -q;
    uint8_t c[96], u[192];
    encode_g2_compressed(q, c);
    encode_g2_uncompressed(q, u);
    uint8_t c1[48];
    fq_to_be(q.x.c1, c1);
    c1[0] |= 0x80 | (lexicographically_largest(q.y) ? 0x20 : 0);
    CHECK(std::memcmp(c, c1, 48) == 0);  // the imaginary part comes first
    const auto dc = decode_g2_compressed(c, point_check_t::subgroup);
    const auto du = decode_g2_uncompressed(u, point_check_t::subgroup);
    REQUIRE(dc.ok());
    REQUIRE(du.ok());
    CHECK(dc.point == q);
    CHECK(du.point == q);
  }
  // The sign rule for Fq2: c1 decides, c0 only when c1 = 0.
  CHECK(lexicographically_largest(fq2_t{fq_t::zero() - fq_t::one(), fq_t::zero()}));
  CHECK(!lexicographically_largest(fq2_t{fq_t::one(), fq_t::zero()}));
  CHECK(lexicographically_largest(fq2_t{fq_t::one(), fq_t::zero() - fq_t::one()}));
  uint8_t c[96];
  encode_g2_compressed(g2_affine_t::infinity(), c);
  CHECK(c[0] == 0xc0);
  CHECK(decode_g2_compressed(c, point_check_t::subgroup).point.is_infinity());
}

TEST_CASE("points: the endomorphism subgroup checks agree with [r]P") {
  int outside = 0;
  for (uint64_t s = 1; s < 400 && outside < 12; s += 37) {
    const g1_affine_t p = curve_point_g1(s);
    const bool in = in_g1(p);
    CHECK(in == slow_in_g1(p));
    outside += !in;
  }
  CHECK(outside > 0);
  outside = 0;
  for (uint64_t s = 1; s < 200 && outside < 6; s += 29) {
    const g2_affine_t q = curve_point_g2(s);
    const bool in = in_g2(q);
    CHECK(in == slow_in_g2(q));
    outside += !in;
  }
  CHECK(outside > 0);
  for (int i = 0; i < 5; ++i) {
    CHECK(in_g1(random_g1<curve_t>()));
    CHECK(in_g2(random_g2<curve_t>()));
  }
  // (0, 2): on the curve, of order 3, not in G1.
  const g1_affine_t t{fq_t::zero(), fq_t::from_u64(2)};
  CHECK(t.is_on_curve());
  CHECK(!in_g1(t));
}

TEST_CASE("points: rejections") {
  const g1_affine_t p = random_g1<curve_t>();
  const g2_affine_t q = random_g2<curve_t>();
  uint8_t c[48], u[96], c2[96], u2[192];
  encode_g1_compressed(p, c);
  encode_g1_uncompressed(p, u);
  encode_g2_compressed(q, c2);
  encode_g2_uncompressed(q, u2);
  auto g1c = [](const uint8_t* b) {
    return decode_g1_compressed(b, point_check_t::subgroup).status;
  };
  auto g1u = [](const uint8_t* b) {
    return decode_g1_uncompressed(b, point_check_t::subgroup).status;
  };
  auto g2c = [](const uint8_t* b) {
    return decode_g2_compressed(b, point_check_t::subgroup).status;
  };
  auto g2u = [](const uint8_t* b) {
    return decode_g2_uncompressed(b, point_check_t::subgroup).status;
  };

  SUBCASE("flags") {
    uint8_t b[192];
    std::memcpy(b, c, 48);
    b[0] &= 0x7f;  // compressed point without its flag
    CHECK(g1c(b) == point_status_t::bad_flags);
    std::memcpy(b, u, 96);
    b[0] |= 0x80;  // an uncompressed point claiming compression
    CHECK(g1u(b) == point_status_t::bad_flags);
    std::memcpy(b, u, 96);
    b[0] |= 0x20;  // sign bit on an uncompressed point
    CHECK(g1u(b) == point_status_t::bad_flags);
    std::memcpy(b, u2, 192);
    b[0] |= 0x20;
    CHECK(g2u(b) == point_status_t::bad_flags);
    std::memcpy(b, c2, 96);
    b[0] &= 0x7f;
    CHECK(g2c(b) == point_status_t::bad_flags);
    // Infinity with anything else set.
    uint8_t inf[96] = {0xc0};
    CHECK(g1c(inf) == point_status_t::ok);
    inf[0] = 0xe0;  // infinity and a sign
    CHECK(g1c(inf) == point_status_t::bad_flags);
    inf[0] = 0xc0;
    inf[47] = 1;  // infinity with a coordinate
    CHECK(g1c(inf) == point_status_t::bad_flags);
    uint8_t uinf[192] = {0x40};
    CHECK(g1u(uinf) == point_status_t::ok);
    CHECK(g2u(uinf) == point_status_t::ok);
    uinf[95] = 1;
    CHECK(g1u(uinf) == point_status_t::bad_flags);
    uinf[95] = 0;
    uinf[191] = 1;
    CHECK(g2u(uinf) == point_status_t::bad_flags);
    uinf[0] = 0x41;  // a low bit of byte 0 with infinity
    uinf[191] = 0;
    CHECK(g1u(uinf) == point_status_t::bad_flags);
  }
  SUBCASE("coordinates not below p") {
    uint8_t b[192];
    std::memcpy(b, c, 48);
    std::memset(b, 0xff, 48);
    b[0] = 0x9f;  // x = 2^381 − 1 > p, compressed flag
    CHECK(g1c(b) == point_status_t::not_canonical);
    std::memcpy(b, u, 96);
    std::memset(b + 48, 0xff, 48);
    b[48] = 0x1f;  // y ≥ p
    CHECK(g1u(b) == point_status_t::not_canonical);
    // x = p exactly
    uint8_t pbe[48];
    for (int i = 0; i < 48; ++i)
      pbe[i] = uint8_t(fq_t::modulus.l[(47 - i) / 8] >> (8 * ((47 - i) % 8)));
    std::memcpy(b, pbe, 48);
    b[0] |= 0x80;
    CHECK(g1c(b) == point_status_t::not_canonical);
    std::memcpy(b, u2, 192);
    std::memcpy(b + 144, pbe, 48);  // y.c0 = p
    CHECK(g2u(b) == point_status_t::not_canonical);
  }
  SUBCASE("not on the curve") {
    uint8_t b[192];
    std::memcpy(b, u, 96);
    b[95] ^= 1;  // y changed
    CHECK(g1u(b) == point_status_t::not_on_curve);
    std::memcpy(b, u2, 192);
    b[191] ^= 1;
    CHECK(g2u(b) == point_status_t::not_on_curve);
    // A compressed x with no y: find one.
    for (uint64_t x = 1;; ++x) {
      const fq_t fx = fq_t::from_u64(x);
      fq_t y;
      if (sqrt_fq(fx.sqr() * fx + curve_t::g1::b(), y)) continue;
      uint8_t e[48];
      fq_to_be(fx, e);
      e[0] |= 0x80;
      CHECK(g1c(e) == point_status_t::not_on_curve);
      break;
    }
    // With point_check_t::none an uncompressed point is trusted.
    std::memcpy(b, u, 96);
    b[95] ^= 1;
    CHECK(decode_g1_uncompressed(b, point_check_t::none).ok());
    CHECK(decode_g1_uncompressed(b, point_check_t::on_curve).status ==
          point_status_t::not_on_curve);
  }
  SUBCASE("not in the subgroup") {
    g1_affine_t off;
    for (uint64_t s = 5;; s += 11) {
      off = curve_point_g1(s);
      if (!in_g1(off)) break;
    }
    encode_g1_compressed(off, c);
    encode_g1_uncompressed(off, u);
    CHECK(g1c(c) == point_status_t::not_in_subgroup);
    CHECK(g1u(u) == point_status_t::not_in_subgroup);
    CHECK(decode_g1_compressed(c, point_check_t::on_curve).ok());
    CHECK(decode_g1_uncompressed(u, point_check_t::on_curve).ok());
    g2_affine_t off2;
    for (uint64_t s = 5;; s += 11) {
      off2 = curve_point_g2(s);
      if (!in_g2(off2)) break;
    }
    encode_g2_compressed(off2, c2);
    encode_g2_uncompressed(off2, u2);
    CHECK(g2c(c2) == point_status_t::not_in_subgroup);
    CHECK(g2u(u2) == point_status_t::not_in_subgroup);
    // (0, ±2) even unchecked (as blst).
    const g1_affine_t t{fq_t::zero(), fq_t::from_u64(2)};
    encode_g1_uncompressed(t, u);
    CHECK(decode_g1_uncompressed(u, point_check_t::on_curve).status ==
          point_status_t::not_in_subgroup);
    encode_g1_compressed(t, c);
    CHECK(decode_g1_compressed(c, point_check_t::on_curve).status ==
          point_status_t::not_in_subgroup);
  }
}

TEST_CASE("points: square roots in Fq2") {
  for (int i = 0; i < 20; ++i) {
    const fq2_t a = zk::test::random_fq2<fq2_t>();
    fq2_t s;
    REQUIRE(sqrt_fq2(a.sqr(), s));
    CHECK(s.sqr() == a.sqr());
  }
  fq2_t s;
  CHECK(sqrt_fq2(fq2_t::zero(), s));
  CHECK(s.is_zero());
  // −1 = i²
  CHECK(sqrt_fq2(-fq2_t::one(), s));
  CHECK(s.sqr() == -fq2_t::one());
  // A non-square: x with norm a non-square in Fq.
  int non_squares = 0;
  for (uint64_t x = 1; x < 30; ++x) {
    const fq2_t a{fq_t::from_u64(x), fq_t::from_u64(1)};
    const fq_t norm = a.c0.sqr() + a.c1.sqr();
    const bool square = norm.legendre() == 1;
    CHECK(sqrt_fq2(a, s) == square);
    non_squares += !square;
  }
  CHECK(non_squares > 0);
}
