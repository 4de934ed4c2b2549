#pragma once
// Constant-time scalar multiplication k·P for secret scalars (the prover's blinding r and s);
// jacobian_t::mul and fixed_base_t stay for public scalars.
//
// Method: fixed windows of W = 4 bits over all `bits` bits of k, most significant first
// (bits is public: the bit length of the scalar field's modulus, so leading zeros of k are
// processed like any other digit):
//   T[d] = d·P for d = 0..15;   acc = T[k_top];   acc = 16·acc + T[k_w] for each lower window w.
// Every window costs 4 doublings and one addition whatever its digit (digit 0 adds the
// identity), and T[k_w] is read by scanning all 16 entries with masked selects (select_entry),
// so the sequence of field operations and of memory addresses is the same for every k.
// 64 windows for 254/255-bit scalars: 252 doublings + 63 additions, + 14 operations for T.
//
// Point arithmetic: homogeneous projective coordinates (X : Y : Z), x = X/Z, y = Y/Z, identity
// (0 : 1 : 0), with the complete formulas for a = 0 of Renes, Costello and Batina, "Complete
// addition formulas for prime order elliptic curves", EUROCRYPT 2016 (eprint 2015/1060),
// Algorithm 7 (addition) and Algorithm 9 (doubling). They have no exceptional pair in E(K) when
// E(K) has no point of order 2, which holds for all four groups used here (E(Fq) and the twist
// E′(Fq2) of BN254 and of BLS12-381 all have odd order), so P + Q, P + P, P + (−P), P + O and
// O + O run the same instructions: no branch on the point either.
//
// Field arithmetic (ct_field_t): + and − are done here (adc/sbb chains, then a borrow mask
// selects) and not with fp_t's operators, because on x86-64 those (mod_add_4/6, mod_sub_4/6 in
// zk/ff/mont_mul_x86.hpp) pick the correcting addend by a borrow-dependent address (p or a
// zero array): no branch, but a secret-dependent memory access. Multiplication is fp_t's, which
// has no data-dependent branch: the mulx/adcx/adox CIOS ends in a cmovnc final subtraction
// (fixed addresses), the portable CIOS in reduce_once's mask select; mulx and imul have
// data-independent latency on current x86-64 cores. to_affine's inversion is Fermat's a^(p−2)
// (fp_t::inverse): only multiplications, and every branch and table index in it follows the
// public exponent.
//
// Limits: this is constant time at the C++ level (no branch and no memory index depends on k or
// on the points), not proven at the machine level. The masks pass through an empty asm
// (value_barrier) so the optimiser cannot know they are 0 or all-ones and turn a select back
// into a branch, but a compiler may still introduce branches elsewhere (e.g. in fp_t's portable
// reduce_once, which has no barrier). With GCC 12 at -O3 the only conditional jumps left in
// ct_mul, select_entry and the point formulas are loop counters (objdump); check again when the
// compiler or flags change. No protection against power/EM analysis, faults or speculative
// execution; the table and the intermediate points are not wiped from the stack. The points must
// lie on the curve: off it the completeness argument fails (a wrong result, not another timing).
#include <cstddef>
#include <cstdint>
#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include "zk/ec/point.hpp"
#include "zk/ff/fp.hpp"
#include "zk/ff/fp2.hpp"

