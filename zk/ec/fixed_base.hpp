#pragma once
// Fixed-base scalar multiplication k·G for one base point G and many scalars k (key generation:
// every point of a Groth16 key is [s]₁ or [s]₂ for a scalar s computed from the toxic waste).
//
// Signed windows of W bits: k < 2^bits is recoded as Σ_w d_w·2^{W·w} with
// d_w ∈ [−2^{W−1} + 1, 2^{W−1}] (windows = ⌈(bits + 1)/W⌉, the extra bit absorbing the last
// carry). The table holds, for every window w and every d = 1..2^{W−1}, the affine point
// d·2^{W·w}·G, so
//   k·G = Σ_w sign(d_w)·table[w][|d_w| − 1]
// costs at most `windows` mixed additions (madd-2007-bl, 7M + 4S) and no doubling; a negative
// digit is the affine negation (y → −y), free. W = 10 on a 255-bit field: 26 additions per
// scalar and a table of 26 × 512 points (832 KiB for BN254 G1, 2.5 MiB for BLS12-381 G2),
// built in milliseconds. The batched path touches one window's row (512 points) at a time, so
// the table size costs no cache misses: measured on BN254 G1, W = 10 is 25% faster than W = 8,
// and W = 11..13 gain nothing more.
//
// mul() is one multiplication with a Jacobian accumulator. mul_batch() runs many: chunks of
// scalars over the compute pool, each chunk advancing all its accumulators window by window in
// affine coordinates with one shared inversion per window (mul_affine_batch), which halves the
// field work of a Jacobian accumulator and keeps one window's table row hot in cache. Zero
// scalars give the point at infinity, (0, 0), as in snarkjs keys (docs/formats.md §2.2).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "zk/base/thread_pool.hpp"
#include "zk/ec/point.hpp"
#include "zk/ff/fp.hpp"

namespace zk::ec {

template <class G, unsigned W = 10>
class fixed_base_t {
  static_assert(W >= 2 && W <= 15, "window width out of range (digits are int16_t)");

 public:
  using affine = affine_t<G>;
  using jacobian = jacobian_t<G>;
  using field_t = typename G::field_t;
  static constexpr unsigned window_bits = W;
  static constexpr unsigned half = 1u << (W - 1);         // entries per window
  static constexpr unsigned max_windows = (256 + W) / W;  // scalars up to 256 bits

  // Tables for scalars below 2^scalar_bits (the bit length of the scalar field's modulus).
  fixed_base_t(const affine& base, unsigned scalar_bits)
      : windows_((scalar_bits + 1 + W - 1) / W), table_(size_t(windows_) * half) {
    if (windows_ > max_windows) throw std::invalid_argument("fixed_base_t: scalars too wide");
    // Window bases P_w = 2^{W·w}·G, then d·P_w = (d − 1)·P_w + P_w; one batch inversion at the end.
    std::vector<jacobian> jac(table_.size());
    jacobian pw = jacobian::from_affine(base);
    for (unsigned w = 0; w < windows_; ++w) {
      jacobian* row = jac.data() + size_t(w) * half;
      row[0] = pw;
      for (unsigned d = 1; d < half; ++d) row[d] = row[d - 1] + pw;
      pw = row[half - 1].dbl();  // 2^{W−1}·P_w doubled = 2^W·P_w = P_{w+1}
    }
    std::vector<field_t> scratch(table_.size());
    batch_to_affine(jac.data(), table_.data(), scratch.data(), jac.size());
  }

  unsigned windows() const { return windows_; }

  // k·G for a canonical little-endian integer k < 2^scalar_bits (any limb count).
  template <class Big>
  jacobian mul(const Big& k) const {
    int16_t digits[max_windows];
    recode(k, digits, 1);
    jacobian acc = jacobian::infinity();
    for (unsigned w = 0; w < windows_; ++w)
      if (digits[w] != 0) acc = acc.add_mixed(signed_entry(w, digits[w]));
    return acc;
  }

