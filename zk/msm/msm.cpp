#include "zk/msm/msm.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <functional>
#include <memory>
#include <stdexcept>

#include "zk/base/thread_pool.hpp"
#include "zk/ec/curves.hpp"
#include "zk/ec/endomorphism.hpp"
#include "zk/msm/ifma_buckets.hpp"

namespace zk::msm {
namespace {

inline void load_scalar(const uint8_t* p, uint64_t out[4]) { std::memcpy(out, p, 32); }

inline bool is_zero(const uint64_t k[4]) { return (k[0] | k[1] | k[2] | k[3]) == 0; }
inline bool is_one(const uint64_t k[4]) { return k[0] == 1 && (k[1] | k[2] | k[3]) == 0; }

// d_w = ((x + H) >> c·w mod 2^c) − 2^{c−1} for a scalar x, given x + H over five limbs
// (x < 2^255, H < 2^(c·W) ≤ 2^271).
inline int32_t digit_at(const uint64_t s[5], unsigned pos, unsigned c) {
  unsigned limb = pos / 64, off = pos % 64;
  uint64_t v = s[limb] >> off;
  if (off + c > 64 && limb + 1 < 5) v |= s[limb + 1] << (64 - off);
  return int32_t(v & ((uint64_t(1) << c) - 1)) - (int32_t(1) << (c - 1));
}
inline void add_offset(const uint64_t x[4], const uint64_t* offset, uint64_t out[5]) {
  unsigned __int128 c = 0;
  for (int l = 0; l < 5; ++l) {
    c += (unsigned __int128)(l < 4 ? x[l] : 0) + offset[l];
    out[l] = uint64_t(c);
    c >>= 64;
  }
}

// Pippenger cost model: windows·(points + buckets to reduce).
unsigned choose_window(size_t m, unsigned bits) {
  if (m < 32) return 3;
  unsigned best = 2;
  double best_cost = 1e300;
  for (unsigned c = 2; c <= 16; ++c) {
    double w = std::ceil(double(bits + 1) / c);
    double cost = w * (double(m) + std::ldexp(1.0, c));
    if (cost < best_cost) {
      best_cost = cost;
      best = c;
    }
  }
  return best;
}

// Bucket accumulation in affine coordinates with one shared inversion per batch ("batch-affine",
// as in the ZPrize 2022 MSM entries and gnark-crypto): an affine addition
//   λ = (y2 − y1)/(x2 − x1),  x3 = λ² − x1 − x2,  y3 = λ(x1 − x3) − y1
// costs 1 inversion + 2M + 1S; Montgomery's trick turns the inversions of a batch into 3M each and
// one real inversion, so an addition costs about 6M against 8M + 2S for XYZZ mixed addition.
// A bucket may take one addition per batch. A point whose bucket is already pending goes to that
// bucket's XYZZ overflow instead (no queue, no waiting): rare for uniform digits, and the whole
// story for the top window of a 254-bit scalar, whose few buckets all collide.
template <class G>
class batch_affine_buckets_t {
 public:
  using aff = ec::affine_t<G>;
  using xyzz = ec::xyzz_t<G>;
  using F = typename G::field_t;

  batch_affine_buckets_t(size_t nb, size_t batch)
      : buckets_(nb, aff::infinity()),
        overflow_(nb, xyzz::infinity()),
        stamp_(nb, 0),
        batch_(batch) {
    pend_bucket_.reserve(batch);
    pend_point_.reserve(batch);
    denom_.resize(batch);
    numer_.resize(batch);
    prefix_.resize(batch);
  }

  void add(uint32_t k, const aff* p, bool neg) { add(k, neg ? -*p : *p); }
  // bucket[k] += p
  void add(uint32_t k, const aff& p) {
    if (stamp_[k] == epoch_) {  // already pending in this batch
      overflow_[k] = overflow_[k].add_mixed(p);
      return;
    }
    if (buckets_[k].is_infinity()) {  // empty bucket: just place the point
      buckets_[k] = p;
      return;
    }
    if (p.is_infinity()) return;
    stamp_[k] = epoch_;
    pend_bucket_.push_back(k);
    pend_point_.push_back(p);
    if (pend_bucket_.size() == batch_) flush();
  }

  // Σ_k (k+1)·bucket[k], by running sums from the top bucket down.
  xyzz reduce() {
    flush();
    xyzz running = xyzz::infinity(), total = xyzz::infinity();
    for (size_t k = buckets_.size(); k-- > 0;) {
      running = running.add_mixed(buckets_[k]);
      if (!overflow_[k].is_infinity()) running += overflow_[k];
      total += running;
    }
    return total;
  }

