#pragma once
// MSM kernels (Pippenger on the device): signed-digit decomposition, sort by bucket, bucket
// accumulation, window reduction — the CPU MSM's digits (k + H, common/msm) so both agree.
//
//   1. digits:      one thread per scalar writes, for every window w, the key
//                   (w·2^{c−1} + |d|−1) and the value (point index | sign bit); zero digits get
//                   an out-of-range key and sort to the end.
//   2. sort:        one CUB radix sort of all (key, value) pairs groups each bucket's points.
//   3. boundaries:  each bucket's [start, end) in the sorted array.
//   4. accumulate:  one thread per bucket sums its points in XYZZ (mixed additions, negating
//                   for negative digits; (0,0) bases are skipped by add_mixed).
//   5. reduce:      per window, segments of buckets: Σ_k (k+1)·B_k = Σ_segments
//                   (T_s + start_s·S_s), T_s the running-sum total inside the segment and S_s
//                   its plain sum; one thread per segment.
//   6. host:        sums the segment results of each window and combines the windows by
//                   doubling (c per window).
//
// Where the bases come from (cuda/context.cuh):
//   resident  the key cache holds them (a hit), or they fit the VRAM budget and are uploaded into
//             it now, on the copy stream, while the compute stream runs steps 1–3 on the scalars
//             (it waits for the bases only before step 4). Steps 1–5 run once over all n points.
//   streamed  they do not fit: chunks of bases and scalars go through the two pinned staging
//             slots into two device slots; while the compute stream runs steps 1–4 on chunk i,
//             the host stages chunk i+1 and the copy stream moves it. Step 4 adds each chunk's
//             sums into the same buckets (a bucket's sum does not care which chunk a point came
//             in), so step 5 runs once, as in the resident path, and the result is the same.
#include <cub/device/device_radix_sort.cuh>

#include <algorithm>
#include <cstring>
#include <mutex>
#include <vector>

#include "common/msm/msm.hpp"
#include "cuda/context.cuh"