namespace zk::ec {

namespace ct {
// The optimiser sees x as an unknown value: a mask stays a mask.
inline uint64_t value_barrier(uint64_t x) {
  __asm__("" : "+r"(x));
  return x;
}
// All ones when x ≠ 0, else 0: the top bit of x | −x is set exactly when x ≠ 0.
inline uint64_t mask_nonzero(uint64_t x) { return value_barrier(0 - ((x | (0 - x)) >> 63)); }
inline uint64_t mask_eq(uint64_t a, uint64_t b) { return ~mask_nonzero(a ^ b); }

// r = a + b + c, returns the carry; r = a − b − c, returns the borrow (adc/sbb chains on x86-64,
// where the 128-bit fallback compiles to much longer code).
inline unsigned add_carry(uint64_t a, uint64_t b, unsigned c, uint64_t& r) {
#if defined(__x86_64__)
  unsigned long long t;
  c = _addcarry_u64((unsigned char)c, a, b, &t);
  r = t;
  return c;
#else
  unsigned __int128 t = (unsigned __int128)a + b + c;
  r = (uint64_t)t;
  return unsigned(t >> 64);
#endif
}
inline unsigned sub_borrow(uint64_t a, uint64_t b, unsigned c, uint64_t& r) {
#if defined(__x86_64__)
  unsigned long long t;
  c = _subborrow_u64((unsigned char)c, a, b, &t);
  r = t;
  return c;
#else
  unsigned __int128 t = (unsigned __int128)a - b - c;
  r = (uint64_t)t;
  return unsigned(t >> 64) & 1;
#endif
}
}  // namespace ct

// F with branch-free, fixed-address arithmetic; specialised for fp_t and fp2_t.
template <class F>
struct ct_field_t;

template <class P>
struct ct_field_t<ff::fp_t<P>> {
  using base_t = ff::fp_t<P>;
  static constexpr int N = P::N;
  base_t v;

  static ct_field_t from(const base_t& x) { return {x}; }
  base_t value() const { return v; }
  static ct_field_t zero() { return {base_t::zero()}; }
  static ct_field_t one() { return {base_t::one()}; }

  // a + b < 2p < 2^(64N) (the spare top bit); subtract p and keep a + b when that borrows.
  friend ct_field_t operator+(const ct_field_t& a, const ct_field_t& b) {
    uint64_t s[N], t[N];
    unsigned c = 0;
    for (int i = 0; i < N; ++i) c = ct::add_carry(a.v.l[i], b.v.l[i], c, s[i]);
    c = 0;
    for (int i = 0; i < N; ++i) c = ct::sub_borrow(s[i], base_t::p_limb(i), c, t[i]);
    const uint64_t keep_s = ct::value_barrier(0 - uint64_t(c));
    ct_field_t r;
    for (int i = 0; i < N; ++i) r.v.l[i] = (s[i] & keep_s) | (t[i] & ~keep_s);
    return r;
  }
  // a − b, plus p masked in when it borrows.
  friend ct_field_t operator-(const ct_field_t& a, const ct_field_t& b) {
    uint64_t d[N];
    unsigned c = 0;
    for (int i = 0; i < N; ++i) c = ct::sub_borrow(a.v.l[i], b.v.l[i], c, d[i]);
    const uint64_t add_p = ct::value_barrier(0 - uint64_t(c));
    ct_field_t r;
    c = 0;
    for (int i = 0; i < N; ++i) c = ct::add_carry(d[i], base_t::p_limb(i) & add_p, c, r.v.l[i]);
    return r;
  }
  friend ct_field_t operator*(const ct_field_t& a, const ct_field_t& b) { return {a.v * b.v}; }
  ct_field_t operator-() const { return zero() - *this; }
  ct_field_t sqr() const { return {v * v}; }
  ct_field_t dbl() const { return *this + *this; }
  ct_field_t inverse() const { return {v.inverse()}; }

  uint64_t zero_mask() const {
    uint64_t acc = 0;
    for (int i = 0; i < N; ++i) acc |= v.l[i];
    return ~ct::mask_nonzero(acc);
  }
  // mask ? a : b, for mask 0 or all ones
  static ct_field_t select(uint64_t mask, const ct_field_t& a, const ct_field_t& b) {
    ct_field_t r;
    for (int i = 0; i < N; ++i) r.v.l[i] = (a.v.l[i] & mask) | (b.v.l[i] & ~mask);
    return r;
  }
};

// Fq2 = Fq[u]/(u² + 1) with fp2_t's formulas on ct_field_t<Fq>.
template <class Fq>
struct ct_field_t<ff::fp2_t<Fq>> {
  using base_t = ff::fp2_t<Fq>;
  using fq = ct_field_t<Fq>;
  fq c0, c1;

