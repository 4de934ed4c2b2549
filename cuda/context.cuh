#pragma once
// The process-wide device context behind the entry points (internal to cuda/; CUDA types are
// fine here, never in zkcuda.hpp). One per process, on device 0, created on first use and never
// destroyed (no trouble with the order of static destructors against the CUDA runtime's).
//
// Every entry point holds `mu` for its whole call, so the buffers below belong to one call at a
// time; begin_call() waits for both streams first, so nothing of an earlier (failed) call is
// still in flight when a buffer is reused or grown.
//
//   streams     copy: host → device copies; compute: kernels and device → host copies.
//               Events order compute after the copies it needs (inputs_ready, bases_ready,
//               staged[i]) and copies after the compute that still reads a chunk slot
//               (consumed[i]).
//   pinned      host_in (scalars, NTT data), host_out (results), staging[2] (bases on their way
//               to the key cache or streamed chunk by chunk); cudaHostAlloc, grown as needed.
//   workspace   one device block per call for its working arrays, kept and grown as needed.
//   key cache   MSM bases by (host pointer, bytes), each with a sampled fingerprint of the host
//               bytes checked on every hit; bounded by the VRAM budget, LRU eviction.
//   timing      five timing events per call (begin, uploaded, kernels begin/end, end), anchored to
//               the host steady clock at `begin` (both streams are idle then).
#include <cuda_runtime.h>

#include <mutex>
#include <vector>

#include "cuda/cuda_util.cuh"

namespace zk::cuda::detail {

struct cache_entry_t {
  const void* host = nullptr;
  size_t bytes = 0;
  void* dev = nullptr;
  uint64_t fingerprint = 0;
  uint64_t last_use = 0;
  bool valid = false;  // its upload was enqueued completely (commit)
};

class context_t {
 public:
  static context_t& get();

  std::mutex mu;
  cudaStream_t copy = nullptr, compute = nullptr;
  pinned_buffer_t host_in, host_out, staging[2];
  cudaEvent_t staged[2] = {}, consumed[2] = {}, drained[2] = {}, inputs_ready = nullptr,
              bases_ready = nullptr;
  cudaEvent_t t_begin = nullptr, t_uploaded = nullptr, t_kbegin = nullptr, t_kend = nullptr,
              t_end = nullptr;
  options_t opt;
  stats_t stats;

  // Waits for both streams; drops cache entries whose upload never completed.
  void begin_call();

  // The call's workspace block of at least `bytes`, or null when the device cannot give it even
  // after evicting every cached section but `keep`.
  uint8_t* workspace(size_t bytes, const void* keep);

  // Key cache. find: the resident copy of exactly [host, host + bytes) or null (a stale entry,
  // whose fingerprint no longer matches, is dropped). admit: when a section of `bytes` fits the
  // budget next to a workspace of `workspace_bytes`, evicts what it must, makes sure of the
  // workspace, allocates the section and registers it (not yet valid) — the caller uploads it
  // with h2d_staged and commits; null when it does not fit (the caller streams).
  const void* find(const void* host, size_t bytes);
  void* admit(const void* host, size_t bytes, size_t workspace_bytes);
  void commit(const void* dev);
  void forget(const void* dev);  // frees one section (a hit that could not be used: not counted)
  void forget_all();
  void enforce_budget();  // after set_options
  size_t resident_bytes() const;
  size_t resident_sections() const;

  // host → device on the copy stream. h2d_pinned goes through host_in at pin_offset (grown to
  // pin_offset + bytes; a call making several uploads reserves host_in for all of them first and
  // gives each its own offset, as a growth frees the old memory): chunk k+1's memcpy into pinned
  // memory overlaps chunk k's DMA. h2d_staged goes through the staging pair (fixed size, each slot
  // reused once its previous DMA is done).
  void h2d_pinned(void* dev, const void* host, size_t bytes, size_t pin_offset = 0);
  void h2d_staged(void* dev, const void* host, size_t bytes);
  // device → host on the compute stream through host_out: chunk k's memcpy out of pinned memory
  // overlaps chunk k+1's DMA. Returns once `host` holds everything.
  void d2h_pinned(void* host, const void* dev, size_t bytes);

  // Points per streamed chunk for points of `point_bytes` (options, else 64 MiB of bases).
  size_t chunk_points(size_t point_bytes) const;

  // cudaMalloc, evicting cached sections (LRU, never `keep`) while the device is out of memory;
  // null when nothing is left to evict.
  void* device_alloc(size_t bytes, const void* keep);

 private:
  context_t();
  bool evict_lru(const void* keep);
  size_t cache_limit(size_t workspace_bytes);
  std::vector<cache_entry_t> entries_;
  uint64_t tick_ = 0;
  uint8_t* ws_ = nullptr;
  size_t ws_cap_ = 0;
};

// Times one entry-point call with the context's timing events. Construct after begin_call (the
// streams are idle: `begin` is the anchor to the host clock); mark the phases in order; finish
// waits for the compute stream and records the call (last_call, stats, this thread's span for
// take_device_span).
class call_timer_t {
 public:
  call_timer_t(context_t& c, const char* what, size_t n);
  void uploaded();       // on the copy stream, after its last copy of the call
  void kernels_begin();  // on the compute stream, before its first kernel
  void kernels_end();    // on the compute stream, after its last kernel
  void finish(bool msm);
  call_timing_t info;

 private:
  context_t& c_;
  uint64_t host_begin_ = 0;
};

}  // namespace zk::cuda::detail
