#pragma once
// The CUDA backend's entry points: plain functions per (algorithm, curve) that return a status
// (docs/design.md "Conventions"). No CUDA type crosses this header: no other layer sees a kernel.
//
// Every entry point takes host memory and returns host memory. Inside, one process-wide device
// context (device 0) serialises the calls and keeps, across them:
//   - the key cache: MSM bases uploaded once per (host pointer, size) and kept resident in VRAM
//     within a budget (LRU eviction); a section that does not fit is streamed in chunks from
//     pinned staging buffers, its copies overlapping the bucket accumulation of the previous
//     chunk (cuda/README.md);
//   - pinned host buffers for scalars, NTT data and results, grown as needed;
//   - a copy stream and a compute stream, ordered by events; every call timed with CUDA events.
// The bases' host memory must stay mapped and unchanged while its copy is cached (the prover's
// mmapped zkey is); a sampled fingerprint is checked on every hit, and forget_cached_bases()
// drops everything.
#include <cstddef>
#include <cstdint>
#include <string>

#include "zk/ec/curves.hpp"
#include "zk/groth16/prover.hpp"

namespace zk::cuda {

struct status_t {
  int code = 0;         // 0: success; otherwise the cudaError_t (or -1 for an argument error)
  std::string message;  // what failed and where
  explicit operator bool() const { return code == 0; }
};

// Success when a CUDA device can run our kernels (sm_90 code); otherwise the reason (e.g.
// "cudaGetDeviceCount: CUDA driver version is insufficient (cudaErrorInsufficientDriver)").
status_t device_status();
std::string device_name();

// Evaluations on the n-domain → evaluations on the odd coset (compute_h's transform), in place;
// Montgomery form, snarkjs roots (same result as ntt::domain_t::to_odd_coset).
status_t ntt_to_odd_coset_bn254(bn254::fr_t* data, unsigned log_n);
status_t ntt_to_odd_coset_bls12_381(bls12_381::fr_t* data, unsigned log_n);

// compute_h whole (docs/formats.md §3.3): a, b, c (n = 2^log_n evaluations each, Montgomery
// form) to the odd coset, then h = a·b − c, written into a as canonical little-endian integers
// (the H MSM's scalars). Same result as prover_t::compute_h on the CPU; one upload of each
// vector (b's and c's overlapping the transforms before them) and one download.
status_t compute_h_bn254(bn254::fr_t* a, const bn254::fr_t* b, const bn254::fr_t* c,
                         unsigned log_n);
status_t compute_h_bls12_381(bls12_381::fr_t* a, const bls12_381::fr_t* b, const bls12_381::fr_t* c,
                             unsigned log_n);

// Σ k_i·P_i; scalars are canonical little-endian 32-byte integers (as in .wtns); (0,0) bases
// are the identity. Same result as msm::msm. The bases go through the key cache (see above).
status_t msm_g1_bn254(const curves::bn254::g1_affine* bases, const uint8_t* scalars, size_t n,
                      curves::bn254::g1_jacobian* out);
status_t msm_g2_bn254(const curves::bn254::g2_affine* bases, const uint8_t* scalars, size_t n,
                      curves::bn254::g2_jacobian* out);
status_t msm_g1_bls12_381(const curves::bls12_381::g1_affine* bases, const uint8_t* scalars,
                          size_t n, curves::bls12_381::g1_jacobian* out);
status_t msm_g2_bls12_381(const curves::bls12_381::g2_affine* bases, const uint8_t* scalars,
                          size_t n, curves::bls12_381::g2_jacobian* out);

// The same entry points overloaded by type, for code templated over the curve.
inline status_t ntt_to_odd_coset(bn254::fr_t* d, unsigned log_n) {
  return ntt_to_odd_coset_bn254(d, log_n);
}
inline status_t ntt_to_odd_coset(bls12_381::fr_t* d, unsigned log_n) {
  return ntt_to_odd_coset_bls12_381(d, log_n);
}
inline status_t compute_h(bn254::fr_t* a, const bn254::fr_t* b, const bn254::fr_t* c,
                          unsigned log_n) {
  return compute_h_bn254(a, b, c, log_n);
}
inline status_t compute_h(bls12_381::fr_t* a, const bls12_381::fr_t* b, const bls12_381::fr_t* c,
                          unsigned log_n) {
  return compute_h_bls12_381(a, b, c, log_n);
}
inline status_t msm(const curves::bn254::g1_affine* b, const uint8_t* s, size_t n,
                    curves::bn254::g1_jacobian* out) {
  return msm_g1_bn254(b, s, n, out);
}
inline status_t msm(const curves::bn254::g2_affine* b, const uint8_t* s, size_t n,
                    curves::bn254::g2_jacobian* out) {
  return msm_g2_bn254(b, s, n, out);
}
inline status_t msm(const curves::bls12_381::g1_affine* b, const uint8_t* s, size_t n,
                    curves::bls12_381::g1_jacobian* out) {
  return msm_g1_bls12_381(b, s, n, out);
}
inline status_t msm(const curves::bls12_381::g2_affine* b, const uint8_t* s, size_t n,
                    curves::bls12_381::g2_jacobian* out) {
  return msm_g2_bls12_381(b, s, n, out);
}

// --- residency, streaming and timing ---------------------------------------------------------

struct options_t {
  // Bytes the key cache may hold in VRAM. 0: automatic, i.e. what is free (plus what the cache
  // already holds) minus vram_margin minus the call's working memory. A budget too small for a
  // section makes its MSMs take the streamed path (tests force that with a budget of 1).
  size_t vram_budget = 0;
  size_t vram_margin = size_t(1) << 30;
  // Bytes of the device this process may use in all (a node's `resources.vram`): the key cache
  // is kept within it less the working memory held. 0: the whole device. A call's working memory
  // and the NTT's twiddle table (n/2 elements, 256 MiB at 2^24) are not refused by it.
  size_t vram_limit = 0;
  // Points per streamed chunk (bases + scalars staged in pinned memory, two chunks in flight).
  // 0: as many as fit in 64 MiB of bases.
  size_t stream_chunk_points = 0;
};
// Changing the options evicts cached sections that no longer fit the new budget.
status_t set_options(const options_t& o);
options_t get_options();

// Counters since start (or reset_stats); the *_ms are device times measured with CUDA events:
// upload_ms / download_ms the calls' copy phases, ntt_ms / msm_ms their kernels.
struct stats_t {
  uint64_t base_uploads = 0;     // MSM calls that uploaded their bases into the cache (misses)
  uint64_t base_hits = 0;        // MSM calls that found their bases resident
  uint64_t base_evictions = 0;   // sections evicted (LRU) to make room
  uint64_t streamed_msms = 0;    // MSM calls whose bases did not fit and were streamed
  uint64_t streamed_chunks = 0;  // chunks those calls streamed
  uint64_t bytes_uploaded = 0;   // host → device bytes, all kinds (bases, scalars, NTT data)
  uint64_t resident_bytes = 0;   // bytes the cache holds now
  uint64_t resident_sections = 0;
  uint64_t ntt_calls = 0, msm_calls = 0;
  double upload_ms = 0, ntt_ms = 0, msm_ms = 0, download_ms = 0;
};
stats_t get_stats();
void reset_stats();  // counters only: the cache stays
// Frees every cached section (e.g. before the memory behind a cached key is unmapped and reused).
status_t forget_cached_bases();

// This thread's last entry-point call, timed with CUDA events.
struct call_timing_t {
  std::string what;        // the entry point, e.g. "msm_g1_bn254"
  size_t n = 0;            // points or domain size
  bool cache_hit = false;  // MSM: bases were resident already
  bool resident = false;   // MSM: bases were (or have just been made) resident
  bool streamed = false;   // MSM: bases were streamed in chunks
  unsigned chunks = 0;     // MSM: chunks streamed (0 when resident)
  double upload_ms = 0;    // copy stream: call start → last host→device copy done (with growing
                           // the call's buffers, when a bigger call than before needs them)
  double compute_ms = 0;   // compute stream: first kernel → last kernel
  double download_ms = 0;  // last kernel → results on the host
  double total_ms = 0;     // call start → results on the host
  uint64_t begin_ns = 0, end_ns = 0;  // the span on the steady clock (groth16::now_ns)
};
call_timing_t last_call();

// The span (steady-clock ns, as groth16::now_ns) covered by this thread's entry-point calls since
// the last take, merged; false when there were none. Device-measured (CUDA events), anchored to
// the host clock when each call synchronises. The accelerators' take_device_span.
bool take_device_span(uint64_t& begin_ns, uint64_t& end_ns);

// The prover's accelerator hooks backed by the entry points above (MSMs and compute_h whole),
// with take_device_span set: wrap a stage observer with groth16::device_timed_observer to report
// device-measured spans for the stages the GPU ran.
groth16::accelerator_t<curves::bn254> accelerator_bn254();
groth16::accelerator_t<curves::bls12_381> accelerator_bls12_381();

}  // namespace zk::cuda
