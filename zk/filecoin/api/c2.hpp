#pragma once
// Filecoin C2 (filecoin-proofs 19.1.0 api/seal.rs seal_commit_phase2): one partition's Groth16
// proof of Filecoin's PoRep circuit with a bellperson `.params` file, made by the one prover of
// the project (zk/groth16/prover.hpp) over the file's key view (zk/bellperson/groth16/key.hpp),
// so that Filecoin's verifier accepts it with the file's verifying key (docs/filecoin.md §13).
//
//   c2_prover_t        the .params of one PoRep circuit decoded for it (params_prover_t,
//                      zk/filecoin/api/params_prover.hpp: the key, the prover with its work
//                      arrays, the accelerator it hands its stages to) and the circuit's config
//   synthesize_into    partition k's assignment in prove mode straight into a witness (inputs ‖
//                      aux, canonical: what the prover and a synth buffer read) and the prover's
//                      a, b, c; every constraint checked
//   prove_partition    a C1 checked once for its sector (zk/filecoin/api/check_c1.hpp: the caller
//                      runs it, once for all partitions) + partition → the verified proof (the
//                      command line); a prover node proves a synth buffer with the same prover
//                      (node/prover/prover_engine.cpp) through groth16::prove_verified
//
// The SnapDeals update's prover is the same over its own circuit
// (zk/filecoin/api/prove_update.hpp). Refusals (an unsatisfied constraint, public inputs other than
// the verifier's, a proof that does not verify) are values: result_t's reason names the constraint
// and its region, or the check.
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "zk/base/result.hpp"
#include "zk/filecoin/api/c1.hpp"
#include "zk/filecoin/api/params_prover.hpp"
#include "zk/filecoin/porep/circuit/circuit.hpp"
#include "zk/groth16/prove_verified.hpp"

namespace zk::filecoin {

class c2_prover_t : public params_prover_t {
 public:
  // Decodes the file for the circuit (the file must be for it: std::invalid_argument naming the
  // section otherwise); the file may be closed afterwards.
  c2_prover_t(const bellperson::params_file_t& params, const circuit_config_t& config);

  const circuit_config_t& config() const { return config_; }

 private:
  circuit_config_t config_;
};

// Partition k of a C1 synthesized in prove mode into `witness` (resized to inputs + aux: the
// canonical little-endian values a synth buffer and the prover read) and the prover's own a, b, c
// (abc_for_loading), every constraint checked. Throws std::invalid_argument as
// witness_from_vanilla does for a malformed witness; a constraint that fails is the refusal.
result_t<synthesis_report_t> synthesize_into(c2_prover_t& prover, const c1_output_t& c1,
                                             uint32_t partition, std::vector<fr_t>& witness);

struct prove_partition_t {
  const c1_output_t* c1 = nullptr;  // passed check_c1 for this prover id and sector
  bytes32_t prover_id{};
  uint64_t sector = 0;
  uint32_t partition = 0;
  groth16::stage_observer_t observe;  // the prover's stages, then verify
  std::optional<bytes32_t> r, s;      // fixed randomizers (tests); unset: the OS CSPRNG
};

// Partition k of a checked C1: refused (nothing proved) when the C1 has no such partition or is of
// another circuit than the parameters', when the synthesized assignment leaves a constraint
// unsatisfied, when its public inputs are not those the verifier derives from the prover id and
// sector, or when the proof does not verify with the params' verifying key.
result_t<partition_proof_t> prove_partition(c2_prover_t& prover, const prove_partition_t& in);

// Partition k of a C1 (zk/filecoin/api/c1.hpp: the API's JSON or the lotus/curio wrapper) in one
// call: the circuit of its registered proof, the witness of its vanilla_proofs[k], prove mode.
// Throws std::invalid_argument for a partition the C1 does not have and as witness_from_vanilla
// does.
partition_assignment_t synthesize_partition(const c1_output_t& c1, uint32_t partition,
                                            bool parallel = true);

}  // namespace zk::filecoin
