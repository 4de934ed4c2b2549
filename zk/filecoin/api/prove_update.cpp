#include "zk/filecoin/api/prove_update.hpp"

#include <stdexcept>
#include <string>

#include "zk/filecoin/update/circuit.hpp"
#include "zk/filecoin/update/vanilla.hpp"

namespace zk::filecoin {

namespace {

std::string partition_name(uint32_t k) { return "partition " + std::to_string(k) + ": "; }

check_t has_partition(const update_config_t& c, uint32_t k) {
  if (k < c.partitions) return {};
  return partition_name(k) + "the update has " + std::to_string(c.partitions) + " partition" +
         (c.partitions == 1 ? "" : "s");
}

}  // namespace

update_prover_t::update_prover_t(const bellperson::params_file_t& params,
                                 const update_config_t& config)
    : params_prover_t(params, *update_circuit_shape(config, false)), config_(config) {}

result_t<synthesis_report_t> synthesize_update_into(update_prover_t& prover,
                                                    const update_commitments_t& comms,
                                                    const update_partition_proof_t& proof,
                                                    uint32_t k, std::vector<fr_t>& witness,
                                                    const stop_t& stop) {
  const update_config_t& c = prover.config();
  if (const check_t h = has_partition(c, k); !h) return h.reason();
  try {
    auto r = synthesize_checked(
        prover, update_circuit_layout(c),
        [&](const bellperson::assignment_view_t& view) {
          synthesize_update_partition(c, update_witness_from_vanilla(c, k, comms, proof), view,
                                      true, stop);
        },
        [&](const bellperson::assignment_view_t& view) {
          return first_unsatisfied_update(c, view);
        },
        witness);
    if (!r) return partition_name(k) + r.error();
    return r;
  } catch (const std::invalid_argument& e) {
    return partition_name(k) + "synthesis: " + e.what();
  }
}

result_t<partition_proof_t> prove_update_partition(update_prover_t& prover,
                                                   const prove_update_partition_t& in) {
  if (!in.proof) throw std::invalid_argument("prove_update_partition: no vanilla proof");
  const update_config_t& c = prover.config();
  const uint32_t k = in.partition;
  if (const check_t h = has_partition(c, k); !h) return h.reason();
  if (const check_t v = verify_update_partition(c, k, in.comms, *in.proof); !v)
    return partition_name(k) + "vanilla proof: " + v.reason();
  const result_t<std::vector<fr_t>> inputs = update_public_inputs(c, k, in.comms);
  if (!inputs) return partition_name(k) + inputs.error();
  std::vector<fr_t> witness;
  auto synthesis = synthesize_update_into(prover, in.comms, *in.proof, k, witness, in.stop);
  if (!synthesis) return synthesis.error();
  groth16::prove_call_t call;
  call.observe = in.observe;
  call.what = "partition " + std::to_string(k);
  call.r = in.r;
  call.s = in.s;
  call.stop = in.stop;
  auto out = prove_witness(prover, witness, *inputs, call);
  // prove_verified's own reason starts with call.what.
  if (!out)
    return out.error().rfind(call.what, 0) == 0 ? out.error() : partition_name(k) + out.error();
  out->synthesis = *synthesis;
  return out;
}

}  // namespace zk::filecoin
