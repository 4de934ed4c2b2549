#pragma once
// The CUDA MSM's steps as plain functions (ZK_HD): the kernels in cuda/msm_impl.cuh are one-line
// wrappers around them, one call per thread, and tests/msm/device_steps_test.cpp runs the very
// same functions on the host — thread by thread, with a stable sort standing in for CUB's — and
// checks the result against the CPU MSM. So the device algorithm is tested on every build, GPU
// or not; what only a GPU can test (launches, streams, memory) is left to tests/gpu.
//
//   1. digits     one thread per scalar: for every window w the key (w·2^{c−1} + |d|−1) and the
//                 value (point index | sign bit), the CPU's signed digits (zk/msm); a zero
//                 digit gets the key `none` = windows·2^{c−1} and sorts to the end.
//   2. sort       (CUB radix sort, stable) groups every bucket's entries.
//   3. levels     load-balanced accumulation: the sorted entries are cut into equal ranges, one
//                 thread each, whatever the buckets' sizes (witnesses are full of 0s and 1s and
//                 small values, so one bucket can hold most of the points; one thread per bucket
//                 would sum it alone). See "Levels" below.
//   4. reduce     per window, segments of kSegment buckets: Σ_k (k+1)·B_k over the segment.
//   5. host       sums each window's segments and combines the windows by doubling.
//
// Levels. Within its range [lo, hi) a thread sums each run of equal keys. A run that is its key's
// whole occurrence at this level is *closed* and is added to its bucket. A run that continues
// into the neighbouring range (keys[lo−1] or keys[hi] equal to it) is *open*: it is written out,
// as (key, partial sum), to the next level's sequence. Only a range's first run can be open to
// the left and only its last to the right, so a thread emits 0, 1 or 2 partials (count_open),
// an exclusive scan of the counts gives every thread its output position, and the next level is
// again sorted with equal keys adjacent. It has at most 2·(threads − 1) entries (a run is open
// only across a range boundary), so with kLevelRange = 32 each level is ~16× shorter than the
// one before; the last level has one thread, where every run is closed. A bucket is written by
// exactly one thread of one level (its key is either closed somewhere or emitted whole), so no
// atomics are needed, and the buckets start at infinity (init) so every write is an addition.
#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "zk/ec/point.hpp"
#include "zk/ff/zk_hd.hpp"

