#pragma once
// Short-Weierstrass points y² = x³ + b (a = 0), written once as templates over the coordinate
// field F (Fq for G1, Fq2 for G2), usable on host and device (ZK_HD, docs/design.md "Conventions").
//
// G supplies: field_t, and `static constexpr field_t b()` (the curve coefficient, Montgomery).
//
//   affine_t   (x, y); the point at infinity is (0, 0) — exactly the zkey encoding
//              (docs/formats.md §2.2), so zkey point sections are arrays of affine_t.
//   jacobian_t (X, Y, Z) with x = X/Z², y = Y/Z³; Z = 0 is infinity.
//   xyzz_t     (X, Y, ZZ, ZZZ) with x = X/ZZ, y = Y/ZZZ, ZZ³ = ZZZ²; ZZ = 0 is infinity.
//              The cheapest mixed addition (8M + 2S) and the MSM bucket type.
//
// Formulas from the Explicit-Formulas Database (hyperelliptic.org/EFD/g1p/auto-shortw-*.html);
// each names its EFD entry. M = multiplication, S = squaring in F.
#include <cstddef>

#include "zk/ff/zk_hd.hpp"

namespace zk::ec {

template <class G>
struct affine_t {
  using F = typename G::field_t;
  F x, y;

  ZK_HD static constexpr affine_t infinity() { return affine_t{F::zero(), F::zero()}; }
  ZK_HD constexpr bool is_infinity() const { return x.is_zero() && y.is_zero(); }
  ZK_HD constexpr affine_t operator-() const { return is_infinity() ? *this : affine_t{x, -y}; }
  ZK_HD constexpr bool is_on_curve() const {
    return is_infinity() || y.sqr() == x.sqr() * x + G::b();
  }
  ZK_HD friend constexpr bool operator==(const affine_t& a, const affine_t& b) {
    return a.x == b.x && a.y == b.y;
  }
  ZK_HD friend constexpr bool operator!=(const affine_t& a, const affine_t& b) { return !(a == b); }
};

template <class G>
struct jacobian_t {
  using F = typename G::field_t;
  using affine = affine_t<G>;
  F X, Y, Z;

  ZK_HD static constexpr jacobian_t infinity() { return jacobian_t{F::one(), F::one(), F::zero()}; }
  ZK_HD constexpr bool is_infinity() const { return Z.is_zero(); }
  ZK_HD static constexpr jacobian_t from_affine(const affine& a) {
    return a.is_infinity() ? infinity() : jacobian_t{a.x, a.y, F::one()};
  }
  ZK_HD constexpr jacobian_t operator-() const { return jacobian_t{X, -Y, Z}; }

  // dbl-2009-l: 2M + 5S
  ZK_HD constexpr jacobian_t dbl() const {
    if (is_infinity()) return *this;
    F A = X.sqr(), B = Y.sqr(), C = B.sqr();
    F D = ((X + B).sqr() - A - C).dbl();
    F E = A.times3(), Fv = E.sqr();
    F X3 = Fv - D.dbl();
    F Y3 = E * (D - X3) - C.times8();
    F Z3 = (Y * Z).dbl();
    return jacobian_t{X3, Y3, Z3};
  }

  // add-2007-bl: 11M + 5S
  ZK_HD constexpr jacobian_t operator+(const jacobian_t& q) const {
    if (is_infinity()) return q;
    if (q.is_infinity()) return *this;
    F Z1Z1 = Z.sqr(), Z2Z2 = q.Z.sqr();
    F U1 = X * Z2Z2, U2 = q.X * Z1Z1;
    F S1 = Y * q.Z * Z2Z2, S2 = q.Y * Z * Z1Z1;
    F H = U2 - U1, r = (S2 - S1).dbl();
    if (H.is_zero()) return r.is_zero() ? dbl() : infinity();
    F I = H.dbl().sqr(), J = H * I, V = U1 * I;
    F X3 = r.sqr() - J - V.dbl();
    F Y3 = r * (V - X3) - (S1 * J).dbl();
    F Z3 = ((Z + q.Z).sqr() - Z1Z1 - Z2Z2) * H;
    return jacobian_t{X3, Y3, Z3};
  }

