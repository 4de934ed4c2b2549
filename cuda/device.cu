// Device discovery, the device context (key cache, pinned buffers, streams, timing) and the
// prover's accelerator hooks.
#include <cuda_runtime.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <stdexcept>

#include "cuda/context.cuh"
#include "zk/base/fingerprint.hpp"

namespace zk::cuda {

status_t device_status() {
  int count = 0;
  cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess) {
    cudaGetLastError();  // clear the sticky error
    std::string why = std::string("cudaGetDeviceCount: ") + cudaGetErrorString(e) + " (" +
                      cudaGetErrorName(e) + ")";
    if (e == cudaErrorInsufficientDriver) {
      // The runtime says "insufficient" for a missing driver too; cudaDriverGetVersion tells them
      // apart (0: no libcuda.so.1 on this machine).
      int driver = 0, runtime = 0;
      cudaDriverGetVersion(&driver);
      cudaRuntimeGetVersion(&runtime);
      const auto version = [](int v) {
        return std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10);
      };
      why = (driver == 0 ? std::string("no NVIDIA driver on this machine (libcuda.so.1 not found)")
                         : "the NVIDIA driver supports CUDA " + version(driver) +
                               ", older than this build's runtime, CUDA " + version(runtime)) +
            "; " + why;
    }
    return {int(e), why};
  }
  if (count == 0) return {-1, "no CUDA device"};
  cudaDeviceProp prop{};
  e = cudaGetDeviceProperties(&prop, 0);
  if (e != cudaSuccess) {
    cudaGetLastError();
    return {int(e), std::string("cudaGetDeviceProperties: ") + cudaGetErrorString(e)};
  }
  if (prop.major < 9)
    return {-1, std::string(prop.name) + " is sm_" + std::to_string(prop.major) +
                    std::to_string(prop.minor) + "; the kernels are built for sm_90"};
  return {};
}

std::string device_name() {
  cudaDeviceProp prop{};
  if (cudaGetDeviceProperties(&prop, 0) != cudaSuccess) {
    cudaGetLastError();
    return "unknown device";
  }
  return prop.name;
}

