#pragma once
// Batch-affine bucket accumulation with the field arithmetic on AVX-512 IFMA (zk/ff/ifma.hpp):
// the same additions as msm.cpp's batch_affine_buckets_t —
//   λ = (y2 − y1)/(x2 − x1),  x3 = λ² − x1 − x2,  y3 = λ(x1 − x3) − y1,
// the denominators of a batch inverted together by Montgomery's trick — eight additions at a
// time, one per vector lane. Pending additions form rows of eight (row r holds additions
// 8r … 8r + 7); each lane keeps its own running product of denominators, and the eight lane
// products are inverted together in scalar code (one inversion per batch).
//
// Memory layout. A bucket is a record of 2·D components (x, y; D = 1 for Fq, 2 for Fq2), each L
// words in the 52-bit radix, so eight buckets' component is eight masked vector loads and one
// 8×8 transpose (24 permutations) away from limb-major form; results go back the same way.
// The bases are read in their zkey form (64-bit Montgomery limbs) and regrouped into 52-bit
// limbs with vector shifts. Scalar code only queues (bucket, point, sign) triples.
//
// Exceptional additions never take the vector formulas: a lane whose x equals its bucket's (a
// doubling, or P + (−P)) is left out of the products and added afterwards into the bucket's
// XYZZ overflow, as is the rare point left over when the conflict queue is full (a point whose
// bucket is already in the batch waits in that queue for the next batch). Overflows are few, so
// they are kept as a list (summed per bucket at the end), not as an array beside the buckets.
//
// reduce() computes Σ_k (k+1)·bucket_k with the same batched additions instead of a chain of
// 2·nb XYZZ additions: the buckets are cut into S segments of Ls = nb/S, and the S segments'
// running sums R_s and weighted sums T_s advance together, one bucket per segment per batch;
// then Σ_k (k+1)·B_k = Σ_s T_s + Ls·Σ_s s·R_s (XYZZ, 3·S additions and log2(Ls) doublings).
// Host-only, and only used after ff::ifma::available().
#include "zk/ff/ifma.hpp"

#ifdef ZK_FF_IFMA
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <unordered_map>
#include <utility>
#include <vector>

#include "zk/ec/point.hpp"