  // madd-2007-bl: 7M + 4S
  ZK_HD constexpr jacobian_t add_mixed(const affine& q) const {
    if (q.is_infinity()) return *this;
    if (is_infinity()) return from_affine(q);
    F Z1Z1 = Z.sqr();
    F U2 = q.x * Z1Z1, S2 = q.y * Z * Z1Z1;
    F H = U2 - X, r = (S2 - Y).dbl();
    if (H.is_zero()) return r.is_zero() ? dbl() : infinity();
    F HH = H.sqr(), I = HH.times4(), J = H * I, V = X * I;
    F X3 = r.sqr() - J - V.dbl();
    F Y3 = r * (V - X3) - (Y * J).dbl();
    F Z3 = (Z + H).sqr() - Z1Z1 - HH;
    return jacobian_t{X3, Y3, Z3};
  }
  ZK_HD constexpr jacobian_t& operator+=(const jacobian_t& q) { return *this = *this + q; }
  ZK_HD constexpr jacobian_t operator-(const jacobian_t& q) const { return *this + (-q); }

  // Equality of the represented points: X1·Z2² = X2·Z1² and Y1·Z2³ = Y2·Z1³.
  ZK_HD friend constexpr bool operator==(const jacobian_t& a, const jacobian_t& b) {
    if (a.is_infinity() || b.is_infinity()) return a.is_infinity() && b.is_infinity();
    F z1z1 = a.Z.sqr(), z2z2 = b.Z.sqr();
    return a.X * z2z2 == b.X * z1z1 && a.Y * z2z2 * b.Z == b.Y * z1z1 * a.Z;
  }
  ZK_HD friend constexpr bool operator!=(const jacobian_t& a, const jacobian_t& b) {
    return !(a == b);
  }

  constexpr affine to_affine() const {
    if (is_infinity()) return affine::infinity();
    F zi = Z.inverse(), zi2 = zi.sqr();
    return affine{X * zi2, Y * zi2 * zi};
  }
  constexpr bool is_on_curve() const {
    if (is_infinity()) return true;
    F z2 = Z.sqr(), z6 = z2.sqr() * z2;
    return Y.sqr() == X.sqr() * X + G::b() * z6;
  }

  // Double-and-add over the bits of a little-endian integer (any width). Not constant time:
  // only for public scalars, tests and setup edges; MSMs use msm/, secret scalars ct_mul
  // (ct_mul.hpp).
  template <class Big>
  constexpr jacobian_t mul(const Big& k) const {
    jacobian_t r = infinity();
    for (int i = (int)k.num_bits() - 1; i >= 0; --i) {
      r = r.dbl();
      if (k.bit(i)) r += *this;
    }
    return r;
  }
};

template <class G>
struct xyzz_t {
  using F = typename G::field_t;
  using affine = affine_t<G>;
  F X, Y, ZZ, ZZZ;

  ZK_HD static constexpr xyzz_t infinity() {
    return xyzz_t{F::one(), F::one(), F::zero(), F::zero()};
  }
  ZK_HD constexpr bool is_infinity() const { return ZZ.is_zero(); }
  ZK_HD static constexpr xyzz_t from_affine(const affine& a) {
    return a.is_infinity() ? infinity() : xyzz_t{a.x, a.y, F::one(), F::one()};
  }

  // mdbl-2008-s-1 on an affine point: 2M + 3S (+ the 2M of U·V and S)
  ZK_HD static constexpr xyzz_t dbl_affine(const affine& p) {
    F U = p.y.dbl(), V = U.sqr(), W = U * V, S = p.x * V;
    F M = p.x.sqr().times3();
    F X3 = M.sqr() - S.dbl();
    F Y3 = M * (S - X3) - W * p.y;
    return xyzz_t{X3, Y3, V, W};
  }

