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

// compute_h's CPU work on the calling thread alone (a task beside the MSMs' tasks).
template <class C>
void prover_t<C>::compute_h_on_this_thread() {
  auto domain = ntt::domain_t<fr_t>::get(pk_.log_domain);
  domain->to_odd_coset(a_.data(), false);
  domain->to_odd_coset(b_.data(), false);
  domain->to_odd_coset(c_.data(), false);
  for (size_t i = 0; i < a_.size(); ++i) {
    auto p = (a_[i] * b_[i] - c_[i]).to_canonical();
    std::memcpy(a_[i].l, p.l, sizeof(p.l));
  }
}

template <class C>
void prover_t<C>::compute_h() {
  if (acc_ && acc_->compute_h) {
    acc_->compute_h(a_.data(), b_.data(), c_.data(), pk_.log_domain);
    return;
  }
  auto domain = ntt::domain_t<fr_t>::get(pk_.log_domain);
  domain->to_odd_coset(a_.data());
  domain->to_odd_coset(b_.data());
  domain->to_odd_coset(c_.data());
  // p = a·b − c, then out of Montgomery form: the H MSM takes canonical scalars (§3.3, §3.8).
  parallel_for(a_.size(), [&](size_t b, size_t e) {
    for (size_t i = b; i < e; ++i) {
      auto p = (a_[i] * b_[i] - c_[i]).to_canonical();
      std::memcpy(a_[i].l, p.l, sizeof(p.l));
    }
  });
}

template <class C>
typename C::g1_jacobian prover_t<C>::g1_msm(const typename C::g1_affine* bases,
                                            const uint8_t* scalars, size_t n) const {
  if (acc_ && acc_->msm_g1) {
    typename C::g1_jacobian r;
    acc_->msm_g1(bases, scalars, n, r);
    return r;
  }
  return msm::msm<typename C::g1>(bases, scalars, n, fr_t::bits);
}

template <class C>
typename C::g1_jacobian prover_t<C>::msm_a(const msm::plan_t& plan) const {
  if (acc_ && acc_->msm_g1) return g1_msm(pk_.a, plan.scalars, plan.n);
  return msm::msm<typename C::g1>(pk_.a, plan);
}
template <class C>
typename C::g1_jacobian prover_t<C>::msm_b1(const msm::plan_t& plan) const {
  if (acc_ && acc_->msm_g1) return g1_msm(pk_.b1, plan.scalars, plan.n);
  return msm::msm<typename C::g1>(pk_.b1, plan);
}
template <class C>
typename C::g2_jacobian prover_t<C>::msm_b2(const msm::plan_t& plan) const {
  if (acc_ && acc_->msm_g2) {
    typename C::g2_jacobian r;
    acc_->msm_g2(pk_.b2, plan.scalars, plan.n, r);
    return r;
  }
  return msm::msm<typename C::g2>(pk_.b2, plan);
}
// Private wires only: w[ℓ+1 .. nVars) against section 8 from its first point (§7.12).
template <class C>
typename C::g1_jacobian prover_t<C>::msm_c(const uint8_t* witness) const {
  const size_t first = size_t(pk_.n_public) + 1;
  return g1_msm(pk_.c, witness + first * kScalarBytes, pk_.n_vars - first);
}
template <class C>
typename C::g1_jacobian prover_t<C>::msm_h() const {
  return g1_msm(pk_.h, reinterpret_cast<const uint8_t*>(a_.data()), a_.size());
}

// r and s are secret (they blind the witness), so every point they multiply goes through the
// constant-time ec::ct_mul, and every sum they enter through the complete projective addition
// (no branch on a point either). r·B1 − rs·δ₁ = r·(B1′ + β₁ + sδ₁) − rs·δ₁ = r·(B1′ + β₁): the
// same π_C as §3.6 without the s·δ₁ and rs·δ₁ products.
template <class C>
proof_t<C> prover_t<C>::assemble(const msm_results_t<C>& m, const fr_t& r, const fr_t& s) const {
  return assemble_proof<C>(m, {pk_.alpha1, pk_.beta1, pk_.delta1, pk_.beta2, pk_.delta2}, r, s);
}