namespace zk::msm {

namespace ifma_detail {

template <class F>
struct coord_traits_t {  // Fq
  using base_t = F;
  static constexpr int degree = 1;
  static const uint64_t* limbs(const F& x, int) { return x.l; }
  static F make(const base_t* c) { return c[0]; }
};
template <class Fq>
struct coord_traits_t<ff::fp2_t<Fq>> {  // Fq2 = c0 + c1·u
  using base_t = Fq;
  static constexpr int degree = 2;
  static const uint64_t* limbs(const ff::fp2_t<Fq>& x, int d) { return d ? x.c1.l : x.c0.l; }
  static ff::fp2_t<Fq> make(const base_t* c) { return ff::fp2_t<Fq>{c[0], c[1]}; }
};

// 64-byte aligned, zeroed words (the vector loads and stores of rows are aligned).
struct aligned_words_t {
  struct free_t {
    void operator()(uint64_t* p) const { ::operator delete[](p, std::align_val_t(64)); }
  };
  std::unique_ptr<uint64_t[], free_t> p;
  void resize(size_t n) {
    p.reset(static_cast<uint64_t*>(::operator new[](n * sizeof(uint64_t), std::align_val_t(64))));
    std::memset(p.get(), 0, n * sizeof(uint64_t));
  }
  uint64_t* get() const { return p.get(); }
};

// In-place transpose of an 8×8 matrix of 64-bit words held as eight rows: three rounds of
// unpack / 128-bit-block shuffles (the all-lanes maskz forms: the plain intrinsics trip GCC 12's
// -Wmaybe-uninitialized, bug 105593; the instructions are the same).
ZK_IFMA_INLINE void transpose8(__m512i v[8]) {
  __m512i a[8], b[8];
  for (int i = 0; i < 4; ++i) {
    a[2 * i] = _mm512_maskz_unpacklo_epi64(0xFF, v[2 * i], v[2 * i + 1]);
    a[2 * i + 1] = _mm512_maskz_unpackhi_epi64(0xFF, v[2 * i], v[2 * i + 1]);
  }
  // b0: columns 0,4 of rows 0-3; b1: 2,6; b2: 1,5; b3: 3,7; b4..b7 the same for rows 4-7.
  for (int h = 0; h < 2; ++h) {
    b[4 * h + 0] = _mm512_maskz_shuffle_i64x2(0xFF, a[4 * h + 0], a[4 * h + 2], 0x88);
    b[4 * h + 1] = _mm512_maskz_shuffle_i64x2(0xFF, a[4 * h + 0], a[4 * h + 2], 0xDD);
    b[4 * h + 2] = _mm512_maskz_shuffle_i64x2(0xFF, a[4 * h + 1], a[4 * h + 3], 0x88);
    b[4 * h + 3] = _mm512_maskz_shuffle_i64x2(0xFF, a[4 * h + 1], a[4 * h + 3], 0xDD);
  }
  v[0] = _mm512_maskz_shuffle_i64x2(0xFF, b[0], b[4], 0x88);
  v[4] = _mm512_maskz_shuffle_i64x2(0xFF, b[0], b[4], 0xDD);
  v[2] = _mm512_maskz_shuffle_i64x2(0xFF, b[1], b[5], 0x88);
  v[6] = _mm512_maskz_shuffle_i64x2(0xFF, b[1], b[5], 0xDD);
  v[1] = _mm512_maskz_shuffle_i64x2(0xFF, b[2], b[6], 0x88);
  v[5] = _mm512_maskz_shuffle_i64x2(0xFF, b[2], b[6], 0xDD);
  v[3] = _mm512_maskz_shuffle_i64x2(0xFF, b[3], b[7], 0x88);
  v[7] = _mm512_maskz_shuffle_i64x2(0xFF, b[3], b[7], 0xDD);
}

}  // namespace ifma_detail

template <class G>
class ifma_buckets_t {
 public:
  using aff = ec::affine_t<G>;
  using xyzz = ec::xyzz_t<G>;
  using F = typename G::field_t;
  using traits_t = ifma_detail::coord_traits_t<F>;
  using B = typename traits_t::base_t;
  using VF = ff::ifma::vfield_t<B>;
  using R52 = typename VF::R;
  using vfe = typename VF::vfe;
  static constexpr int D = traits_t::degree;
  static constexpr int L = VF::L;              // 52-bit limbs of an Fq element
  static constexpr int N = B::N;               // 64-bit limbs of an Fq element
  static constexpr int C = 2 * D;              // components of a point: x (D of them), then y
  static constexpr size_t RW = size_t(L) * C;  // words of a record: C components of L limbs
  static_assert(L <= 8, "a component must fit one vector");
  static_assert(sizeof(aff) == sizeof(uint64_t) * C * N, "affine point = x ‖ y limbs");

  ifma_buckets_t(size_t nb, size_t batch)
      : nb_(nb),
        segs_(nb >= kMinReduceBuckets ? std::min<size_t>(kMaxSegments, nb / 4) : 0),
        filled_(nb + 2 * segs_, 0),
        seg_overflow_(2 * segs_, xyzz::infinity()),
        stamp_(nb, 0),
        batch_(std::max<size_t>((batch + 7) / 8 * 8, 2 * segs_)) {
    recs_.resize((nb + 2 * segs_ + 1) * RW);  // + a zero record for idle lanes
    rows_.resize(batch_ / 8 * kRowWords);
    prefix_.resize(batch_ / 8 * D * L * 8);
    spec_.resize(batch_ / 8);
    src_.resize(batch_);
    queue_.reserve(batch_);
    dummy_ = aff{F::one(), F::zero()};  // an idle lane adds (1, 0) to the zero record: d = 1
    dummy_rec_.resize(RW);
    to52(dummy_, dummy_rec_.get());
  }

  // bucket[k] += (neg ? −*p : *p). The point is not read here (an infinity point, (0, 0), is
  // recognised in the batch): only the empty-bucket case looks at it.
  void add(uint32_t k, const aff* p, bool neg) {
    if (stamp_[k] == epoch_) {  // already in this batch: wait for the next one
      if (queue_.size() < batch_)
        queue_.push_back({k, p, neg});
      else if (!p->is_infinity())
        spill_.push_back({k, neg ? -*p : *p});
      return;
    }
    if (!filled_[k]) {  // empty bucket: place the point
      if (p->is_infinity()) return;
      to52(neg ? -*p : *p, rec(k));
      filled_[k] = 1;
      return;
    }
    stamp_[k] = epoch_;
    src_[m_] = {p, neg, k};
    if (++m_ == batch_) flush_and_requeue();
  }

