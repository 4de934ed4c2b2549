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

namespace zk::filecoin {

using bytes32_t = std::array<uint8_t, 32>;

// storage-proofs-core ApiVersion.
enum class api_version_t { v1_0_0, v1_1_0, v1_2_0 };
// storage-proofs-core ApiFeature (a registered proof has at most one).
enum class feature_t { none, synthetic_porep, non_interactive_porep };
// storage-proofs-porep stacked/vanilla/challenges.rs Challenges.
enum class challenge_kind_t { interactive, synthetic, non_interactive };

// "V1_0_0", "V1_1_0", "V1_2_0".
std::string_view api_version_name(api_version_t v);
// The name as above; also accepts the semver spelling "1.0.0" (ApiVersion::from_str).
// std::invalid_argument naming the known versions otherwise.
api_version_t parse_api_version(std::string_view s);
// "", "SyntheticPoRep", "NonInteractivePoRep" (ApiFeature's serde names).
std::string_view feature_name(feature_t f);
std::string_view challenge_kind_name(
    challenge_kind_t k);  // "interactive", "synthetic", "non-interactive"

// The Merkle tree of tree_c and tree_r_last (filecoin-proofs constants.rs, LCTree<Poseidon,
// U8, sub, top>): base arity 8; sub 0 (none), 2 or 8; top 0 (none) or 2.
struct tree_shape_t {
  uint32_t base_arity = 8;
  uint32_t sub_arity = 0;
  uint32_t top_arity = 0;
  friend bool operator==(const tree_shape_t& a, const tree_shape_t& b) {
    return a.base_arity == b.base_arity && a.sub_arity == b.sub_arity && a.top_arity == b.top_arity;
  }
};
// "8", "8-8", "8-8-2".
std::string tree_shape_name(const tree_shape_t& s);
// The shape filecoin-proofs uses for a sector size (with_shape!): 2 KiB, 8 MiB, 512 MiB → 8;
// 4 KiB, 16 MiB, 1 GiB → 8-2; 16 KiB, 32 GiB → 8-8; 32 KiB, 64 GiB → 8-8-2.
// std::invalid_argument for any other size.
tree_shape_t tree_shape_for(uint64_t sector_size);

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

// Filecoin's PoRepConfig with everything derived from it (setup_params, public_params).
struct porep_config_t {
  const registered_proof_t* proof = nullptr;
  uint64_t sector_size = 0;
  uint64_t nodes = 0;  // sector_size / 32
  uint32_t layers = 0;
  uint32_t partitions = 0;
  uint32_t minimum_challenges = 0;        // over all partitions
  uint32_t challenges_per_partition = 0;  // ceil(minimum / partitions)
  challenge_kind_t challenge_kind = challenge_kind_t::interactive;
  tree_shape_t shape;
  api_version_t api_version = api_version_t::v1_0_0;
  feature_t feature = feature_t::none;
  bytes32_t porep_id{};
  bool api_version_is_default = true;
  bool porep_id_is_default = true;

  // Public inputs of one partition's circuit, ONE excluded: 3 + challenges × (1 + 6 + 8 + 3).
  uint32_t public_inputs_per_partition() const { return 3 + challenges_per_partition * 18; }
};

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

// SDR layers for a sector size (constants.rs LAYERS: 11 for 32/64 GiB, else 2).
uint32_t layers_for(uint64_t sector_size);

// 64 hex digits → 32 bytes, in the order written (as in the C1 JSON / on chain);
// std::invalid_argument naming `what` otherwise.
bytes32_t parse_hex32(std::string_view hex, std::string_view what);
std::string to_hex(const uint8_t* p, size_t n);
inline std::string to_hex(const bytes32_t& b) { return to_hex(b.data(), b.size()); }

}  // namespace zk::filecoin
