#pragma once
// Filecoin's C1 output — what seal_commit_phase1 hands to C2 — read, validated and written
// (docs/filecoin.md §4).
//
// The JSON is serde_json's of rust-filecoin-proofs-api src/seal.rs SealCommitPhase1Output:
//   {"registered_proof": "StackedDrg2KiBV1_1",
//    "vanilla_proofs": {"StackedDrg2KiBV1": [[proof, …challenges], …partitions]},
//    "comm_r": [32 numbers], "comm_d": […], "replica_id": […], "seed": […], "ticket": […]}
// with each proof storage-proofs-porep stacked/vanilla/params.rs Proof:
//   {"comm_d_proofs": merkle (SHA-256, binary),
//    "comm_r_last_proof": merkle (Poseidon, the sector's tree shape),
//    "replica_column_proofs": {"c_x": column proof, "drg_parents": [6], "exp_parents": [8]},
//    "labeling_proofs": [{"parents": [37 domains], "layer_index": L, "node": n}, …layers],
//    "encoding_proof": {"parents": [37], "layer_index": layers, "node": n}}
//   column proof (column_proof.rs, column.rs): {"column": {"index": i, "rows": [layers],
//                                               "_h": null}, "inclusion_proof": merkle}
//   merkle (storage-proofs-core merkle/proof.rs MerkleProof, an externally tagged enum):
//     {"data": {"Single": {"root", "leaf", "path": {"path": [element]}}}}
//     {"data": {"Sub": {"base_proof": {"path": […]}, "sub_proof": {"path": […]}, "root", "leaf"}}}
//     {"data": {"Top": {"base_proof", "sub_proof", "top_proof", "root", "leaf"}}}
//     element: {"hashes": [arity − 1 domains], "index": position among the siblings}
//   domain: a hash value, 32 bytes as 32 JSON numbers, a little-endian field element.
// lotus-bench, curio and cuzk wrap it (encoding/json of a Go struct):
//   {"SectorNum": n, "Phase1Out": "<standard base64 of the JSON above>", "SectorSize": bytes}
//
// Reading (nlohmann/json's SAX parser straight into these structs, no DOM) is strict: every key
// known and present, every count and path shape as the registered proof's sector size and tree
// shape require, every byte a number 0…255, every domain and commitment below r; errors name the
// file, the JSON path and how far the text was read
// (`c1.json: vanilla_proofs.StackedDrg2KiBV1[0][1].replica_column_proofs.drg_parents[3].column.
// rows[1]: value not below the field modulus`; `c1.json: vanilla_proofs.StackedDrg2KiBV1[0][0].
// labeling_proofs[1].parents[5][7]: 300 is not a byte (0 to 255) (byte 41683)`). It is bounded:
// nothing nests deeper than the schema, no array has more elements than the largest registered
// proof's C1 has, so a hostile C1 costs at most a few times its text. Writing gives serde_json's
// bytes exactly.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "zk/filecoin/api/registry.hpp"
#include "zk/filecoin/porep/vanilla/challenges.hpp"
#include "zk/filecoin/porep/vanilla/proof.hpp"

namespace zk::filecoin {

struct c1_output_t {
  const registered_proof_t* registered_proof = nullptr;
  std::vector<std::vector<vanilla_proof_t>> vanilla_proofs;  // [partition][challenge]
  bytes32_t comm_r{}, comm_d{}, replica_id{}, seed{}, ticket{};
};

// The C1 of a seal (seal.hpp's and sparse_seal.hpp's c1_of): the request's registered proof, seed
// and ticket, the result's commitments, replica_id and vanilla proofs.
template <class Request, class Result>
c1_output_t c1_of_seal(const Request& req, const Result& r) {
  c1_output_t c1;
  c1.registered_proof = req.config.proof;
  c1.vanilla_proofs = r.vanilla_proofs;
  c1.comm_r = r.comm_r;
  c1.comm_d = r.comm_d;
  c1.replica_id = r.replica_id;
  c1.seed = req.seed;
  c1.ticket = req.ticket;
  return c1;
}

// The lotus-bench / curio wrapper's own fields, when the input had one.
struct c1_wrapper_t {
  int64_t sector_num = 0;
  uint64_t sector_size = 0;
};

struct c1_read_t {
  c1_output_t c1;
  std::optional<c1_wrapper_t> wrapper;
};

// Parses either form; `file` names the input in errors.
c1_read_t parse_c1(std::string_view json, std::string_view file);
c1_read_t read_c1_file(const std::string& path);

// The shape a registered proof's C1 must have (also what the sealer must produce).
struct c1_shape_t {
  uint32_t partitions = 0, challenges = 0, layers = 0;
  uint32_t comm_d_path = 0;  // binary SHA-256 path length: log2(nodes)
  tree_shape_t tree;         // tree_c / tree_r_last
  uint32_t base_path = 0;    // base-tree path length: log8(nodes / sub / top)
};
c1_shape_t c1_shape(const registered_proof_t& p);

// Checks an in-memory C1 (e.g. one a sealer made) as the reader would: std::invalid_argument
// naming the JSON path otherwise.
void validate_c1(const c1_output_t& c1);

// serde_json::to_string of the SealCommitPhase1Output.
std::string write_c1_json(const c1_output_t& c1);
// The Go wrapper: {"SectorNum":n,"Phase1Out":"<base64>","SectorSize":bytes}.
std::string write_c1_wrapper_json(const c1_output_t& c1, int64_t sector_num);

// The ids a sector's proof is about: the prover's and the sector's, with the C1's ticket, seed
// and commitments (what replica_id and the public inputs are derived from).
sector_ids_t sector_ids_of(const c1_output_t& c1, const bytes32_t& prover_id, uint64_t sector);

}  // namespace zk::filecoin