namespace zk::cuda::msm_steps {

constexpr uint32_t kNegative = 0x80000000u;  // sign bit of a value: subtract the point
constexpr unsigned kSegment = 64;            // buckets per reduction segment (step 4)
constexpr size_t kLevelRange = 32;           // entries per thread at levels ≥ 1
constexpr size_t kMinFirstRange = 16;        // entries per thread at level 0, at least
constexpr unsigned kMaxLevels = 24;

// The window width for n points (the device's choice; the CPU picks its own, both read the same
// signed digits for a given width).
inline unsigned window_bits(size_t n) {
  return n >= (size_t(1) << 20) ? 16 : n >= (size_t(1) << 14) ? 13 : 8;
}

struct offsets_t {
  uint64_t h[5];  // H = Σ_w 2^{c−1}·2^{c·w} (msm::signed_digit_windows)
};

// s[j] for a run-time j, without indexing the array at run time: on the device a run-time index
// puts the array in local memory (ptxas: a stack frame); five selects keep it in registers.
ZK_HD uint64_t limb_at(const uint64_t (&s)[5], unsigned j) {
  uint64_t r = 0;
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
  for (unsigned l = 0; l < 5; ++l) r = l == j ? s[l] : r;
  return r;
}

// Step 1 for scalar i (four little-endian limbs at scalars + 4i): entry w·n + i for every window.
ZK_HD void digits_at(const uint64_t* scalars, size_t i, size_t n, unsigned c, unsigned windows,
                     const offsets_t& off, uint32_t* keys, uint32_t* vals) {
  const uint64_t* k = scalars + 4 * i;
  uint64_t s[5];
  unsigned __int128 carry = 0;
  for (int l = 0; l < 5; ++l) {
    carry += (unsigned __int128)(l < 4 ? k[l] : 0) + off.h[l];
    s[l] = uint64_t(carry);
    carry >>= 64;
  }
  const uint32_t nb = uint32_t(1) << (c - 1), none = uint32_t(windows) * nb;
  for (unsigned w = 0; w < windows; ++w) {
    const unsigned pos = w * c, limb = pos / 64, sh = pos % 64;
    uint64_t v = limb_at(s, limb) >> sh;
    if (sh + c > 64 && limb + 1 < 5) v |= limb_at(s, limb + 1) << (64 - sh);
    const int32_t d = int32_t(v & ((uint64_t(1) << c) - 1)) - int32_t(nb);
    const size_t at = size_t(w) * n + i;
    if (d == 0) {
      keys[at] = none;
      vals[at] = 0;
    } else {
      keys[at] = w * nb + uint32_t(d > 0 ? d - 1 : -d - 1);
      vals[at] = uint32_t(i) | (d < 0 ? kNegative : 0u);
    }
  }
}

// The levels of one accumulation over m sorted entries into nkeys buckets: entries per thread
// and thread count per level, and the largest sequence each level can hold (for the workspace).
struct levels_t {
  unsigned count = 0;
  size_t range[kMaxLevels] = {}, threads[kMaxLevels] = {}, bound[kMaxLevels] = {};
};

inline levels_t plan_levels(size_t m, uint32_t nkeys) {
  levels_t p;
  // Level 0: about nkeys/2 threads (as many as buckets would be needed only if every bucket were
  // a thread's whole range), so level 1 holds at most ~nkeys partials: no more than the buckets.
  const size_t target = std::max<size_t>(1, nkeys / 2);
  size_t bound = m, range = std::max(kMinFirstRange, (m + target - 1) / target);
  while (bound > 0 && p.count < kMaxLevels) {
    const size_t threads = (bound + range - 1) / range;
    p.range[p.count] = range;
    p.threads[p.count] = threads;
    p.bound[p.count] = bound;
    ++p.count;
    if (threads <= 1) break;
    bound = 2 * (threads - 1);
    range = kLevelRange;
  }
  return p;
}

// The partials thread t emits at a level (0, 1 or 2); t ≥ the level's threads emits 0. Entries
// with keys ≥ nkeys (zero digits, at the end) are ignored.
ZK_HD unsigned count_open(const uint32_t* keys, size_t m, uint32_t nkeys, size_t range, size_t t) {
  const size_t lo = t * range;
  if (lo >= m) return 0;
  const size_t hi = lo + range < m ? lo + range : m;
  const uint32_t first = keys[lo], last = keys[hi - 1];
  const bool open_left = first < nkeys && lo > 0 && keys[lo - 1] == first;
  const bool open_right = last < nkeys && hi < m && keys[hi] == last;
  if (first == last) return open_left || open_right ? 1 : 0;
  return unsigned(open_left) + unsigned(open_right);
}

// Thread t of a level: sums its runs (add(acc, j) adds entry j into acc), adds each closed run
// into its bucket and writes each open one to (out_keys, out_sums)[emit_at[t] …].
template <class Acc, class Add>
ZK_HD void sum_runs(const uint32_t* keys, size_t m, uint32_t nkeys, size_t range, size_t t,
                    const Add& add, Acc* buckets, const uint32_t* emit_at, uint32_t* out_keys,
                    Acc* out_sums) {
  const size_t lo = t * range;
  if (lo >= m) return;
  const size_t hi = lo + range < m ? lo + range : m;
  size_t pos = emit_at[t];
  for (size_t j = lo; j < hi;) {
    const uint32_t k = keys[j];
    if (k >= nkeys) break;
    const size_t run = j;
    Acc acc = Acc::infinity();
    for (; j < hi && keys[j] == k; ++j) add(acc, j);
    const bool open =
        (run == lo && lo > 0 && keys[lo - 1] == k) || (j == hi && hi < m && keys[hi] == k);
    if (open) {
      out_keys[pos] = k;
      out_sums[pos] = acc;
      ++pos;
    } else {
      buckets[k] += acc;
    }
  }
}

// Level 0's entries: the (signed) base of a sorted value, added in mixed coordinates.
template <class G>
struct add_base_t {
  const ec::affine_t<G>* bases;
  const uint32_t* vals;
  ZK_HD void operator()(ec::xyzz_t<G>& acc, size_t j) const {
    const uint32_t v = vals[j];
    const ec::affine_t<G> p = bases[v & ~kNegative];
    acc = acc.add_mixed((v & kNegative) ? -p : p);
  }
};

// Later levels' entries: partial sums.
template <class G>
struct add_partial_t {
  const ec::xyzz_t<G>* sums;
  ZK_HD void operator()(ec::xyzz_t<G>& acc, size_t j) const { acc += sums[j]; }
};

// Step 4, segment t (of nb/kSegment per window): buckets [w·nb + s·kSegment, … + kSegment), bucket
// k of a window carrying weight k + 1. The running sum gives Σ (k − start + 1)·B_k; start·Σ B_k is
// added by double-and-add (XYZZ throughout: one formula set on the device keeps kernels small).
template <class G>
ZK_HD ec::xyzz_t<G> reduce_segment(const ec::xyzz_t<G>* buckets, uint32_t nb, uint32_t t) {
  const uint32_t per_window = nb / kSegment, w = t / per_window, s = t % per_window;
  const ec::xyzz_t<G>* B = buckets + size_t(w) * nb + size_t(s) * kSegment;
  auto running = ec::xyzz_t<G>::infinity(), total = ec::xyzz_t<G>::infinity();
  for (int k = int(kSegment) - 1; k >= 0; --k) {
    running += B[k];
    total += running;
  }
  auto sum = running;
  for (uint32_t e = s * kSegment; e; e >>= 1, sum = sum.dbl())
    if (e & 1) total += sum;
  return total;
}

// Step 5 (host): segments[w·per_window + s] → Σ_w 2^{c·w}·Σ_s segments.
template <class G>
ec::jacobian_t<G> combine_windows(const ec::xyzz_t<G>* segments, unsigned windows, unsigned c,
                                  uint32_t nb) {
  const uint32_t per_window = nb / kSegment;
  auto r = ec::jacobian_t<G>::infinity();
  for (unsigned w = windows; w-- > 0;) {
    for (unsigned i = 0; i < c && !r.is_infinity(); ++i) r = r.dbl();
    for (uint32_t s = 0; s < per_window; ++s)
      r += segments[size_t(w) * per_window + s].to_jacobian();
  }
  return r;
}

}  // namespace zk::cuda::msm_steps
