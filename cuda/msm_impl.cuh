#pragma once
// MSM kernels (Pippenger on the device). The steps — signed digits, sort, load-balanced bucket
// accumulation in levels, window reduction, host combination — are written once as plain
// functions in cuda/msm_steps.hpp (where they are explained, and tested on the host); the kernels
// here are one call per thread, and this file decides where the memory and the work go.
//
// Where the bases come from (cuda/context.cuh):
//   resident  the key cache holds them (a hit), or they fit the VRAM budget and are uploaded into
//             it now, on the copy stream, while the compute stream runs digits and sort on the
//             scalars (it waits for the bases only before the accumulation). One pass over all n
//             points.
//   streamed  they do not fit: chunks of bases and scalars go through the two pinned staging
//             slots into two device slots; while the compute stream runs digits, sort and
//             accumulation on chunk i, the host stages chunk i+1 and the copy stream moves it.
//             Every chunk adds into the same buckets (a bucket's sum does not care which chunk a
//             point came in), so the reduction runs once, as in the resident path, and the result
//             is the same.
#include <algorithm>
#include <cstring>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>
#include <mutex>
#include <vector>

#include "cuda/context.cuh"
#include "cuda/msm_steps.hpp"
#include "zk/msm/msm.hpp"

namespace zk::cuda {
namespace msm_detail {
namespace {  // each .cu gets its own copy of the kernels (internal linkage)

namespace steps = msm_steps;
constexpr unsigned kThreads = 128;

struct plan_t {
  unsigned c = 16, windows = 0;
  steps::offsets_t offset{};
};

plan_t make_plan(unsigned bits, unsigned c) {
  plan_t p;
  p.c = c;
  p.windows = msm::signed_digit_windows(bits, c, p.offset.h);  // the CPU's digits exactly
  return p;
}

__global__ void digits_kernel(const uint64_t* scalars, size_t n, unsigned c, unsigned windows,
                              steps::offsets_t off, uint32_t* keys, uint32_t* vals) {
  size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) steps::digits_at(scalars, i, n, c, windows, off, keys, vals);
}

template <class G>
__global__ void init_buckets_kernel(ec::xyzz_t<G>* buckets, uint32_t nkeys) {
  uint32_t b = uint32_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (b < nkeys) buckets[b] = ec::xyzz_t<G>::infinity();
}

// A level's length is m (level 0) or *len, written by the level before (later levels).
__global__ void count_kernel(const uint32_t* keys, size_t m, const uint32_t* len, uint32_t nkeys,
                             size_t range, size_t n_counts, uint32_t* counts) {
  size_t t = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t < n_counts) counts[t] = steps::count_open(keys, len ? *len : m, nkeys, range, t);
}

// (launch bounds: the compiler must keep these under 65536 / kThreads registers a thread, or a
// launch fails; the G2 kernels sit at the 255 cap)
template <class G, class Add>
__global__ void __launch_bounds__(kThreads)
    sum_kernel(const uint32_t* keys, size_t m, const uint32_t* len, uint32_t nkeys, size_t range,
               size_t threads, Add add, ec::xyzz_t<G>* buckets, const uint32_t* emit_at,
               uint32_t* out_keys, ec::xyzz_t<G>* out_sums, uint32_t* next_len) {
  size_t t = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t >= threads) return;
  if (t == 0) *next_len = emit_at[threads];  // the scan's total: the next level's length
  steps::sum_runs(keys, len ? *len : m, nkeys, range, t, add, buckets, emit_at, out_keys, out_sums);
}

template <class G>
__global__ void __launch_bounds__(kThreads) reduce_kernel(const ec::xyzz_t<G>* buckets, uint32_t nb,
                                                          uint32_t segments, ec::xyzz_t<G>* out) {
  uint32_t t = uint32_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t < segments) out[t] = steps::reduce_segment(buckets, nb, t);
}

// What the workspace must hold for the levels of any pass of this MSM: the most level-0 threads
// and the two partial sequences' bounds (levels 1, 3, … use part[0], levels 2, 4, … part[1]).
struct level_room_t {
  size_t threads = 0, part[2] = {};
  void fit(const steps::levels_t& lv) {
    threads = std::max(threads, lv.threads[0]);
    if (lv.count > 1) part[0] = std::max(part[0], lv.bound[1]);
    if (lv.count > 2) part[1] = std::max(part[1], lv.bound[2]);
  }
};