  // Σ_k (k+1)·bucket[k]
  xyzz reduce() {
    // Drain: queued points go into a batch; what still conflicts after one more round (a few
    // buckets hit many times) takes the XYZZ path.
    flush_and_requeue();
    flush<true>();
    for (const auto& q : queue_)
      if (!q.p->is_infinity()) spill_.push_back({q.k, q.neg ? -*q.p : *q.p});
    queue_.clear();
    fold_spill();
    if (segs_ == 0) {
      xyzz running = xyzz::infinity(), total = xyzz::infinity();
      for (size_t k = nb_; k-- > 0;) {
        running += point(k);
        total += running;
      }
      return total;
    }
    // Segments s = 0..S−1 of Ls buckets; R_s = record nb + s, T_s = record nb + S + s. Each batch
    // adds the previous R_s into T_s and the next bucket down into R_s (the T part reads R_s as
    // it was before the batch: sources are loaded before any result is stored).
    // Batch i adds R_s into T_s (i > 0) and bucket s·Ls + Ls − 1 − i into R_s (i < Ls), so T_s
    // ends as Σ_j R_s^(j), R_s^(j) = Σ_{j' ≥ j} B_{s·Ls + j'}: Σ_j (j + 1)·B_{s·Ls + j}.
    const size_t S = segs_, Ls = nb_ / S;
    for (size_t i = 0; i <= Ls; ++i) {
      for (size_t s = 0; s < S; ++s) {
        if (i > 0) add_record(uint32_t(nb_ + S + s), uint32_t(nb_ + s));
        if (i < Ls) add_record(uint32_t(nb_ + s), uint32_t(s * Ls + Ls - 1 - i));
      }
      flush<false>();
    }
    // Σ_k (k+1)·B_k = Σ_s T_s + Ls·Σ_{s≥1} s·R_s
    xyzz running = xyzz::infinity(), weighted = xyzz::infinity(), total = xyzz::infinity();
    for (size_t s = S; s-- > 1;) {
      running += point(nb_ + s);
      weighted += running;
    }
    for (size_t t = Ls; t > 1; t >>= 1) weighted = weighted.dbl();
    total = weighted;
    for (size_t s = 0; s < S; ++s) total += point(nb_ + S + s);
    return total;
  }

 private:
  // One pending addition: record[tgt] += source (a base point, negated or not; or a record).
  struct source_t {
    const aff* p;  // the base point (accumulation), or null (reduce: the record `rec`)
    bool neg;
    uint32_t tgt;
    uint32_t rec = 0;
  };
  struct queued_t {
    uint32_t k;
    const aff* p;
    bool neg;
  };
  static constexpr size_t kMaxSegments = 256;
  static constexpr size_t kMinReduceBuckets = 64;
  // A row of eight pending additions: bx, by, px, py (D·L limb vectors each).
  static constexpr size_t kCoordWords = size_t(D) * L * 8;
  static constexpr size_t kRowWords = 4 * kCoordWords;
  static constexpr int kBx = 0, kBy = 1, kPx = 2, kPy = 3;
  static constexpr __mmask8 kLimbMask = __mmask8((1u << L) - 1);

  uint64_t* rec(size_t k) const { return recs_.get() + k * RW; }
  xyzz overflow(size_t k) const {
    if (k >= nb_) return seg_overflow_[k - nb_];
    const auto it = bucket_overflow_.find(uint32_t(k));
    return it == bucket_overflow_.end() ? xyzz::infinity() : it->second;
  }
  const uint64_t* zero_rec() const { return recs_.get() + (nb_ + 2 * segs_) * RW; }

  static void to52(const aff& p, uint64_t* r) {
    for (int q = 0; q < C; ++q) {
      const uint64_t* w = q < D ? traits_t::limbs(p.x, q) : traits_t::limbs(p.y, q - D);
      for (int j = 0; j < L; ++j) r[L * q + j] = R52::limb_of(w, j);
    }
  }
  static aff from52(const uint64_t* r) {
    B x[D], y[D];
    for (int d = 0; d < D; ++d) {
      x[d] = ff::ifma::join52<B>(r + L * d);
      y[d] = ff::ifma::join52<B>(r + L * (D + d));
    }
    return aff{traits_t::make(x), traits_t::make(y)};
  }
  // Record k as XYZZ, its overflow included.
  xyzz point(size_t k) const {
    xyzz r = overflow(k);
    if (filled_[k]) r = r.add_mixed(from52(rec(k)));
    return r;
  }