 private:
  void flush() {
    const size_t m = pend_bucket_.size();
    if (m == 0) return;
    // Denominators: x2 − x1, or 2·y1 when doubling; P + (−P) has none (the bucket empties).
    // The running products go in kLanes interleaved chains, so consecutive multiplications are
    // independent and the core overlaps them instead of waiting on each one's latency.
    F acc[kLanes];
    for (auto& a : acc) a = F::one();
    for (size_t i = 0; i < m; ++i) {
      const aff& b = buckets_[pend_bucket_[i]];
      const aff& p = pend_point_[i];
      F d = p.x - b.x;
      if (d.is_zero()) {  // doubling: λ = 3x²/2y; or P + (−P): no denominator
        d = (p.y == b.y) ? b.y.dbl() : F::zero();
        numer_[i] = b.x.sqr().times3();
      } else {
        numer_[i] = p.y - b.y;
      }
      denom_[i] = d;
      prefix_[i] = acc[i % kLanes];
      if (!d.is_zero()) acc[i % kLanes] = acc[i % kLanes] * d;
    }
    // One inversion for the four lane products: 1/a0 = (1/(a0a1a2a3))·a1·a2a3, …
    const F a01 = acc[0] * acc[1], a23 = acc[2] * acc[3];
    const F all_inv = (a01 * a23).inverse();
    const F i01 = all_inv * a23, i23 = all_inv * a01;
    F inv[kLanes] = {i01 * acc[1], i01 * acc[0], i23 * acc[3], i23 * acc[2]};
    // Backward, kLanes elements at a time (one per lane) in lockstep: each step issues kLanes
    // independent multiplications back to back, which the core overlaps; element by element,
    // the chain 1/d → λ → λ² → x3 → y3 would leave it waiting on latency.
    size_t i = m;
    for (; i % kLanes; --i) finish_one(i - 1, inv[(i - 1) % kLanes]);
    while (i > 0) {
      i -= kLanes;
      F di[kLanes], lambda[kLanes], l2[kLanes];
      bool live[kLanes];
      for (size_t k = 0; k < kLanes; ++k) {
        live[k] = !denom_[i + k].is_zero();
        if (!live[k]) continue;
        di[k] = inv[k] * prefix_[i + k];  // (i + k) % kLanes == k
        inv[k] = inv[k] * denom_[i + k];
      }
      for (size_t k = 0; k < kLanes; ++k)
        if (live[k]) lambda[k] = numer_[i + k] * di[k];
      for (size_t k = 0; k < kLanes; ++k)
        if (live[k]) l2[k] = lambda[k].sqr();
      for (size_t k = 0; k < kLanes; ++k) {
        aff& b = buckets_[pend_bucket_[i + k]];
        if (!live[k]) {  // p = −b
          b = aff::infinity();
          continue;
        }
        F x3 = l2[k] - b.x - pend_point_[i + k].x;
        b.y = lambda[k] * (b.x - x3) - b.y;
        b.x = x3;
      }
    }
    pend_bucket_.clear();
    pend_point_.clear();
    ++epoch_;
  }

  // The backward step for one element, with its lane's running inverse.
  void finish_one(size_t i, F& inv) {
    aff& b = buckets_[pend_bucket_[i]];
    const F d = denom_[i];
    if (d.is_zero()) {  // p = −b
      b = aff::infinity();
      return;
    }
    F di = inv * prefix_[i];
    inv = inv * d;
    F lambda = numer_[i] * di;
    F x3 = lambda.sqr() - b.x - pend_point_[i].x;
    b.y = lambda * (b.x - x3) - b.y;
    b.x = x3;
  }

  static constexpr size_t kLanes = 4;
  std::vector<aff> buckets_;
  std::vector<xyzz> overflow_;
  std::vector<uint32_t> stamp_;  // epoch in which a bucket is pending
  uint32_t epoch_ = 1;
  size_t batch_;
  std::vector<uint32_t> pend_bucket_;
  std::vector<aff> pend_point_;
  std::vector<F> denom_, numer_, prefix_;
};

// Buckets in XYZZ coordinates (mixed addition 8M + 2S): for small MSMs.
template <class G>
class xyzz_buckets_t {
 public:
  using xyzz = ec::xyzz_t<G>;
  explicit xyzz_buckets_t(size_t nb) : buckets_(nb, xyzz::infinity()) {}
  void add(uint32_t k, const ec::affine_t<G>* p, bool neg) {
    buckets_[k] = buckets_[k].add_mixed(neg ? -*p : *p);
  }
  xyzz reduce() const {
    xyzz running = xyzz::infinity(), total = xyzz::infinity();
    for (size_t k = buckets_.size(); k-- > 0;) {
      running += buckets_[k];
      total += running;
    }
    return total;
  }