namespace detail {
namespace {

std::atomic<context_t*> g_context{nullptr};

uint64_t steady_ns() {
  return uint64_t(std::chrono::duration_cast<std::chrono::nanoseconds>(
                      std::chrono::steady_clock::now().time_since_epoch())
                      .count());
}

// This thread's last call and the merged span of its calls since the last take.
thread_local call_timing_t t_last;
thread_local bool t_pending = false;
thread_local uint64_t t_pending_begin = 0, t_pending_end = 0;

}  // namespace

context_t& context_t::get() {
  if (context_t* c = g_context.load(std::memory_order_acquire)) return *c;
  static std::mutex init;
  std::lock_guard<std::mutex> lock(init);
  if (context_t* c = g_context.load(std::memory_order_acquire)) return *c;
  context_t* c = new context_t();  // never deleted: outlives every static that might still call in
  g_context.store(c, std::memory_order_release);
  return *c;
}

context_t::context_t() {
  CUDA_OK(cudaSetDevice(0));
  CUDA_OK(cudaStreamCreateWithFlags(&copy, cudaStreamNonBlocking));
  CUDA_OK(cudaStreamCreateWithFlags(&compute, cudaStreamNonBlocking));
  for (cudaEvent_t* e : {&staged[0], &staged[1], &consumed[0], &consumed[1], &drained[0],
                         &drained[1], &inputs_ready, &bases_ready})
    CUDA_OK(cudaEventCreateWithFlags(e, cudaEventDisableTiming));
  for (cudaEvent_t* e : {&t_begin, &t_kbegin, &t_kend}) CUDA_OK(cudaEventCreate(e));
  // The host waits on these two for as long as the call's copies and kernels take: it sleeps
  // there instead of spinning a core the node's other threads (synthesis, the next proof) want.
  for (cudaEvent_t* e : {&t_uploaded, &t_end})
    CUDA_OK(cudaEventCreateWithFlags(e, cudaEventBlockingSync));
}

void context_t::begin_call() {
  CUDA_OK(cudaStreamSynchronize(copy));
  CUDA_OK(cudaStreamSynchronize(compute));
  for (size_t i = entries_.size(); i-- > 0;)
    if (!entries_[i].valid) {
      cudaFree(entries_[i].dev);
      entries_.erase(entries_.begin() + ptrdiff_t(i));
    }
}

void* context_t::device_alloc(size_t bytes, const void* keep) {
  for (;;) {
    void* p = nullptr;
    const cudaError_t e = cudaMalloc(&p, bytes);
    if (e == cudaSuccess) return p;
    if (e != cudaErrorMemoryAllocation) CUDA_OK(e);
    cudaGetLastError();  // an allocation failure is not sticky; clear it
    if (!evict_lru(keep)) return nullptr;
  }
}

bool context_t::evict_lru(const void* keep) {
  size_t victim = entries_.size();
  for (size_t i = 0; i < entries_.size(); ++i)
    if (entries_[i].dev != keep &&
        (victim == entries_.size() || entries_[i].last_use < entries_[victim].last_use))
      victim = i;
  if (victim == entries_.size()) return false;
  // Nothing in flight reads it: calls are serialised and begin_call waited for both streams; a
  // kernel of this call that reads a section holds it as `keep`.
  CUDA_OK(cudaFree(entries_[victim].dev));
  entries_.erase(entries_.begin() + ptrdiff_t(victim));
  ++stats.base_evictions;
  return true;
}

uint8_t* context_t::workspace(size_t bytes, const void* keep) {
  if (bytes <= ws_cap_) return ws_;
  if (ws_) CUDA_OK(cudaFree(ws_));
  ws_ = nullptr;
  ws_cap_ = 0;
  const size_t want = (bytes + (size_t(1) << 20) - 1) & ~((size_t(1) << 20) - 1);
  ws_ = static_cast<uint8_t*>(device_alloc(want, keep));
  if (ws_) ws_cap_ = want;
  return ws_;
}

size_t context_t::resident_sections() const { return entries_.size(); }

size_t context_t::resident_bytes() const {
  size_t s = 0;
  for (const auto& e : entries_) s += e.bytes;
  return s;
}

size_t context_t::cache_limit(size_t workspace_bytes) {
  if (opt.vram_budget) return opt.vram_budget;
  size_t free = 0, total = 0;
  CUDA_OK(cudaMemGetInfo(&free, &total));
  const size_t missing = workspace_bytes > ws_cap_ ? workspace_bytes - ws_cap_ : 0;
  size_t have = free + resident_bytes();
  if (opt.vram_limit)
    have = std::min(have, opt.vram_limit > ws_cap_ ? opt.vram_limit - ws_cap_ : size_t(0));
  const size_t need = opt.vram_margin + missing;
  return have > need ? have - need : 0;
}

const void* context_t::find(const void* host, size_t bytes) {
  for (size_t i = 0; i < entries_.size(); ++i) {
    cache_entry_t& e = entries_[i];
    if (!e.valid || e.host != host || e.bytes != bytes) continue;
    if (sampled_fingerprint(host, bytes) !=
        e.fingerprint) {  // other bytes at the same address: stale
      CUDA_OK(cudaFree(e.dev));
      entries_.erase(entries_.begin() + ptrdiff_t(i));
      return nullptr;
    }
    e.last_use = ++tick_;
    ++stats.base_hits;
    return e.dev;
  }
  return nullptr;
}

void* context_t::admit(const void* host, size_t bytes, size_t workspace_bytes) {
  const size_t limit = cache_limit(workspace_bytes);
  if (bytes > limit) return nullptr;
  while (resident_bytes() + bytes > limit && evict_lru(nullptr)) {
  }
  if (!workspace(workspace_bytes, nullptr)) return nullptr;
  void* p = device_alloc(bytes, nullptr);
  if (!p) return nullptr;
  entries_.push_back({host, bytes, p, sampled_fingerprint(host, bytes), ++tick_, false});
  return p;
}

void context_t::commit(const void* dev) {
  for (auto& e : entries_)
    if (e.dev == dev && !e.valid) {
      e.valid = true;
      ++stats.base_uploads;
    }
}

void context_t::forget(const void* dev) {
  for (size_t i = 0; i < entries_.size(); ++i)
    if (entries_[i].dev == dev) {
      if (entries_[i].valid && stats.base_hits) --stats.base_hits;
      CUDA_OK(cudaFree(entries_[i].dev));
      entries_.erase(entries_.begin() + ptrdiff_t(i));
      return;
    }
}

void context_t::forget_all() {
  for (auto& e : entries_) cudaFree(e.dev);
  entries_.clear();
}

void context_t::enforce_budget() {
  if (!opt.vram_budget) return;
  while (resident_bytes() > opt.vram_budget && evict_lru(nullptr)) {
  }
}

namespace {
constexpr size_t kCopyChunk = size_t(8) << 20;     // pinned ↔ pageable memcpy granule
constexpr size_t kStagingSlot = size_t(32) << 20;  // h2d_staged's slot size
}  // namespace

void context_t::h2d_pinned(void* dev, const void* host, size_t bytes, size_t pin_offset) {
  if (!bytes) return;
  uint8_t* pin = host_in.reserve(pin_offset + bytes) + pin_offset;
  for (size_t off = 0; off < bytes; off += kCopyChunk) {
    const size_t len = std::min(kCopyChunk, bytes - off);
    std::memcpy(pin + off, static_cast<const uint8_t*>(host) + off, len);
    CUDA_OK(cudaMemcpyAsync(static_cast<uint8_t*>(dev) + off, pin + off, len,
                            cudaMemcpyHostToDevice, copy));
  }
  stats.bytes_uploaded += bytes;
}

void context_t::h2d_staged(void* dev, const void* host, size_t bytes) {
  if (!bytes) return;
  staging[0].reserve(kStagingSlot);
  staging[1].reserve(kStagingSlot);
  const size_t slot_bytes = std::min(staging[0].capacity(), staging[1].capacity());
  size_t k = 0;
  for (size_t off = 0; off < bytes; off += slot_bytes, ++k) {
    const size_t len = std::min(slot_bytes, bytes - off), s = k & 1;
    CUDA_OK(cudaEventSynchronize(staged[s]));  // slot s's previous DMA is done
    std::memcpy(staging[s].get(), static_cast<const uint8_t*>(host) + off, len);
    CUDA_OK(cudaMemcpyAsync(static_cast<uint8_t*>(dev) + off, staging[s].get(), len,
                            cudaMemcpyHostToDevice, copy));
    CUDA_OK(cudaEventRecord(staged[s], copy));
  }
  stats.bytes_uploaded += bytes;
}

void context_t::d2h_pinned(void* host, const void* dev, size_t bytes) {
  if (!bytes) return;
  uint8_t* pin = host_out.reserve(bytes);
  auto out = [&](size_t off, size_t len, size_t k) {
    CUDA_OK(cudaEventSynchronize(drained[k & 1]));
    std::memcpy(static_cast<uint8_t*>(host) + off, pin + off, len);
  };
  size_t k = 0, prev_off = 0, prev_len = 0;
  for (size_t off = 0; off < bytes; off += kCopyChunk, ++k) {
    const size_t len = std::min(kCopyChunk, bytes - off);
    CUDA_OK(cudaMemcpyAsync(pin + off, static_cast<const uint8_t*>(dev) + off, len,
                            cudaMemcpyDeviceToHost, compute));
    CUDA_OK(cudaEventRecord(drained[k & 1], compute));
    if (k) out(prev_off, prev_len, k - 1);  // chunk k−1 out of pinned memory while chunk k moves
    prev_off = off;
    prev_len = len;
  }
  out(prev_off, prev_len, k - 1);
}

size_t context_t::chunk_points(size_t point_bytes) const {
  if (opt.stream_chunk_points) return opt.stream_chunk_points;
  return std::max<size_t>(1, (size_t(64) << 20) / point_bytes);
}

call_timer_t::call_timer_t(context_t& c, const char* what, size_t n) : c_(c) {
  info.what = what;
  info.n = n;
  host_begin_ = steady_ns();  // both streams are idle: `begin` completes as soon as it is recorded
  CUDA_OK(cudaEventRecord(c_.t_begin, c_.copy));
}
void call_timer_t::uploaded() { CUDA_OK(cudaEventRecord(c_.t_uploaded, c_.copy)); }
void call_timer_t::kernels_begin() { CUDA_OK(cudaEventRecord(c_.t_kbegin, c_.compute)); }
void call_timer_t::kernels_end() { CUDA_OK(cudaEventRecord(c_.t_kend, c_.compute)); }

void call_timer_t::finish(bool msm) {
  CUDA_OK(cudaEventRecord(c_.t_end, c_.compute));
  CUDA_OK(cudaEventSynchronize(c_.t_uploaded));
  CUDA_OK(cudaEventSynchronize(c_.t_end));
  auto ms = [](cudaEvent_t a, cudaEvent_t b) {
    float v = 0;
    CUDA_OK(cudaEventElapsedTime(&v, a, b));
    return double(v);
  };
  info.upload_ms = ms(c_.t_begin, c_.t_uploaded);
  info.compute_ms = ms(c_.t_kbegin, c_.t_kend);
  info.download_ms = ms(c_.t_kend, c_.t_end);
  info.total_ms = ms(c_.t_begin, c_.t_end);
  info.begin_ns = host_begin_;
  info.end_ns = host_begin_ + uint64_t(std::max(0.0, info.total_ms) * 1e6);
  stats_t& st = c_.stats;
  st.upload_ms += info.upload_ms;
  st.download_ms += info.download_ms;
  if (msm)
    ++st.msm_calls, st.msm_ms += info.compute_ms;
  else
    ++st.ntt_calls, st.ntt_ms += info.compute_ms;
  t_last = info;
  if (!t_pending)
    t_pending_begin = info.begin_ns, t_pending_end = info.end_ns;
  else
    t_pending_begin = std::min(t_pending_begin, info.begin_ns),
    t_pending_end = std::max(t_pending_end, info.end_ns);
  t_pending = true;
}

}  // namespace detail

