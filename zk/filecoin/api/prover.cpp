#include "zk/filecoin/api/prover.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>

#include "zk/base/hex.hpp"
#include "zk/base/thread_pool.hpp"
#include "zk/filecoin/api/check_c1.hpp"
#include "zk/filecoin/api/registry.hpp"
#include "zk/filecoin/api/verify_seal.hpp"
#include "zk/filecoin/porep/circuit/public_inputs.hpp"
#include "zk/filecoin/porep/vanilla/graph.hpp"
#include "zk/filecoin/porep/vanilla/proof.hpp"
#include "zk/msm/msm.hpp"
#include "zk/ntt/ntt.hpp"

namespace zk::filecoin {
namespace {

using g1_t = bellperson::curve_t::g1;
using g2_t = bellperson::curve_t::g2;
using g1_jacobian_t = bellperson::curve_t::g1_jacobian;
using g2_jacobian_t = bellperson::curve_t::g2_jacobian;

// x as its canonical little-endian integer, stored in an fr_t's limbs (the MSMs' scalar layout).
inline fr_t canonical(const fr_t& x) {
  const auto k = x.to_canonical();
  fr_t out;
  std::memcpy(out.l, k.l, sizeof(out.l));
  return out;
}

const uint8_t* bytes(const std::vector<fr_t>& v) {
  return reinterpret_cast<const uint8_t*>(v.data());
}

std::string count_mismatch(const char* section, uint64_t got, uint64_t want, const char* what) {
  return "section " + std::string(section) + " has " + std::to_string(got) +
         " points, the circuit needs " + std::to_string(want) + " (" + what +
         "): parameters for another circuit";
}

}  // namespace

struct partition_prover_t::bases_t {
  std::vector<bellperson::g1_affine_t> h, l, a, b_g1;
  std::vector<bellperson::g2_affine_t> b_g2;
};

partition_prover_t::partition_prover_t(const bellperson::params_file_t& params,
                                       const circuit_config_t& config, bool resident)
    : params_(params), config_(config), shape_(circuit_shape(config, false)) {
  const bellperson::r1cs_shape_t& s = *shape_;
  const uint64_t n = s.domain_size();
  while ((uint64_t(1) << log_n_) < n) ++log_n_;
  const std::string file = params.path() + ": ";
  auto need = [&](bool ok, const std::string& why) {
    if (!ok) throw std::invalid_argument(file + why);
  };
  need(params.vk().ic.size() == s.counts.inputs,
       "the verifying key has " + std::to_string(params.vk().ic.size()) +
           " IC points, the circuit " + std::to_string(s.counts.inputs) +
           " inputs: parameters for another circuit");
  need(params.h().count == n - 1, count_mismatch("h", params.h().count, n - 1, "domain − 1"));
  need(params.l().count == s.counts.aux,
       count_mismatch("l", params.l().count, s.counts.aux, "aux variables"));
  need(params.a().count == uint64_t(s.counts.inputs) + s.a_aux.count(),
       count_mismatch("a", params.a().count, uint64_t(s.counts.inputs) + s.a_aux.count(),
                      "inputs + aux variables in A"));
  const uint64_t nb = uint64_t(s.b_input.count()) + s.b_aux.count();
  need(params.b_g1().count == nb,
       count_mismatch("b_g1", params.b_g1().count, nb, "variables in B"));
  need(params.b_g2().count == nb,
       count_mismatch("b_g2", params.b_g2().count, nb, "variables in B"));
  if (resident) {
    auto b = std::make_shared<bases_t>();
    auto g1 = [&](const bellperson::params_file_t::section_t& sec,
                  std::vector<bellperson::g1_affine_t>& out) {
      out.resize(sec.count);
      params.read_g1(sec, 0, sec.count, out.data());
    };
    g1(params.h(), b->h);
    g1(params.l(), b->l);
    g1(params.a(), b->a);
    g1(params.b_g1(), b->b_g1);
    b->b_g2.resize(params.b_g2().count);
    params.read_g2(params.b_g2(), 0, params.b_g2().count, b->b_g2.data());
    resident_ = std::move(b);
  }
}

uint64_t partition_prover_t::resident_bytes() const {
  if (!resident_) return 0;
  const bases_t& b = *resident_;
  return (b.h.size() + b.l.size() + b.a.size() + b.b_g1.size()) * sizeof(bellperson::g1_affine_t) +
         b.b_g2.size() * sizeof(bellperson::g2_affine_t);
}

bellperson::proof_t partition_prover_t::prove(partition_assignment_t& w,
                                              const prove_options_t& opt) const {
  const bellperson::r1cs_shape_t& s = *shape_;
  if (w.counts != s.counts || w.inputs.size() != s.counts.inputs || w.aux.size() != s.counts.aux ||
      w.a.size() != s.prover_constraints() || w.b.size() != w.a.size() || w.c.size() != w.a.size())
    throw std::invalid_argument("prove: the assignment (" + bellperson::to_string(w.counts) +
                                ") is not one of this circuit (" + bellperson::to_string(s.counts) +
                                ")");
  const size_t n = size_t(1) << log_n_;
  uint64_t t0 = groth16::now_ns();
  auto mark = [&](groth16::prover_stage_t st) {
    const uint64_t t1 = groth16::now_ns();
    if (opt.observe) opt.observe(st, t0, t1);
    t0 = t1;
  };

  // --- h: bellperson's coset FFT --------------------------------------------------------------
  auto domain = ntt::domain_t<fr_t>::get(log_n_, bellperson_generator);
  const fr_t shift = fr_t::from_u64(bellperson_generator);
  w.a.resize(n, fr_t::zero());
  w.b.resize(n, fr_t::zero());
  w.c.resize(n, fr_t::zero());
  domain->to_coset(w.a.data(), shift);
  domain->to_coset(w.b.data(), shift);
  domain->to_coset(w.c.data(), shift);
  const fr_t z_inv = (shift.pow_u64(n) - fr_t::one()).inverse();  // Z(7·ω^i) = 7^n − 1
  parallel_for(n, [&](size_t b, size_t e) {
    for (size_t i = b; i < e; ++i) w.a[i] = (w.a[i] * w.b[i] - w.c[i]) * z_inv;
  });
  std::vector<fr_t>().swap(w.b);
  std::vector<fr_t>().swap(w.c);
  domain->coset_to_coefficients(w.a.data(), shift);
  w.a.resize(n - 1);  // deg h ≤ n − 2; bellperson keeps n − 1 coefficients
  parallel_for(w.a.size(), [&](size_t b, size_t e) {
    for (size_t i = b; i < e; ++i) w.a[i] = canonical(w.a[i]);
  });
  mark(groth16::prover_stage_t::compute_h);

  // --- the scalar vectors of the density-filtered queries -------------------------------------
  std::vector<fr_t> aux(w.aux.size());
  parallel_for(aux.size(), [&](size_t b, size_t e) {
    for (size_t i = b; i < e; ++i) aux[i] = canonical(w.aux[i]);
  });
  std::vector<fr_t> in(w.inputs.size());
  for (size_t i = 0; i < in.size(); ++i) in[i] = canonical(w.inputs[i]);
  std::vector<fr_t> sa(in), sb;
  sa.reserve(params_.a().count);
  sb.reserve(params_.b_g1().count);
  for (uint32_t i = 0; i < s.counts.aux; ++i)
    if (s.a_aux.test(i)) sa.push_back(aux[i]);
  for (uint32_t i = 0; i < s.counts.inputs; ++i)
    if (s.b_input.test(i)) sb.push_back(in[i]);
  for (uint32_t i = 0; i < s.counts.aux; ++i)
    if (s.b_aux.test(i)) sb.push_back(aux[i]);

  const unsigned bits = fr_t::bits;
  const auto* acc = opt.accelerator;
  auto g1_msm = [&](const bellperson::params_file_t::section_t& sec,
                    const std::vector<bellperson::g1_affine_t>* held, const std::vector<fr_t>& k,
                    const msm::plan_t* plan) {
    std::vector<bellperson::g1_affine_t> local;
    const bellperson::g1_affine_t* bases = held ? held->data() : nullptr;
    if (!bases) {
      local.resize(sec.count);
      params_.read_g1(sec, 0, sec.count, local.data());
      bases = local.data();
    }
    g1_jacobian_t r;
    if (acc && acc->msm_g1)
      acc->msm_g1(bases, bytes(k), k.size(), r);
    else if (plan)
      r = msm::msm<g1_t>(bases, *plan);
    else
      r = msm::msm<g1_t>(bases, msm::make_plan(bytes(k), k.size(), bits, 32, false, opt.split));
    return r;
  };
  const bases_t* held = resident_.get();
  groth16::msm_results_t<bellperson::curve_t> m;
  m.a = g1_msm(params_.a(), held ? &held->a : nullptr, sa, nullptr);
  std::vector<fr_t>().swap(sa);
  mark(groth16::prover_stage_t::msm_a);
  msm::plan_t plan_b;
  if (!(acc && acc->msm_g1 && acc->msm_g2))
    plan_b = msm::make_plan(bytes(sb), sb.size(), bits, 32, true, opt.split);
  m.b1 = g1_msm(params_.b_g1(), held ? &held->b_g1 : nullptr, sb, &plan_b);
  mark(groth16::prover_stage_t::msm_b1);
  {
    std::vector<bellperson::g2_affine_t> local;
    const bellperson::g2_affine_t* bases = held ? held->b_g2.data() : nullptr;
    if (!bases) {
      local.resize(params_.b_g2().count);
      params_.read_g2(params_.b_g2(), 0, local.size(), local.data());
      bases = local.data();
    }
    if (acc && acc->msm_g2)
      acc->msm_g2(bases, bytes(sb), sb.size(), m.b2);
    else
      m.b2 = msm::msm<g2_t>(bases, plan_b);
  }
  plan_b = {};
  std::vector<fr_t>().swap(sb);
  mark(groth16::prover_stage_t::msm_b2);
  m.c = g1_msm(params_.l(), held ? &held->l : nullptr, aux, nullptr);
  std::vector<fr_t>().swap(aux);
  mark(groth16::prover_stage_t::msm_c);
  {
    // h's coefficients are dense and random: no split to gain.
    std::vector<bellperson::g1_affine_t> local;
    const bellperson::g1_affine_t* bases = held ? held->h.data() : nullptr;
    if (!bases) {
      local.resize(params_.h().count);
      params_.read_g1(params_.h(), 0, local.size(), local.data());
      bases = local.data();
    }
    if (acc && acc->msm_g1)
      acc->msm_g1(bases, bytes(w.a), w.a.size(), m.h);
    else
      m.h = msm::msm<g1_t>(bases, msm::make_plan(bytes(w.a), w.a.size(), bits, 32, false));
  }
  std::vector<fr_t>().swap(w.a);
  mark(groth16::prover_stage_t::msm_h);

  // --- assemble (constant time in r and s) -----------------------------------------------------
  const fr_t r = opt.r ? *opt.r : groth16::random_scalar<fr_t>();
  const fr_t sr = opt.s ? *opt.s : groth16::random_scalar<fr_t>();
  const bellperson::verifying_key_t& vk = params_.vk();
  const auto g = groth16::assemble_proof<bellperson::curve_t>(
      m, {vk.alpha_g1, vk.beta_g1, vk.delta_g1, vk.beta_g2, vk.delta_g2}, r, sr);
  bellperson::proof_t proof{g.a, g.b, g.c};
  mark(groth16::prover_stage_t::assemble);
  return proof;
}

partition_assignment_t synthesize_partition(const c1_output_t& c1, uint32_t partition,
                                            bool parallel) {
  if (!c1.registered_proof) throw std::invalid_argument("C1: no registered proof");
  if (partition >= c1.vanilla_proofs.size())
    throw std::invalid_argument("C1: partition " + std::to_string(partition) + " of " +
                                std::to_string(c1.vanilla_proofs.size()));
  const circuit_config_t c = circuit_config(porep_config(*c1.registered_proof));
  return synthesize_partition(c,
                              witness_from_vanilla({c1.replica_id, c1.comm_d, c1.comm_r, c1.seed},
                                                   c1.vanilla_proofs[partition]),
                              parallel);
}

prove_result_t<partition_proof_t> prove_partition(const partition_prover_t& prover,
                                                  const prove_inputs_t& in,
                                                  const prove_options_t& opt) {
  if (!in.c1) throw std::invalid_argument("prove_partition: no C1");
  const c1_output_t& c1 = *in.c1;
  partition_proof_t out;
  uint64_t t = groth16::now_ns();
  auto lap = [&t] {
    const uint64_t now = groth16::now_ns();
    const double s = double(now - t) * 1e-9;
    t = now;
    return s;
  };
  if (auto e = check_c1(c1.registered_proof ? porep_config(*c1.registered_proof) : porep_config_t{},
                        c1, std::nullopt, {in.prover_id, in.sector, std::nullopt}))
    return prove_refusal_t{*e};
  out.check_seconds = lap();
  const porep_config_t pc = porep_config(*c1.registered_proof);
  if (in.partition >= c1.vanilla_proofs.size())
    return prove_refusal_t{"partition " + std::to_string(in.partition) + ": the C1 has " +
                           std::to_string(c1.vanilla_proofs.size())};
  const circuit_config_t cc = circuit_config(pc);
  if (!(cc == prover.config()))
    return prove_refusal_t{"the C1's circuit (" + cc.key() + ") is not the parameters' (" +
                           prover.config().key() + ")"};
  partition_assignment_t w;
  lap();
  try {
    w = synthesize_partition(c1, in.partition);
  } catch (const std::invalid_argument& e) {
    return prove_refusal_t{std::string("synthesis: ") + e.what()};
  }
  out.synthesis_seconds = lap();
  out.constraints = w.counts.constraints;
  if (auto u = first_unsatisfied(cc, w.view()))
    return prove_refusal_t{"constraint " + std::to_string(u->constraint) + " (" + u->where +
                           ") is not satisfied"};
  out.satisfied_seconds = lap();
  const sector_ids_t ids = sector_ids_of(c1, in.prover_id, in.sector);
  const graph_t g(pc);
  const std::vector<fr_t> inputs = partition_inputs(pc, g, ids, in.partition).inputs;
  if (inputs.size() + 1 != w.inputs.size())
    return prove_refusal_t{"the circuit has " + std::to_string(w.inputs.size()) +
                           " inputs, the verifier derives " + std::to_string(inputs.size() + 1)};
  for (size_t i = 0; i < inputs.size(); ++i)
    if (!(inputs[i] == w.inputs[i + 1]))
      return prove_refusal_t{"public input " + std::to_string(i) +
                             " of the synthesized circuit is not the one the verifier derives"};
  out.proof = prover.prove(w, opt);
  const uint64_t t0 = groth16::now_ns();
  const groth16::verdict_t v = bellperson::verify_proof(prover.params().vk(), out.proof, inputs);
  if (opt.observe) opt.observe(groth16::prover_stage_t::verify, t0, groth16::now_ns());
  if (!v.valid)
    return prove_refusal_t{"the proof does not verify with " + prover.params().path() +
                           "'s verifying key: " + v.reason};
  bellperson::encode_proof(out.proof, out.bytes.data());
  return out;
}

}  // namespace zk::filecoin