template <class C>
proof_t<C> assemble_proof(const msm_results_t<C>& m, const proof_constants_t<C>& k,
                          const typename C::fr_t& r, const typename C::fr_t& s) {
  using p1 = ec::projective_t<typename C::g1>;
  using p2 = ec::projective_t<typename C::g2>;
  constexpr unsigned bits = C::fr_t::bits;
  const auto rk = r.to_canonical(), sk = s.to_canonical();
  const p1 pi_a = p1::from_jacobian(m.a) + p1::from_affine(k.alpha1) +
                  ec::ct_mul(p1::from_affine(k.delta1), rk, bits);
  const p2 pi_b = p2::from_jacobian(m.b2) + p2::from_affine(k.beta2) +
                  ec::ct_mul(p2::from_affine(k.delta2), sk, bits);
  const p1 b1 = p1::from_jacobian(m.b1) + p1::from_affine(k.beta1);
  const p1 pi_c = p1::from_jacobian(m.c) + p1::from_jacobian(m.h) + ec::ct_mul(pi_a, sk, bits) +
                  ec::ct_mul(b1, rk, bits);
  return proof_t<C>{pi_a.to_affine(), pi_b.to_affine(), pi_c.to_affine()};
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
  uint64_t t0 = now_ns();
  auto mark = [&](prover_stage_t st) {
    uint64_t t1 = now_ns();
    if (observe) observe(st, t0, t1);
    t0 = t1;
  };
  namespace sec = formats::zkey_section;
  build_ab(witness);
  release(sec::coefficients);
  mark(prover_stage_t::build_ab);
  return prove_loaded(witness, r, s, observe, t0);
}

template <class C>
proof_t<C> prover_t<C>::prove_loaded(const uint8_t* witness, const fr_t& r, const fr_t& s,
                                     const stage_observer_t& observe) {
  return prove_loaded(witness, r, s, observe, now_ns());
}

template <class C>
proof_t<C> prover_t<C>::prove_loaded(const uint8_t* witness, const fr_t& r, const fr_t& s,
                                     const stage_observer_t& observe, uint64_t t0) {
  // Stages that ran on the accelerator are reported with its device-measured span.
  const stage_observer_t timed = device_timed_observer(acc_, observe);
  auto mark = [&](prover_stage_t st) {
    uint64_t t1 = now_ns();
    if (timed) timed(st, t0, t1);
    t0 = t1;
  };
  namespace sec = formats::zkey_section;
  msm_results_t<C> m;
  const bool all_cpu = !(acc_ && (acc_->compute_h || acc_->msm_g1 || acc_->msm_g2));
  if (all_cpu) {
    m = cpu_h_and_msms(witness, timed);
    t0 = now_ns();
  } else {
    compute_h();
    mark(prover_stage_t::compute_h);
    m.h = msm_h();
    release(sec::points_h);
    mark(prover_stage_t::msm_h);
    // The accelerator reads the scalars as they are; a hook left empty runs on the CPU.
    msm::plan_t plan;
    if (!(acc_->msm_g1 && acc_->msm_g2)) {
      plan = msm::make_plan(witness, pk_.n_vars, fr_t::bits);
    } else {
      plan.scalars = witness;
      plan.n = pk_.n_vars;
    }
    m.a = msm_a(plan);
    release(sec::points_a);
    mark(prover_stage_t::msm_a);
    m.b1 = msm_b1(plan);
    release(sec::points_b1);
    mark(prover_stage_t::msm_b1);
    m.b2 = msm_b2(plan);
    release(sec::points_b2);
    mark(prover_stage_t::msm_b2);
    m.c = msm_c(witness);
    release(sec::points_c);
    mark(prover_stage_t::msm_c);
  }
  proof_t<C> proof = assemble(m, r, s);
  mark(prover_stage_t::assemble);
  return proof;
}

