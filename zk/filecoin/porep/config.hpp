#pragma once
// The configuration of one stacked DRG PoRep: filecoin-proofs 19.1.0's PoRepConfig with what it
// derives (src/parameters.rs setup_params, public_params; src/constants.rs LAYERS and the sector
// shapes), as storage-proofs-porep's SetupParams and PublicParams see it. The registered proofs
// that fix it live in zk/filecoin/api/registry.hpp (porep_config(registered_proof_t)).
#include <cstdint>
#include <string_view>

#include "zk/base/bytes.hpp"
#include "zk/filecoin/core/api_version.hpp"
#include "zk/filecoin/core/merkle.hpp"

namespace zk::filecoin {

struct registered_proof_t;  // zk/filecoin/api/registry.hpp

// storage-proofs-porep stacked/vanilla/challenges.rs Challenges.
enum class challenge_kind_t { interactive, synthetic, non_interactive };
// "interactive", "synthetic", "non-interactive".
std::string_view challenge_kind_name(challenge_kind_t k);

// The shape filecoin-proofs uses for a sector size (with_shape!): 2 KiB, 8 MiB, 512 MiB → 8;
// 4 KiB, 16 MiB, 1 GiB → 8-2; 16 KiB, 32 GiB → 8-8; 32 KiB, 64 GiB → 8-8-2.
// std::invalid_argument for any other size.
tree_shape_t tree_shape_for(uint64_t sector_size);

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

// SDR layers for a sector size (constants.rs LAYERS: 11 for 32/64 GiB, else 2).
uint32_t layers_for(uint64_t sector_size);

}  // namespace zk::filecoin