  static ct_field_t from(const base_t& x) { return {fq::from(x.c0), fq::from(x.c1)}; }
  base_t value() const { return base_t{c0.value(), c1.value()}; }
  static ct_field_t zero() { return {fq::zero(), fq::zero()}; }
  static ct_field_t one() { return {fq::one(), fq::zero()}; }

  friend ct_field_t operator+(const ct_field_t& a, const ct_field_t& b) {
    return {a.c0 + b.c0, a.c1 + b.c1};
  }
  friend ct_field_t operator-(const ct_field_t& a, const ct_field_t& b) {
    return {a.c0 - b.c0, a.c1 - b.c1};
  }
  // Karatsuba: (a0b0 − a1b1) + ((a0 + a1)(b0 + b1) − a0b0 − a1b1)u
  friend ct_field_t operator*(const ct_field_t& a, const ct_field_t& b) {
    fq v0 = a.c0 * b.c0, v1 = a.c1 * b.c1;
    fq m = (a.c0 + a.c1) * (b.c0 + b.c1);
    return {v0 - v1, m - v0 - v1};
  }
  ct_field_t operator-() const { return {-c0, -c1}; }
  // (a0 + a1)(a0 − a1) + 2a0a1·u
  ct_field_t sqr() const { return {(c0 + c1) * (c0 - c1), (c0 * c1).dbl()}; }
  ct_field_t dbl() const { return *this + *this; }
  // (c0 − c1u)/(c0² + c1²)
  ct_field_t inverse() const {
    fq n = (c0.sqr() + c1.sqr()).inverse();
    return {c0 * n, -(c1 * n)};
  }

  uint64_t zero_mask() const { return c0.zero_mask() & c1.zero_mask(); }
  static ct_field_t select(uint64_t mask, const ct_field_t& a, const ct_field_t& b) {
    return {fq::select(mask, a.c0, b.c0), fq::select(mask, a.c1, b.c1)};
  }
};

template <class G>
struct projective_t {
  using F = typename G::field_t;
  using fe = ct_field_t<F>;
  fe X, Y, Z;

  static projective_t identity() { return {fe::zero(), fe::one(), fe::zero()}; }
  // (x : y : 1); the zkey's (0, 0) becomes (0 : 1 : 0).
  static projective_t from_affine(const affine_t<G>& a) {
    const fe x = fe::from(a.x), y = fe::from(a.y);
    const uint64_t inf = x.zero_mask() & y.zero_mask();
    return {x, fe::select(inf, fe::one(), y), fe::select(inf, fe::zero(), fe::one())};
  }
  // Jacobian x = X/Z², y = Y/Z³ is (X·Z : Y : Z³); Z = 0 becomes (0 : 1 : 0).
  static projective_t from_jacobian(const jacobian_t<G>& p) {
    const fe x = fe::from(p.X), y = fe::from(p.Y), z = fe::from(p.Z);
    return {x * z, fe::select(z.zero_mask(), fe::one(), y), z.sqr() * z};
  }
  // (X·Z, Y·Z², Z) has X·Z/Z² = X/Z and Y·Z²/Z³ = Y/Z; the identity becomes (1, 1, 0).
  jacobian_t<G> to_jacobian() const {
    const uint64_t inf = Z.zero_mask();
    const fe x = fe::select(inf, fe::one(), X * Z), y = fe::select(inf, fe::one(), Y * Z.sqr());
    return jacobian_t<G>{x.value(), y.value(), Z.value()};
  }
  // (X/Z, Y/Z); the identity has X = 0 and 1/0 = 0 here, so it comes out as (0, 0).
  affine_t<G> to_affine() const {
    const fe zi = Z.inverse();
    return affine_t<G>{(X * zi).value(), (Y * zi).value()};
  }

  projective_t operator-() const { return {X, -Y, Z}; }