 private:
  std::vector<xyzz> buckets_;
};

constexpr size_t kMinBatch = 128;

}  // namespace

namespace {

// A plan's window, its signed-digit offset and (with `digits`) its digit table, once idx, ones
// and slot are known.
void finish_plan(plan_t& p, unsigned bits, bool digits) {
  p.bits = bits;
  p.c = choose_window(p.idx.size(), bits);
  p.windows = signed_digit_windows(bits, p.c, p.offset);
  if (!digits) return;
  const size_t m = p.idx.size();
  p.digits.resize(size_t(p.windows) * m);
  parallel_for(m, [&](size_t lo, size_t hi) {
    for (size_t j = lo; j < hi; ++j) {
      uint64_t k[4], sh[5];
      load_scalar(p.scalar(j), k);
      add_offset(k, p.offset, sh);
      for (unsigned w = 0; w < p.windows; ++w)
        p.digits[size_t(w) * m + j] = int16_t(digit_at(sh, w * p.c, p.c));
    }
  });
}

}  // namespace

plan_t make_plan(const uint8_t* scalars, size_t n, unsigned bits, size_t stride, bool digits,
                 bool split, const density_t* density) {
  if (n > UINT32_MAX) throw std::invalid_argument("msm: more than 2^32 points");
  if (bits > 255) throw std::invalid_argument("msm: scalars wider than 255 bits");
  if (density && density->size() < n)
    throw std::invalid_argument("msm: a density of " + std::to_string(density->size()) +
                                " positions for " + std::to_string(n) + " scalars");
  plan_t p;
  p.scalars = scalars;
  p.stride = stride;
  p.n = n;
  p.split = split;
  p.density = density;
  if (!split) {
    p.idx.reserve(density ? density->count() : n);
    for (size_t i = 0; i < n; ++i)
      if (!density || density->test(i)) p.idx.push_back(uint32_t(i));
  }
  for (size_t i = 0; split && i < n; ++i) {
    if (density && !density->test(i)) continue;
    uint64_t k[4];
    load_scalar(scalars + i * stride, k);
    if (is_zero(k)) continue;
    if (is_one(k))
      p.ones.push_back(uint32_t(i));
    else
      p.idx.push_back(uint32_t(i));
  }
  finish_plan(p, bits, digits);
  return p;
}

void classed_scalars_t::value(size_t i, uint8_t out[32]) const {
  const size_t w = i / 64, b = i % 64;
  std::memset(out, 0, 32);
  if ((other[w * stride] >> b) & 1) {
    const uint64_t below = other[w * stride] & ((uint64_t(1) << b) - 1);
    std::memcpy(out, values + 32 * (rank[w * stride] + uint64_t(__builtin_popcountll(below))), 32);
  } else if ((one[w * stride] >> b) & 1) {
    out[0] = 1;
  }
}

plan_t make_plan(const classed_scalars_t& s, unsigned bits, bool digits, bool split,
                 const density_t* density) {
  if (!split)
    throw std::invalid_argument("msm: a plan of classed scalars drops the zeros and sums the ones");
  if (s.n > UINT32_MAX) throw std::invalid_argument("msm: more than 2^32 points");
  if (bits > 255) throw std::invalid_argument("msm: scalars wider than 255 bits");
  if (density && density->size() < s.n)
    throw std::invalid_argument("msm: a density of " + std::to_string(density->size()) +
                                " positions for " + std::to_string(s.n) + " scalars");
  plan_t p;
  p.scalars = s.values;
  p.stride = 32;
  p.n = s.n;
  p.split = true;
  p.density = density;
  // Word by word: the set bits of each class within the density, in position order.
  const size_t words = (s.n + 63) / 64;
  for (size_t w = 0; w < words; ++w) {
    uint64_t keep = w + 1 < words || s.n % 64 == 0 ? ~uint64_t(0) : (uint64_t(1) << (s.n % 64)) - 1;
    if (density) keep &= density->words()[w];
    const uint64_t o = s.other[w * s.stride];
    for (uint64_t x = s.one[w * s.stride] & ~o & keep; x; x &= x - 1)
      p.ones.push_back(uint32_t(64 * w + unsigned(__builtin_ctzll(x))));
    if (!(o & keep)) continue;
    const uint64_t before = s.rank[w * s.stride];
    for (uint64_t x = o & keep; x; x &= x - 1) {
      const unsigned b = unsigned(__builtin_ctzll(x));
      p.idx.push_back(uint32_t(64 * w + b));
      p.slot.push_back(
          uint32_t(before + uint64_t(__builtin_popcountll(o & ((uint64_t(1) << b) - 1)))));
    }
  }
  finish_plan(p, bits, digits);
  return p;
}

unsigned signed_digit_windows(unsigned bits, unsigned c, uint64_t offset[5]) {
  // Enough windows that k + H < 2^(c·W) for every k < 2^bits, i.e. H + 2^bits ≤ 2^(c·W).
  for (unsigned windows = (bits + c) / c;; ++windows) {
    uint64_t h[5] = {};
    for (unsigned w = 0; w < windows; ++w) {
      unsigned pos = w * c + c - 1;
      h[pos / 64] |= uint64_t(1) << (pos % 64);
    }
    const unsigned top = c * windows;  // ≤ 272 < 320
    uint64_t sum[6] = {};              // H + 2^bits, compared with 2^top
    unsigned __int128 carry = 0;
    for (int l = 0; l < 5; ++l) {
      carry +=
          (unsigned __int128)h[l] + (unsigned(l) == bits / 64 ? uint64_t(1) << (bits % 64) : 0);
      sum[l] = uint64_t(carry);
      carry >>= 64;
    }
    sum[5] = uint64_t(carry);
    bool fits = true;  // no bit at or above `top`: sum < 2^top
    for (unsigned b = top; b < 384 && fits; ++b) fits = !((sum[b / 64] >> (b % 64)) & 1);
    if (fits) {
      std::copy(h, h + 5, offset);
      return windows;
    }
  }
}

namespace {

// The largest digit of the top window over all k < 2^bits (see msm()).
size_t top_window_digit_bound(unsigned bits, unsigned c, unsigned W, const uint64_t offset[5]) {
  uint64_t s[5];
  unsigned __int128 carry = 0;
  for (unsigned l = 0; l < 5; ++l) {  // 2^bits − 1 + H
    const uint64_t kmax = l < bits / 64    ? ~uint64_t(0)
                          : l == bits / 64 ? (uint64_t(1) << (bits % 64)) - 1
                                           : 0;
    carry += (unsigned __int128)kmax + offset[l];
    s[l] = uint64_t(carry);
    carry >>= 64;
  }
  const unsigned pos = c * (W - 1), limb = pos / 64, off = pos % 64;
  unsigned __int128 t = s[limb] >> off;
  if (off && limb + 1 < 5) t |= (unsigned __int128)s[limb + 1] << (64 - off);
  if (limb + 2 < 5 && off) t |= (unsigned __int128)s[limb + 2] << (128 - off);
  const unsigned __int128 half = (unsigned __int128)1 << (c - 1);
  return t > half ? size_t(std::min<unsigned __int128>(t - half, ~size_t(0))) : 0;
}

// Which curve a group belongs to, and whether it is G2 (for the endomorphism).
template <class G>
struct group_of_t;
template <>
struct group_of_t<curves::bn254::g1> {
  using curve_t = curves::bn254;
  static constexpr bool g2 = false;
};
template <>
struct group_of_t<curves::bn254::g2> {
  using curve_t = curves::bn254;
  static constexpr bool g2 = true;
};
template <>
struct group_of_t<curves::bls12_381::g1> {
  using curve_t = curves::bls12_381;
  static constexpr bool g2 = false;
};
template <>
struct group_of_t<curves::bls12_381::g2> {
  using curve_t = curves::bls12_381;
  static constexpr bool g2 = true;
};

// Which base a plan position pairs with: i − first, or with a density rank(i) − rank(first).
struct base_map_t {
  const density_t* density = nullptr;
  size_t first = 0, rank_first = 0;
  base_map_t() = default;
  base_map_t(const plan_t& plan, size_t first_)
      : density(plan.density), first(first_), rank_first(density ? density->rank(first_) : 0) {}
  size_t operator()(size_t i) const { return density ? density->rank(i) - rank_first : i - first; }
  // How many bases the plan's positions at or after `first` reach.
  size_t bases_needed_for(size_t n) const {
    return density ? density->rank(n) - rank_first : n - first;
  }
};

// The plan's scalars as they are: one virtual point per scalar, the base itself. Entries from
// j0 on (the plan's scalars at positions ≥ first, bases indexed from first).
template <class G>
struct plain_reader_t {
  const ec::affine_t<G>* bases;
  const plan_t& plan;
  base_map_t base_of;      // plan position → base number
  const uint64_t* offset;  // H of the window width in use
  unsigned c;
  bool use_table;  // the plan's digits are those of this window width
  // Digit of window w of entry j's virtual point v, its base and its sign.
  int32_t digit(size_t j, unsigned, unsigned w, const ec::affine_t<G>*& base, bool& neg) const {
    const uint32_t i = plan.idx[j];
    base = bases + base_of(i);
    neg = false;
    if (use_table) return plan.digits[size_t(w) * plan.idx.size() + j];
    uint64_t k[4], sh[5];
    load_scalar(plan.scalar(j), k);
    add_offset(k, offset, sh);
    return digit_at(sh, w * c, c);
  }
};

// Scalars split by the endomorphism (dims parts, signs apart) and each part cut into factor
// chunks of s bits; virtual point v = e·factor + j has base 2^{s·j}·E^e(P_i) (the table's copy
// v) and scalar chunk j of |k_e|, negated when k_e < 0.
template <class G>
struct table_reader_t {
  const table_t<G>& table;
  const plan_t& plan;
  base_map_t base_of;                   // plan position → base number
  std::vector<unsigned __int128> mags;  // dims per entry (dims > 1), |k_e|
  std::vector<uint8_t> negs;            // bit e: k_e < 0
  const uint64_t* offset;
  unsigned c;
  int32_t digit(size_t j, unsigned v, unsigned w, const ec::affine_t<G>*& base, bool& neg) const {
    const uint32_t i = plan.idx[j];
    const unsigned e = v / table.factor, chunk = v % table.factor, s = table.chunk_bits;
    uint64_t x[4] = {};
    if (table.dims == 1) {
      uint64_t k[4];
      load_scalar(plan.scalar(j), k);
      // bits [s·chunk, s·chunk + s) of k
      const unsigned pos = s * chunk;
      for (int l = 0; l < 4; ++l) {
        const unsigned bit = pos + 64 * l, q = bit / 64, r = bit % 64;
        uint64_t wd = q < 4 ? k[q] >> r : 0;
        if (r && q + 1 < 4) wd |= k[q + 1] << (64 - r);
        x[l] = wd;
      }
      neg = false;
    } else {
      const unsigned __int128 m = mags[j * table.dims + e] >> (s * chunk);
      x[0] = uint64_t(m);
      x[1] = uint64_t(m >> 64);
      neg = (negs[j] >> e) & 1;
    }
    for (int l = 0; l < 4; ++l) {  // keep s bits
      const unsigned lo = 64 * l;
      if (lo >= s)
        x[l] = 0;
      else if (s - lo < 64)
        x[l] &= (uint64_t(1) << (s - lo)) - 1;
    }
    uint64_t sh[5];
    add_offset(x, offset, sh);
    base = table.copy(v) + base_of(i);
    return digit_at(sh, w * c, c);
  }
};

// Pippenger over entries [j0, m) of Reader's virtual points, scalars < 2^bits, c-bit windows, as
// independent tasks: (window, part of the entries), each with its own buckets, so that few
// windows (short scalars) still keep every thread busy; then the scalars equal to one.
template <class G, class Reader>
struct pippenger_t {
  using jac = ec::jacobian_t<G>;
  using xyzz = ec::xyzz_t<G>;
  Reader rd;
  size_t j0 = 0, m = 0;
  unsigned virtuals = 1, c = 0, W = 0;
  uint64_t offset[5] = {};
  size_t nb = 0, top_buckets = 0, parts = 1, window_tasks = 0, ones_chunks = 1;
  const ec::affine_t<G>* ones_bases = nullptr;
  const uint32_t* ones = nullptr;
  size_t ones_n = 0;
  base_map_t ones_base_of;  // ones_bases[ones_base_of(ones[i])]
  options_t opt;
  std::vector<jac> partial;
  std::vector<xyzz> ones_sum;

