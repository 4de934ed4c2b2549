#pragma once
// The Groth16 prover as named stages (docs/design.md "Prover stages"), each callable alone:
//
//   build_ab   a, b from the key's coefficients and the witness; c = a∘b      (compat §3.2)
//   compute_h  a, b, c → odd-coset evaluations; p = a·b − c, out of Montgomery (§3.3)
//   msm_a      Σ w_i·A_i          msm_b1  Σ w_i·B1_i        msm_b2  Σ w_i·B2_i  (G2)
//   msm_c      Σ_{i>ℓ} w_i·C_i    msm_h   Σ p_j·H_j                            (§3.5)
//   assemble   π_A = A′ + α₁ + rδ₁, π_B = B′ + β₂ + sδ₂,
//              π_C = C′ + H′ + s·π_A + r·(B1′ + β₁ + sδ₁) − rs·δ₁ = C′ + H′ + s·π_A + r·(B1′ + β₁)
//              (§3.6); the secret r, s multiply in constant time (ec::ct_mul)
//
// The witness is n_vars canonical little-endian 32-byte integers (the .wtns values, read in
// place). Work buffers are allocated once per prover and reused across proofs. prove() runs
// build_ab, then on the CPU compute_h beside the A, B1, B2, C MSMs and then the H MSM, all as
// tasks on the compute pool (each key section touched in one stretch and released when its MSM
// is summed; no thread idles at the seams), or stage after stage on an accelerator.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "zk/groth16/keys.hpp"
#include "zk/groth16/stage.hpp"
#include "zk/msm/msm.hpp"

namespace zk::groth16 {
uint64_t now_ns();

template <class C>
struct msm_results_t {
  typename C::g1_jacobian a, b1, c, h;
  typename C::g2_jacobian b2;
};

// Optional accelerator for the heavy stages (the CUDA backend fills it; common/ never sees a
// kernel). A hook that fails throws std::runtime_error with its message; an empty hook leaves
// the stage on the CPU.
template <class C>
struct accelerator_t {
  std::string name;  // e.g. "cuda (NVIDIA H200)"
  std::function<void(const typename C::g1_affine*, const uint8_t*, size_t,
                     typename C::g1_jacobian&)>
      msm_g1;
  std::function<void(const typename C::g2_affine*, const uint8_t*, size_t,
                     typename C::g2_jacobian&)>
      msm_g2;
  // compute_h whole: a, b, c to the odd coset, then h = a·b − c into a, canonical (the H MSM's
  // scalars), as prover_t::compute_h does on the CPU.
  std::function<void(typename C::fr_t* a, const typename C::fr_t* b, const typename C::fr_t* c,
                     unsigned log_n)>
      compute_h;
  // Optional: the span (now_ns clock) of the accelerator work done on this thread since the last
  // call, measured on the device (CUDA events); false when there was none. See
  // device_timed_observer.
  std::function<bool(uint64_t& begin_ns, uint64_t& end_ns)> take_device_span;
};

// Wraps a stage observer so that a stage whose work ran on the accelerator is reported with the
// accelerator's device-measured span (which lies inside the stage's host interval: it leaves out
// host-side work such as compute_h's pointwise step), and every other stage with its host wall
// times, as before. Returns `observe` itself when acc has no take_device_span. Device work done
// before the wrapper is made (an earlier proof nobody observed) is dropped, not reported with the
// first stage.
template <class C>
stage_observer_t device_timed_observer(const accelerator_t<C>* acc, stage_observer_t observe) {
  if (!acc || !acc->take_device_span || !observe) return observe;
  auto take = acc->take_device_span;
  uint64_t stale_b = 0, stale_e = 0;
  (void)take(stale_b, stale_e);
  return [take, observe](prover_stage_t st, uint64_t t0, uint64_t t1) {
    uint64_t b = 0, e = 0;
    if (take(b, e) && t0 <= b && b <= e && e <= t1)
      observe(st, b, e);
    else
      observe(st, t0, t1);
  };
}

// Precomputed bases for a key that stays loaded across proofs (a prover node's resident keys;
// `zkfleet prove` only when asked): every point section gets extra copies of its bases
// (msm::table_t), so its MSM runs more points with shorter scalars, fewer windows and fewer
// bucket sums. Copies per base: (endomorphism ? 2 on G1, 4 on G2 : 1) × factor.
struct precompute_t {
  bool endomorphism = false;  // GLV images φ(P) on G1, GLS images ψ^e(Q) on G2
  unsigned factor = 1;        // shifted copies 2^{s·j}·P, j < factor (sppark's, ICICLE's factor)
  bool enabled() const { return endomorphism || factor > 1; }
};

template <class C>
struct key_tables_t {
  msm::table_t<typename C::g1> h, a, b1, c;
  msm::table_t<typename C::g2> b2;
  uint64_t bytes() const { return h.bytes() + a.bytes() + b1.bytes() + c.bytes() + b2.bytes(); }
  // The memory build() would take for this key, without building anything.
  static uint64_t bytes_for(const proving_key_t<C>& pk, const precompute_t& p);
  static key_tables_t build(const proving_key_t<C>& pk, const precompute_t& p);
};

template <class C>
class prover_t {
 public:
  using fr_t = typename C::fr_t;
  explicit prover_t(const proving_key_t<C>& pk);