namespace zk::cuda {
namespace msm_detail {
namespace {  // each .cu gets its own copy of the kernels (internal linkage)

constexpr unsigned kThreads = 128;
constexpr unsigned kSegment = 64;  // buckets per reduction segment

struct plan_t {
  unsigned c = 16, windows = 0;
  uint64_t offset[5] = {};
};

plan_t make_plan(unsigned bits, unsigned c) {
  plan_t p;
  p.c = c;
  p.windows = msm::signed_digit_windows(bits, c, p.offset);  // the CPU's digits exactly
  return p;
}

__global__ void digits_kernel(const uint64_t* scalars, size_t n, unsigned c, unsigned windows, uint64_t o0,
                              uint64_t o1, uint64_t o2, uint64_t o3, uint64_t o4, uint32_t* keys, uint32_t* vals) {
  size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const uint64_t* k = scalars + 4 * i;
  uint64_t off[5] = {o0, o1, o2, o3, o4}, s[5];
  unsigned __int128 carry = 0;
  for (int l = 0; l < 5; ++l) {
    carry += (unsigned __int128)(l < 4 ? k[l] : 0) + off[l];
    s[l] = uint64_t(carry);
    carry >>= 64;
  }
  const uint32_t nb = uint32_t(1) << (c - 1), none = uint32_t(windows) * nb;
  for (unsigned w = 0; w < windows; ++w) {
    unsigned pos = w * c, limb = pos / 64, sh = pos % 64;
    uint64_t v = s[limb] >> sh;
    if (sh + c > 64 && limb + 1 < 5) v |= s[limb + 1] << (64 - sh);
    int32_t d = int32_t(v & ((uint64_t(1) << c) - 1)) - int32_t(nb);
    size_t at = size_t(w) * n + i;
    if (d == 0) {
      keys[at] = none;
      vals[at] = 0;
    } else {
      keys[at] = w * nb + uint32_t(d > 0 ? d - 1 : -d - 1);
      vals[at] = uint32_t(i) | (d < 0 ? 0x80000000u : 0u);
    }
  }
}

__global__ void boundaries_kernel(const uint32_t* keys, size_t m, uint32_t nkeys, uint32_t* start, uint32_t* end) {
  size_t j = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (j >= m) return;
  uint32_t k = keys[j];
  if (k >= nkeys) return;
  if (j == 0 || keys[j - 1] != k) start[k] = uint32_t(j);
  if (j + 1 == m || keys[j + 1] != k) end[k] = uint32_t(j + 1);
}

// Add: add into the buckets (streamed chunks after the first) instead of overwriting them.
template <class G, bool Add>
__global__ void accumulate_kernel(const ec::affine_t<G>* bases, const uint32_t* vals, const uint32_t* start,
                                  const uint32_t* end, uint32_t nkeys, ec::xyzz_t<G>* buckets) {
  uint32_t b = uint32_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (b >= nkeys) return;
  const uint32_t lo = start[b], hi = end[b];
  if (Add && lo == hi) return;
  auto acc = ec::xyzz_t<G>::infinity();
  for (uint32_t j = lo; j < hi; ++j) {
    uint32_t v = vals[j];
    const ec::affine_t<G> p = bases[v & 0x7fffffffu];
    acc = acc.add_mixed((v & 0x80000000u) ? -p : p);
  }
  if (Add) buckets[b] += acc;
  else buckets[b] = acc;
}

// Segment s of window w: buckets [w·nb + s·kSegment, … + kSegment); bucket k carries weight k+1.
template <class G>
__global__ void reduce_kernel(const ec::xyzz_t<G>* buckets, uint32_t nb, uint32_t segments_total,
                              ec::xyzz_t<G>* out) {
  uint32_t t = uint32_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t >= segments_total) return;
  const uint32_t per_window = nb / kSegment, w = t / per_window, s = t % per_window;
  const ec::xyzz_t<G>* B = buckets + size_t(w) * nb + size_t(s) * kSegment;
  auto running = ec::xyzz_t<G>::infinity(), total = ec::xyzz_t<G>::infinity();
  for (int k = int(kSegment) - 1; k >= 0; --k) {
    running += B[k];
    total += running;
  }
  // total = Σ (k − seg_start + 1)·B_k; add seg_start·Σ B_k (XYZZ throughout: one formula set
  // on the device keeps the kernels small)
  auto sum = running;
  for (uint32_t e = s * kSegment; e; e >>= 1, sum = sum.dbl())
    if (e & 1) total += sum;
  out[t] = total;
}

// The working arrays of one pass over `pts` points (all n, or one streamed chunk), carved out of
// the context's workspace (carve_t: a null base only measures).
template <class G>
struct work_t {
  uint64_t* scalars = nullptr;                  // resident: all n scalars
  ec::affine_t<G>* slot_bases[2] = {};          // streamed: the two chunk slots
  uint64_t* slot_scalars[2] = {};
  uint32_t *keys = nullptr, *vals = nullptr, *keys_sorted = nullptr, *vals_sorted = nullptr;
  uint32_t *start = nullptr, *end = nullptr;
  uint8_t* temp = nullptr;
  size_t temp_bytes = 0;
  ec::xyzz_t<G>* buckets = nullptr;
  ec::xyzz_t<G>* partial = nullptr;
};

template <class G>
work_t<G> layout(carve_t& cv, size_t pts, bool streamed, unsigned windows, uint32_t nkeys, uint32_t segments,
                 int end_bit) {
  work_t<G> w;
  const size_t m = size_t(windows) * pts;
  if (streamed) {
    for (int s = 0; s < 2; ++s) {
      w.slot_bases[s] = cv.take<ec::affine_t<G>>(pts);
      w.slot_scalars[s] = cv.take<uint64_t>(4 * pts);
    }
  } else {
    w.scalars = cv.take<uint64_t>(4 * pts);
  }
  w.keys = cv.take<uint32_t>(m);
  w.vals = cv.take<uint32_t>(m);
  w.keys_sorted = cv.take<uint32_t>(m);
  w.vals_sorted = cv.take<uint32_t>(m);
  CUDA_OK(cub::DeviceRadixSort::SortPairs(nullptr, w.temp_bytes, w.keys, w.keys_sorted, w.vals, w.vals_sorted, m, 0,
                                          end_bit));
  w.temp = cv.take<uint8_t>(w.temp_bytes);
  w.start = cv.take<uint32_t>(nkeys);
  w.end = cv.take<uint32_t>(nkeys);
  w.buckets = cv.take<ec::xyzz_t<G>>(nkeys);
  w.partial = cv.take<ec::xyzz_t<G>>(segments);
  return w;
}

// Steps 1–3 over `pts` points on stream s: digits, sort, bucket boundaries.
template <class G>
void sort_pass(cudaStream_t s, const work_t<G>& w, const uint64_t* scalars, size_t pts, const plan_t& p,
               uint32_t nkeys, int end_bit) {
  const size_t m = size_t(p.windows) * pts;
  digits_kernel<<<blocks_for(pts, 256), 256, 0, s>>>(scalars, pts, p.c, p.windows, p.offset[0], p.offset[1],
                                                      p.offset[2], p.offset[3], p.offset[4], w.keys, w.vals);
  CUDA_OK(cudaGetLastError());
  size_t temp_bytes = w.temp_bytes;
  CUDA_OK(cub::DeviceRadixSort::SortPairs(w.temp, temp_bytes, w.keys, w.keys_sorted, w.vals, w.vals_sorted, m, 0,
                                          end_bit, s));
  CUDA_OK(cudaMemsetAsync(w.start, 0, nkeys * sizeof(uint32_t), s));
  CUDA_OK(cudaMemsetAsync(w.end, 0, nkeys * sizeof(uint32_t), s));
  boundaries_kernel<<<blocks_for(m, 256), 256, 0, s>>>(w.keys_sorted, m, nkeys, w.start, w.end);
  CUDA_OK(cudaGetLastError());
}

// Step 4 on stream s: each bucket's points summed into (Add) or written over its bucket.
template <class G, bool Add>
void accumulate_pass(cudaStream_t s, const work_t<G>& w, const ec::affine_t<G>* bases, uint32_t nkeys) {
  accumulate_kernel<G, Add><<<blocks_for(nkeys, kThreads), kThreads, 0, s>>>(bases, w.vals_sorted, w.start, w.end,
                                                                            nkeys, w.buckets);
  CUDA_OK(cudaGetLastError());
}

template <class G>
status_t msm_impl(const ec::affine_t<G>* bases, const uint8_t* scalars, size_t n, unsigned bits,
                  ec::jacobian_t<G>* out, const char* name) {
  return guarded(name, [&] {
    using jac = ec::jacobian_t<G>;
    using aff = ec::affine_t<G>;
    using xyzz = ec::xyzz_t<G>;
    *out = jac::infinity();
    if (n == 0) return;
    if (n > 0x7fffffff) throw std::invalid_argument("more than 2^31 points");
    const unsigned c = n >= (1u << 20) ? 16 : n >= (1u << 14) ? 13 : 8;
    const plan_t p = make_plan(bits, c);
    const uint32_t nb = uint32_t(1) << (c - 1), nkeys = p.windows * nb;
    const uint32_t segments = nkeys / kSegment;  // nb ≥ 128 is a multiple of kSegment
    int end_bit = 1;
    while ((uint64_t(1) << end_bit) <= nkeys) ++end_bit;

    auto& ctx = detail::context_t::get();
    std::lock_guard<std::mutex> lock(ctx.mu);
    ctx.begin_call();
    detail::call_timer_t timer(ctx, name, n);
    const size_t base_bytes = n * sizeof(aff);

    carve_t probe;
    layout<G>(probe, n, false, p.windows, nkeys, segments, end_bit);
    const size_t ws_resident = probe.used;

    // Resident when cached (a hit) or when it fits the budget now (admit: a miss, uploaded below).
    const void* hit = ctx.find(bases, base_bytes);
    void* fresh = nullptr;
    uint8_t* ws = nullptr;
    const xyzz* d_partial = nullptr;
    if (hit) {
      ws = ctx.workspace(ws_resident, hit);
      if (!ws) throw cuda_error(cudaErrorMemoryAllocation, "no room for the MSM's working memory");
    } else if ((fresh = ctx.admit(bases, base_bytes, ws_resident))) {
      ws = ctx.workspace(ws_resident, fresh);  // admit made sure of it
    }

    if (ws) {
      carve_t cv{ws};
      const work_t<G> w = layout<G>(cv, n, false, p.windows, nkeys, segments, end_bit);
      ctx.h2d_pinned(w.scalars, scalars, 32 * n);
      CUDA_OK(cudaEventRecord(ctx.inputs_ready, ctx.copy));
      CUDA_OK(cudaStreamWaitEvent(ctx.compute, ctx.inputs_ready, 0));
      timer.kernels_begin();
      sort_pass<G>(ctx.compute, w, w.scalars, n, p, nkeys, end_bit);
      if (fresh) {
        // A miss: the bases go into the cache now, the host staging them and the copy stream
        // moving them while the compute stream runs the digits and the sort enqueued above.
        ctx.h2d_staged(fresh, bases, base_bytes);
        ctx.commit(fresh);
        CUDA_OK(cudaEventRecord(ctx.bases_ready, ctx.copy));
        CUDA_OK(cudaStreamWaitEvent(ctx.compute, ctx.bases_ready, 0));
      }
      timer.uploaded();
      accumulate_pass<G, false>(ctx.compute, w, static_cast<const aff*>(hit ? hit : fresh), nkeys);
      reduce_kernel<G><<<blocks_for(segments, kThreads), kThreads, 0, ctx.compute>>>(w.buckets, nb, segments,
                                                                                      w.partial);
      d_partial = w.partial;
      timer.info.cache_hit = hit != nullptr;
      timer.info.resident = true;
    } else {
      // Streamed: chunks of `chunk` points, two in flight (slot k&1).
      const size_t chunk = std::min(n, ctx.chunk_points(sizeof(aff)));
      const size_t chunks = (n + chunk - 1) / chunk;
      carve_t probe_s;
      layout<G>(probe_s, chunk, true, p.windows, nkeys, segments, end_bit);
      ws = ctx.workspace(probe_s.used, nullptr);
      if (!ws) throw cuda_error(cudaErrorMemoryAllocation, "no room for the streamed MSM's working memory");
      carve_t cv{ws};
      const work_t<G> w = layout<G>(cv, chunk, true, p.windows, nkeys, segments, end_bit);
      const size_t slot_bytes = chunk * (sizeof(aff) + 32);
      ctx.staging[0].reserve(slot_bytes);
      ctx.staging[1].reserve(slot_bytes);
      for (size_t k = 0; k < chunks; ++k) {
        const size_t lo = k * chunk, len = std::min(chunk, n - lo), s = k & 1;
        uint8_t* pin = ctx.staging[s].get();
        // Host: staging slot s is free once its previous DMA (chunk k−2) is done; meanwhile the
        // device still accumulates chunk k−1.
        CUDA_OK(cudaEventSynchronize(ctx.staged[s]));
        std::memcpy(pin, bases + lo, len * sizeof(aff));
        std::memcpy(pin + chunk * sizeof(aff), scalars + 32 * lo, 32 * len);
        // Copy stream: device slot s is free once chunk k−2's accumulation is done.
        CUDA_OK(cudaStreamWaitEvent(ctx.copy, ctx.consumed[s], 0));
        CUDA_OK(cudaMemcpyAsync(w.slot_bases[s], pin, len * sizeof(aff), cudaMemcpyHostToDevice, ctx.copy));
        CUDA_OK(cudaMemcpyAsync(w.slot_scalars[s], pin + chunk * sizeof(aff), 32 * len, cudaMemcpyHostToDevice,
                                ctx.copy));
        CUDA_OK(cudaEventRecord(ctx.staged[s], ctx.copy));
        ctx.stats.bytes_uploaded += len * (sizeof(aff) + 32);
        // Compute stream: chunk k once it has arrived.
        CUDA_OK(cudaStreamWaitEvent(ctx.compute, ctx.staged[s], 0));
        if (k == 0) timer.kernels_begin();
        sort_pass<G>(ctx.compute, w, w.slot_scalars[s], len, p, nkeys, end_bit);
        if (k == 0) accumulate_pass<G, false>(ctx.compute, w, w.slot_bases[s], nkeys);
        else accumulate_pass<G, true>(ctx.compute, w, w.slot_bases[s], nkeys);
        CUDA_OK(cudaEventRecord(ctx.consumed[s], ctx.compute));
      }
      timer.uploaded();
      reduce_kernel<G><<<blocks_for(segments, kThreads), kThreads, 0, ctx.compute>>>(w.buckets, nb, segments,
                                                                                      w.partial);
      d_partial = w.partial;
      ++ctx.stats.streamed_msms;
      ctx.stats.streamed_chunks += chunks;
      timer.info.streamed = true;
      timer.info.chunks = unsigned(chunks);
    }
    CUDA_OK(cudaGetLastError());
    timer.kernels_end();

    // Segment sums → pinned host memory (host_out is not in flight: begin_call waited).
    auto* host = reinterpret_cast<xyzz*>(ctx.host_out.reserve(segments * sizeof(xyzz)));
    CUDA_OK(cudaMemcpyAsync(host, d_partial, segments * sizeof(xyzz), cudaMemcpyDeviceToHost, ctx.compute));
    timer.finish(true);

    const uint32_t per_window = nb / kSegment;
    jac r = jac::infinity();
    for (unsigned w_ = p.windows; w_-- > 0;) {
      for (unsigned i = 0; i < c && !r.is_infinity(); ++i) r = r.dbl();
      for (uint32_t s = 0; s < per_window; ++s) r += host[size_t(w_) * per_window + s].to_jacobian();
    }
    *out = r;
  });
}

}  // namespace
}  // namespace msm_detail
}  // namespace zk::cuda