  // RCB Algorithm 7 (a = 0): 12M + 2m_3b + 19a, complete.
  projective_t operator+(const projective_t& q) const {
    const fe b3 = fe::from(b3_);
    fe t0 = X * q.X, t1 = Y * q.Y, t2 = Z * q.Z;
    fe t3 = (X + Y) * (q.X + q.Y) - (t0 + t1);  // X1Y2 + X2Y1
    fe t4 = (Y + Z) * (q.Y + q.Z) - (t1 + t2);  // Y1Z2 + Y2Z1
    fe y3 = (X + Z) * (q.X + q.Z) - (t0 + t2);  // X1Z2 + X2Z1
    t0 = t0.dbl() + t0;
    t2 = b3 * t2;
    fe z3 = t1 + t2;
    t1 = t1 - t2;
    y3 = b3 * y3;
    fe x3 = t3 * t1 - t4 * y3;
    y3 = t1 * z3 + y3 * t0;
    z3 = z3 * t4 + t0 * t3;
    return {x3, y3, z3};
  }
  projective_t operator-(const projective_t& q) const { return *this + (-q); }

  // RCB Algorithm 9 (a = 0): 6M + 2S + 1m_3b + 9a, exception-free (also for the identity).
  projective_t dbl() const {
    const fe b3 = fe::from(b3_);
    fe t0 = Y.sqr();
    fe z3 = t0.dbl().dbl().dbl();
    fe t1 = Y * Z;
    fe t2 = b3 * Z.sqr();
    fe x3 = t2 * z3;
    fe y3 = t0 + t2;
    z3 = t1 * z3;
    t0 = t0 - (t2.dbl() + t2);
    y3 = x3 + t0 * y3;
    x3 = (t0 * (X * Y)).dbl();
    return {x3, y3, z3};
  }

  static projective_t select(uint64_t mask, const projective_t& a, const projective_t& b) {
    return {fe::select(mask, a.X, b.X), fe::select(mask, a.Y, b.Y), fe::select(mask, a.Z, b.Z)};
  }

 private:
  static constexpr F b3_ = G::b().times3();  // 3b, the curve constant of both formulas
};

namespace detail {
// table[d] read by scanning every entry.
template <class G, unsigned T>
projective_t<G> select_entry(const projective_t<G> (&table)[T], uint64_t d) {
  projective_t<G> r = table[0];
  for (unsigned i = 1; i < T; ++i) r = projective_t<G>::select(ct::mask_eq(i, d), table[i], r);
  return r;
}
}  // namespace detail

// k·P in constant time for k < 2^bits (bits public, at most 64·N; higher bits are ignored).
template <class G, int N>
projective_t<G> ct_mul(const projective_t<G>& p, const ff::bigint_t<N>& k, unsigned bits = 64 * N) {
  constexpr unsigned W = 4, T = 1u << W;
  static_assert(64 % W == 0, "a window must not straddle two limbs");
  if (bits > 64 * N) bits = 64 * N;
  projective_t<G> table[T];
  table[0] = projective_t<G>::identity();
  table[1] = p;
  for (unsigned d = 2; d < T; ++d) table[d] = d % 2 == 0 ? table[d / 2].dbl() : table[d - 1] + p;
  // Window w is bits [W·w, W·w + W): limb and shift depend on w only.
  auto digit = [&](unsigned w) { return (k.l[W * w / 64] >> (W * w % 64)) & (T - 1); };
  const unsigned windows = (bits + W - 1) / W;
  if (windows == 0) return projective_t<G>::identity();
  // The top window's bits at and above `bits` are masked off (a public mask).
  const unsigned top_bits = bits - W * (windows - 1);
  projective_t<G> acc = detail::select_entry(table, digit(windows - 1) & ((1u << top_bits) - 1));
  for (unsigned w = windows - 1; w-- > 0;) {
    for (unsigned i = 0; i < W; ++i) acc = acc.dbl();
    acc = acc + detail::select_entry(table, digit(w));
  }
  return acc;
}

template <class G, int N>
jacobian_t<G> ct_mul(const jacobian_t<G>& p, const ff::bigint_t<N>& k, unsigned bits = 64 * N) {
  return ct_mul(projective_t<G>::from_jacobian(p), k, bits).to_jacobian();
}

}  // namespace zk::ec