  const proving_key_t<C>& key() const { return pk_; }

  // --- stages ------------------------------------------------------------------------------
  void build_ab(const uint8_t* witness);
  // build_ab's alternative when synthesis already evaluated the constraints (native circuits,
  // synth buffers): a, b (and c, or a∘b when c is null) for the first `rows` rows of the
  // domain, Montgomery form; the rest is zero. The rows must include the key's nPublic+1 input
  // rows (A = w_s at row nConstraints+s), as the zkey's coefficients do (docs/formats.md §2.4).
  void load_abc(const fr_t* a, const fr_t* b, const fr_t* c, size_t rows);
  void compute_h();
  typename C::g1_jacobian msm_a(const msm::plan_t& witness_plan) const;
  typename C::g1_jacobian msm_b1(const msm::plan_t& witness_plan) const;
  typename C::g2_jacobian msm_b2(const msm::plan_t& witness_plan) const;
  typename C::g1_jacobian msm_c(const uint8_t* witness) const;
  typename C::g1_jacobian msm_h() const;
  proof_t<C> assemble(const msm_results_t<C>& m, const fr_t& r, const fr_t& s) const;

  // Drop each key section from the resident set once its stage is done (the key stays mapped
  // and is paged back in from the page cache when needed again). For one-shot proving (the
  // CLI); a prover that keeps its key hot across proofs leaves this off.
  void set_release_key_pages(bool on) { release_pages_ = on; }
  // Runs the MSMs and compute_h's transforms on the accelerator (null: the CPU).
  void set_accelerator(const accelerator_t<C>* acc) { acc_ = acc; }
  // The CPU MSMs read these tables of the key's bases (null: the bases alone). Not owned: they
  // must outlive the prover's proofs.
  void set_tables(const key_tables_t<C>* t) { tables_ = t; }

  // The whole proof with fresh randomizers r, s (or the given ones).
  proof_t<C> prove(const uint8_t* witness, const stage_observer_t& observe = {});
  proof_t<C> prove(const uint8_t* witness, const fr_t& r, const fr_t& s,
                   const stage_observer_t& observe = {});
  // The proof from a/b/c already loaded with load_abc (build_ab is skipped).
  proof_t<C> prove_loaded(const uint8_t* witness, const fr_t& r, const fr_t& s,
                          const stage_observer_t& observe = {});

  // Evaluations after build_ab (a, b, c) and, after compute_h, the H scalars in a (canonical).
  const std::vector<fr_t>& a() const { return a_; }
  const std::vector<fr_t>& b() const { return b_; }
  const std::vector<fr_t>& c() const { return c_; }

 private:
  void release(uint32_t section) const;
  proof_t<C> prove_loaded(const uint8_t* witness, const fr_t& r, const fr_t& s,
                          const stage_observer_t& observe, uint64_t t0);
  msm_results_t<C> cpu_h_and_msms(const uint8_t* witness, const stage_observer_t& observe);
  void compute_h_on_this_thread();
  proving_key_t<C> pk_;
  std::vector<fr_t> a_, b_, c_;
  bool release_pages_ = false;
  const accelerator_t<C>* acc_ = nullptr;
  const key_tables_t<C>* tables_ = nullptr;
  typename C::g1_jacobian g1_msm(const typename C::g1_affine* bases, const uint8_t* scalars,
                                 size_t n) const;
};

// Uniform random field element from the OS entropy source.
template <class F>
F random_scalar();

// The key's constants the proof is assembled with (a snarkjs .zkey's, or bellperson's .params).
template <class C>
struct proof_constants_t {
  typename C::g1_affine alpha1, beta1, delta1;
  typename C::g2_affine beta2, delta2;
};

// π_A = A′ + α₁ + rδ₁, π_B = B′ + β₂ + sδ₂, π_C = C′ + H′ + s·π_A + r·(B′₁ + β₁), constant time in
// r and s: the one assembly of both provers (this one and zk/filecoin's).
template <class C>
proof_t<C> assemble_proof(const msm_results_t<C>& m, const proof_constants_t<C>& k,
                          const typename C::fr_t& r, const typename C::fr_t& s);

}  // namespace zk::groth16
