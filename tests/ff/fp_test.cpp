// Field arithmetic against GMP on random inputs, for the four fields of the two curves.
#include <doctest/doctest.h>
#include <gmp.h>

#include "tests/test_util.hpp"
#include "zk/ff/bls12_381.hpp"
#include "zk/ff/bn254.hpp"

using namespace zk;

namespace {

template <int N>
void to_mpz(mpz_t out, const ff::bigint_t<N>& a) {
  mpz_import(out, N, -1, sizeof(uint64_t), 0, 0, a.l);
}
template <class F>
bool equals_mpz(const F& x, const mpz_t v) {
  mpz_t t;
  mpz_init(t);
  to_mpz(t, x.to_canonical());
  bool ok = mpz_cmp(t, v) == 0;
  mpz_clear(t);
  return ok;
}

template <class F>
void check_field_against_gmp(int iterations) {
  mpz_t p, a, b, r;
  mpz_inits(p, a, b, r, nullptr);
  to_mpz(p, F::modulus);
  for (int it = 0; it < iterations; ++it) {
    F x = test::random_field<F>(), y = test::random_field<F>();
    if (it == 0) x = F::zero();
    if (it == 1) y = F::one();
    if (it == 2) x = -F::one();  // p − 1: the largest element
    to_mpz(a, x.to_canonical());
    to_mpz(b, y.to_canonical());
    mpz_add(r, a, b), mpz_mod(r, r, p);
    REQUIRE(equals_mpz(x + y, r));
    mpz_sub(r, a, b), mpz_mod(r, r, p);
    REQUIRE(equals_mpz(x - y, r));
    mpz_mul(r, a, b), mpz_mod(r, r, p);
    REQUIRE(equals_mpz(x * y, r));
    REQUIRE(x * y == F::mul_portable(x, y));  // the x86 asm path against the portable CIOS
    mpz_mul(r, a, a), mpz_mod(r, r, p);
    REQUIRE(equals_mpz(x.sqr(), r));
    if (!x.is_zero() && it % 16 == 0) {
      mpz_invert(r, a, p);
      REQUIRE(equals_mpz(x.inverse(), r));
      REQUIRE((x * x.inverse()).is_one());
    }
    // decimal round trip
    F z;
    REQUIRE(F::from_string(x.to_string(), z));
    REQUIRE(z == x);
  }
  mpz_clears(p, a, b, r, nullptr);
}

}  // namespace

TEST_CASE_TEMPLATE("field arithmetic matches GMP", F, bn254::fr_t, bn254::fq_t, bls12_381::fr_t,
                   bls12_381::fq_t) {
  check_field_against_gmp<F>(2000);
}

TEST_CASE("Montgomery constants match docs/formats.md §5.3") {
  CHECK(bn254::fr_t::r1.l[0] == 0xac96341c4ffffffbULL);
  CHECK(bn254::fr_t::r2.l[3] == 0x0216d0b17f4e44a5ULL);
  CHECK(bn254::fr_t::inv == 0xc2e1f593efffffffULL);
  CHECK(bn254::fq_t::r1.l[0] == 0xd35d438dc58f0d9dULL);
  CHECK(bn254::fq_t::r2.l[0] == 0xf32cfc5b538afa89ULL);
  CHECK(bn254::fq_t::inv == 0x87d20782e4866389ULL);
  CHECK(bls12_381::fr_t::r1.l[1] == 0x5884b7fa00034802ULL);
  CHECK(bls12_381::fr_t::inv == 0xfffffffeffffffffULL);
  CHECK(bls12_381::fq_t::r1.l[5] == 0x15f65ec3fa80e493ULL);
  CHECK(bls12_381::fq_t::r2.l[5] == 0x11988fe592cae3aaULL);
  CHECK(bls12_381::fq_t::inv == 0x89f3fffcfffcfffdULL);
}

TEST_CASE_TEMPLATE("string parsing rejects out-of-range and garbage", F, bn254::fr_t,
                   bls12_381::fq_t) {
  F x;
  CHECK_FALSE(F::from_string(ff::to_decimal(F::modulus), x));
  CHECK_FALSE(F::from_string("12a", x));
  CHECK_FALSE(F::from_string("", x));
  CHECK(F::from_string("0x10", x));
  CHECK(x == F::from_u64(16));
}

TEST_CASE_TEMPLATE("square roots", F, bn254::fq_t, bls12_381::fq_t, bls12_381::fr_t) {
  for (int i = 0; i < 20; ++i) {
    F x = test::random_field<F>(), s;
    REQUIRE(x.sqr().sqrt(s));
    CHECK(s.sqr() == x.sqr());
  }
}

TEST_CASE("batch inversion") {
  std::vector<bn254::fq_t> v(17), scratch(17), orig;
  for (auto& x : v) x = test::random_field<bn254::fq_t>();
  v[5] = bn254::fq_t::zero();
  orig = v;
  ff::batch_inverse(v.data(), scratch.data(), v.size());
  for (size_t i = 0; i < v.size(); ++i) {
    if (i == 5)
      CHECK(v[i].is_zero());
    else
      CHECK((v[i] * orig[i]).is_one());
  }
}
