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
// A first, straightforward version: correctness against the CPU is what the gpu tests check;
// batch-affine accumulation, resident bases and streams come once it runs on a device.
#include <cub/device/device_radix_sort.cuh>

#include <vector>

#include "common/msm/msm.hpp"
#include "cuda/cuda_util.cuh"

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

template <class G>
__global__ void accumulate_kernel(const ec::affine_t<G>* bases, const uint32_t* vals, const uint32_t* start,
                                  const uint32_t* end, uint32_t nkeys, ec::xyzz_t<G>* buckets) {
  uint32_t b = uint32_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (b >= nkeys) return;
  auto acc = ec::xyzz_t<G>::infinity();
  for (uint32_t j = start[b]; j < end[b]; ++j) {
    uint32_t v = vals[j];
    const ec::affine_t<G> p = bases[v & 0x7fffffffu];
    acc = acc.add_mixed((v & 0x80000000u) ? -p : p);
  }
  buckets[b] = acc;
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

template <class G>
status_t msm_impl(const ec::affine_t<G>* bases, const uint8_t* scalars, size_t n, unsigned bits,
                  ec::jacobian_t<G>* out, const char* name) {
  return guarded(name, [&] {
    using jac = ec::jacobian_t<G>;
    *out = jac::infinity();
    if (n == 0) return;
    if (n > 0x7fffffff) throw std::invalid_argument("more than 2^31 points");
    const unsigned c = n >= (1u << 20) ? 16 : n >= (1u << 14) ? 13 : 8;
    const plan_t p = make_plan(bits, c);
    const uint32_t nb = uint32_t(1) << (c - 1), nkeys = p.windows * nb;
    const size_t m = size_t(p.windows) * n;

    device_buffer<ec::affine_t<G>> d_bases(n);
    device_buffer<uint64_t> d_scalars(4 * n);
    d_bases.upload(bases, n);
    CUDA_OK(cudaMemcpy(d_scalars.get(), scalars, 32 * n, cudaMemcpyHostToDevice));

    device_buffer<uint32_t> keys(m), vals(m), keys_sorted(m), vals_sorted(m);
    digits_kernel<<<blocks_for(n, 256), 256>>>(d_scalars.get(), n, c, p.windows, p.offset[0], p.offset[1],
                                                p.offset[2], p.offset[3], p.offset[4], keys.get(), vals.get());
    CUDA_OK(cudaGetLastError());

    size_t temp_bytes = 0;
    int end_bit = 1;
    while ((uint64_t(1) << end_bit) <= nkeys) ++end_bit;
    CUDA_OK(cub::DeviceRadixSort::SortPairs(nullptr, temp_bytes, keys.get(), keys_sorted.get(), vals.get(),
                                            vals_sorted.get(), m, 0, end_bit));
    device_buffer<uint8_t> temp(temp_bytes);
    CUDA_OK(cub::DeviceRadixSort::SortPairs(temp.get(), temp_bytes, keys.get(), keys_sorted.get(), vals.get(),
                                            vals_sorted.get(), m, 0, end_bit));

    device_buffer<uint32_t> start(nkeys), end(nkeys);
    CUDA_OK(cudaMemset(start.get(), 0, nkeys * sizeof(uint32_t)));
    CUDA_OK(cudaMemset(end.get(), 0, nkeys * sizeof(uint32_t)));
    boundaries_kernel<<<blocks_for(m, 256), 256>>>(keys_sorted.get(), m, nkeys, start.get(), end.get());

    device_buffer<ec::xyzz_t<G>> buckets(nkeys);
    accumulate_kernel<G><<<blocks_for(nkeys, kThreads), kThreads>>>(d_bases.get(), vals_sorted.get(), start.get(),
                                                                    end.get(), nkeys, buckets.get());
    const uint32_t segments = nkeys / kSegment;  // nb ≥ 128 is a multiple of kSegment
    device_buffer<ec::xyzz_t<G>> partial(segments);
    reduce_kernel<G><<<blocks_for(segments, kThreads), kThreads>>>(buckets.get(), nb, segments, partial.get());
    CUDA_OK(cudaGetLastError());
    std::vector<ec::xyzz_t<G>> host(segments);
    partial.download(host.data(), segments);

    const uint32_t per_window = nb / kSegment;
    jac r = jac::infinity();
    for (unsigned w = p.windows; w-- > 0;) {
      for (unsigned i = 0; i < c && !r.is_infinity(); ++i) r = r.dbl();
      for (uint32_t s = 0; s < per_window; ++s) r += host[size_t(w) * per_window + s].to_jacobian();
    }
    *out = r;
  });
}

}  // namespace
}  // namespace msm_detail
}  // namespace zk::cuda