  // The spilled points, summed per bucket (few: a map, not an array the size of the buckets).
  void fold_spill() {
    for (const auto& [k, p] : spill_) {
      auto [it, fresh] = bucket_overflow_.try_emplace(k, xyzz::infinity());
      it->second = it->second.add_mixed(p);
    }
    spill_.clear();
  }

  // record[t] += record[s] (reduce: no conflicts, every target once per batch)
  void add_record(uint32_t t, uint32_t s) {
    const xyzz os = overflow(s);
    if (!os.is_infinity()) seg_overflow_[t - nb_] += os;
    if (!filled_[s]) return;
    if (!filled_[t]) {
      std::memcpy(rec(t), rec(s), RW * sizeof(uint64_t));
      filled_[t] = 1;
      return;
    }
    src_[m_++] = {nullptr, false, t, s};
  }

  void flush_and_requeue() {
    flush<true>();
    if (queue_.empty()) return;
    std::vector<queued_t> q;
    q.swap(queue_);
    queue_.reserve(batch_);
    for (const auto& e : q) add(e.k, e.p, e.neg);
  }

  // --- vector arithmetic on one coordinate (Fq or Fq2) ---------------------------------------
  struct vc_t {
    vfe c[D];
  };
  ZK_IFMA_INLINE static vc_t vload(const uint64_t* m) {
    vc_t r;
    for (int d = 0; d < D; ++d) r.c[d] = VF::load(m + d * L * 8);
    return r;
  }
  ZK_IFMA_INLINE static void vstore(uint64_t* m, const vc_t& a) {
    for (int d = 0; d < D; ++d) VF::store(m + d * L * 8, a.c[d]);
  }
  ZK_IFMA_INLINE static vc_t vsub(const vc_t& a, const vc_t& b) {
    vc_t r;
    for (int d = 0; d < D; ++d) r.c[d] = VF::sub(a.c[d], b.c[d]);
    return r;
  }
  ZK_IFMA_INLINE static vc_t vmul(const vc_t& a, const vc_t& b) {
    vc_t r;
    if constexpr (D == 1) {
      r.c[0] = VF::mul(a.c[0], b.c[0]);
    } else {
      using V2 = ff::ifma::vfield2_t<B>;
      const auto p = V2::mul({a.c[0], a.c[1]}, {b.c[0], b.c[1]});
      r.c[0] = p.c0;
      r.c[1] = p.c1;
    }
    return r;
  }
  ZK_IFMA_INLINE static vc_t vsqr(const vc_t& a) {
    vc_t r;
    if constexpr (D == 1) {
      r.c[0] = VF::sqr(a.c[0]);
    } else {
      using V2 = ff::ifma::vfield2_t<B>;
      const auto p = V2::sqr({a.c[0], a.c[1]});
      r.c[0] = p.c0;
      r.c[1] = p.c1;
    }
    return r;
  }
  ZK_IFMA_INLINE static __mmask8 vis_zero(const vc_t& a) {
    __mmask8 z = 0xFF;
    for (int d = 0; d < D; ++d) z &= VF::is_zero(a.c[d]);
    return z;
  }
  ZK_IFMA_INLINE static vc_t vone() {
    vc_t r;
    r.c[0] = VF::broadcast(B::one());
    for (int d = 1; d < D; ++d) r.c[d] = VF::broadcast(B::zero());
    return r;
  }
  ZK_IFMA_INLINE static vc_t vblend(__mmask8 m, const vc_t& a, const vc_t& b) {
    vc_t r;
    for (int d = 0; d < D; ++d)
      for (int j = 0; j < L; ++j)
        r.c[d].v[j] = _mm512_mask_blend_epi64(m, a.c[d].v[j], b.c[d].v[j]);
    return r;
  }