// --- options, stats, timing ------------------------------------------------------------------

status_t set_options(const options_t& o) {
  return guarded("set_options", [&] {
    auto& c = detail::context_t::get();
    std::lock_guard<std::mutex> lock(c.mu);
    c.begin_call();
    c.opt = o;
    c.enforce_budget();
  });
}

options_t get_options() {
  detail::context_t* c = detail::g_context.load(std::memory_order_acquire);
  if (!c) return {};
  std::lock_guard<std::mutex> lock(c->mu);
  return c->opt;
}

stats_t get_stats() {
  detail::context_t* c = detail::g_context.load(std::memory_order_acquire);
  if (!c) return {};
  std::lock_guard<std::mutex> lock(c->mu);
  stats_t s = c->stats;
  s.resident_bytes = c->resident_bytes();
  s.resident_sections = c->resident_sections();
  return s;
}

void reset_stats() {
  detail::context_t* c = detail::g_context.load(std::memory_order_acquire);
  if (!c) return;
  std::lock_guard<std::mutex> lock(c->mu);
  c->stats = {};
}

status_t forget_cached_bases() {
  detail::context_t* c = detail::g_context.load(std::memory_order_acquire);
  if (!c) return {};
  return guarded("forget_cached_bases", [&] {
    std::lock_guard<std::mutex> lock(c->mu);
    c->begin_call();
    c->forget_all();
  });
}