  pippenger_t(Reader r, size_t j0_, size_t m_, unsigned virtuals_, unsigned bits, unsigned c_,
              const ec::affine_t<G>* ones_bases_, const uint32_t* ones_, size_t ones_n_,
              base_map_t ones_base_of_, const options_t& opt_)
      : rd(std::move(r)),
        j0(j0_),
        m(m_),
        virtuals(virtuals_),
        c(c_),
        ones_bases(ones_bases_),
        ones(ones_),
        ones_n(ones_n_),
        ones_base_of(ones_base_of_),
        opt(opt_) {
    W = signed_digit_windows(bits, c, offset);
    rd.offset = offset;
    rd.c = c;
    nb = size_t(1) << (c - 1);
    // The top window's digits are ((x + H) >> c·(W−1)) − 2^(c−1) ≥ 0 (H sets bit c−1 there) and
    // at most ((2^bits − 1 + H) >> c·(W−1)) − 2^(c−1): it needs only that many buckets.
    top_buckets = std::min<size_t>(nb, top_window_digit_bound(bits, c, W, offset));
    const size_t threads = compute_threads();
    const size_t count = m - j0;
    if (W < 4 * threads && count * virtuals >= 4096)
      while ((W * parts) % threads != 0 || W * parts < 2 * threads) ++parts;
    window_tasks = count ? size_t(W) * parts : 0;
    partial.assign(size_t(W) * parts, jac::infinity());
    ones_chunks = ones_n > 4096 ? threads : (ones_n ? 1 : 0);
    ones_sum.assign(ones_chunks, xyzz::infinity());
  }
  pippenger_t(const pippenger_t&) = delete;

