#pragma once
// Filecoin C2 through the cluster (docs/filecoin.md "C2 on a farm"): a circuit of kind
// filecoin_porep (`native: filecoin-porep`) is Filecoin's StackedDrg circuit of one registered seal
// proof; a job of it is one sector's C1 output (the API's JSON or the lotus/curio wrapper) with the
// sector's prover id and number (filecoin_porep_spec_t); each partition of the C1 is one unit of
// work.
//
//   submit     take_in, on the scheduler's checker thread: the C1 read once (c1.hpp) and checked
//              once (zk/filecoin/api/check_c1.hpp: its registered proof the circuit's, its
//              partition count the job's, a wrapper's SectorNum the sector, its replica_id the one
//              the prover id, sector, ticket, comm_d and porep_id derive, its vanilla proofs
//              valid) — a job that cannot be proven is refused here; then each partition's input
//              (zk/filecoin/api/partition_input.hpp: its witness and challenges, compact binary)
//              written to the scheduler's store durably, and the digest of the public inputs the
//              verifier derives for it kept in the spec; the job is journaled after
//   dispatch   partition k's synthesis node gets its input's name only (and a ticket to fetch it)
//   synthesis  node/synth/filecoin_synth.hpp: the input read, the circuit in prove mode into the
//              synth buffer, every constraint checked, its public inputs those of the input
//   buffer     the scheduler checks the buffer's public digest against the one of intake
//   prove      node/prover/filecoin_key.hpp: the node's .params mapped and resident, 192 bytes
//   done       each partition's proof travels as proof text (filecoin_proof_text);
//              assemble_sector_proof concatenates them in partition order: the sector's proof
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "node/circuit.hpp"
#include "node/input_file.hpp"
#include "zk/base/bytes.hpp"
#include "zk/filecoin/api/c1.hpp"
#include "zk/filecoin/api/registry.hpp"
#include "zk/filecoin/core/circuit_parts.hpp"
#include "zk/filecoin/porep/circuit/public_inputs.hpp"

