// Optimal ate pairing for BN254 and BLS12-381: Miller loop and final exponentiation
// (sources and conventions in pairing.hpp).
#include "zk/pairing/pairing.hpp"

namespace zk::pairing {

namespace {

// T ∈ E'(Fq2) in homogeneous projective coordinates: x = X/Z, y = Y/Z.
template <class C>
struct g2_proj_t {
  typename C::fq2_t X, Y, Z;
};

// A line through points of E' evaluated at ψ-images, up to a factor in a proper subfield of
// Fq12 (which the final exponentiation removes). With P = (xP, yP) ∈ E(Fq) it is
//   D-type:  a·yP + b·xP·w + c·w³        (slots 0, 3, 4: mul_by_034)
//   M-type:  c + b·xP·w² + a·yP·w³       (slots 0, 1, 4: mul_by_014; the D-type line times w³)
// Derivation (D-type; tangent or chord of slope λ'·w through ψ(T), with λ' the slope on E'):
//   l(P) = yP − λ'·xP·w + (λ'·xT − yT)·w³, scaled to clear denominators.
template <class C>
struct line_t {
  typename C::fq2_t a, b, c;
};

// T ← 2T and the tangent line at T. Aranha et al. eprint 2010/526 (after
// Costello–Lange–Naehrig eprint 2009/615), homogeneous coordinates, b' the twist coefficient:
//   A = XY/2, B = Y², C = Z², E = 3b'C, F = 3E, G = (B + F)/2, H = (Y + Z)² − (B + C) = 2YZ,
//   I = E − B, J = X²
//   X3 = A(B − F), Y3 = G² − 3E², Z3 = BH
//   line: a = −H, b = 3J, c = I
// (the tangent line above times −2YZ, using Y²Z = X³ + b'Z³ for the constant term).
template <class C>
inline void doubling_step(g2_proj_t<C>& t, line_t<C>& l) {
  using fq2_t = typename C::fq2_t;
  static constexpr fq2_t b3 = C::twist_b.times3();
  fq2_t A = halve2<typename C::tower_t>(t.X * t.Y);
  fq2_t B = t.Y.sqr();
  fq2_t Cc = t.Z.sqr();
  fq2_t E = b3 * Cc;
  fq2_t F = E.times3();
  fq2_t G = halve2<typename C::tower_t>(B + F);
  fq2_t H = (t.Y + t.Z).sqr() - (B + Cc);
  fq2_t I = E - B;
  fq2_t J = t.X.sqr();
  fq2_t EE = E.sqr();
  t.X = A * (B - F);
  t.Y = G.sqr() - EE.times3();
  t.Z = B * H;
  l.a = -H;
  l.b = J.times3();
  l.c = I;
}

// T ← T + Q (Q affine) and the chord through T and Q. Aranha et al. eprint 2010/526:
//   θ = Y − yQ·Z, λ = X − xQ·Z, C = θ², D = λ², E = λD, F = ZC, G = XD, H = E + F − 2G
//   X3 = λH, Y3 = θ(G − H) − YE, Z3 = ZE
//   line: a = λ, b = −θ, c = θ·xQ − λ·yQ
// (the chord of slope θ/λ times λ).
template <class C>
inline void addition_step(g2_proj_t<C>& t, const g2_coords_t<C>& q, line_t<C>& l) {
  using fq2_t = typename C::fq2_t;
  fq2_t theta = t.Y - q.y * t.Z;
  fq2_t lambda = t.X - q.x * t.Z;
  fq2_t Cc = theta.sqr();
  fq2_t D = lambda.sqr();
  fq2_t E = lambda * D;
  fq2_t F = t.Z * Cc;
  fq2_t G = t.X * D;
  fq2_t H = E + F - G.dbl();
  t.X = lambda * H;
  t.Y = theta * (G - H) - t.Y * E;
  t.Z = t.Z * E;
  l.a = lambda;
  l.b = -theta;
  l.c = theta * q.x - lambda * q.y;
}

template <class C>
inline void mul_by_line(typename C::fq12_t& f, const line_t<C>& l, const g1_coords_t<C>& p) {
  auto ay = l.a.mul_by_base(p.y);
  auto bx = l.b.mul_by_base(p.x);
  if constexpr (C::twist == twist_t::d_type) {
    f = f.mul_by_034(ay, bx, l.c);
  } else {
    f = f.mul_by_014(l.c, bx, ay);
  }
}

// The q-power Frobenius endomorphism π on E'(Fq2) for a D-type twist, through ψ:
//   π(x, y) = (conj(x)·w^(2(q−1)), conj(y)·w^(3(q−1))) = (conj(x)·g[0][2], conj(y)·g[0][3])
//   π²(x, y) = (x·g[1][2], y·g[1][3])
template <class C>
g2_coords_t<C> frobenius_g2(const g2_coords_t<C>& q) {
  const auto& g = frobenius_table<typename C::tower_t>.g;
  return {q.x.conjugate() * g[0][2], q.y.conjugate() * g[0][3]};
}
template <class C>
g2_coords_t<C> frobenius2_g2(const g2_coords_t<C>& q) {
  const auto& g = frobenius_table<typename C::tower_t>.g;
  return {q.x * g[1][2], q.y * g[1][3]};
}

// Hard part for BN curves, exponent 2x(6x² + 3x + 1)·(q⁴ − q² + 1)/r = λ0 + λ1q + λ2q² + λ3q³,
//   λ3 = 12x³ + 6x² + 4x − 1,  λ2 = 12x³ + 6x² + 6x,
//   λ1 = 12x³ + 6x² + 4x,      λ0 = 12x³ + 12x² + 6x + 1
// (Fuentes-Castañeda, Knapp, Rodríguez-Henríquez, SAC 2011): 3 exponentiations by x.
template <class C>
typename C::fq12_t hard_part_bn(const typename C::fq12_t& f) {
  auto t1 = cyclotomic_exp_by_x<C>(f);                  // f^x
  auto t2 = t1.cyclotomic_sqr();                        // f^2x
  auto t6 = t2.cyclotomic_sqr() * t2;                   // f^6x
  auto u = cyclotomic_exp_by_x<C>(t6);                  // f^6x²
  auto v = cyclotomic_exp_by_x<C>(u.cyclotomic_sqr());  // f^12x³
  auto l2 = v * u * t6;                                 // f^λ2
  auto l1 = l2 * t2.conjugate();                        // f^λ1
  auto l0 = l2 * u * f;                                 // f^λ0
  auto l3 = l1 * f.conjugate();                         // f^λ3
  return l0 * l1.template frobenius_map<1>() * l2.template frobenius_map<2>() *
         l3.template frobenius_map<3>();
}

// Hard part for BLS12 curves, exponent 3(q⁴ − q² + 1)/r = (x − 1)²(x + q)(x² + q² − 1) + 3
// (Hayashida, Hayasaka, Teruya, eprint 2020/875): 5 exponentiations by x.
template <class C>
typename C::fq12_t hard_part_bls12(const typename C::fq12_t& f) {
  auto t = cyclotomic_exp_by_x<C>(f) * f.conjugate();                  // f^(x−1)
  auto a = cyclotomic_exp_by_x<C>(t) * t.conjugate();                  // f^((x−1)²)
  auto b = cyclotomic_exp_by_x<C>(a) * a.template frobenius_map<1>();  // ·(x + q)
  auto c = cyclotomic_exp_by_x<C>(cyclotomic_exp_by_x<C>(b)) * b.template frobenius_map<2>() *
           b.conjugate();             // ·(x² + q² − 1)
  return c * f.cyclotomic_sqr() * f;  // ·f³
}

}  // namespace

template <class C>
typename C::fq12_t multi_miller_loop(const g1_coords_t<C>* p, const g2_coords_t<C>* q, size_t n) {
  using fq12_t = typename C::fq12_t;
  static constexpr signed_digits_t digits = signed_digits(C::ate_loop_abs, C::ate_loop_window);
  static_assert(C::ate_loop_window <= 2, "the Miller loop adds ±Q only");
  constexpr size_t max_pairs = 8;  // callers chunk (pairing.hpp); keeps T on the stack
  g2_proj_t<C> t[max_pairs];
  g2_coords_t<C> neg_q[max_pairs];
  if (n > max_pairs) {
    fq12_t f = multi_miller_loop<C>(p, q, max_pairs);
    return f * multi_miller_loop<C>(p + max_pairs, q + max_pairs, n - max_pairs);
  }
  for (size_t k = 0; k < n; ++k) {
    t[k] = {q[k].x, q[k].y, C::fq2_t::one()};
    neg_q[k] = {q[k].x, -q[k].y};
  }
  fq12_t f = fq12_t::one();
  line_t<C> l{};
  // The top digit is 1: T starts at Q, and f = 1 needs no squaring in the first step.
  for (int i = digits.len - 2; i >= 0; --i) {
    if (i != digits.len - 2) f = f.sqr();
    for (size_t k = 0; k < n; ++k) {
      doubling_step(t[k], l);
      mul_by_line(f, l, p[k]);
    }
    if (digits.d[i] != 0) {
      for (size_t k = 0; k < n; ++k) {
        addition_step(t[k], digits.d[i] > 0 ? q[k] : neg_q[k], l);
        mul_by_line(f, l, p[k]);
      }
    }
  }
  if constexpr (C::ate_loop_negative) f = f.conjugate();  // f_{−m} ~ 1/f_m = conj on GT
  if constexpr (C::family == family_t::bn) {
    // Two more lines, T = [6x+2]Q: the chord through T and Q1 = π(Q), then the chord through
    // T + Q1 and Q2 = −π²(Q) (Vercauteren 2008/096). The final T is not needed.
    for (size_t k = 0; k < n; ++k) {
      g2_coords_t<C> q1 = frobenius_g2<C>(q[k]);
      g2_coords_t<C> q2 = frobenius2_g2<C>(q[k]);
      q2.y = -q2.y;
      addition_step(t[k], q1, l);
      mul_by_line(f, l, p[k]);
      addition_step(t[k], q2, l);
      mul_by_line(f, l, p[k]);
    }
  }
  return f;
}

template <class C>
typename C::fq12_t cyclotomic_exp_by_x(const typename C::fq12_t& f) {
  using fq12_t = typename C::fq12_t;
  static constexpr signed_digits_t digits = signed_digits(C::x_abs, C::x_window);
  // pos[i] = f^(2i+1), neg[i] = f^−(2i+1) (conjugates: f is cyclotomic).
  constexpr int table = C::x_window <= 2 ? 1 : 1 << (C::x_window - 2);
  fq12_t pos[table], neg[table];
  pos[0] = f;
  if constexpr (table > 1) {
    fq12_t f2 = f.cyclotomic_sqr();
    for (int i = 1; i < table; ++i) pos[i] = pos[i - 1] * f2;
  }
  for (int i = 0; i < table; ++i) neg[i] = pos[i].conjugate();
  fq12_t r = pos[digits.d[digits.len - 1] / 2];  // the top digit is positive
  for (int i = digits.len - 2; i >= 0; --i) {
    r = r.cyclotomic_sqr();
    int d = digits.d[i];
    if (d > 0) r *= pos[d / 2];
    if (d < 0) r *= neg[-d / 2];
  }
  if constexpr (C::x_negative) r = r.conjugate();
  return r;
}

template <class C>
typename C::fq12_t final_exponentiation(const typename C::fq12_t& f) {
  // Easy part: f^(q⁶ − 1) = conj(f)·f⁻¹, then ·(q² + 1). The result lies in the cyclotomic
  // subgroup. f = 0 (only from degenerate inputs) stays 0, so a product check fails.
  auto t = f.conjugate() * f.inverse();
  t = t.template frobenius_map<2>() * t;
  if constexpr (C::family == family_t::bn) {
    return hard_part_bn<C>(t);
  } else {
    return hard_part_bls12<C>(t);
  }
}

template bn254_params_t::fq12_t multi_miller_loop<bn254_params_t>(
    const g1_coords_t<bn254_params_t>*, const g2_coords_t<bn254_params_t>*, size_t);
template bls12_381_params_t::fq12_t multi_miller_loop<bls12_381_params_t>(
    const g1_coords_t<bls12_381_params_t>*, const g2_coords_t<bls12_381_params_t>*, size_t);
template bn254_params_t::fq12_t final_exponentiation<bn254_params_t>(const bn254_params_t::fq12_t&);
template bls12_381_params_t::fq12_t final_exponentiation<bls12_381_params_t>(
    const bls12_381_params_t::fq12_t&);
template bn254_params_t::fq12_t cyclotomic_exp_by_x<bn254_params_t>(const bn254_params_t::fq12_t&);
template bls12_381_params_t::fq12_t cyclotomic_exp_by_x<bls12_381_params_t>(
    const bls12_381_params_t::fq12_t&);

}  // namespace zk::pairing