  size_t tasks() const { return window_tasks + ones_chunks; }

  void run(size_t task) {
    if (task >= window_tasks) {
      const size_t t = task - window_tasks;
      const size_t b = ones_n * t / ones_chunks, e = ones_n * (t + 1) / ones_chunks;
      xyzz acc = xyzz::infinity();
      for (size_t i = b; i < e; ++i) acc = acc.add_mixed(ones_bases[ones_base_of(ones[i])]);
      ones_sum[t] = acc;
      return;
    }
    const unsigned w = unsigned(task / parts);
    const size_t part = task % parts, count = m - j0;
    const size_t lo = j0 + count * part / parts, hi = j0 + count * (part + 1) / parts;
    auto accumulate = [&](auto& acc) {
      for (size_t j = lo; j < hi; ++j)
        for (unsigned v = 0; v < virtuals; ++v) {
          const ec::affine_t<G>* base;
          bool neg;
          const int32_t dj = rd.digit(j, v, w, base, neg);
          if (dj > 0)
            acc.add(uint32_t(dj - 1), base, neg);
          else if (dj < 0)
            acc.add(uint32_t(-dj - 1), base, !neg);
        }
      partial[task] = acc.reduce().to_jacobian();
    };
    // A batch must be large enough to amortise its inversion (~1.5·bits multiplications); with
    // few buckets (small MSMs, the top window) plain XYZZ buckets are cheaper. The IFMA buckets
    // take a quarter of the buckets per batch (a point whose bucket is taken waits for the next
    // batch); the portable ones an eighth (such a point costs an XYZZ addition).
    const size_t nbw = w + 1 == W ? top_buckets : nb;
#ifdef ZK_FF_IFMA
    if (opt.simd && ff::ifma::available() && nbw / 4 >= kMinBatch) {
      ifma_buckets_t<G> acc(nbw, std::min<size_t>(nbw / 4, 2048));
      accumulate(acc);
      return;
    }
#endif
    const size_t batch = std::min<size_t>(nbw / 8, 2048);
    if (batch >= kMinBatch) {
      batch_affine_buckets_t<G> acc(nbw, batch);
      accumulate(acc);
    } else {
      xyzz_buckets_t<G> acc(nbw);
      accumulate(acc);
    }
  }

