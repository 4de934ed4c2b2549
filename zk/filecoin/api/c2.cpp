#include "zk/filecoin/api/c2.hpp"

#include <stdexcept>
#include <string>

#include "zk/base/hex.hpp"
#include "zk/ff/canonical.hpp"
#include "zk/filecoin/api/registry.hpp"
#include "zk/filecoin/porep/circuit/public_inputs.hpp"
#include "zk/filecoin/porep/vanilla/graph.hpp"
#include "zk/filecoin/porep/vanilla/proof.hpp"

namespace zk::filecoin {

namespace {

double seconds_since(uint64_t t0) { return double(groth16::now_ns() - t0) * 1e-9; }

}  // namespace

c2_prover_t::c2_prover_t(const bellperson::params_file_t& params, const circuit_config_t& config)
    : config_(config), key_(params, *circuit_shape(config, false)), prover_(key_.view()) {}

uint64_t c2_prover_t::resident_bytes() const {
  return key_.bytes() + 3 * uint64_t(key_.view().domain_size) * sizeof(fr_t);
}

result_t<synthesis_report_t> synthesize_into(c2_prover_t& prover, const c1_output_t& c1,
                                             uint32_t partition, std::vector<fr_t>& witness) {
  const circuit_config_t& cc = prover.config();
  const circuit_layout_t& layout = circuit_layout(cc);
  synthesis_report_t r;
  r.constraints = layout.total.constraints;
  uint64_t t = groth16::now_ns();
  const partition_witness_t w = witness_from_vanilla({c1.replica_id, c1.comm_d, c1.comm_r, c1.seed},
                                                     c1.vanilla_proofs.at(partition));
  witness.resize(uint64_t(layout.total.inputs) + layout.total.aux);
  const auto abc =
      prover.prover().abc_for_loading(uint64_t(layout.total.constraints) + layout.total.inputs);
  bellperson::assignment_view_t view;
  view.inputs = witness.data();
  view.aux = witness.data() + layout.total.inputs;
  view.a = abc.a;
  view.b = abc.b;
  view.c = abc.c;
  view.capacity = layout.total;
  synthesize_partition(cc, w, view);
  r.synthesis_seconds = seconds_since(t);
  t = groth16::now_ns();
  if (auto u = first_unsatisfied(cc, view))
    return std::string("constraint " + std::to_string(u->constraint) + " (" + u->where +
                       ") is not satisfied");
  r.satisfied_seconds = seconds_since(t);
  // The witness as the prover reads it: canonical little-endian, in place.
  ff::write_canonical_le(witness.data(), witness.size(),
                         reinterpret_cast<uint8_t*>(witness.data()));
  return r;
}

result_t<partition_proof_t> prove_partition(c2_prover_t& prover, const prove_partition_t& in) {
  if (!in.c1) throw std::invalid_argument("prove_partition: no C1");
  const c1_output_t& c1 = *in.c1;
  partition_proof_t out;
  const porep_config_t pc = porep_config(*c1.registered_proof);
  if (in.partition >= c1.vanilla_proofs.size())
    return "partition " + std::to_string(in.partition) + ": the C1 has " +
           std::to_string(c1.vanilla_proofs.size());
  const circuit_config_t cc = circuit_config(pc);
  if (!(cc == prover.config()))
    return "the C1's circuit (" + cc.key() + ") is not the parameters' (" + prover.config().key() +
           ")";
  std::vector<fr_t> witness;
  try {
    auto s = synthesize_into(prover, c1, in.partition, witness);
    if (!s) return s.error();
    out.synthesis = *s;
  } catch (const std::invalid_argument& e) {
    return std::string("synthesis: ") + e.what();
  }
  // The synthesized public inputs must be those the verifier derives from the sector's ids.
  const sector_ids_t ids = sector_ids_of(c1, in.prover_id, in.sector);
  const std::vector<fr_t> inputs = partition_inputs(pc, graph_t(pc), ids, in.partition).inputs;
  const auto* w = reinterpret_cast<const uint8_t*>(witness.data());
  const auto synthesized = groth16::public_inputs<curve_t>(w, prover.key().view().n_public);
  if (synthesized.size() != inputs.size())
    return "the circuit has " + std::to_string(synthesized.size()) +
           " public inputs, the verifier derives " + std::to_string(inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i)
    if (!(inputs[i] == synthesized[i]))
      return "public input " + std::to_string(i) +
             " of the synthesized circuit is not the one the verifier derives";
  groth16::prove_call_t call;
  call.abc = groth16::abc_source_t::loaded;
  call.observe = in.observe;
  call.what = "partition " + std::to_string(in.partition);
  call.r = in.r;
  call.s = in.s;
  try {
    const auto p = groth16::prove_verified(prover.prover(), prover.key().verifying_key(), w, call);
    out.proof = p.proof;
    out.prove_seconds = p.prove_seconds;
    out.verify_seconds = p.verify_seconds;
  } catch (const std::runtime_error& e) {
    return std::string(e.what()) + " with the parameters' verifying key";
  }
  bellperson::encode_proof(out.proof, out.bytes.data());
  return out;
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

}  // namespace zk::filecoin