// The working arrays of one pass over `pts` points (all n, or one streamed chunk), carved out of
// the context's workspace (carve_t: a null base only measures).
template <class G>
struct work_t {
  uint64_t* scalars = nullptr;          // resident: all n scalars
  ec::affine_t<G>* slot_bases[2] = {};  // streamed: the two chunk slots
  uint64_t* slot_scalars[2] = {};
  uint32_t *keys = nullptr, *vals = nullptr, *keys_sorted = nullptr, *vals_sorted = nullptr;
  uint8_t* temp = nullptr;  // CUB's: the sort's or the scan's, whichever is larger
  size_t temp_bytes = 0;
  uint32_t *counts = nullptr, *emit_at = nullptr, *level_len = nullptr;
  uint32_t* part_keys[2] = {};
  ec::xyzz_t<G>* part_sums[2] = {};
  ec::xyzz_t<G>* buckets = nullptr;
  ec::xyzz_t<G>* segment_sums = nullptr;
};

template <class G>
work_t<G> layout(carve_t& cv, size_t pts, bool streamed, unsigned windows, uint32_t nkeys,
                 uint32_t segments, int end_bit, const level_room_t& room) {
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
  size_t sort_bytes = 0, scan_bytes = 0;
  CUDA_OK(cub::DeviceRadixSort::SortPairs(nullptr, sort_bytes, w.keys, w.keys_sorted, w.vals,
                                          w.vals_sorted, uint32_t(m), 0, end_bit));
  CUDA_OK(cub::DeviceScan::ExclusiveSum(nullptr, scan_bytes, w.counts, w.emit_at,
                                        uint32_t(room.threads + 1)));
  w.temp_bytes = std::max(sort_bytes, scan_bytes);
  w.temp = cv.take<uint8_t>(w.temp_bytes);
  w.counts = cv.take<uint32_t>(room.threads + 1);
  w.emit_at = cv.take<uint32_t>(room.threads + 1);
  w.level_len = cv.take<uint32_t>(steps::kMaxLevels + 1);
  for (int s = 0; s < 2; ++s) {
    w.part_keys[s] = cv.take<uint32_t>(room.part[s]);
    w.part_sums[s] = cv.take<ec::xyzz_t<G>>(room.part[s]);
  }
  w.buckets = cv.take<ec::xyzz_t<G>>(nkeys);
  w.segment_sums = cv.take<ec::xyzz_t<G>>(segments);
  return w;
}

// Digits and sort over `pts` points on stream s.
template <class G>
void sort_pass(cudaStream_t s, const work_t<G>& w, const uint64_t* scalars, size_t pts,
               const plan_t& p, int end_bit) {
  const size_t m = size_t(p.windows) * pts;
  digits_kernel<<<blocks_for(pts, 256), 256, 0, s>>>(scalars, pts, p.c, p.windows, p.offset, w.keys,
                                                     w.vals);
  CUDA_OK(cudaGetLastError());
  size_t temp_bytes = w.temp_bytes;
  CUDA_OK(cub::DeviceRadixSort::SortPairs(w.temp, temp_bytes, w.keys, w.keys_sorted, w.vals,
                                          w.vals_sorted, uint32_t(m), 0, end_bit, s));
}

