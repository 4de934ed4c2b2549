#pragma once
// Filecoin's registered seal proofs and what each one fixes (docs/filecoin.md §1).
//
// Sources (filecoin-proofs-api 19.1.0, filecoin-proofs 19.1.0, storage-proofs-core 19.1.0):
//   rust-filecoin-proofs-api src/registry.rs   RegisteredSealProof, REGISTERED_PROOF_IDS,
//                                              version(), partitions(), porep_id(), as_v1_config()
//   filecoin-proofs src/constants.rs           POREP_PARTITIONS, LAYERS, the sector shapes,
//                                              get_porep_*_minimum_challenges,
//                                              get_porep_non_interactive_partitions
//   filecoin-proofs src/parameters.rs          setup_params, select_challenges (ceil division)
//   storage-proofs-core src/api_version.rs     ApiVersion, ApiFeature
//
// A registered proof names a sector size, a default ApiVersion and at most one feature; its
// porep_config (the PoRepConfig of filecoin-proofs) may override the ApiVersion and the porep_id,
// as lotus and the Rust tests do, but never the feature.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "zk/filecoin/porep/config.hpp"
#include "zk/filecoin/update/config.hpp"

namespace zk::filecoin {

// One RegisteredSealProof of filecoin-proofs-api 19.1.0.
struct registered_proof_t {
  std::string_view name;             // "StackedDrg2KiBV1_1"
  uint64_t id;                       // REGISTERED_PROOF_IDS (the porep_id's first 8 bytes)
  uint64_t sector_size;              // bytes
  api_version_t api_version;         // version(): the default
  feature_t feature;                 // as_v1_config().api_features
  std::string_view vanilla_variant;  // the C1's VanillaSealProof variant, "StackedDrg2KiBV1"
  // porep_id(): id as u64 LE ‖ nonce (0 for every proof) as u64 LE ‖ 16 zero bytes.
  bytes32_t porep_id() const;
};

// All 20, in enum order (id 0 … 19).
const std::vector<registered_proof_t>& registered_proofs();
// By name; std::invalid_argument("unknown registered seal proof 'X' (known: A, B, …)").
const registered_proof_t& registered_proof(std::string_view name);
// By id (0 … 19); std::invalid_argument otherwise.
const registered_proof_t& registered_proof_by_id(uint64_t id);

// The proof's as_v1_config(), with the ApiVersion and porep_id replaced when given.
porep_config_t porep_config(const registered_proof_t& proof,
                            std::optional<api_version_t> api_version = std::nullopt,
                            std::optional<bytes32_t> porep_id = std::nullopt);

// A PoRepConfig given by its fields (as seal_regression_records and lotus store it): the
// registered proof of that sector size and feature whose default version is closest (V1 for
// V1_0_0, V1_1 otherwise, the synthetic or non-interactive one for those features), with the
// ApiVersion and porep_id given. std::invalid_argument for a sector size no proof registers.
porep_config_t porep_config_for(uint64_t sector_size, feature_t feature, api_version_t api_version,
                                const bytes32_t& porep_id);

// --- SnapDeals
// ------------------------------------------------------------------------------------
//
// filecoin-proofs-api 19.1.0 src/registry.rs RegisteredUpdateProof (append-only; the number is the
// declaration index, as serde, filecoin-ffi's repr(i32) enum, go-state-types'
// abi.RegisteredUpdateProof_* and cuzk's registered_update_proof_from_u64 have it):
//   0 StackedDrg2KiBV1, 1 StackedDrg8MiBV1, 2 StackedDrg512MiBV1, 3 StackedDrg32GiBV1,
//   4 StackedDrg64GiBV1.
// version() is ApiVersion V1_1_0 for all five; only the sector size reaches the update's circuit,
// its inputs and its parameter files (update_config_t). Note: the Rust registry's
// circuit_identifier / cache_*_path of an update proof name the stacked PoRep's files (they go
// through PoRepConfig); the update's prover and verifier load update_config_t::parameter_id().
struct registered_update_proof_t {
  std::string_view name;  // "StackedDrg2KiBV1"
  uint64_t id;            // 0 … 4
  uint64_t sector_size;   // bytes
  api_version_t api_version;
};

// All 5, in enum order.
const std::vector<registered_update_proof_t>& registered_update_proofs();
// By name; std::invalid_argument("unknown registered update proof 'X' (known: A, B, …)").
const registered_update_proof_t& registered_update_proof(std::string_view name);
// By number (0 … 4); std::invalid_argument otherwise.
const registered_update_proof_t& registered_update_proof_by_id(uint64_t id);
// The update's configuration for the proof's sector size (update_config_for_size), proof set.
update_config_t update_config(const registered_update_proof_t& proof);

}  // namespace zk::filecoin
