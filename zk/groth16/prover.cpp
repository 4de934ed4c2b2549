#include "zk/groth16/prover.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <random>
#include <stdexcept>
#include <string>

#include "zk/base/thread_pool.hpp"
#include "zk/ec/ct_mul.hpp"
#include "zk/ntt/ntt.hpp"
#include "zk/ntt/stop_scope.hpp"

namespace zk::groth16 {

const char* stage_name(prover_stage_t s) {
  switch (s) {
    case prover_stage_t::build_ab:
      return "build_ab";
    case prover_stage_t::compute_h:
      return "compute_h";
    case prover_stage_t::msm_a:
      return "msm_a";
    case prover_stage_t::msm_b1:
      return "msm_b1";
    case prover_stage_t::msm_b2:
      return "msm_b2";
    case prover_stage_t::msm_c:
      return "msm_c";
    case prover_stage_t::msm_h:
      return "msm_h";
    case prover_stage_t::assemble:
      return "assemble";
    case prover_stage_t::verify:
      return "verify";
  }
  return "?";
}

const char* backend_name(stage_backend_t b) {
  return b == stage_backend_t::accelerator ? "accelerator" : "cpu";
}

uint64_t now_ns() {
  return uint64_t(std::chrono::duration_cast<std::chrono::nanoseconds>(
                      std::chrono::steady_clock::now().time_since_epoch())
                      .count());
}

template <class F>
F random_scalar() {
  static thread_local std::random_device rd;
  for (;;) {
    typename F::big_t v{};
    for (int i = 0; i < F::N; ++i) v.l[i] = (uint64_t(rd()) << 32) | rd();
    v.l[F::N - 1] &= (F::bits % 64 == 0) ? ~0ULL : ((1ULL << (F::bits % 64)) - 1);
    if (ff::big_lt(v, F::modulus)) return F::from_canonical(v);
  }
}

namespace {

template <class F>
F load_raw(const uint8_t* p) {
  F v;
  std::memcpy(v.l, p, sizeof(v.l));
  return v;
}

constexpr size_t kScalarBytes = 32;  // n8r for both curves

// The whole pages inside [p, p + bytes) go back to the OS; they read as zeros afterwards.
void drop_pages(void* p, size_t bytes) {
  const uintptr_t page = uintptr_t(sysconf(_SC_PAGESIZE));
  const uintptr_t lo = (uintptr_t(p) + page - 1) & ~(page - 1);
  const uintptr_t hi = (uintptr_t(p) + bytes) & ~(page - 1);
  if (hi > lo) madvise(reinterpret_cast<void*>(lo), hi - lo, MADV_DONTNEED);
}

}  // namespace

template <class C>
prover_t<C>::prover_t(const proving_key_t<C>& pk) : pk_(pk) {
  a_.resize(pk.domain_size);
  b_.resize(pk.domain_size);
  c_.resize(pk.domain_size);
}

// a[row] += (coef·R²)⊗w[signal] — one Montgomery product of the raw stored value and the raw
// canonical witness yields the Montgomery form of coef·w (docs/formats.md §2.4, §3.2).
template <class C>
void prover_t<C>::build_ab(const uint8_t* witness) {
  if (!pk_.file)
    throw std::logic_error(
        "build_ab: the key has no coefficients (a bellperson key proves a, b, c synthesized "
        "with the witness: load_abc)");
  const auto& coefs = pk_.coefficients;
  const size_t n = pk_.domain_size;
  parallel_for(n, [&](size_t b, size_t e) {
    std::fill(a_.begin() + b, a_.begin() + e, fr_t::zero());
    std::fill(b_.begin() + b, b_.begin() + e, fr_t::zero());
  });
  auto accumulate = [&](uint64_t k0, uint64_t k1) {
    for (uint64_t k = k0; k < k1; ++k) {
      auto rec = coefs[k];
      fr_t v =
          load_raw<fr_t>(rec.value) * load_raw<fr_t>(witness + size_t(rec.signal) * kScalarBytes);
      auto& dst = rec.matrix == 0 ? a_[rec.constraint] : b_[rec.constraint];
      dst += v;
    }
  };
  const uint64_t count = coefs.count;
  if (pk_.file && pk_.file->coefficients_sorted_by_constraint() && count > 4096) {
    // Records sorted by row: split at row boundaries so no two threads touch one row.
    const size_t parts = compute_threads() * 4;
    std::vector<uint64_t> cut(parts + 1, count);
    cut[0] = 0;
    for (size_t t = 1; t < parts; ++t) {
      uint64_t k = std::max(cut[t - 1], count * t / parts);
      while (k < count && k > 0 && coefs[k].constraint == coefs[k - 1].constraint) ++k;
      cut[t] = k;
    }
    run_parallel([&](size_t t) { accumulate(cut[t], cut[t + 1]); }, parts);
  } else {
    accumulate(0, count);
  }
  parallel_for(n, [&](size_t b, size_t e) {
    for (size_t i = b; i < e; ++i) c_[i] = a_[i] * b_[i];
  });
}

template <class C>
void prover_t<C>::load_abc(const fr_t* a, const fr_t* b, const fr_t* c, size_t rows) {
  const size_t n = pk_.domain_size;
  if (rows > n)
    throw std::invalid_argument("load_abc: " + std::to_string(rows) +
                                " rows exceed the key's domain of " + std::to_string(n));
  parallel_for(n, [&](size_t lo, size_t hi) {
    for (size_t i = lo; i < hi; ++i) {
      if (i < rows) {
        a_[i] = a[i];
        b_[i] = b[i];
        c_[i] = c ? c[i] : a[i] * b[i];
      } else {
        a_[i] = b_[i] = c_[i] = fr_t::zero();
      }
    }
  });
}

template <class C>
abc_rows_t<typename C::fr_t> prover_t<C>::abc_for_loading(size_t rows) {
  const size_t n = pk_.domain_size;
  if (rows > n)
    throw std::invalid_argument("abc_for_loading: " + std::to_string(rows) +
                                " rows exceed the key's domain of " + std::to_string(n));
  parallel_for(n - rows, [&](size_t lo, size_t hi) {
    for (size_t i = rows + lo; i < rows + hi; ++i) a_[i] = b_[i] = c_[i] = fr_t::zero();
  });
  return {a_.data(), b_.data(), c_.data(), rows};
}

// compute_h's CPU work; `parallel` false: on the calling thread alone (a task beside the MSMs'
// tasks; nested pool calls run inline).
template <class C>
void prover_t<C>::compute_h_on_this_thread(bool parallel) {
  const ntt::stop_scope_t in_transforms(stop_);  // they leave between passes when stopped
  const size_t n = a_.size();
  auto pointwise = [&](const auto& f) {
    if (parallel)
      parallel_for(n, [&](size_t b, size_t e) {
        for (size_t i = b; i < e; ++i) f(i);
      });
    else
      for (size_t i = 0; i < n; ++i) f(i);
  };
  // The H MSM takes canonical scalars (§3.3, §3.8): each value leaves Montgomery form in place.
  auto to_scalar = [this](size_t i, const fr_t& v) {
    const auto p = v.to_canonical();
    std::memcpy(a_[i].l, p.l, sizeof(p.l));
  };
  auto domain = ntt::domain_t<fr_t>::get(pk_.log_domain, pk_.domain_generator);
  // A stop request leaves between transforms (the caller throws; a half-done h is never used).
  auto stopped = [this] { return stop_requested(stop_); };
  if (pk_.h_form == h_form_t::odd_coset) {
    domain->to_odd_coset(a_.data(), parallel);
    if (stopped()) return;
    domain->to_odd_coset(b_.data(), parallel);
    if (stopped()) return;
    domain->to_odd_coset(c_.data(), parallel);
    if (stopped()) return;
    pointwise([&](size_t i) { to_scalar(i, a_[i] * b_[i] - c_[i]); });  // p = a·b − c
    return;
  }
  // bellperson (src/groth16/prover/native.rs, ec-gpu-gen's EvaluationDomain): coset_fft of a, b,
  // c with shift g, p = (a·b − c)/Z where Z(g·ω^i) = g^n − 1, icoset_fft; deg p ≤ n − 2, and the
  // first n − 1 coefficients pair with the H points.
  const fr_t shift = fr_t::from_u64(pk_.domain_generator);
  domain->to_coset(a_.data(), shift);
  if (stopped()) return;
  domain->to_coset(b_.data(), shift);
  if (stopped()) return;
  domain->to_coset(c_.data(), shift);
  if (stopped()) return;
  const fr_t z_inv = (shift.pow_u64(n) - fr_t::one()).inverse();
  pointwise([&](size_t i) { a_[i] = (a_[i] * b_[i] - c_[i]) * z_inv; });
  if (stopped()) return;
  domain->coset_to_coefficients(a_.data(), shift);
  if (stopped()) return;
  pointwise([&](size_t i) { to_scalar(i, a_[i]); });
}

template <class C>
void prover_t<C>::compute_h() {
  if (backend_of(prover_stage_t::compute_h) == stage_backend_t::accelerator) {
    acc_->compute_h(a_.data(), b_.data(), c_.data(), pk_.log_domain);
    return;
  }
  compute_h_on_this_thread(true);
}

template <class C>
stage_backend_t prover_t<C>::backend_of(prover_stage_t s) const {
  bool acc = false;
  if (acc_) switch (s) {
      case prover_stage_t::compute_h:
        acc = bool(acc_->compute_h) && pk_.h_form == h_form_t::odd_coset;
        break;
      case prover_stage_t::msm_a:
      case prover_stage_t::msm_b1:
      case prover_stage_t::msm_c:
      case prover_stage_t::msm_h:
        acc = bool(acc_->msm_g1);
        break;
      case prover_stage_t::msm_b2:
        acc = bool(acc_->msm_g2);
        break;
      default:
        break;
    }
  return acc ? stage_backend_t::accelerator : stage_backend_t::cpu;
}

void witness_in_t::value(size_t i, uint8_t out[32]) const {
  if (values)
    std::memcpy(out, values + i * kScalarBytes, kScalarBytes);
  else
    classed->value(i, out);
}

template <class C>
bool prover_t<C>::witness_msms_on_cpu() const {
  for (auto s : {prover_stage_t::msm_a, prover_stage_t::msm_b1, prover_stage_t::msm_b2,
                 prover_stage_t::msm_c})
    if (backend_of(s) == stage_backend_t::cpu) return true;
  return false;
}

template <class C>
bool prover_t<C>::reads_classed() const {
  return split_ || !witness_msms_on_cpu();
}

// The plans of a witness: one for a zkey (every query over every variable); with densities one
// per density and one over every variable (C, bellperson's L, from the first private one).
template <class C>
witness_plans_t prover_t<C>::make_plans(const witness_in_t& witness) const {
  witness_plans_t p;
  const unsigned bits = fr_t::bits;
  p.dense = !pk_.a_density && !pk_.b_density;
  p.classed = witness.classed;
  if (witness.classed) {
    if (!reads_classed())
      throw std::logic_error("prover: a classed witness for CPU MSMs without the split");
    if (witness.classed->n != pk_.n_vars)
      throw std::invalid_argument("prover: a witness of " + std::to_string(witness.classed->n) +
                                  " values for a key of " + std::to_string(pk_.n_vars));
  }
  if (!witness_msms_on_cpu()) {  // the accelerator reads the scalars as they are (compacted)
    p.all.scalars = witness.values;
    p.all.n = pk_.n_vars;
    p.a.scalars = p.b.scalars = witness.values;
    p.a.n = p.b.n = pk_.n_vars;
    p.a.density = pk_.a_density;
    p.b.density = pk_.b_density;
    return p;
  }
  if (witness.classed) {  // the same plans, from the classes
    const msm::classed_scalars_t& w = *witness.classed;
    p.all = msm::make_plan(w, bits, p.dense, true);
    if (!p.dense) {
      p.a = msm::make_plan(w, bits, false, true, pk_.a_density);
      p.b = msm::make_plan(w, bits, true, true, pk_.b_density);
    }
    return p;
  }
  const uint8_t* values = witness.values;
  // With densities the C plan serves one MSM: no digit table (its memory counts at real size).
  p.all = msm::make_plan(values, pk_.n_vars, bits, 32, p.dense, split_);
  if (!p.dense) {  // A's plan serves one MSM (no digit table), B's two
    p.a = msm::make_plan(values, pk_.n_vars, bits, 32, false, split_, pk_.a_density);
    p.b = msm::make_plan(values, pk_.n_vars, bits, 32, true, split_, pk_.b_density);
  }
  return p;
}

template <class C>
const uint8_t* prover_t<C>::compacted(const witness_plans_t& plans, const msm::plan_t& plan,
                                      size_t first) const {
  const msm::density_t* d = plan.density;
  if (plans.classed) {  // written from the classes: 0, 1 or the next other value
    const msm::classed_scalars_t& w = *plans.classed;
    const size_t count = d ? d->rank(plan.n) - d->rank(first) : plan.n - first;
    scratch_.resize(count * kScalarBytes);
    uint8_t* out = scratch_.data();
    for (size_t i = first; i < plan.n; ++i)
      if (!d || d->test(i)) {
        w.value(i, out);
        out += kScalarBytes;
      }
    return scratch_.data();
  }
  if (!d) return plan.scalars + first * kScalarBytes;
  scratch_.resize((d->rank(plan.n) - d->rank(first)) * kScalarBytes);
  uint8_t* out = scratch_.data();
  for (size_t i = first; i < plan.n; ++i)
    if (d->test(i)) {
      std::memcpy(out, plan.scalars + i * kScalarBytes, kScalarBytes);
      out += kScalarBytes;
    }
  return scratch_.data();
}

namespace {

template <class G, class F>
ec::jacobian_t<G> msm_on(const std::function<F>& hook, const ec::affine_t<G>* bases,
                         const uint8_t* scalars, size_t n) {
  ec::jacobian_t<G> r;
  hook(bases, scalars, n, r);
  return r;
}

}  // namespace

template <class C>
typename C::g1_jacobian prover_t<C>::msm_a(const witness_plans_t& plans) const {
  const msm::plan_t& p = plans.for_a();
  if (backend_of(prover_stage_t::msm_a) == stage_backend_t::accelerator)
    return msm_on(acc_->msm_g1, pk_.a, compacted(plans, p, 0), pk_.a_points());
  return msm::msm<typename C::g1>(pk_.a, p);
}
template <class C>
typename C::g1_jacobian prover_t<C>::msm_b1(const witness_plans_t& plans) const {
  const msm::plan_t& p = plans.for_b();
  if (backend_of(prover_stage_t::msm_b1) == stage_backend_t::accelerator)
    return msm_on(acc_->msm_g1, pk_.b1, compacted(plans, p, 0), pk_.b_points());
  return msm::msm<typename C::g1>(pk_.b1, p);
}
template <class C>
typename C::g2_jacobian prover_t<C>::msm_b2(const witness_plans_t& plans) const {
  const msm::plan_t& p = plans.for_b();
  if (backend_of(prover_stage_t::msm_b2) == stage_backend_t::accelerator)
    return msm_on(acc_->msm_g2, pk_.b2, compacted(plans, p, 0), pk_.b_points());
  return msm::msm<typename C::g2>(pk_.b2, p);
}
// Private variables only: w[ℓ+1 .. nVars) against the C points from the first (§7.12).
template <class C>
typename C::g1_jacobian prover_t<C>::msm_c(const witness_plans_t& plans) const {
  const msm::plan_t& p = plans.for_c();
  const size_t first = size_t(pk_.n_public) + 1;
  if (backend_of(prover_stage_t::msm_c) == stage_backend_t::accelerator)
    return msm_on(acc_->msm_g1, pk_.c, compacted(plans, p, first), pk_.c_points());
  typename C::g1_jacobian r;
  std::vector<msm::job_t> jobs{msm::msm_job<typename C::g1>(pk_.c, p, first, r)};
  msm::run_jobs(jobs);
  return r;
}
template <class C>
typename C::g1_jacobian prover_t<C>::msm_h() const {
  const auto* scalars = reinterpret_cast<const uint8_t*>(a_.data());
  if (backend_of(prover_stage_t::msm_h) == stage_backend_t::accelerator)
    return msm_on(acc_->msm_g1, pk_.h, scalars, pk_.h_points());
  return msm::msm<typename C::g1>(pk_.h,
                                  msm::make_plan(scalars, pk_.h_points(), fr_t::bits, 32, false));
}

// r and s are secret (they blind the witness), so every point they multiply goes through the
// constant-time ec::ct_mul, and every sum they enter through the complete projective addition
// (no branch on a point either). r·B1 − rs·δ₁ = r·(B1′ + β₁ + sδ₁) − rs·δ₁ = r·(B1′ + β₁): the
// same π_C as §3.6 without the s·δ₁ and rs·δ₁ products (bellperson's C likewise: its −rs·δ₁
// cancels the rs·δ₁ inside s·A + r·B1).
template <class C>
proof_t<C> prover_t<C>::assemble(const msm_results_t<C>& m, const fr_t& r, const fr_t& s) const {
  using p1 = ec::projective_t<typename C::g1>;
  using p2 = ec::projective_t<typename C::g2>;
  constexpr unsigned bits = C::fr_t::bits;
  const auto rk = r.to_canonical(), sk = s.to_canonical();
  const p1 pi_a = p1::from_jacobian(m.a) + p1::from_affine(pk_.alpha1) +
                  ec::ct_mul(p1::from_affine(pk_.delta1), rk, bits);
  const p2 pi_b = p2::from_jacobian(m.b2) + p2::from_affine(pk_.beta2) +
                  ec::ct_mul(p2::from_affine(pk_.delta2), sk, bits);
  const p1 b1 = p1::from_jacobian(m.b1) + p1::from_affine(pk_.beta1);
  const p1 pi_c = p1::from_jacobian(m.c) + p1::from_jacobian(m.h) + ec::ct_mul(pi_a, sk, bits) +
                  ec::ct_mul(b1, rk, bits);
  return proof_t<C>{pi_a.to_affine(), pi_b.to_affine(), pi_c.to_affine()};
}

template <class C>
void prover_t<C>::release_work() {
  for (auto* v : {&a_, &b_, &c_}) drop_pages(v->data(), v->size() * sizeof(fr_t));
  drop_pages(scratch_.data(), scratch_.capacity());  // an accelerator's compacted scalars
}

template <class C>
void prover_t<C>::release(uint32_t section) const {
  if (release_pages_ && pk_.file) pk_.file->release(section);
}

template <class C>
proof_t<C> prover_t<C>::prove(const uint8_t* witness, const stage_observer_t& observe) {
  return prove(witness, random_scalar<fr_t>(), random_scalar<fr_t>(), observe);
}

template <class C>
proof_t<C> prover_t<C>::prove(const uint8_t* witness, const fr_t& r, const fr_t& s,
                              const stage_observer_t& observe) {
  const uint64_t t0 = now_ns();
  namespace sec = formats::zkey_section;
  build_ab(witness);
  release(sec::coefficients);
  const uint64_t t1 = now_ns();
  if (observe) observe({prover_stage_t::build_ab, t0, t1, stage_backend_t::cpu});
  return prove_loaded(witness, r, s, observe, t1);
}

template <class C>
proof_t<C> prover_t<C>::prove_loaded(const witness_in_t& witness, const fr_t& r, const fr_t& s,
                                     const stage_observer_t& observe) {
  return prove_loaded(witness, r, s, observe, now_ns());
}

template <class C>
proof_t<C> prover_t<C>::prove_loaded(const witness_in_t& witness, const fr_t& r, const fr_t& s,
                                     const stage_observer_t& observe, uint64_t t0) {
  // Stages that ran on the accelerator are reported with its device-measured span.
  const stage_observer_t timed = device_timed_observer(acc_, observe);
  const std::string what = "the proof";
  // Each stage is reported once done, then a stop request leaves before the next one (none after
  // the last: a finished proof is returned).
  auto mark = [&](prover_stage_t st) {
    const uint64_t t1 = now_ns();
    if (timed) timed({st, t0, t1, backend_of(st)});
    t0 = t1;
    if (st != prover_stage_t::assemble) throw_if_stopped(stop_, what);
  };
  throw_if_stopped(stop_, what);
  namespace sec = formats::zkey_section;
  msm_results_t<C> m;
  bool all_cpu = true;
  for (prover_stage_t st : all_prover_stages)
    if (backend_of(st) == stage_backend_t::accelerator) all_cpu = false;
  if (all_cpu) {
    m = cpu_h_and_msms(witness, timed);  // throws cancelled_error when stopped
    t0 = now_ns();
  } else {  // stage after stage; a stage whose hook is empty runs on the CPU
    compute_h();
    mark(prover_stage_t::compute_h);
    m.h = msm_h();
    release(sec::points_h);
    mark(prover_stage_t::msm_h);
    const witness_plans_t plans = make_plans(witness);
    m.a = msm_a(plans);
    release(sec::points_a);
    mark(prover_stage_t::msm_a);
    m.b1 = msm_b1(plans);
    release(sec::points_b1);
    mark(prover_stage_t::msm_b1);
    m.b2 = msm_b2(plans);
    release(sec::points_b2);
    mark(prover_stage_t::msm_b2);
    m.c = msm_c(plans);
    release(sec::points_c);
    mark(prover_stage_t::msm_c);
  }
  proof_t<C> proof = assemble(m, r, s);
  mark(prover_stage_t::assemble);
  return proof;
}

// Which of the two CPU schedules below keeps every thread busy, from the work each part has: the
// witness MSMs cost about (bits / c) bucket additions per scalar above one (a G2 addition ~3 G1
// ones; zeros cost nothing, ones one addition each), compute_h about as many field
// multiplications per domain element as its transforms have butterfly levels (snarkjs's odd
// coset: 6 transforms, bellperson's coset quotient: 7), a batch-affine addition ~6 of those.
// Dense circom witnesses make the MSMs dominate (compute_h hides beside them); Filecoin's
// bit-heavy witnesses make compute_h dominate (it must use every thread itself).
template <class C>
bool prover_t<C>::h_beside_msms(const witness_plans_t& plans) const {
  auto weight = [](const msm::plan_t& p, double g) {
    const double windows = p.c ? double(p.bits) / p.c : 16.0;
    return g * (double(p.idx.size()) * windows + double(p.ones.size()) / 6.0);
  };
  const double msms = weight(plans.for_a(), 1) + weight(plans.for_b(), 1) +
                      weight(plans.for_b(), 3) + weight(plans.for_c(), 1);
  const double transforms = pk_.h_form == h_form_t::odd_coset ? 6 : 7;
  const double h = double(pk_.domain_size) * transforms * double(pk_.log_domain) / 2.0 / 6.0;
  return msms >= h;
}

// compute_h and the five MSMs on the CPU with no thread idle between them (msm::run_jobs), in one
// of two schedules (h_beside_msms):
//   * compute_h as one task on one thread (its transforms serial) beside the windows of the A,
//     B1, B2 and C MSMs (they need only the witness), then the H MSM, which needs its scalars;
//   * compute_h first on every thread, then the five MSMs together.
// The witness plans (signed digits read once: one plan for a zkey's four MSMs; with densities A's,
// B's and C's) serve A, B1, B2 and C (C from the first private variable on); tasks go in that
// order, each key section is touched in one stretch and released as soon as its MSM is summed.
// Each stage is reported with the span from its first task's start to its last task's end (they
// overlap: that is the point), from the calling thread once all are done.
template <class C>
msm_results_t<C> prover_t<C>::cpu_h_and_msms(const witness_in_t& witness,
                                             const stage_observer_t& observe) {
  namespace sec = formats::zkey_section;
  msm_results_t<C> m;
  const witness_plans_t plans = make_plans(witness);
  const bool beside = h_beside_msms(plans);
  const size_t first = size_t(pk_.n_public) + 1;
  // The domain's twiddles are built (once per size, on the whole pool) before compute_h becomes
  // a task: nothing in that task may wait for the pool.
  (void)ntt::domain_t<fr_t>::get(pk_.log_domain, pk_.domain_generator);
  struct span_t {
    std::atomic<uint64_t> begin{0}, end{0};
  };
  span_t spans[6];  // compute_h, msm_a, msm_b1, msm_b2, msm_c, msm_h
  const prover_stage_t stages[6] = {prover_stage_t::compute_h, prover_stage_t::msm_a,
                                    prover_stage_t::msm_b1,    prover_stage_t::msm_b2,
                                    prover_stage_t::msm_c,     prover_stage_t::msm_h};
  const uint32_t sections[6] = {
      0, sec::points_a, sec::points_b1, sec::points_b2, sec::points_c, sec::points_h};
  auto timed_run = [](msm::job_t& j, span_t& sp) {
    auto run = std::move(j.run);
    j.run = [run = std::move(run), &sp](size_t t) {
      uint64_t zero = 0;
      sp.begin.compare_exchange_strong(zero, now_ns());
      run(t);
    };
  };
  auto release_bc = [this] {  // b and c are not read again until the next proof rewrites them
    if (!release_pages_) return;
    drop_pages(b_.data(), b_.size() * sizeof(fr_t));
    drop_pages(c_.data(), c_.size() * sizeof(fr_t));
  };
  const uint64_t t0 = now_ns();
  std::vector<msm::job_t> jobs;
  // A stop request: the tasks not yet started are skipped (each finishes the one it runs), the
  // sums are not used, and cancelled_error leaves from this thread once all have returned.
  std::atomic<bool> stopped{false};
  auto stop_check = [this, &stopped] {
    if (!stopped.load(std::memory_order_relaxed) && stop_requested(stop_))
      stopped.store(true, std::memory_order_relaxed);
    return stopped.load(std::memory_order_relaxed);
  };
  auto stoppable = [&stop_check](msm::job_t& j) {
    auto run = std::move(j.run);
    j.run = [run = std::move(run), &stop_check](size_t t) {
      if (!stop_check()) run(t);
    };
    if (j.finish) {
      auto finish = std::move(j.finish);
      j.finish = [finish = std::move(finish), &stop_check] {
        if (!stop_check()) finish();
      };
    }
  };
  if (beside) {
    jobs.resize(1);
    jobs[0].tasks = 1;
    jobs[0].run = [this, release_bc](size_t) {
      compute_h_on_this_thread(false);
      release_bc();
    };
  } else {
    spans[0].begin = t0;
    compute_h_on_this_thread(true);
    release_bc();
    spans[0].end = now_ns();
    if (observe) observe({stages[0], t0, spans[0].end.load(), stage_backend_t::cpu});
    throw_if_stopped(stop_, "the proof");
  }
  const size_t offset = beside ? 0 : 1;  // spans/sections index of jobs[0]
  if (tables_) {
    jobs.push_back(msm::msm_job<typename C::g1>(tables_->a, plans.for_a(), 0, m.a));
    jobs.push_back(msm::msm_job<typename C::g1>(tables_->b1, plans.for_b(), 0, m.b1));
    jobs.push_back(msm::msm_job<typename C::g2>(tables_->b2, plans.for_b(), 0, m.b2));
    jobs.push_back(msm::msm_job<typename C::g1>(tables_->c, plans.for_c(), first, m.c));
  } else {
    jobs.push_back(msm::msm_job<typename C::g1>(pk_.a, plans.for_a(), 0, m.a));
    jobs.push_back(msm::msm_job<typename C::g1>(pk_.b1, plans.for_b(), 0, m.b1));
    jobs.push_back(msm::msm_job<typename C::g2>(pk_.b2, plans.for_b(), 0, m.b2));
    jobs.push_back(msm::msm_job<typename C::g1>(pk_.c, plans.for_c(), first, m.c));
  }
  // H: its plan keeps no digit table (it serves one MSM; one-shot proving counts its memory).
  // Beside compute_h it runs after the others; after it, with them.
  msm::plan_t h_plan;
  auto h_job = [&] {
    h_plan = msm::make_plan(reinterpret_cast<const uint8_t*>(a_.data()), pk_.h_points(), fr_t::bits,
                            32, false);
    return tables_ ? msm::msm_job<typename C::g1>(tables_->h, h_plan, 0, m.h)
                   : msm::msm_job<typename C::g1>(pk_.h, h_plan, 0, m.h);
  };
  if (!beside) jobs.push_back(h_job());
  for (size_t k = 0; k < jobs.size(); ++k) {
    stoppable(jobs[k]);
    timed_run(jobs[k], spans[offset + k]);
  }
  auto done = [&](size_t from) {
    return [&, from](size_t k) {
      if (sections[from + k]) release(sections[from + k]);
      spans[from + k].end = now_ns();
    };
  };
  msm::run_jobs(jobs, done(offset));
  if (stop_check()) throw cancelled_error("the proof: stopped (cancelled)");
  if (beside) {
    std::vector<msm::job_t> last{h_job()};
    stoppable(last[0]);
    timed_run(last[0], spans[5]);
    msm::run_jobs(last, done(5));
    if (stop_check()) throw cancelled_error("the proof: stopped (cancelled)");
  }
  if (release_pages_) drop_pages(a_.data(), a_.size() * sizeof(fr_t));
  if (observe)
    for (size_t k = beside ? 0 : 1; k < 6; ++k) {
      const uint64_t b = spans[k].begin ? spans[k].begin.load() : t0, e = spans[k].end.load();
      observe({stages[k], b, std::max(b, e), stage_backend_t::cpu});
    }
  return m;
}

namespace {
unsigned copies(const precompute_t& p, unsigned endo_dims) {
  return (p.endomorphism ? endo_dims : 1) * std::max(1u, p.factor);
}
}  // namespace

template <class C>
uint64_t key_tables_t<C>::bytes_for(const proving_key_t<C>& pk, const precompute_t& p) {
  if (!p.enabled()) return 0;
  const uint64_t c1 = copies(p, msm::endomorphism_dims<typename C::g1>()) - 1;
  const uint64_t c2 = copies(p, msm::endomorphism_dims<typename C::g2>()) - 1;
  const uint64_t g1 = sizeof(typename C::g1_affine), g2 = sizeof(typename C::g2_affine);
  return c1 * g1 * (pk.h_points() + pk.a_points() + pk.b_points() + pk.c_points()) +
         c2 * g2 * pk.b_points();
}

template <class C>
key_tables_t<C> key_tables_t<C>::build(const proving_key_t<C>& pk, const precompute_t& p) {
  key_tables_t t;
  const unsigned bits = C::fr_t::bits;
  const unsigned d1 = p.endomorphism ? msm::endomorphism_dims<typename C::g1>() : 1;
  const unsigned d2 = p.endomorphism ? msm::endomorphism_dims<typename C::g2>() : 1;
  const unsigned f = std::max(1u, p.factor);
  t.h = msm::make_table<typename C::g1>(pk.h, pk.h_points(), d1, f, bits);
  t.a = msm::make_table<typename C::g1>(pk.a, pk.a_points(), d1, f, bits);
  t.b1 = msm::make_table<typename C::g1>(pk.b1, pk.b_points(), d1, f, bits);
  t.b2 = msm::make_table<typename C::g2>(pk.b2, pk.b_points(), d2, f, bits);
  t.c = msm::make_table<typename C::g1>(pk.c, pk.c_points(), d1, f, bits);
  return t;
}

template struct key_tables_t<curves::bn254>;
template struct key_tables_t<curves::bls12_381>;
template class prover_t<curves::bn254>;
template class prover_t<curves::bls12_381>;
template bn254::fr_t random_scalar<bn254::fr_t>();
template bls12_381::fr_t random_scalar<bls12_381::fr_t>();

}  // namespace zk::groth16