// The accumulation of one sorted pass into the buckets on stream s (first: the buckets start at
// infinity), level by level: count the open runs, scan the counts, sum.
template <class G>
void accumulate_pass(cudaStream_t s, const work_t<G>& w, const ec::affine_t<G>* bases, size_t pts,
                     unsigned windows, uint32_t nkeys, bool first) {
  if (first) init_buckets_kernel<G><<<blocks_for(nkeys, 256), 256, 0, s>>>(w.buckets, nkeys);
  const size_t m = size_t(windows) * pts;
  const steps::levels_t lv = steps::plan_levels(m, nkeys);
  for (unsigned l = 0; l < lv.count; ++l) {
    const size_t threads = lv.threads[l], range = lv.range[l];
    const uint32_t* keys = l == 0 ? w.keys_sorted : w.part_keys[(l - 1) & 1];
    const uint32_t* len = l == 0 ? nullptr : w.level_len + l;
    count_kernel<<<blocks_for(threads + 1, 256), 256, 0, s>>>(keys, m, len, nkeys, range,
                                                              threads + 1, w.counts);
    size_t temp_bytes = w.temp_bytes;
    CUDA_OK(cub::DeviceScan::ExclusiveSum(w.temp, temp_bytes, w.counts, w.emit_at,
                                          uint32_t(threads + 1), s));
    uint32_t* out_keys = w.part_keys[l & 1];
    ec::xyzz_t<G>* out_sums = w.part_sums[l & 1];
    uint32_t* next_len = w.level_len + l + 1;
    if (l == 0)
      sum_kernel<G><<<blocks_for(threads, kThreads), kThreads, 0, s>>>(
          keys, m, len, nkeys, range, threads, steps::add_base_t<G>{bases, w.vals_sorted},
          w.buckets, w.emit_at, out_keys, out_sums, next_len);
    else
      sum_kernel<G><<<blocks_for(threads, kThreads), kThreads, 0, s>>>(
          keys, m, len, nkeys, range, threads, steps::add_partial_t<G>{w.part_sums[(l - 1) & 1]},
          w.buckets, w.emit_at, out_keys, out_sums, next_len);
    CUDA_OK(cudaGetLastError());
  }
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
    const unsigned c = steps::window_bits(n);
    const plan_t p = make_plan(bits, c);
    const uint32_t nb = uint32_t(1) << (c - 1), nkeys = p.windows * nb;
    const uint32_t segments = nkeys / steps::kSegment;  // nb ≥ 128 is a multiple of kSegment
    int end_bit = 1;
    while ((uint64_t(1) << end_bit) <= nkeys) ++end_bit;

    auto& ctx = detail::context_t::get();
    std::lock_guard<std::mutex> lock(ctx.mu);
    ctx.begin_call();
    detail::call_timer_t timer(ctx, name, n);
    const size_t base_bytes = n * sizeof(aff);

    level_room_t room;
    room.fit(steps::plan_levels(size_t(p.windows) * n, nkeys));
    carve_t probe;
    layout<G>(probe, n, false, p.windows, nkeys, segments, end_bit, room);
    const size_t ws_resident = probe.used;

    // Resident when cached (a hit) or when it fits the budget now (admit: a miss, uploaded below).
    // One pass sorts windows·n entries, counted in 32 bits (CUB's 32-bit offsets); beyond 2^32
    // (n ≳ 2^27, whose keys alone would take 64 GiB) the bases are streamed in chunks that fit.
    const bool one_pass = uint64_t(p.windows) * n <= UINT32_MAX;
    const void* hit = one_pass ? ctx.find(bases, base_bytes) : nullptr;
    void* fresh = nullptr;
    uint8_t* ws = nullptr;
    const xyzz* d_segments = nullptr;
    if (hit) {
      // No room for the one-pass working memory next to the cached bases (every other section is
      // evicted by now): drop this one too — kept, it would send every call on this key down the
      // same path — and stream, whose working memory is a chunk's.
      if (!(ws = ctx.workspace(ws_resident, hit))) {
        ctx.forget(hit);
        hit = nullptr;
      }
    } else if (one_pass && (fresh = ctx.admit(bases, base_bytes, ws_resident))) {
      ws = ctx.workspace(ws_resident, fresh);  // admit made sure of it
    }

    if (ws) {
      carve_t cv{ws};
      const work_t<G> w = layout<G>(cv, n, false, p.windows, nkeys, segments, end_bit, room);
      ctx.h2d_pinned(w.scalars, scalars, 32 * n);
      CUDA_OK(cudaEventRecord(ctx.inputs_ready, ctx.copy));
      CUDA_OK(cudaStreamWaitEvent(ctx.compute, ctx.inputs_ready, 0));
      timer.kernels_begin();
      sort_pass<G>(ctx.compute, w, w.scalars, n, p, end_bit);
      if (fresh) {
        // A miss: the bases go into the cache now, the host staging them and the copy stream
        // moving them while the compute stream runs the digits and the sort enqueued above.
        ctx.h2d_staged(fresh, bases, base_bytes);
        ctx.commit(fresh);
        CUDA_OK(cudaEventRecord(ctx.bases_ready, ctx.copy));
        CUDA_OK(cudaStreamWaitEvent(ctx.compute, ctx.bases_ready, 0));
      }
      timer.uploaded();
      accumulate_pass<G>(ctx.compute, w, static_cast<const aff*>(hit ? hit : fresh), n, p.windows,
                         nkeys, true);
      reduce_kernel<G><<<blocks_for(segments, kThreads), kThreads, 0, ctx.compute>>>(
          w.buckets, nb, segments, w.segment_sums);
      d_segments = w.segment_sums;
      timer.info.cache_hit = hit != nullptr;
      timer.info.resident = true;
    } else {
      // Streamed: chunks of `chunk` points, two in flight (slot k&1).
      const size_t chunk =
          std::min({n, ctx.chunk_points(sizeof(aff)), size_t(UINT32_MAX / p.windows)});
      const size_t chunks = (n + chunk - 1) / chunk;
      level_room_t room_s;  // the full chunks' levels and the last (shorter) chunk's
      room_s.fit(steps::plan_levels(size_t(p.windows) * chunk, nkeys));
      room_s.fit(steps::plan_levels(size_t(p.windows) * (n - (chunks - 1) * chunk), nkeys));
      carve_t probe_s;
      layout<G>(probe_s, chunk, true, p.windows, nkeys, segments, end_bit, room_s);
      ws = ctx.workspace(probe_s.used, nullptr);
      if (!ws)
        throw cuda_error(cudaErrorMemoryAllocation,
                         "no room for the streamed MSM's working memory");
      carve_t cv{ws};
      const work_t<G> w = layout<G>(cv, chunk, true, p.windows, nkeys, segments, end_bit, room_s);
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
        CUDA_OK(cudaMemcpyAsync(w.slot_bases[s], pin, len * sizeof(aff), cudaMemcpyHostToDevice,
                                ctx.copy));
        CUDA_OK(cudaMemcpyAsync(w.slot_scalars[s], pin + chunk * sizeof(aff), 32 * len,
                                cudaMemcpyHostToDevice, ctx.copy));
        CUDA_OK(cudaEventRecord(ctx.staged[s], ctx.copy));
        ctx.stats.bytes_uploaded += len * (sizeof(aff) + 32);
        // Compute stream: chunk k once it has arrived.
        CUDA_OK(cudaStreamWaitEvent(ctx.compute, ctx.staged[s], 0));
        if (k == 0) timer.kernels_begin();
        sort_pass<G>(ctx.compute, w, w.slot_scalars[s], len, p, end_bit);
        accumulate_pass<G>(ctx.compute, w, w.slot_bases[s], len, p.windows, nkeys, k == 0);
        CUDA_OK(cudaEventRecord(ctx.consumed[s], ctx.compute));
      }
      timer.uploaded();
      reduce_kernel<G><<<blocks_for(segments, kThreads), kThreads, 0, ctx.compute>>>(
          w.buckets, nb, segments, w.segment_sums);
      d_segments = w.segment_sums;
      ++ctx.stats.streamed_msms;
      ctx.stats.streamed_chunks += chunks;
      timer.info.streamed = true;
      timer.info.chunks = unsigned(chunks);
    }
    CUDA_OK(cudaGetLastError());
    timer.kernels_end();

    // Segment sums → pinned host memory (host_out is not in flight: begin_call waited).
    auto* host = reinterpret_cast<xyzz*>(ctx.host_out.reserve(segments * sizeof(xyzz)));
    CUDA_OK(cudaMemcpyAsync(host, d_segments, segments * sizeof(xyzz), cudaMemcpyDeviceToHost,
                            ctx.compute));
    timer.finish(true);

    *out = steps::combine_windows<G>(host, p.windows, c, nb);
  });
}

}  // namespace
}  // namespace msm_detail
}  // namespace zk::cuda