  // out[i] = k_i·G (affine) for Fr scalars k_i (Montgomery form; converted here). Multithreaded
  // over the compute pool in chunks of `batch` scalars (0: 256..2048, at least four chunks per
  // thread when n allows); see mul_affine_batch.
  template <class Fr>
  void mul_batch(const Fr* k, affine* out, size_t n, size_t batch = 0) const {
    if (n == 0) return;
    if (batch == 0) batch = std::clamp<size_t>(n / (4 * size_t(compute_threads())), 256, 2048);
    const size_t n_batches = (n + batch - 1) / batch;
    parallel_for(
        n_batches,
        [&](size_t b0, size_t b1) {
          batch_scratch_t s(batch, windows_);
          for (size_t b = b0; b < b1; ++b) {
            const size_t begin = b * batch;
            mul_affine_batch(k + begin, out + begin, std::min(batch, n - begin), s);
          }
        },
        n_batches);  // one pool task per chunk: threads take the next as they free up
  }

 private:
  struct batch_scratch_t {
    std::vector<int16_t> digits;  // windows × batch, window-major
    std::vector<field_t> den, tmp;
    batch_scratch_t(size_t batch, unsigned windows)
        : digits(batch * windows), den(batch), tmp(batch) {}
  };

  // Signed digits of k (see the top of this file), digits[w·stride]. The final carry is 0: the
  // top window has a spare bit.
  template <class Big>
  void recode(const Big& k, int16_t* digits, size_t stride) const {
    int carry = 0;
    for (unsigned w = 0; w < windows_; ++w) {
      int d = int(window(k, w)) + carry;
      carry = d > int(half);
      digits[w * stride] = int16_t(d - (carry << W));
    }
  }

  // acc[i] = k_i·G for m scalars, all in affine coordinates, window by window: every
  // accumulator adds its digit's table point in the same step, so the m slopes
  //   λ = (y₂ − y₁)/(x₂ − x₁),  x₃ = λ² − x₁ − x₂,  y₃ = λ(x₁ − x₃) − y₁
  // share one inversion (Montgomery's trick: 3M per element) — 5M + 1S per addition against
  // 7M + 4S for a mixed Jacobian one, and no conversion at the end. Degenerate steps are taken
  // apart: an accumulator at infinity takes the table point, x₁ = x₂ is a doubling
  // (λ = 3x₁²/2y₁) or gives infinity.
  template <class Fr>
  void mul_affine_batch(const Fr* k, affine* acc, size_t m, batch_scratch_t& s) const {
    for (size_t i = 0; i < m; ++i) {
      recode(k[i].to_canonical(), s.digits.data() + i, m);
      acc[i] = affine::infinity();
    }
    for (unsigned w = 0; w < windows_; ++w) {
      const int16_t* dg = s.digits.data() + size_t(w) * m;
      for (size_t i = 0; i < m; ++i) {
        s.den[i] = field_t::zero();  // zero: nothing for the batched step to do
        if (dg[i] == 0) continue;
        const affine q = signed_entry(w, dg[i]);
        affine& a = acc[i];
        if (a.is_infinity())
          a = q;
        else if (a.x != q.x)
          s.den[i] = q.x - a.x;
        else if (a.y == q.y)
          s.den[i] = a.y.dbl();
        else
          a = affine::infinity();
      }
      ff::batch_inverse(s.den.data(), s.tmp.data(), m);
      for (size_t i = 0; i < m; ++i) {
        if (s.den[i].is_zero()) continue;
        const affine q = signed_entry(w, dg[i]);
        affine& a = acc[i];
        const field_t lambda = a.x != q.x ? (q.y - a.y) * s.den[i] : a.x.sqr().times3() * s.den[i];
        const field_t x3 = lambda.sqr() - a.x - q.x;
        a.y = lambda * (a.x - x3) - a.y;
        a.x = x3;
      }
    }
  }

  // Bits [W·w, W·w + W) of k.
  template <class Big>
  static unsigned window(const Big& k, unsigned w) {
    const unsigned lo = W * w, limb = lo / 64, shift = lo % 64;
    if (limb >= unsigned(Big::limbs)) return 0;
    uint64_t v = k.l[limb] >> shift;
    if (shift + W > 64 && limb + 1 < unsigned(Big::limbs)) v |= k.l[limb + 1] << (64 - shift);
    return unsigned(v & ((uint64_t(1) << W) - 1));
  }
  const affine& entry(unsigned w, unsigned d) const { return table_[size_t(w) * half + d - 1]; }
  affine signed_entry(unsigned w, int d) const {
    return d > 0 ? entry(w, unsigned(d)) : -entry(w, unsigned(-d));
  }

  unsigned windows_;
  std::vector<affine> table_;  // table_[w·half + d − 1] = d·2^{W·w}·G
};

}  // namespace zk::ec
