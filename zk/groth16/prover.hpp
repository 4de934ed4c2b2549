#pragma once
// The Groth16 prover, one for every key (a snarkjs .zkey or a bellperson .params: the key views of
// zk/groth16/keys.hpp), as named stages (docs/design.md "Prover stages"), each callable alone:
//
//   build_ab   a, b from a zkey's coefficients and the witness; c = a∘b          (compat §3.2)
//              (or load_abc / abc_for_loading: a, b, c synthesized elsewhere)
//   compute_h  a, b, c → the quotient's H scalars as the key's h_form says: snarkjs's odd coset
//              (p = a·b − c on it, out of Montgomery, §3.3), or bellperson's coset (p/Z on
//              g·ω^i, back to coefficients: n − 1 of them; docs/filecoin.md §13)
//   msm_a      Σ w_i·A_i          msm_b1  Σ w_i·B1_i        msm_b2  Σ w_i·B2_i  (G2)
//              over the variables of the key's densities (every variable for a zkey)
//   msm_c      Σ_{i>ℓ} w_i·C_i    msm_h   Σ p_j·H_j                            (§3.5)
//   assemble   π_A = A′ + α₁ + rδ₁, π_B = B′ + β₂ + sδ₂,
//              π_C = C′ + H′ + s·π_A + r·(B1′ + β₁ + sδ₁) − rs·δ₁ = C′ + H′ + s·π_A + r·(B1′ + β₁)
//              (§3.6; bellperson's C: the same); the secret r, s multiply in constant time
//
// The witness is n_vars canonical little-endian 32-byte integers (the .wtns values, or a synth
// buffer's witness: bellperson's input then aux assignment), read in place: the MSMs' plans read
// the key's densities (msm::density_t ranks), no scalar is copied. Work buffers are allocated
// once per prover and reused across proofs. prove() runs build_ab, then on the CPU compute_h
// beside the A, B1, B2, C MSMs and then the H MSM, all as tasks on the compute pool (each key
// section touched in one stretch and released when its MSM is summed; no thread idles at the
// seams) — or, when compute_h outweighs the MSMs (a bit-heavy witness: Filecoin's), compute_h on
// every thread first and then the five MSMs together —, or stage after stage where an
// accelerator takes them. Every stage is reported with where it ran (stage_span_t::backend).
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "zk/base/stop.hpp"
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
  // compute_h whole for keys of h_form_t::odd_coset: a, b, c to the odd coset, then
  // h = a·b − c into a, canonical (the H MSM's scalars), as prover_t::compute_h does on the CPU.
  // (bellperson's coset quotient has no hook: it runs on the CPU.)
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
  return [take, observe](const stage_span_t& s) {
    uint64_t b = 0, e = 0;
    if (take(b, e) && s.begin_ns <= b && b <= e && e <= s.end_ns)
      observe({s.stage, b, e, s.backend});
    else
      observe(s);
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

// The witness's MSM plans (msm::plan_t: the signed digits read once): one for a zkey's A, B1, B2
// and C; with densities one for A, one for B1 and B2, one for C (bellperson's L: every aux).
struct witness_plans_t {
  msm::plan_t all, a, b;
  bool dense = true;  // no densities: `all` serves every query
  // The witness read by class (witness_in_t::classed): an accelerator's scalars are written
  // from it (prover_t::compacted), never from the plans' scalars.
  const msm::classed_scalars_t* classed = nullptr;
  const msm::plan_t& for_a() const { return dense ? all : a; }
  const msm::plan_t& for_b() const { return dense ? all : b; }
  const msm::plan_t& for_c() const { return all; }
};

// The witness a proof's MSMs read: n_vars canonical little-endian 32-byte values (the .wtns
// layout, a synth buffer's witness), or a packed witness's classes read in place
// (msm::classed_scalars_t: its 0s and 1s as bit sets, the other values listed) — where
// prover_t::reads_classed(): the CPU MSMs plan from the classes, an accelerator's MSMs get their
// scalars written from them; the witness is never unpacked whole.
struct witness_in_t {
  const uint8_t* values = nullptr;
  const msm::classed_scalars_t* classed = nullptr;
  witness_in_t(const uint8_t* v) : values(v) {}  // NOLINT: a values pointer is a witness
  explicit witness_in_t(const msm::classed_scalars_t* c) : classed(c) {}
  // Value i, canonical little-endian.
  void value(size_t i, uint8_t out[32]) const;
};

// a, b, c rows filled in place (abc_for_loading): the prover's own work arrays.
template <class Fr>
struct abc_rows_t {
  Fr *a = nullptr, *b = nullptr, *c = nullptr;
  size_t rows = 0;
};

template <class C>
class prover_t {
 public:
  using fr_t = typename C::fr_t;
  explicit prover_t(const proving_key_t<C>& pk);

  const proving_key_t<C>& key() const { return pk_; }

  // --- stages ------------------------------------------------------------------------------
  // A zkey's a, b from its coefficients (std::logic_error for a key without them).
  void build_ab(const uint8_t* witness);
  // build_ab's alternative when synthesis already evaluated the constraints (native circuits,
  // synth buffers, Filecoin's circuit): a, b (and c, or a∘b when c is null) for the first `rows`
  // rows of the domain, Montgomery form; the rest is zero. The rows must include the key's
  // input rows (circom: A = w_s at row nConstraints+s, as the zkey's coefficients do,
  // docs/formats.md §2.4; bellperson: its input constraints, A = input i).
  void load_abc(const fr_t* a, const fr_t* b, const fr_t* c, size_t rows);
  // load_abc without the copy: the prover's own arrays for the first `rows` rows, to be filled by
  // the caller (a synthesis in prove mode) before prove_loaded; rows beyond are zeroed here.
  abc_rows_t<fr_t> abc_for_loading(size_t rows);
  void compute_h();
  witness_plans_t make_plans(const witness_in_t& witness) const;
  // Whether the MSMs can read a classed witness (witness_in_t::classed): the CPU MSMs split the
  // zeros and ones off (the default), or none runs on the CPU.
  bool reads_classed() const;
  typename C::g1_jacobian msm_a(const witness_plans_t& plans) const;
  typename C::g1_jacobian msm_b1(const witness_plans_t& plans) const;
  typename C::g2_jacobian msm_b2(const witness_plans_t& plans) const;
  typename C::g1_jacobian msm_c(const witness_plans_t& plans) const;
  typename C::g1_jacobian msm_h() const;
  proof_t<C> assemble(const msm_results_t<C>& m, const fr_t& r, const fr_t& s) const;
  // Where each stage runs with this key and accelerator.
  stage_backend_t backend_of(prover_stage_t s) const;

  // Drop each key section from the resident set once its stage is done (the key stays mapped
  // and is paged back in from the page cache when needed again). For one-shot proving (the
  // CLI); a prover that keeps its key hot across proofs leaves this off.
  void set_release_key_pages(bool on) { release_pages_ = on; }
  // Gives the work arrays' (a, b, c, and an accelerator's compacted scalars) pages back to the
  // system now; they stay allocated and read as zeros, and the next proof touches them again. A
  // prover node calls it after each proof so that between proofs it holds only its key: the work is
  // reserved per proof (docs/design.md "Memory").
  void release_work();
  // Runs the MSMs and compute_h's transforms on the accelerator (null: the CPU).
  void set_accelerator(const accelerator_t<C>* acc) { acc_ = acc; }
  // The CPU MSMs read these tables of the key's bases (null: the bases alone). Not owned: they
  // must outlive the prover's proofs.
  void set_tables(const key_tables_t<C>* t) { tables_ = t; }
  // SupraSeal C2's split of the A, B1, B2 and C MSMs' scalars (zero scalars dropped, ones summed
  // apart; on by default). Off: every scalar through Pippenger's windows (the benchmarks'
  // baseline; the same sums).
  void set_split(bool on) { split_ = on; }
  // Polled at the proof's safe points (between stages; on the CPU also between the MSMs' tasks and
  // compute_h's transforms; tasks left once it answers true are skipped): prove() and
  // prove_loaded() then throw zk::cancelled_error instead of finishing, within one task or one
  // transform of the request. Empty (the default): never stops. Kept until set again.
  void set_stop(stop_t stop) { stop_ = std::move(stop); }

  // The whole proof with fresh randomizers r, s (or the given ones).
  proof_t<C> prove(const uint8_t* witness, const stage_observer_t& observe = {});
  proof_t<C> prove(const uint8_t* witness, const fr_t& r, const fr_t& s,
                   const stage_observer_t& observe = {});
  // The proof from a/b/c already loaded with load_abc (build_ab is skipped).
  proof_t<C> prove_loaded(const witness_in_t& witness, const fr_t& r, const fr_t& s,
                          const stage_observer_t& observe = {});

  // Evaluations after build_ab (a, b, c) and, after compute_h, the H scalars in a (canonical).
  const std::vector<fr_t>& a() const { return a_; }
  const std::vector<fr_t>& b() const { return b_; }
  const std::vector<fr_t>& c() const { return c_; }

 private:
  void release(uint32_t section) const;
  proof_t<C> prove_loaded(const witness_in_t& witness, const fr_t& r, const fr_t& s,
                          const stage_observer_t& observe, uint64_t t0);
  msm_results_t<C> cpu_h_and_msms(const witness_in_t& witness, const stage_observer_t& observe);
  bool h_beside_msms(const witness_plans_t& plans) const;
  bool witness_msms_on_cpu() const;  // any of the A, B1, B2, C MSMs
  void compute_h_on_this_thread(bool parallel);
  // The scalars of a plan's positions from `first` on, in order, contiguous (an accelerator's
  // hook reads them so): in scratch_, or the plan's own scalars where they already are so.
  const uint8_t* compacted(const witness_plans_t& plans, const msm::plan_t& plan,
                           size_t first) const;
  proving_key_t<C> pk_;
  std::vector<fr_t> a_, b_, c_;
  mutable std::vector<uint8_t> scratch_;
  bool release_pages_ = false;
  bool split_ = true;
  const accelerator_t<C>* acc_ = nullptr;
  const key_tables_t<C>* tables_ = nullptr;
  stop_t stop_;
};

// Uniform random field element from the OS entropy source.
template <class F>
F random_scalar();

}  // namespace zk::groth16
