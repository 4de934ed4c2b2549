#pragma once
// The vanilla proofs in the C1 JSON, as serde_json writes the Rust structs
// (rust-filecoin-proofs-api src/seal.rs SealCommitPhase1Output; storage-proofs-porep params.rs
// Proof; storage-proofs-core merkle/proof.rs MerkleProof): objects with their fields in struct
// order, 32-byte values as arrays of 32 numbers, a column's phantom `_h` as null, a Merkle proof
// as {"data": {"Single"|"Sub"|"Top": {...}}}. Written with nlohmann::ordered_json so that the
// compact dump is byte for byte serde_json's.
//
// The C1 envelope (registered_proof, vanilla_proofs keyed by the proof's variant, comm_r, comm_d,
// replica_id, seed, ticket) is c1_json below; fc-a's C1 reader/writer (c1.hpp) owns the format as
// a whole (the lotus/curio base64 wrapper included) and may wrap these.
#include <nlohmann/json.hpp>
#include <string>

#include "zk/filecoin/registry.hpp"
#include "zk/filecoin/vanilla.hpp"

namespace zk::filecoin {

nlohmann::ordered_json merkle_proof_to_json(const merkle_proof_t& p);
nlohmann::ordered_json vanilla_proof_to_json(const vanilla_proof_t& p);
nlohmann::ordered_json vanilla_partitions_to_json(const vanilla_partitions_t& p);

// Readers: throw zk::format_error "<what>: <JSON path>: <problem>" (e.g. "c1.json:
// /vanilla_proofs/StackedDrg2KiBV1/0/1/labeling_proofs/0/parents/3: expected 32 bytes, got 31").
merkle_proof_t merkle_proof_from_json(const nlohmann::json& j, const std::string& what,
                                      const std::string& path);
vanilla_proof_t vanilla_proof_from_json(const nlohmann::json& j, const std::string& what,
                                        const std::string& path);
vanilla_partitions_t vanilla_partitions_from_json(const nlohmann::json& j, const std::string& what,
                                                  const std::string& path);

// A whole C1 (SealCommitPhase1Output) as the API serialises it.
struct c1_fields_t {
  const registered_proof_t* proof = nullptr;
  bytes32_t comm_r{}, comm_d{}, replica_id{}, seed{}, ticket{};
  vanilla_partitions_t vanilla_proofs;
};
nlohmann::ordered_json c1_json(const c1_fields_t& c1);
// Reads a plain C1 (not the lotus/curio wrapper); the registered proof must be known and the
// vanilla_proofs key its variant.
c1_fields_t c1_from_json(const nlohmann::json& j, const std::string& what);

}  // namespace zk::filecoin
