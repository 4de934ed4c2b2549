#pragma once
// Curio's cuzk API (grpcapi/proto/cuzk/v1/proving.proto, docs/api.md "gRPC: Curio's cuzk API"):
// a SubmitProofRequest turned into the scheduler's job request, in plain C++ (no gRPC: the
// grpcapi/ layer reads the wire and answers; this decides). What Curio sends for a sector's C2
// (lib/ffi/cuzk_funcs.go PoRepSnarkCuzk): request_id "porep-<miner>-<sector>", proof_kind
// POREP_SEAL_COMMIT, sector_size in bytes, registered_proof the chain's RegisteredSealProof
// number, priority NORMAL, vanilla_proof the C1 output in the lotus/curio wrapper
// ({"SectorNum","Phase1Out","SectorSize"}), sector_number and miner_id.
//
//   proof_kind        1 (POREP_SEAL_COMMIT) and 2 (SNAP_DEALS_UPDATE) are proved; 3-4
//                     (WindowPoSt, WinningPoSt) are refused as unimplemented, naming the kind and
//                     the circuits configured; 0 and others as invalid (cuzk's "invalid
//                     proof_kind: N")
//   registered_proof  PoRep: 0-19, the RegisteredSealProof of filecoin-proofs-api in enum order
//                     (the Go/FFI numbers are the same, docs/filecoin.md §1), selects the
//                     configured filecoin-porep circuit of that proof (the first by id when
//                     several); SnapDeals: 0-4, the RegisteredUpdateProof, selects the
//                     filecoin-snap circuit likewise
//
// What Curio sends for a SnapDeals update (lib/ffi/cuzk_funcs.go ProveUpdateCuzk): request_id
// "snap-<miner>-<sector>", proof_kind SNAP_DEALS_UPDATE, sector_size from the seal proof,
// registered_proof the RegisteredUpdateProof's number, vanilla_proofs one bincode partition proof
// a partition (partition 0 first), comm_r_old, comm_r_new, comm_d_new 32 bytes each. The
// partitions are stored as Curio's snap-vproof.json (one object of the store) and taken in by the
// scheduler as any update job (node/filecoin_snap_job.hpp take_in: every partition checked by
// Filecoin's vanilla verifier against the commitments).
//   sector_size       0: not given; otherwise the registered proof's, or refused
//   miner_id          the prover id: filecoin-ffi's toProverID, the ID address's payload (the id's
//                     unsigned LEB128) left-aligned in 32 zero bytes; ids of 2^63 and over refused
//                     as go-address refuses them
//   priority          1 low, 2 normal, 3 high, 4 critical, 0 the circuit's own (zkfleet's
//                     default), 5 and over normal (as cuzk)
//   vanilla_proof     stored once in the scheduler's store (the caller streams it there) and
//                     taken in by the scheduler as any C1 (node/filecoin_job.hpp take_in)
//   request_id        at most max_request_id bytes, no control characters; with the request's
//                     fingerprint it makes the job idempotent (node/scheduler/requests.hpp)
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "node/circuit.hpp"
#include "node/scheduler/requests.hpp"
#include "node/scheduler/uploads.hpp"
#include "zk/base/bytes.hpp"
#include "zk/base/result.hpp"
#include "zk/filecoin/api/registry.hpp"

namespace zk::node::cuzk {

// How a call is refused: gRPC's codes by their meaning (grpcapi maps them one to one).
enum class code_t : uint8_t {
  invalid_argument,     // the request itself is wrong
  not_found,            // no such job (or circuit id)
  already_exists,       // the request_id names another request's unfinished job
  failed_precondition,  // well formed, but the cluster is not set up for it
  unimplemented,        // a proof kind zkfleet does not prove
  permission_denied,    // the caller may not use this listener
  unauthenticated,      // the caller has no identity here
  unavailable,          // the scheduler did not answer (not the request's fault)
  internal,             // the scheduler failed
};
const char* code_name(code_t c);

struct refusal_t {
  code_t code = code_t::invalid_argument;
  std::string why;
};
template <class T>
using answer_t = result_t<T, refusal_t>;

// ProofKind's numbers (proving.proto).
inline constexpr uint64_t porep_seal_commit = 1;
inline constexpr uint64_t snap_deals_update = 2;
// "POREP_SEAL_COMMIT", …; "" for a number that is no kind.
const char* proof_kind_name(uint64_t kind);

// A SubmitProofRequest's fields as the scheduler's face needs them; vanilla_proof is the object
// of the store it went to (the grpcapi layer streams it there: the C1 is never held twice).
struct submit_t {
  std::string request_id;
  uint64_t proof_kind = 0;
  uint64_t sector_size = 0;
  uint64_t registered_proof = 0;
  uint64_t priority = 0;
  uint64_t sector_number = 0;
  uint64_t miner_id = 0;
  uint64_t vanilla_proof_bytes = 0;   // its length on the wire (0: none sent)
  std::optional<stored_object_t> c1;  // vanilla_proof once stored
  // SNAP_DEALS_UPDATE: the partitions' proofs, the commitments as sent (32 bytes each when valid),
  // and the partitions once stored (as snap-vproof.json)
  std::vector<std::string> vanilla_proofs;
  std::string comm_r_old, comm_r_new, comm_d_new;
  std::optional<stored_object_t> vanilla;
};

// filecoin-ffi's prover id of a miner (see the top), or why not.
result_t<bytes32_t> prover_id_of(uint64_t miner_id);
// The RegisteredSealProof of a number (0-19), or why not.
result_t<const filecoin::registered_proof_t*> seal_proof_of(uint64_t registered_proof);
// The configured filecoin-porep circuit that proves `proof` (the first by id), or the refusal
// naming what is configured.
answer_t<circuit_def_t> circuit_for(const std::vector<circuit_def_t>& circuits,
                                    const filecoin::registered_proof_t& proof);
// The same for an update proof: the configured filecoin-snap circuit of it.
answer_t<circuit_def_t> circuit_for(const std::vector<circuit_def_t>& circuits,
                                    const filecoin::registered_update_proof_t& proof);
// "fc2k (StackedDrg2KiBV1_1), fc32 (StackedDrg32GiBV1_1)", or "none": the circuits of `kind`.
std::string filecoin_circuits(const std::vector<circuit_def_t>& circuits,
                              circuit_kind_t kind = circuit_kind_t::filecoin_porep);

// Everything that can be refused before the C1 (or the update's partitions) is stored: the kind,
// the registered proof and its circuit, the sector size, the miner id, the request id, a C1
// present (PoRep); the partitions' count and the commitments' sizes (SnapDeals). The circuit the
// job goes to.
answer_t<circuit_def_t> check_submit(const submit_t& s, const std::vector<circuit_def_t>& circuits);

// What `s` asks, as a digest (64 hex digits): its kind, registered proof, sector size, miner,
// sector and the stored C1's SHA-256 (SnapDeals: the stored partitions' and the commitments). The
// same request sent again (a Curio retry) has the same fingerprint; another C1 for the same sector
// (resealed: another ticket or seed) has another.
std::string request_fingerprint(const submit_t& s);

// The job request of a checked submit (check_submit's circuit; s.c1 or s.vanilla stored): a
// Filecoin C2 of the C1 object, prover_id_of(miner_id), sector_number, the registered proof's
// partitions (SnapDeals: an update of the stored partitions and the commitments), the priority
// mapped, request_id and its fingerprint.
answer_t<job_request_msg> job_request_of(const submit_t& s, const circuit_def_t& circuit);

}  // namespace zk::node::cuzk
