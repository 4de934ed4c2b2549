#include "zk/filecoin/api/c2.hpp"

#include <stdexcept>
#include <string>

#include "zk/base/hex.hpp"
#include "zk/filecoin/api/registry.hpp"
#include "zk/filecoin/porep/circuit/public_inputs.hpp"
#include "zk/filecoin/porep/vanilla/graph.hpp"
#include "zk/filecoin/porep/vanilla/proof.hpp"

namespace zk::filecoin {

c2_prover_t::c2_prover_t(const bellperson::params_file_t& params, const circuit_config_t& config)
    : params_prover_t(params, *circuit_shape(config, false)), config_(config) {}

result_t<synthesis_report_t> synthesize_into(c2_prover_t& prover, const c1_output_t& c1,
                                             uint32_t partition, std::vector<fr_t>& witness) {
  const circuit_config_t& cc = prover.config();
  return synthesize_checked(
      prover, circuit_layout(cc),
      [&](const bellperson::assignment_view_t& view) {
        synthesize_partition(cc,
                             witness_from_vanilla({c1.replica_id, c1.comm_d, c1.comm_r, c1.seed},
                                                  c1.vanilla_proofs.at(partition)),
                             view);
      },
      [&](const bellperson::assignment_view_t& view) { return first_unsatisfied(cc, view); },
      witness);
}

result_t<partition_proof_t> prove_partition(c2_prover_t& prover, const prove_partition_t& in) {
  if (!in.c1) throw std::invalid_argument("prove_partition: no C1");
  const c1_output_t& c1 = *in.c1;
  const porep_config_t pc = porep_config(*c1.registered_proof);
  if (in.partition >= c1.vanilla_proofs.size())
    return "partition " + std::to_string(in.partition) + ": the C1 has " +
           std::to_string(c1.vanilla_proofs.size());
  const circuit_config_t cc = circuit_config(pc);
  if (!(cc == prover.config()))
    return "the C1's circuit (" + cc.key() + ") is not the parameters' (" + prover.config().key() +
           ")";
  std::vector<fr_t> witness;
  synthesis_report_t synthesis;
  try {
    auto s = synthesize_into(prover, c1, in.partition, witness);
    if (!s) return s.error();
    synthesis = *s;
  } catch (const std::invalid_argument& e) {
    return std::string("synthesis: ") + e.what();
  }
  // The synthesized public inputs must be those the verifier derives from the sector's ids.
  const sector_ids_t ids = sector_ids_of(c1, in.prover_id, in.sector);
  groth16::prove_call_t call;
  call.observe = in.observe;
  call.what = "partition " + std::to_string(in.partition);
  call.r = in.r;
  call.s = in.s;
  auto out = prove_witness(prover, witness,
                           partition_inputs(pc, graph_t(pc), ids, in.partition).inputs, call);
  if (out) out->synthesis = synthesis;
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