namespace zk::node {

// A partition's input as intake stored it, with the digest of the public inputs the verifier
// derives for it (PoRep and SnapDeals alike).
struct filecoin_stored_partition_t {
  input_file_t input;         // stored: the store's object (.fcp PoRep, .fup SnapDeals)
  std::string public_digest;  // 32 bytes: public_digest of the inputs derived at intake
};

struct filecoin_porep_spec_t {
  zk::bytes32_t prover_id{};  // in the order of the C1 JSON and the chain
  uint64_t sector = 0;
  input_file_t c1;  // as submitted (a path, or an upload); not read again once taken in
  using partition_t = filecoin_stored_partition_t;
  std::vector<partition_t> partitions;  // made by take_in, one per partition of the job
};

// What partition k's synthesis gets: its input (an object of the store) and nothing else.
struct filecoin_porep_partition_t {
  input_file_t input;
};

// The circuit of a registered proof: counts, buffer sizes and the digest (the circuit's hash,
// zk/filecoin/porep/circuit/circuit.hpp circuit_shape) from the circuit itself; `vk` is the
// bellperson .vk the scheduler checks proofs with (read and checked here). Throws naming what does
// not fit; what is wrong with the .vk after `vk_key` and ": " when given (the config's
// circuits.ID.vk).
// `wire` (the config's circuits.ID.wire) decides the buffer's shape: packed_witness (packed) or
// abc_witness (full), and so what the store and the prover reserve for a partition.
circuit_def_t describe_filecoin_circuit(const std::string& id, const std::string& registered_proof,
                                        const std::string& vk, const std::string& vk_key = "",
                                        config::wire_t wire = config::wire_t::packed);
// The same without a verifying key (`vk` left empty): what synthesis needs (tests).
circuit_def_t filecoin_circuit(const std::string& id, const std::string& registered_proof,
                               config::wire_t wire = config::wire_t::packed);
// The same without the digest (left empty): the counts and sizes from the circuit's layout alone,
// under a second at 32 GiB where the shape takes about 16 s (`zkfleet config check`).
circuit_def_t filecoin_circuit_counts(const std::string& id, const std::string& registered_proof,
                                      config::wire_t wire = config::wire_t::packed);
// A Filecoin circuit (PoRep or SnapDeals) of this kind described from its layout: counts and
// buffer sizes on the wire `wire` (node/filecoin_memory.hpp), no digest.
circuit_def_t filecoin_kind_counts(const std::string& id, circuit_kind_t kind,
                                   const std::string& registered_proof,
                                   const filecoin::circuit_layout_t& layout, config::wire_t wire);
// Throws naming `vk` (after `vk_key` and ": " when given) when it is not a .vk with c's inputs.
void check_filecoin_vk(const circuit_def_t& c, const std::string& vk,
                       const std::string& vk_key = "");

// What a prover keeps resident for circuit c beside its parameters: on the packed wire the
// circuit's structure that a, b, c are rebuilt with (built on the first call and kept for the
// process, as the key load does); 0 on the full wire.
uint64_t prover_resident_bytes(const circuit_def_t& c);

// The digest (node/verify_proof.hpp public_digest) a synth buffer's witness gives public inputs
// `inputs` (ONE excluded): what intake keeps for each partition.
std::string filecoin_public_digest(const std::vector<filecoin::fr_t>& inputs);

// What a Filecoin intake (PoRep's C1, SnapDeals' vanilla proofs) reads first: the file the job
// names, found at the scheduler; the reason when the scheduler has no store for the partitions'
// inputs or the file is not there.
result_t<resolved_file_t> filecoin_intake_file(const circuit_def_t& c, const input_file_t& f,
                                               const intake_env_t& env);

// Partition input `bytes` (of store object type `type`) stored durably, with the digest of the
// public inputs the verifier derives for it: the partition `take_in` adds to a job's spec.
filecoin_stored_partition_t store_filecoin_partition(const intake_env_t& env,
                                                     const std::vector<uint8_t>& bytes,
                                                     object_type_t type,
                                                     const std::vector<filecoin::fr_t>& inputs);
// What the store keeps for a Filecoin job: its partitions' inputs once taken in, else what was
// submitted (`submitted`, when it is stored).
void filecoin_stored_objects(const input_file_t& submitted,
                             const std::vector<filecoin_stored_partition_t>& parts,
                             std::vector<stored_object_t>& out);

// The journal's JSON of stored partitions, [{"stored": "sha256:<hex>.<ext>", "public_digest":
// "<64 hex>"}, …], and back (std::invalid_argument naming `what` and the element; each object of
// type `type`).
nlohmann::json stored_partitions_json(const std::vector<filecoin_stored_partition_t>& parts);
std::vector<filecoin_stored_partition_t> stored_partitions_from_json(const nlohmann::json& j,
                                                                     const std::string& what,
                                                                     object_type_t type);

// The registered proof's configuration (partitions, challenges, porep_id ...).
filecoin::porep_config_t filecoin_config(const circuit_def_t& c);

// The cheap checks: the C1 named well, no partition inputs given (only intake makes them).
check_t check_request(const circuit_def_t& c, const filecoin_porep_spec_t& s, uint32_t partitions);
// See the top: the spec with its partitions' inputs, or the reason naming the C1 as the user named
// it. Needs env.store (the partitions' inputs go there).
result_t<filecoin_porep_spec_t> take_in(const circuit_def_t& c, filecoin_porep_spec_t s,
                                        uint32_t partitions, const intake_env_t& env);
filecoin_porep_partition_t partition_input(const filecoin_porep_spec_t& s, uint32_t k);
// The partitions' inputs once taken in; before that (a spec journaled by schema v1), the C1.
void stored_objects(const filecoin_porep_spec_t& s, std::vector<stored_object_t>& out);

// The journal's JSON: {"prover_id": "<64 hex>", "sector": N, "c1": {"path"|"stored": …},
// "partitions": [{"stored": "sha256:<hex>.fcp", "public_digest": "<64 hex>"}, …]}.
nlohmann::json spec_json(const filecoin_porep_spec_t& s);
filecoin_porep_spec_t filecoin_porep_spec_from_json(const nlohmann::json& j);

// A partition's proof as it travels in proof_msg::proof_json and the journal:
//   {"protocol":"groth16","curve":"bls12381","format":"bellperson","proof":"<384 hex digits>"}
std::string filecoin_proof_text(const uint8_t* proof192);
// The 192 bytes of a proof text, or the reason.
result_t<std::vector<uint8_t>> filecoin_proof_bytes(const std::string& text);

// The sector's proof: the partitions' proofs concatenated in partition order (192 bytes each).
// `proofs` are (partition, proof text) in any order; the reason when a partition is missing or
// given twice, or a text is not a proof.
result_t<std::vector<uint8_t>> assemble_sector_proof(
    uint32_t partitions, const std::vector<std::pair<uint32_t, std::string>>& proofs);

}  // namespace zk::node
