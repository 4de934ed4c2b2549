// NTT kernels: the odd-coset transform of compute_h (groth16-compat.md §3.3) with snarkjs's
// roots. One kernel launch per radix-2 stage (each thread one butterfly), the coset scaling
// fused into one pointwise kernel between the inverse DIF pass and the forward DIT pass — the
// same structure as the CPU domain (common/ntt), so the two agree bit for bit. Copies go
// through the context's pinned buffers and streams (cuda/context.cuh), timed with its events.
#include <mutex>
#include <vector>

#include "common/ntt/butterfly.hpp"
#include "common/ntt/ntt.hpp"
#include "cuda/context.cuh"

namespace zk::cuda {
namespace {

constexpr unsigned kThreads = 256;

__device__ __forceinline__ size_t bitrev(size_t x, unsigned bits) { return __brevll(x) >> (64 - bits); }

template <class Fr, bool Inverse>
__global__ void dif_stage(Fr* a, const Fr* tw, size_t half_n, size_t len, size_t stride) {
  size_t k = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (k < half_n) ntt::dif_butterfly<Inverse>(a, k, len, stride, tw, half_n);
}

template <class Fr>
__global__ void dit_stage(Fr* a, const Fr* tw, size_t half_n, size_t len, size_t stride) {
  size_t k = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (k < half_n) ntt::dit_butterfly(a, k, len, stride, tw);
}

// Position i holds coefficient j = bitrev(i); scale by ω_2n^j / n (see ntt.cpp).
template <class Fr>
__global__ void coset_scale(Fr* a, const Fr* tw, size_t n, unsigned log_n, Fr n_inv, Fr g_n_inv) {
  size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  size_t half = n / 2, j = log_n ? bitrev(i, log_n) : 0, m = j >> 1;
  Fr s = (j & 1) ? g_n_inv : n_inv;
  if (n == 1) a[i] = a[i] * s;
  else if (m < half) a[i] = a[i] * tw[m] * s;
  else a[i] = -(a[i] * tw[m - half] * s);
}

// Twiddles ω^i, i < n/2, with the CPU's roots, on the device: kept for the last log_n per field
// (compute_h calls three times per proof with the same domain). Under the context's lock.
template <class Fr>
const Fr* twiddles(detail::context_t& ctx, unsigned log_n) {
  static unsigned cached_log = ~0u;
  static Fr* dev = nullptr;
  if (cached_log == log_n) return dev;
  const size_t half = (size_t(1) << log_n) / 2;
  const Fr omega = ntt::root_of_unity<Fr>(log_n);
  std::vector<Fr> tw(half ? half : 1);
  Fr w = Fr::one();
  for (auto& t : tw) t = w, w = w * omega;
  if (dev) CUDA_OK(cudaFree(dev));
  dev = nullptr;
  cached_log = ~0u;
  dev = static_cast<Fr*>(ctx.device_alloc(tw.size() * sizeof(Fr), nullptr));
  if (!dev) throw cuda_error(cudaErrorMemoryAllocation, "no room for the NTT's twiddles");
  // On the compute stream, so the stage kernels are ordered after it (a pageable source is staged
  // before the call returns, so `tw` may go).
  CUDA_OK(cudaMemcpyAsync(dev, tw.data(), tw.size() * sizeof(Fr), cudaMemcpyHostToDevice, ctx.compute));
  cached_log = log_n;
  return dev;
}

// Data in through pinned memory on the copy stream, the stages on the compute stream once it has
// arrived, out through pinned memory (chunked, the memcpy out overlapping the next chunk's DMA).
template <class Fr>
status_t odd_coset(Fr* host, unsigned log_n, const char* name) {
  return guarded(name, [&] {
    const size_t n = size_t(1) << log_n, half = n / 2;
    auto& ctx = detail::context_t::get();
    std::lock_guard<std::mutex> lock(ctx.mu);
    ctx.begin_call();
    const Fr* dtw = twiddles<Fr>(ctx, log_n);
    const Fr n_inv = Fr::from_u64(n).inverse();
    const Fr g_n_inv = ntt::root_of_unity<Fr>(log_n + 1) * n_inv;
    detail::call_timer_t timer(ctx, name, n);
    Fr* d = reinterpret_cast<Fr*>(ctx.workspace(n * sizeof(Fr), nullptr));
    if (!d) throw cuda_error(cudaErrorMemoryAllocation, "no room for the NTT's data");
    ctx.h2d_pinned(d, host, n * sizeof(Fr));
    CUDA_OK(cudaEventRecord(ctx.inputs_ready, ctx.copy));
    timer.uploaded();
    CUDA_OK(cudaStreamWaitEvent(ctx.compute, ctx.inputs_ready, 0));
    timer.kernels_begin();
    cudaStream_t s = ctx.compute;
    const unsigned blocks = blocks_for(half ? half : 1, kThreads);
    for (size_t len = half; len >= 1; len /= 2)
      dif_stage<Fr, true><<<blocks, kThreads, 0, s>>>(d, dtw, half, len, half / len);
    coset_scale<Fr><<<blocks_for(n, kThreads), kThreads, 0, s>>>(d, dtw, n, log_n, n_inv, g_n_inv);
    for (size_t len = 1; len < n; len *= 2) dit_stage<Fr><<<blocks, kThreads, 0, s>>>(d, dtw, half, len, half / len);
    CUDA_OK(cudaGetLastError());
    timer.kernels_end();
    ctx.d2h_pinned(host, d, n * sizeof(Fr));
    timer.finish(false);
  });
}

}  // namespace

status_t ntt_to_odd_coset_bn254(bn254::fr_t* data, unsigned log_n) {
  return odd_coset(data, log_n, "ntt_to_odd_coset_bn254");
}
status_t ntt_to_odd_coset_bls12_381(bls12_381::fr_t* data, unsigned log_n) {
  return odd_coset(data, log_n, "ntt_to_odd_coset_bls12_381");
}

}  // namespace zk::cuda