  // Component q of eight records, limb-major.
  ZK_IFMA_INLINE static vfe gather_records(const uint64_t* const* r, int q) {
    __m512i v[8];
    for (int i = 0; i < 8; ++i) v[i] = _mm512_maskz_loadu_epi64(kLimbMask, r[i] + L * q);
    ifma_detail::transpose8(v);
    vfe out;
    for (int j = 0; j < L; ++j) out.v[j] = v[j];
    return out;
  }
  // Component q of eight affine points in 64-bit limbs, regrouped into 52-bit limbs.
  ZK_IFMA_INLINE static vfe gather_points(const aff* const* p, int q) {
    __m512i v[8];
    const __mmask8 m = __mmask8((1u << N) - 1);
    for (int i = 0; i < 8; ++i)
      v[i] = _mm512_maskz_loadu_epi64(m, reinterpret_cast<const uint64_t*>(p[i]) + q * N);
    ifma_detail::transpose8(v);
    const __m512i mask = _mm512_set1_epi64((long long)ff::ifma::mask52);
    vfe out;
    for (int j = 0; j < L; ++j) {
      const int bit = 52 * j, w = bit / 64, s = bit % 64;
      __m512i x = ff::ifma::shr(v[w], s);
      if (s > 12 && w + 1 < N) x = _mm512_or_si512(x, ff::ifma::shl(v[w + 1], 64 - s));
      out.v[j] = _mm512_and_si512(x, mask);
    }
    return out;
  }
  // Stores component q (limb-major) into the records of the lanes in `live`.
  ZK_IFMA_INLINE static void scatter_records(uint64_t* const* r, int q, const vfe& a,
                                             __mmask8 live) {
    __m512i v[8];
    for (int j = 0; j < 8; ++j) v[j] = j < L ? a.v[j] : _mm512_setzero_si512();
    ifma_detail::transpose8(v);
    for (int i = 0; i < 8; ++i)
      if ((live >> i) & 1) _mm512_mask_storeu_epi64(r[i] + L * q, kLimbMask, v[i]);
  }