  jac result() const {
    jac r = jac::infinity();
    for (unsigned w = W; w-- > 0;) {
      for (unsigned i = 0; i < c && !r.is_infinity(); ++i) r = r.dbl();
      for (size_t p = 0; p < parts; ++p) r += partial[size_t(w) * parts + p];
    }
    for (const auto& s : ones_sum) r += s.to_jacobian();
    return r;
  }
};

template <class State>
job_t job_of(std::shared_ptr<State> st, typename State::jac* out) {
  job_t j;
  j.tasks = st->tasks();
  j.run = [st](size_t t) { st->run(t); };
  j.finish = [st, out] { *out = st->result(); };
  return j;
}

unsigned checked_window(unsigned window, unsigned fallback) {
  if (!window) return fallback;
  if (window < 2 || window > 20) throw std::invalid_argument("msm: window out of range");
  return window;
}

}  // namespace

template <class G>
unsigned endomorphism_dims() {
  return group_of_t<G>::g2 ? 4 : 2;
}

template <class G>
unsigned endomorphism_bits() {
  using E = ec::endomorphisms_t<typename group_of_t<G>::curve_t>;
  return group_of_t<G>::g2 ? E::g2_lattice.max_bits : E::g1_lattice.max_bits;
}

template <class G>
job_t msm_job(const ec::affine_t<G>* bases, const plan_t& plan, size_t first,
              ec::jacobian_t<G>& out, const options_t& opt) {
  const unsigned c = checked_window(opt.window, plan.c);
  const bool use_table =
      c == plan.c && plan.digits.size() == size_t(plan.windows) * plan.idx.size();
  const size_t j0 =
      size_t(std::lower_bound(plan.idx.begin(), plan.idx.end(), first) - plan.idx.begin());
  const size_t o0 =
      size_t(std::lower_bound(plan.ones.begin(), plan.ones.end(), first) - plan.ones.begin());
  const base_map_t base_of(plan, first);
  using state_t = pippenger_t<G, plain_reader_t<G>>;
  auto st = std::make_shared<state_t>(
      plain_reader_t<G>{bases, plan, base_of, nullptr, 0, use_table}, j0, plan.idx.size(), 1,
      plan.bits, c, bases, plan.ones.data() + o0, plan.ones.size() - o0, base_of, opt);
  return job_of(st, &out);
}

template <class G>
ec::jacobian_t<G> msm(const ec::affine_t<G>* bases, const plan_t& plan, const options_t& opt) {
  ec::jacobian_t<G> r;
  std::vector<job_t> jobs{msm_job<G>(bases, plan, 0, r, opt)};
  run_jobs(jobs);
  return r;
}

template <class G>
table_t<G> make_table(const ec::affine_t<G>* bases, size_t n, unsigned dims, unsigned factor,
                      unsigned bits) {
  using C = typename group_of_t<G>::curve_t;
  using aff = ec::affine_t<G>;
  using jac = ec::jacobian_t<G>;
  if (dims != 1 && dims != endomorphism_dims<G>())
    throw std::invalid_argument("msm table: dims must be 1 or " +
                                std::to_string(endomorphism_dims<G>()));
  if (factor < 1 || factor > 16) throw std::invalid_argument("msm table: factor must be 1..16");
  table_t<G> t;
  t.bases = bases;
  t.n = n;
  t.dims = dims;
  t.factor = factor;
  const unsigned part_bits = dims == 1 ? bits : endomorphism_bits<G>();
  t.chunk_bits = (part_bits + factor - 1) / factor;
  const size_t copies = size_t(dims) * factor;
  t.extra.resize((copies - 1) * n);
  // Copy v = e·factor + j is 2^{s·j}·E^e(P): endomorphism images first (affine, cheap), then
  // s doublings per further chunk, normalised with one inversion per block of points.
  parallel_for(n, [&](size_t lo, size_t hi) {
    std::vector<jac> block;
    std::vector<typename G::field_t> scratch;
    for (unsigned e = 0; e < dims; ++e) {
      aff* img = e == 0 ? nullptr : t.extra.data() + (size_t(e) * factor - 1) * n;
      for (size_t i = lo; i < hi; ++i) {
        if (e == 0) break;
        if constexpr (group_of_t<G>::g2)
          img[i] = ec::psi_pow<C>(bases[i], e);
        else
          img[i] = ec::phi<C>(bases[i]);
      }
      const aff* prev = e == 0 ? bases : img;
      for (unsigned j = 1; j < factor; ++j) {
        aff* out = t.extra.data() + (size_t(e) * factor + j - 1) * n;
        block.resize(hi - lo);
        scratch.resize(hi - lo);
        for (size_t i = lo; i < hi; ++i) {
          jac x = jac::from_affine(prev[i]);
          for (unsigned d = 0; d < t.chunk_bits; ++d) x = x.dbl();
          block[i - lo] = x;
        }
        ec::batch_to_affine(block.data(), out + lo, scratch.data(), hi - lo);
        prev = out;
      }
    }
  });
  return t;
}

template <class G>
job_t msm_job(const table_t<G>& table, const plan_t& plan, size_t first, ec::jacobian_t<G>& out,
              const options_t& opt) {
  using C = typename group_of_t<G>::curve_t;
  using E = ec::endomorphisms_t<C>;
  const base_map_t base_of(plan, first);
  if (table.n < base_of.bases_needed_for(plan.n))
    throw std::invalid_argument("msm: table shorter than the scalars");
  const size_t m = plan.idx.size();
  const size_t j0 =
      size_t(std::lower_bound(plan.idx.begin(), plan.idx.end(), first) - plan.idx.begin());
  const size_t o0 =
      size_t(std::lower_bound(plan.ones.begin(), plan.ones.end(), first) - plan.ones.begin());
  table_reader_t<G> rd{table, plan, base_of, {}, {}, nullptr, 0};
  if (table.dims > 1) {
    rd.mags.resize(m * table.dims);
    rd.negs.resize(m);
    parallel_for(m - j0, [&](size_t lo, size_t hi) {
      lo += j0, hi += j0;
      for (size_t j = lo; j < hi; ++j) {
        uint64_t k[4];
        load_scalar(plan.scalar(j), k);
        uint8_t ng = 0;
        if constexpr (group_of_t<G>::g2) {
          const auto sp = E::g2_lattice.split(k);
          for (int e = 0; e < 4; ++e) rd.mags[j * 4 + e] = sp.mag[e], ng |= uint8_t(sp.neg[e] << e);
        } else {
          const auto sp = E::g1_lattice.split(k);
          for (int e = 0; e < 2; ++e) rd.mags[j * 2 + e] = sp.mag[e], ng |= uint8_t(sp.neg[e] << e);
        }
        rd.negs[j] = ng;
      }
    });
  }
  const unsigned virtuals = table.dims * table.factor;
  const unsigned bits = table.chunk_bits;
  const unsigned c = checked_window(opt.window, choose_window((m - j0) * virtuals, bits));
  using state_t = pippenger_t<G, table_reader_t<G>>;
  auto st = std::make_shared<state_t>(std::move(rd), j0, m, virtuals, bits, c, table.bases,
                                      plan.ones.data() + o0, plan.ones.size() - o0, base_of, opt);
  return job_of(st, &out);
}

template <class G>
ec::jacobian_t<G> msm(const table_t<G>& table, const plan_t& plan, const options_t& opt) {
  ec::jacobian_t<G> r;
  std::vector<job_t> jobs{msm_job<G>(table, plan, 0, r, opt)};
  run_jobs(jobs);
  return r;
}

void run_jobs(std::vector<job_t>& jobs, const std::function<void(size_t)>& on_done) {
  // Tasks numbered job after job: the pool takes them in order, so a job's key section is read
  // in one stretch; each job finishes on the thread that ran its last task.
  std::vector<size_t> start(jobs.size() + 1, 0);
  for (size_t k = 0; k < jobs.size(); ++k) start[k + 1] = start[k] + jobs[k].tasks;
  std::vector<std::atomic<size_t>> left(jobs.size());
  for (size_t k = 0; k < jobs.size(); ++k) left[k] = jobs[k].tasks;
  auto finish = [&](size_t k) {
    if (jobs[k].finish) jobs[k].finish();
    if (on_done) on_done(k);
  };
  for (size_t k = 0; k < jobs.size(); ++k)
    if (jobs[k].tasks == 0) finish(k);
  run_parallel(
      [&](size_t t) {
        const size_t k =
            size_t(std::upper_bound(start.begin(), start.end(), t) - start.begin()) - 1;
        jobs[k].run(t - start[k]);
        if (left[k].fetch_sub(1) == 1) finish(k);
      },
      start.back());
}

#define ZK_MSM_INSTANTIATE(G)                                                                      \
  template ec::jacobian_t<G> msm<G>(const ec::affine_t<G>*, const plan_t&, const options_t&);      \
  template ec::jacobian_t<G> msm<G>(const table_t<G>&, const plan_t&, const options_t&);           \
  template job_t msm_job<G>(const ec::affine_t<G>*, const plan_t&, size_t, ec::jacobian_t<G>&,     \
                            const options_t&);                                                     \
  template job_t msm_job<G>(const table_t<G>&, const plan_t&, size_t, ec::jacobian_t<G>&,          \
                            const options_t&);                                                     \
  template table_t<G> make_table<G>(const ec::affine_t<G>*, size_t, unsigned, unsigned, unsigned); \
  template unsigned endomorphism_dims<G>();
ZK_MSM_INSTANTIATE(curves::bn254::g1)
ZK_MSM_INSTANTIATE(curves::bn254::g2)
ZK_MSM_INSTANTIATE(curves::bls12_381::g1)
ZK_MSM_INSTANTIATE(curves::bls12_381::g2)
#undef ZK_MSM_INSTANTIATE

}  // namespace zk::msm