  // dbl-2008-s-1: 6M + 3S
  ZK_HD constexpr xyzz_t dbl() const {
    if (is_infinity()) return *this;
    F U = Y.dbl(), V = U.sqr(), W = U * V, S = X * V;
    F M = X.sqr().times3();
    F X3 = M.sqr() - S.dbl();
    F Y3 = M * (S - X3) - W * Y;
    return xyzz_t{X3, Y3, V * ZZ, W * ZZZ};
  }

  // madd-2008-s: 8M + 2S
  ZK_HD constexpr xyzz_t add_mixed(const affine& q) const {
    if (q.is_infinity()) return *this;
    if (is_infinity()) return from_affine(q);
    F P = q.x * ZZ - X, R = q.y * ZZZ - Y;
    if (P.is_zero()) return R.is_zero() ? dbl_affine(q) : infinity();
    F PP = P.sqr(), PPP = P * PP, Q = X * PP;
    F X3 = R.sqr() - PPP - Q.dbl();
    F Y3 = R * (Q - X3) - Y * PPP;
    return xyzz_t{X3, Y3, ZZ * PP, ZZZ * PPP};
  }
  // madd-2008-s with −q (subtracting an affine point without negating it in memory)
  ZK_HD constexpr xyzz_t sub_mixed(const affine& q) const { return add_mixed(-q); }

  // add-2008-s: 12M + 2S
  ZK_HD constexpr xyzz_t operator+(const xyzz_t& q) const {
    if (q.is_infinity()) return *this;
    if (is_infinity()) return q;
    F U1 = X * q.ZZ, U2 = q.X * ZZ, S1 = Y * q.ZZZ, S2 = q.Y * ZZZ;
    F P = U2 - U1, R = S2 - S1;
    if (P.is_zero()) return R.is_zero() ? dbl() : infinity();
    F PP = P.sqr(), PPP = P * PP, Q = U1 * PP;
    F X3 = R.sqr() - PPP - Q.dbl();
    F Y3 = R * (Q - X3) - S1 * PPP;
    return xyzz_t{X3, Y3, ZZ * q.ZZ * PP, ZZZ * q.ZZZ * PPP};
  }
  ZK_HD constexpr xyzz_t& operator+=(const xyzz_t& q) { return *this = *this + q; }

  // As Jacobian with Z = ZZ·ZZZ: X_j = x·Z² = (X/ZZ)·ZZ²·ZZZ² = X·ZZ·ZZZ² and
  // Y_j = y·Z³ = (Y/ZZZ)·ZZ³·ZZZ³ = Y·ZZ³·ZZZ². No inversion.
  ZK_HD constexpr jacobian_t<G> to_jacobian() const {
    if (is_infinity()) return jacobian_t<G>::infinity();
    F Z = ZZ * ZZZ;
    F ZZZ2 = ZZZ.sqr();
    return jacobian_t<G>{X * ZZ * ZZZ2, Y * ZZ.sqr() * ZZ * ZZZ2, Z};
  }
  constexpr affine to_affine() const {
    if (is_infinity()) return affine::infinity();
    F inv = (ZZ * ZZZ).inverse();  // 1/ZZ = inv·ZZZ, 1/ZZZ = inv·ZZ
    return affine{X * inv * ZZZ, Y * inv * ZZ};
  }
};

// Converts n Jacobian points to affine with one field inversion (Montgomery's trick).
// scratch: n field elements.
template <class G>
void batch_to_affine(const jacobian_t<G>* in, affine_t<G>* out, typename G::field_t* scratch,
                     size_t n) {
  using F = typename G::field_t;
  F acc = F::one();
  for (size_t i = 0; i < n; ++i) {
    scratch[i] = acc;
    if (!in[i].is_infinity()) acc = acc * in[i].Z;
  }
  F inv = acc.inverse();
  for (size_t i = n; i-- > 0;) {
    if (in[i].is_infinity()) {
      out[i] = affine_t<G>::infinity();
      continue;
    }
    F zi = inv * scratch[i];
    inv = inv * in[i].Z;
    F zi2 = zi.sqr();
    out[i] = affine_t<G>{in[i].X * zi2, in[i].Y * zi2 * zi};
  }
}

}  // namespace zk::ec