call_timing_t last_call() { return detail::t_last; }

bool take_device_span(uint64_t& begin_ns, uint64_t& end_ns) {
  if (!detail::t_pending) return false;
  begin_ns = detail::t_pending_begin;
  end_ns = detail::t_pending_end;
  detail::t_pending = false;
  return true;
}

// --- the prover's accelerator hooks ----------------------------------------------------------

namespace {
template <class S>
void check(const S& s) {
  if (!s) throw std::runtime_error(s.message);
}
}  // namespace

groth16::accelerator_t<curves::bn254> accelerator_bn254() {
  groth16::accelerator_t<curves::bn254> a;
  a.name = "cuda (" + device_name() + ")";
  a.msm_g1 = [](const curves::bn254::g1_affine* b, const uint8_t* s, size_t n,
                curves::bn254::g1_jacobian& r) { check(msm_g1_bn254(b, s, n, &r)); };
  a.msm_g2 = [](const curves::bn254::g2_affine* b, const uint8_t* s, size_t n,
                curves::bn254::g2_jacobian& r) { check(msm_g2_bn254(b, s, n, &r)); };
  a.compute_h = [](bn254::fr_t* x, const bn254::fr_t* y, const bn254::fr_t* z, unsigned log_n) {
    check(compute_h_bn254(x, y, z, log_n));
  };
  a.take_device_span = [](uint64_t& b, uint64_t& e) { return take_device_span(b, e); };
  return a;
}

groth16::accelerator_t<curves::bls12_381> accelerator_bls12_381() {
  groth16::accelerator_t<curves::bls12_381> a;
  a.name = "cuda (" + device_name() + ")";
  a.msm_g1 = [](const curves::bls12_381::g1_affine* b, const uint8_t* s, size_t n,
                curves::bls12_381::g1_jacobian& r) { check(msm_g1_bls12_381(b, s, n, &r)); };
  a.msm_g2 = [](const curves::bls12_381::g2_affine* b, const uint8_t* s, size_t n,
                curves::bls12_381::g2_jacobian& r) { check(msm_g2_bls12_381(b, s, n, &r)); };
  a.compute_h = [](bls12_381::fr_t* x, const bls12_381::fr_t* y, const bls12_381::fr_t* z,
                   unsigned log_n) { check(compute_h_bls12_381(x, y, z, log_n)); };
  a.take_device_span = [](uint64_t& b, uint64_t& e) { return take_device_span(b, e); };
  return a;
}

}  // namespace zk::cuda
