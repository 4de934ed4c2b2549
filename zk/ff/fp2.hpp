#pragma once
// Quadratic extension Fq2 = Fq[u]/(u² + 1), the tower base of both BN254 and BLS12-381.
// An element is c0 + c1·u; c0 is stored (and serialised, docs/formats.md §2.2) first.
#include "zk/ff/fp.hpp"

namespace zk::ff {

template <class Fq>
struct fp2_t {
  using base_t = Fq;
  Fq c0, c1;

  ZK_HD static constexpr fp2_t zero() { return fp2_t{Fq::zero(), Fq::zero()}; }
  ZK_HD static constexpr fp2_t one() { return fp2_t{Fq::one(), Fq::zero()}; }
  ZK_HD constexpr bool is_zero() const { return c0.is_zero() && c1.is_zero(); }
  ZK_HD constexpr bool is_one() const { return c0.is_one() && c1.is_zero(); }
  ZK_HD friend constexpr bool operator==(const fp2_t& a, const fp2_t& b) {
    return a.c0 == b.c0 && a.c1 == b.c1;
  }
  ZK_HD friend constexpr bool operator!=(const fp2_t& a, const fp2_t& b) { return !(a == b); }

  ZK_HD friend constexpr fp2_t operator+(const fp2_t& a, const fp2_t& b) {
    return {a.c0 + b.c0, a.c1 + b.c1};
  }
  ZK_HD friend constexpr fp2_t operator-(const fp2_t& a, const fp2_t& b) {
    return {a.c0 - b.c0, a.c1 - b.c1};
  }
  ZK_HD constexpr fp2_t operator-() const { return {-c0, -c1}; }
  ZK_HD constexpr fp2_t dbl() const { return {c0.dbl(), c1.dbl()}; }
  ZK_HD constexpr fp2_t times3() const { return {c0.times3(), c1.times3()}; }
  ZK_HD constexpr fp2_t times4() const { return {c0.times4(), c1.times4()}; }
  ZK_HD constexpr fp2_t times8() const { return {c0.times8(), c1.times8()}; }
  ZK_HD constexpr fp2_t& operator+=(const fp2_t& b) { return *this = *this + b; }
  ZK_HD constexpr fp2_t& operator-=(const fp2_t& b) { return *this = *this - b; }

  // Karatsuba: (a0 + a1u)(b0 + b1u) = (a0b0 − a1b1) + ((a0 + a1)(b0 + b1) − a0b0 − a1b1)u
  ZK_HD friend constexpr fp2_t operator*(const fp2_t& a, const fp2_t& b) {
    Fq v0 = a.c0 * b.c0, v1 = a.c1 * b.c1;
    Fq m = (a.c0 + a.c1) * (b.c0 + b.c1);
    return {v0 - v1, m - v0 - v1};
  }
  ZK_HD constexpr fp2_t& operator*=(const fp2_t& b) { return *this = *this * b; }
  // Complex squaring: (a0 + a1u)² = (a0 + a1)(a0 − a1) + 2a0a1·u
  ZK_HD constexpr fp2_t sqr() const {
    Fq t = c0 * c1;
    return {(c0 + c1) * (c0 - c1), t.dbl()};
  }
  ZK_HD constexpr fp2_t mul_by_base(const Fq& s) const { return {c0 * s, c1 * s}; }
  ZK_HD constexpr fp2_t conjugate() const { return {c0, -c1}; }
  // Norm c0² + c1² lies in Fq; (c0 − c1u)/norm is the inverse.
  constexpr fp2_t inverse() const {
    Fq n = (c0.sqr() + c1.sqr()).inverse();
    return {c0 * n, -(c1 * n)};
  }
  template <int M>
  constexpr fp2_t pow(const bigint_t<M>& e) const {
    fp2_t r = one();
    for (int i = (int)e.num_bits() - 1; i >= 0; --i) {
      r = r.sqr();
      if (e.bit(i)) r = r * *this;
    }
    return r;
  }
};

}  // namespace zk::ff