// compute_h and the five MSMs on the CPU with no thread idle between them (msm::run_jobs): first
// compute_h as one task on one thread (its transforms serial) beside the windows of the A, B1, B2
// and C MSMs (they need only the witness), then the H MSM, which needs compute_h's scalars. The
// witness plan (signed digits read once) serves A, B1, B2 and C (C from the first private wire
// on); tasks go in that order, each key section is touched in one stretch and released as soon as
// its MSM is summed. Each stage is reported with the span from its first task's start to its last
// task's end (they overlap: that is the point), from the calling thread once all are done.
template <class C>
msm_results_t<C> prover_t<C>::cpu_h_and_msms(const uint8_t* witness,
                                             const stage_observer_t& observe) {
  namespace sec = formats::zkey_section;
  msm_results_t<C> m;
  const msm::plan_t plan = msm::make_plan(witness, pk_.n_vars, fr_t::bits);
  const size_t first = size_t(pk_.n_public) + 1;
  // The domain's twiddles are built (once per size, on the whole pool) before compute_h becomes
  // a task: nothing in that task may wait for the pool.
  (void)ntt::domain_t<fr_t>::get(pk_.log_domain);
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
  std::vector<msm::job_t> jobs(1);
  jobs[0].tasks = 1;
  jobs[0].run = [this](size_t) {
    compute_h_on_this_thread();
    if (release_pages_) {  // b and c are not read again until the next proof rewrites them
      drop_pages(b_.data(), b_.size() * sizeof(fr_t));
      drop_pages(c_.data(), c_.size() * sizeof(fr_t));
    }
  };
  if (tables_) {
    jobs.push_back(msm::msm_job<typename C::g1>(tables_->a, plan, 0, m.a));
    jobs.push_back(msm::msm_job<typename C::g1>(tables_->b1, plan, 0, m.b1));
    jobs.push_back(msm::msm_job<typename C::g2>(tables_->b2, plan, 0, m.b2));
    jobs.push_back(msm::msm_job<typename C::g1>(tables_->c, plan, first, m.c));
  } else {
    jobs.push_back(msm::msm_job<typename C::g1>(pk_.a, plan, 0, m.a));
    jobs.push_back(msm::msm_job<typename C::g1>(pk_.b1, plan, 0, m.b1));
    jobs.push_back(msm::msm_job<typename C::g2>(pk_.b2, plan, 0, m.b2));
    jobs.push_back(msm::msm_job<typename C::g1>(pk_.c, plan, first, m.c));
  }
  for (size_t k = 0; k < jobs.size(); ++k) timed_run(jobs[k], spans[k]);
  const uint64_t t0 = now_ns();
  auto done = [&](size_t offset) {
    return [&, offset](size_t k) {
      if (sections[offset + k]) release(sections[offset + k]);
      spans[offset + k].end = now_ns();
    };
  };
  msm::run_jobs(jobs, done(0));
  // H: its plan keeps no digit table (it serves one MSM; one-shot proving counts its memory).
  const msm::plan_t h_plan =
      msm::make_plan(reinterpret_cast<const uint8_t*>(a_.data()), a_.size(), fr_t::bits, 32, false);
  std::vector<msm::job_t> h_job;
  h_job.push_back(tables_ ? msm::msm_job<typename C::g1>(tables_->h, h_plan, 0, m.h)
                          : msm::msm_job<typename C::g1>(pk_.h, h_plan, 0, m.h));
  timed_run(h_job[0], spans[5]);
  msm::run_jobs(h_job, done(5));
  if (release_pages_) drop_pages(a_.data(), a_.size() * sizeof(fr_t));
  if (observe)
    for (size_t k = 0; k < 6; ++k) {
      const uint64_t b = spans[k].begin ? spans[k].begin.load() : t0, e = spans[k].end.load();
      observe(stages[k], b, std::max(b, e));
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
  const uint64_t n_c = pk.n_vars - pk.n_public - 1;
  return c1 * g1 * (uint64_t(pk.domain_size) + 2ull * pk.n_vars + n_c) + c2 * g2 * pk.n_vars;
}

template <class C>
key_tables_t<C> key_tables_t<C>::build(const proving_key_t<C>& pk, const precompute_t& p) {
  key_tables_t t;
  const unsigned bits = C::fr_t::bits;
  const unsigned d1 = p.endomorphism ? msm::endomorphism_dims<typename C::g1>() : 1;
  const unsigned d2 = p.endomorphism ? msm::endomorphism_dims<typename C::g2>() : 1;
  const unsigned f = std::max(1u, p.factor);
  const size_t n_c = size_t(pk.n_vars) - pk.n_public - 1;
  t.h = msm::make_table<typename C::g1>(pk.h, pk.domain_size, d1, f, bits);
  t.a = msm::make_table<typename C::g1>(pk.a, pk.n_vars, d1, f, bits);
  t.b1 = msm::make_table<typename C::g1>(pk.b1, pk.n_vars, d1, f, bits);
  t.b2 = msm::make_table<typename C::g2>(pk.b2, pk.n_vars, d2, f, bits);
  t.c = msm::make_table<typename C::g1>(pk.c, n_c, d1, f, bits);
  return t;
}

template struct key_tables_t<curves::bn254>;
template struct key_tables_t<curves::bls12_381>;
template class prover_t<curves::bn254>;
template class prover_t<curves::bls12_381>;
template bn254::fr_t random_scalar<bn254::fr_t>();
template bls12_381::fr_t random_scalar<bls12_381::fr_t>();
template proof_t<curves::bn254> assemble_proof(const msm_results_t<curves::bn254>&,
                                               const proof_constants_t<curves::bn254>&,
                                               const bn254::fr_t&, const bn254::fr_t&);
template proof_t<curves::bls12_381> assemble_proof(const msm_results_t<curves::bls12_381>&,
                                                   const proof_constants_t<curves::bls12_381>&,
                                                   const bls12_381::fr_t&, const bls12_381::fr_t&);

}  // namespace zk::groth16
