#pragma once
// Filecoin C2 through the cluster (docs/filecoin.md "C2 on a farm"): a circuit of kind
// `native: filecoin-porep` is Filecoin's StackedDrg circuit of one registered seal proof; a job of
// it is one sector's C1 output (the API's JSON or the lotus/curio wrapper) with the sector's
// prover id and number; each partition of the C1 is one unit of work.
//
//   submit     check_filecoin_job: the C1 read and validated (c1.hpp), its registered proof the
//              circuit's, its partition count the job's, its replica_id the one the prover id,
//              sector, ticket, comm_d and porep_id derive, its vanilla proofs valid
//              (check_vanilla_proofs) — a job that cannot be proven is refused here
//   synthesis  node/synth/filecoin_synth.hpp: partition k's witness from the vanilla proofs, the
//              circuit in prove mode into the synth buffer, every constraint checked
//   prove      node/prover/filecoin_key.hpp: the node's .params mapped and resident, 192 bytes
//   done       each partition's proof travels as proof text (filecoin_proof_text);
//              assemble_sector_proof concatenates them in partition order: the sector's proof
//
// A job's inputs: exactly one C1 (a path, or an upload) and the two arguments "prover_id=HEX"
// (64 hex digits, the order of the C1 JSON and the chain) and "sector=N", in any order.
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/util/result.hpp"
#include "node/circuit.hpp"
#include "zk/filecoin/api/c1.hpp"
#include "zk/filecoin/api/registry.hpp"
#include "zk/filecoin/porep/circuit/public_inputs.hpp"

namespace zk::node {

// The circuit of a registered proof: counts, buffer sizes and the digest (the circuit's hash,
// zk/filecoin/porep/circuit/circuit.hpp circuit_shape) from the circuit itself; `vk` is the
// bellperson .vk the scheduler checks proofs with (read and checked here). Throws naming what does
// not fit.
circuit_def_t describe_filecoin_circuit(const std::string& id, const std::string& registered_proof,
                                        const std::string& vk);
// The same without a verifying key (`vk` left empty): what synthesis needs (tests).
circuit_def_t filecoin_circuit(const std::string& id, const std::string& registered_proof);

// The registered proof's configuration (partitions, challenges, porep_id ...).
filecoin::porep_config_t filecoin_config(const circuit_def_t& c);

// A job argument ("prover_id=...", "sector=..."): an input that is not a file.
bool is_filecoin_arg(const std::string& input);

struct filecoin_job_args_t {
  std::string c1;  // the C1's path (or upload reference, before it is resolved)
  zk::bytes32_t prover_id{};
  uint64_t sector = 0;
};
// The job's inputs split; the reason when they are not one C1, one prover_id and one sector.
util::result_t<filecoin_job_args_t> parse_filecoin_args(const circuit_def_t& c,
                                                        const std::vector<std::string>& inputs);

// Everything a C1 must satisfy before its job is accepted (see the top); `inputs` hold the C1 as a
// path this process reads. The reason naming the C1 and what is wrong, nullopt when it fits.
std::optional<std::string> check_filecoin_job(const circuit_def_t& c,
                                              const std::vector<std::string>& inputs,
                                              uint32_t partitions);

// A partition's proof as it travels in proof_msg::proof_json and the journal:
//   {"protocol":"groth16","curve":"bls12381","format":"bellperson","proof":"<384 hex digits>"}
std::string filecoin_proof_text(const uint8_t* proof192);
// Whether the text is one (by its format field); the 192 bytes, or the reason.
bool is_filecoin_proof_text(const std::string& text);
util::result_t<std::vector<uint8_t>> filecoin_proof_bytes(const std::string& text);

// The sector's proof: the partitions' proofs concatenated in partition order (192 bytes each).
// `proofs` are (partition, proof text) in any order; the reason when a partition is missing or
// given twice, or a text is not a proof.
util::result_t<std::vector<uint8_t>> assemble_sector_proof(
    uint32_t partitions, const std::vector<std::pair<uint32_t, std::string>>& proofs);

}  // namespace zk::node
