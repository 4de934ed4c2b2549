// NTT kernels: the odd-coset transform of compute_h (docs/formats.md §3.3) with snarkjs's
// roots, as a few passes of shared-memory tiles (zk/ntt/butterfly.hpp: each pass runs up to
// kTileLog radix-2 stages on independent 2^S-element tiles, one per thread block), the coset
// scaling fused into the store of the last inverse-DIF pass — the same butterflies and the same
// order of stages as the CPU domain (zk/ntt), so the two agree bit for bit. A 2^24 transform
// reads and writes memory 6 times (3 + 3 passes) instead of 49. The pass schedule and the tile
// arithmetic run on the host in tests/ntt. compute_h runs whole here (its three transforms and
// h = a·b − c), so a proof moves each vector up once and only h down. Copies go through the
// context's pinned buffers and streams (cuda/context.cuh), timed with its events.
#include <algorithm>
#include <mutex>
#include <vector>

#include "cuda/context.cuh"
#include "zk/ntt/butterfly.hpp"
#include "zk/ntt/ntt.hpp"

namespace zk::cuda {
namespace {

constexpr unsigned kTileLog = 10;       // 2^10 elements · 32 bytes = 32 KiB of shared memory
constexpr unsigned kTileThreads = 512;  // one butterfly per thread and stage at kTileLog

template <class Fr>
struct coset_t {
  size_t n;
  unsigned log_n;
  Fr n_inv, g_n_inv;
};

// One tile per block: load its 2^S elements (spaced u apart), run the pass's S stages in shared
// memory, store (scaled, on the last inverse pass).
template <class Fr, bool Dit, bool Scale>
__global__ void __launch_bounds__(kTileThreads)
    tile_kernel(Fr* a, const Fr* tw, size_t half_n, size_t u, unsigned S, coset_t<Fr> coset) {
  extern __shared__ __align__(16) unsigned char smem[];
  Fr* t = reinterpret_cast<Fr*>(smem);
  const size_t tile = blockIdx.x, base = ntt::tile_base(tile, u, S);
  const unsigned size = 1u << S, half = size >> 1;
  for (unsigned i = threadIdx.x; i < size; i += blockDim.x) t[i] = a[base + i * u];
  __syncthreads();
  for (unsigned k = 0; k < S; ++k) {
    const unsigned s = Dit ? k : S - 1 - k;
    for (unsigned b = threadIdx.x; b < half; b += blockDim.x) {
      if (Dit)
        ntt::dit_tile_butterfly(t, b, s, tile, u, tw, half_n);
      else
        ntt::dif_tile_butterfly<true>(t, b, s, tile, u, tw, half_n);
    }
    __syncthreads();
  }
  for (unsigned i = threadIdx.x; i < size; i += blockDim.x) {
    const size_t at = base + i * u;
    a[at] =
        Scale ? ntt::coset_scale_at(t[i], at, coset.n, coset.log_n, tw, coset.n_inv, coset.g_n_inv)
              : t[i];
  }
}

template <class Fr>
void run_pass(cudaStream_t s, Fr* d, const Fr* tw, size_t n, const ntt::tile_pass_t& p,
              const coset_t<Fr>& coset) {
  const unsigned blocks = unsigned(n >> p.S),
                 threads = std::max(1u, std::min(kTileThreads, (1u << p.S) / 2));
  const size_t smem = (size_t(1) << p.S) * sizeof(Fr), half_n = n / 2;
  if (p.dit)
    tile_kernel<Fr, true, false><<<blocks, threads, smem, s>>>(d, tw, half_n, p.u, p.S, coset);
  else if (p.scale)
    tile_kernel<Fr, false, true><<<blocks, threads, smem, s>>>(d, tw, half_n, p.u, p.S, coset);
  else
    tile_kernel<Fr, false, false><<<blocks, threads, smem, s>>>(d, tw, half_n, p.u, p.S, coset);
  CUDA_OK(cudaGetLastError());
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
  CUDA_OK(
      cudaMemcpyAsync(dev, tw.data(), tw.size() * sizeof(Fr), cudaMemcpyHostToDevice, ctx.compute));
  cached_log = log_n;
  return dev;
}

// h = a·b − c out of Montgomery form, into a's memory (compute_h's last step, as on the CPU).
template <class Fr>
__global__ void h_kernel(Fr* a, const Fr* b, const Fr* c, size_t n) {
  size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const auto p = (a[i] * b[i] - c[i]).to_canonical();
  for (int k = 0; k < Fr::N; ++k) a[i].l[k] = p.l[k];
}

// The odd-coset transform of `count` host vectors (in[k] → out[k]), then, with c_and_h, h into
// out[0] instead (count = 3: a, b, c). Each vector comes in through its own part of the pinned
// input buffer on the copy stream, and its passes run on the compute stream as soon as it has
// arrived, so vector k+1's upload overlaps vector k's transform; out through pinned memory
// (chunked, the memcpy out overlapping the next chunk's DMA).
template <class Fr>
void transform(const Fr* const* in, unsigned count, unsigned log_n, bool c_and_h, Fr* out,
               const char* name) {
  const size_t n = size_t(1) << log_n, bytes = n * sizeof(Fr);
  auto& ctx = detail::context_t::get();
  std::lock_guard<std::mutex> lock(ctx.mu);
  ctx.begin_call();
  const Fr* dtw = twiddles<Fr>(ctx, log_n);
  const Fr n_inv = Fr::from_u64(n).inverse();
  const Fr g_n_inv = ntt::root_of_unity<Fr>(log_n + 1) * n_inv;
  detail::call_timer_t timer(ctx, name, n);
  Fr* d = reinterpret_cast<Fr*>(ctx.workspace(count * bytes, nullptr));
  if (!d) throw cuda_error(cudaErrorMemoryAllocation, "no room for the NTT's data");
  ctx.host_in.reserve(count * bytes);  // all uploads' pinned parts at once (a growth frees)
  ntt::tile_pass_t passes[128];
  const unsigned np = ntt::odd_coset_schedule(log_n, kTileLog, passes);
  const coset_t<Fr> coset{n, log_n, n_inv, g_n_inv};
  for (unsigned k = 0; k < count; ++k) {
    ctx.h2d_pinned(d + k * n, in[k], bytes, k * bytes);
    CUDA_OK(cudaEventRecord(ctx.inputs_ready, ctx.copy));
    CUDA_OK(cudaStreamWaitEvent(ctx.compute, ctx.inputs_ready, 0));
    if (k == 0) timer.kernels_begin();
    for (unsigned p = 0; p < np; ++p) run_pass(ctx.compute, d + k * n, dtw, n, passes[p], coset);
  }
  timer.uploaded();
  if (c_and_h) {
    h_kernel<Fr><<<blocks_for(n, 256), 256, 0, ctx.compute>>>(d, d + n, d + 2 * n, n);
    CUDA_OK(cudaGetLastError());
  }
  timer.kernels_end();
  ctx.d2h_pinned(out, d, bytes);
  timer.finish(false);
}

template <class Fr>
status_t odd_coset(Fr* data, unsigned log_n, const char* name) {
  return guarded(name, [&] {
    const Fr* in[1] = {data};
    transform(in, 1, log_n, false, data, name);
  });
}

template <class Fr>
status_t compute_h(Fr* a, const Fr* b, const Fr* c, unsigned log_n, const char* name) {
  return guarded(name, [&] {
    const Fr* in[3] = {a, b, c};
    transform(in, 3, log_n, true, a, name);
  });
}

}  // namespace

status_t ntt_to_odd_coset_bn254(bn254::fr_t* data, unsigned log_n) {
  return odd_coset(data, log_n, "ntt_to_odd_coset_bn254");
}
status_t ntt_to_odd_coset_bls12_381(bls12_381::fr_t* data, unsigned log_n) {
  return odd_coset(data, log_n, "ntt_to_odd_coset_bls12_381");
}

status_t compute_h_bn254(bn254::fr_t* a, const bn254::fr_t* b, const bn254::fr_t* c,
                         unsigned log_n) {
  return compute_h(a, b, c, log_n, "compute_h_bn254");
}
status_t compute_h_bls12_381(bls12_381::fr_t* a, const bls12_381::fr_t* b, const bls12_381::fr_t* c,
                             unsigned log_n) {
  return compute_h(a, b, c, log_n, "compute_h_bls12_381");
}

}  // namespace zk::cuda
