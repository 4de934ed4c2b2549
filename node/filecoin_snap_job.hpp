#pragma once
// SnapDeals update proofs through the cluster (docs/filecoin.md "SnapDeals on a farm"): a circuit
// of kind filecoin_snap (`native: filecoin-snap`) is Filecoin's EmptySectorUpdate circuit of one
// registered update proof; a job of it is one sector's update: its vanilla partition proofs (as
// Curio keeps and sends them: snap-vproof.json, or the raw bincode proofs concatenated) and the
// three commitments (filecoin_snap_spec_t); each partition is one unit of work.
//
//   submit     take_in, on the scheduler's checker thread: the vanilla proofs read once
//              (zk/filecoin/update/vanilla_proof.hpp: every count bounded) and checked once
//              (verify_update_partitions: Filecoin's vanilla verifier) against the commitments —
//              a job that cannot be proven is refused here; then each partition's input
//              (zk/filecoin/api/update_input.hpp: its proof and the commitments) written to the
//              scheduler's store durably, and the digest of the public inputs the verifier
//              derives for it kept in the spec; the job is journaled after
//   dispatch   partition k's synthesis node gets its input's name only (and a ticket to fetch it)
//   synthesis  node/synth/filecoin_synth.hpp synthesize_snap: the update circuit in prove mode
//              into the synth buffer (a, b, c and the witness), every constraint checked
//   buffer     the scheduler checks the buffer's public digest against the one of intake
//   prove      node/prover/filecoin_key.hpp: the node's update .params resident, 192 bytes
//   done       the partitions' proofs concatenated in partition order (assemble_sector_proof):
//              the bytes filecoin-ffi's verify_empty_sector_update_proof takes
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "node/circuit.hpp"
#include "node/filecoin_job.hpp"
#include "node/input_file.hpp"
#include "zk/filecoin/update/config.hpp"
#include "zk/filecoin/update/public_inputs.hpp"

namespace zk::node {

struct filecoin_snap_spec_t {
  filecoin::update_commitments_t comms;  // comm_r_old, comm_d_new, comm_r_new (Rust's bytes)
  uint64_t sector = 0;                   // the sector's number, as the client names it (0: none)
  input_file_t vanilla;  // as submitted (a path, or an upload); not read again once taken in
  std::vector<filecoin_stored_partition_t> partitions;  // made by take_in (.fup objects)
};

// What partition k's synthesis gets: its input (an object of the store) and nothing else.
struct filecoin_snap_partition_t {
  input_file_t input;
};

// The update circuit of a registered update proof ("StackedDrg2KiBV1"): counts and buffer sizes
// from the circuit's layout, its digest from the circuit's shape (update_circuit_shape); its
// partitions cross the data plane as a, b, c and the witness (wire: full). `vk` is checked as
// check_filecoin_vk does. Throws naming what does not fit.
circuit_def_t describe_snap_circuit(const std::string& id, const std::string& registered_proof,
                                    const std::string& vk, const std::string& vk_key = "");
// The same without a verifying key (what synthesis needs; tests).
circuit_def_t snap_circuit(const std::string& id, const std::string& registered_proof);
// The same without the digest: the counts alone (zkfleet config check).
circuit_def_t snap_circuit_counts(const std::string& id, const std::string& registered_proof);

// The registered update proof's configuration (partitions, challenges, h ...).
filecoin::update_config_t snap_config(const circuit_def_t& c);

// The cheap checks: the vanilla proofs named well, no partition inputs given, the partition count
// the proof's, every commitment a field element.
check_t check_request(const circuit_def_t& c, const filecoin_snap_spec_t& s, uint32_t partitions);
// See the top: the spec with its partitions' inputs, or the reason naming the vanilla proofs' file
// as the user named it (and the partition and check that failed). Needs env.store.
result_t<filecoin_snap_spec_t> take_in(const circuit_def_t& c, filecoin_snap_spec_t s,
                                       uint32_t partitions, const intake_env_t& env);
filecoin_snap_partition_t partition_input(const filecoin_snap_spec_t& s, uint32_t k);
// The partitions' inputs once taken in; before that, the vanilla proofs' file (when stored).
void stored_objects(const filecoin_snap_spec_t& s, std::vector<stored_object_t>& out);

// The journal's JSON: {"comm_r_old"|"comm_d_new"|"comm_r_new": "<64 hex>", "sector": N,
// "vanilla": {"path"|"stored": …}, "partitions": [{"stored": "sha256:<hex>.fup",
// "public_digest": "<64 hex>"}, …]}.
nlohmann::json spec_json(const filecoin_snap_spec_t& s);
filecoin_snap_spec_t filecoin_snap_spec_from_json(const nlohmann::json& j);

}  // namespace zk::node