  template <bool FromBases>
  ZK_IFMA_TARGET void flush() {
    const size_t m = m_;
    if (m == 0) return;
    const size_t rows = (m + 7) / 8;
    const uint64_t* zero = zero_rec();
    // Forward: load and convert each row, d = x2 − x1, prefix[r] = Π_{s<r} d_s per lane.
    vc_t acc = vone();
    const vc_t one = acc;
    for (size_t r = 0; r < rows; ++r) {
      uint64_t* row = rows_.get() + r * kRowWords;
      const uint64_t* t[8];
      __mmask8 negm = 0;
      for (int i = 0; i < 8; ++i) {
        const size_t e = 8 * r + i;
        t[i] = e < m ? rec(src_[e].tgt) : zero;
      }
      vc_t bx, by, px, py;
      for (int d = 0; d < D; ++d) {
        bx.c[d] = gather_records(t, d);
        by.c[d] = gather_records(t, D + d);
      }
      if constexpr (FromBases) {
        const aff* p[8];
        for (int i = 0; i < 8; ++i) {
          const size_t e = 8 * r + i;
          p[i] = e < m ? src_[e].p : &dummy_;
          if (e < m && src_[e].neg) negm |= __mmask8(1u << i);
        }
        for (int d = 0; d < D; ++d) {
          px.c[d] = gather_points(p, d);
          py.c[d] = gather_points(p, D + d);
          const vfe ny = VF::neg(py.c[d]);
          for (int j = 0; j < L; ++j)
            py.c[d].v[j] = _mm512_mask_blend_epi64(negm, py.c[d].v[j], ny.v[j]);
        }
      } else {
        const uint64_t* s[8];
        for (int i = 0; i < 8; ++i) {
          const size_t e = 8 * r + i;
          s[i] = e < m ? rec(src_[e].rec) : dummy_rec_.get();
        }
        for (int d = 0; d < D; ++d) {
          px.c[d] = gather_records(s, d);
          py.c[d] = gather_records(s, D + d);
        }
      }
      const vc_t dd = vsub(px, bx);
      // Equal x (a doubling, or P + (−P)) and infinity sources ((0, 0)) are done apart.
      const __mmask8 spec = vis_zero(dd) | (vis_zero(px) & vis_zero(py));
      spec_[r] = spec;
      vstore(row + kBx * kCoordWords, bx);
      vstore(row + kBy * kCoordWords, by);
      vstore(row + kPx * kCoordWords, px);
      vstore(row + kPy * kCoordWords, py);
      vstore(prefix_.get() + r * D * L * 8, acc);
      acc = vmul(acc, vblend(spec, dd, one));
    }
    // The eight lane products, inverted with one field inversion.
    alignas(64) uint64_t lanes[D * L * 8];
    vstore(lanes, acc);
    F prod[8], pre[8];
    for (int lane = 0; lane < 8; ++lane) {
      B c[D];
      for (int d = 0; d < D; ++d) {
        uint64_t w[L];
        for (int j = 0; j < L; ++j) w[j] = lanes[(d * L + j) * 8 + lane];
        c[d] = ff::ifma::join52<B>(w);
      }
      prod[lane] = traits_t::make(c);
    }
    F run = F::one();
    for (int lane = 0; lane < 8; ++lane) {
      pre[lane] = run;
      run = run * prod[lane];
    }
    F inv = run.inverse();
    for (int lane = 8; lane-- > 0;) {
      const F li = inv * pre[lane];
      inv = inv * prod[lane];
      for (int d = 0; d < D; ++d) {
        const uint64_t* w = traits_t::limbs(li, d);
        for (int j = 0; j < L; ++j) lanes[(d * L + j) * 8 + lane] = R52::limb_of(w, j);
      }
    }
    vc_t vinv = vload(lanes);
    // Backward: 1/d_r = inv·prefix[r], then inv ← inv·d_r; λ, x3, y3 per lane.
    for (size_t r = rows; r-- > 0;) {
      const uint64_t* row = rows_.get() + r * kRowWords;
      const vc_t bx = vload(row + kBx * kCoordWords), by = vload(row + kBy * kCoordWords);
      const vc_t px = vload(row + kPx * kCoordWords), py = vload(row + kPy * kCoordWords);
      const __mmask8 spec = spec_[r];
      const vc_t dd = vblend(spec, vsub(px, bx), one);
      const vc_t di = vmul(vinv, vload(prefix_.get() + r * D * L * 8));
      vinv = vmul(vinv, dd);
      const vc_t lambda = vmul(vsub(py, by), di);
      const vc_t x3 = vsub(vsub(vsqr(lambda), bx), px);
      const vc_t y3 = vsub(vmul(lambda, vsub(bx, x3)), by);
      uint64_t* t[8];
      __mmask8 live = 0;
      for (int i = 0; i < 8; ++i) {
        const size_t e = 8 * r + i;
        t[i] = e < m ? rec(src_[e].tgt) : nullptr;
        if (e < m) live |= __mmask8(1u << i);
      }
      live &= __mmask8(~spec);
      for (int d = 0; d < D; ++d) {
        scatter_records(t, d, x3.c[d], live);
        scatter_records(t, D + d, y3.c[d], live);
      }
    }
    // Equal x: the source point (as loaded into the row) goes to the target's overflow.
    for (size_t r = 0; r < rows; ++r) {
      if (!spec_[r]) continue;
      const uint64_t* row = rows_.get() + r * kRowWords;
      for (int i = 0; i < 8; ++i) {
        const size_t e = 8 * r + i;
        if (e >= m || !((spec_[r] >> i) & 1)) continue;
        uint64_t pt[RW];
        for (int d = 0; d < D; ++d)
          for (int j = 0; j < L; ++j) {
            pt[L * d + j] = row[kPx * kCoordWords + (d * L + j) * 8 + i];
            pt[L * (D + d) + j] = row[kPy * kCoordWords + (d * L + j) * 8 + i];
          }
        const aff q = from52(pt);
        if (q.is_infinity()) continue;
        const uint32_t t = src_[e].tgt;
        if (FromBases)
          spill_.push_back({t, q});
        else
          seg_overflow_[t - nb_] = seg_overflow_[t - nb_].add_mixed(q);
      }
    }
    m_ = 0;
    ++epoch_;
    fold_spill();
  }

  size_t nb_, segs_;
  ifma_detail::aligned_words_t recs_;  // buckets, then R_s and T_s of reduce(), then zero
  std::vector<uint8_t> filled_;
  // Additions done apart (XYZZ): points spilled into buckets, summed per bucket at reduce();
  // the overflow of the segment sums R_s, T_s.
  std::vector<std::pair<uint32_t, aff>> spill_;
  std::unordered_map<uint32_t, xyzz> bucket_overflow_;
  std::vector<xyzz> seg_overflow_;
  std::vector<uint32_t> stamp_;  // epoch in which a bucket is in the batch
  uint32_t epoch_ = 1;
  size_t batch_;
  ifma_detail::aligned_words_t rows_, prefix_, dummy_rec_;
  std::vector<__mmask8> spec_;
  aff dummy_;
  std::vector<source_t> src_;  // the batch: src_[0, m_)
  size_t m_ = 0;
  std::vector<queued_t> queue_;
};

}  // namespace zk::msm
#endif
