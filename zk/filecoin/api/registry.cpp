#include "zk/filecoin/api/registry.hpp"

#include <stdexcept>

namespace zk::filecoin {

namespace {

constexpr uint64_t kib = 1024, mib = 1024 * kib, gib = 1024 * mib;

// Sector sizes with the variant name of the C1's VanillaSealProof (rust-filecoin-proofs-api
// src/seal.rs: StackedDrg2KiBV1 … StackedDrg64GiBV1; no variant carries the V1_1 suffix).
struct sector_size_label_t {
  uint64_t bytes;
  const char* label;
};
constexpr sector_size_label_t sizes[] = {{2 * kib, "2KiB"},
                                         {8 * mib, "8MiB"},
                                         {512 * mib, "512MiB"},
                                         {32 * gib, "32GiB"},
                                         {64 * gib, "64GiB"}};
constexpr size_t n_sizes = sizeof sizes / sizeof sizes[0];

// Enum order of RegisteredSealProof = REGISTERED_PROOF_IDS order: five V1, five V1_1, five
// V1_1_Feat_SyntheticPoRep (ApiVersion V1_2_0 despite the name, registry.rs's note), five
// V1_2_Feat_NonInteractivePoRep.
struct family_t {
  const char* suffix;
  api_version_t version;
  feature_t feature;
};
constexpr family_t families[] = {
    {"V1", api_version_t::v1_0_0, feature_t::none},
    {"V1_1", api_version_t::v1_1_0, feature_t::none},
    {"V1_1_Feat_SyntheticPoRep", api_version_t::v1_2_0, feature_t::synthetic_porep},
    {"V1_2_Feat_NonInteractivePoRep", api_version_t::v1_2_0, feature_t::non_interactive_porep},
};
constexpr size_t n_families = sizeof families / sizeof families[0];

// The names (owned) and the table of views into them, built once.
struct registry_data_t {
  std::array<std::string, n_families * n_sizes> names;
  std::array<std::string, n_sizes> variants;
  std::vector<registered_proof_t> proofs;

  registry_data_t() {
    for (size_t i = 0; i < n_sizes; ++i)
      variants[i] = std::string("StackedDrg") + sizes[i].label + "V1";
    uint64_t id = 0;
    for (size_t f = 0; f < n_families; ++f)
      for (size_t i = 0; i < n_sizes; ++i, ++id) {
        names[id] = std::string("StackedDrg") + sizes[i].label + families[f].suffix;
        proofs.push_back(registered_proof_t{names[id], id, sizes[i].bytes, families[f].version,
                                            families[f].feature, variants[i]});
      }
  }
  registry_data_t(const registry_data_t&) = delete;
  registry_data_t& operator=(const registry_data_t&) = delete;
};

// RegisteredUpdateProof: one a sector size, named as the V1 seal proofs ("StackedDrg2KiBV1"),
// numbered in the same order.
struct update_registry_data_t {
  std::array<std::string, n_sizes> names;
  std::vector<registered_update_proof_t> proofs;

  update_registry_data_t() {
    for (size_t i = 0; i < n_sizes; ++i) {
      names[i] = std::string("StackedDrg") + sizes[i].label + "V1";
      proofs.push_back(
          registered_update_proof_t{names[i], uint64_t(i), sizes[i].bytes, api_version_t::v1_1_0});
    }
  }
  update_registry_data_t(const update_registry_data_t&) = delete;
  update_registry_data_t& operator=(const update_registry_data_t&) = delete;
};

const update_registry_data_t& update_registry_data() {
  static const update_registry_data_t data;
  return data;
}

const registry_data_t& registry_data() {
  static const registry_data_t data;
  return data;
}

std::string known_names() {
  std::string s;
  for (const auto& p : registered_proofs()) s += (s.empty() ? "" : ", ") + std::string(p.name);
  return s;
}

// constants.rs POREP_PARTITIONS / get_porep_non_interactive_partitions.
uint32_t partitions_for(uint64_t sector_size, feature_t f) {
  const bool big = sector_size == 32 * gib || sector_size == 64 * gib;
  if (f == feature_t::non_interactive_porep) return big ? 126 : 13;
  return big ? 10 : 1;
}

// constants.rs get_porep_interactive_minimum_challenges / ..._non_interactive_...
uint32_t minimum_challenges_for(uint64_t sector_size, feature_t f) {
  const bool big = sector_size == 32 * gib || sector_size == 64 * gib;
  if (f == feature_t::non_interactive_porep) return big ? 2253 : 26;
  return big ? 176 : 2;
}

}  // namespace

const std::vector<registered_update_proof_t>& registered_update_proofs() {
  return update_registry_data().proofs;
}

const registered_update_proof_t& registered_update_proof(std::string_view name) {
  std::string known;
  for (const auto& p : registered_update_proofs()) {
    if (p.name == name) return p;
    known += (known.empty() ? "" : ", ") + std::string(p.name);
  }
  throw std::invalid_argument("unknown registered update proof '" + std::string(name) +
                              "' (known: " + known + ")");
}

const registered_update_proof_t& registered_update_proof_by_id(uint64_t id) {
  const auto& all = registered_update_proofs();
  if (id >= all.size())
    throw std::invalid_argument("unknown registered update proof number " + std::to_string(id) +
                                " (known: 0 to " + std::to_string(all.size() - 1) + ")");
  return all[size_t(id)];
}

update_config_t update_config(const registered_update_proof_t& proof) {
  update_config_t c = update_config_for_size(proof.sector_size);
  c.proof = &proof;
  return c;
}

bytes32_t registered_proof_t::porep_id() const {
  bytes32_t out{};
  const uint64_t nonce = 0;  // registry.rs nonce(): 0 for every proof
  for (int i = 0; i < 8; ++i) {
    out[size_t(i)] = uint8_t(id >> (8 * i));
    out[size_t(8 + i)] = uint8_t(nonce >> (8 * i));
  }
  return out;
}

const std::vector<registered_proof_t>& registered_proofs() { return registry_data().proofs; }

const registered_proof_t& registered_proof(std::string_view name) {
  for (const auto& p : registered_proofs())
    if (p.name == name) return p;
  throw std::invalid_argument("unknown registered seal proof '" + std::string(name) +
                              "' (known: " + known_names() + ")");
}

const registered_proof_t& registered_proof_by_id(uint64_t id) {
  const auto& all = registered_proofs();
  if (id >= all.size())
    throw std::invalid_argument("unknown registered seal proof id " + std::to_string(id) +
                                " (known: 0 to " + std::to_string(all.size() - 1) + ")");
  return all[size_t(id)];
}

porep_config_t porep_config(const registered_proof_t& proof,
                            std::optional<api_version_t> api_version,
                            std::optional<bytes32_t> porep_id) {
  porep_config_t c;
  c.proof = &proof;
  c.sector_size = proof.sector_size;
  c.nodes = proof.sector_size / 32;
  c.layers = layers_for(proof.sector_size);
  c.partitions = partitions_for(proof.sector_size, proof.feature);
  c.minimum_challenges = minimum_challenges_for(proof.sector_size, proof.feature);
  c.challenges_per_partition = (c.minimum_challenges + c.partitions - 1) / c.partitions;
  c.challenge_kind = proof.feature == feature_t::synthetic_porep ? challenge_kind_t::synthetic
                     : proof.feature == feature_t::non_interactive_porep
                         ? challenge_kind_t::non_interactive
                         : challenge_kind_t::interactive;
  c.shape = tree_shape_for(proof.sector_size);
  c.feature = proof.feature;
  c.api_version = api_version.value_or(proof.api_version);
  c.porep_id = porep_id.value_or(proof.porep_id());
  c.api_version_is_default = c.api_version == proof.api_version;
  c.porep_id_is_default = c.porep_id == proof.porep_id();
  return c;
}

porep_config_t porep_config_for(uint64_t sector_size, feature_t feature, api_version_t api_version,
                                const bytes32_t& porep_id) {
  for (const auto& p : registered_proofs()) {
    if (p.sector_size != sector_size || p.feature != feature) continue;
    if (feature == feature_t::none &&
        (p.api_version == api_version_t::v1_0_0) != (api_version == api_version_t::v1_0_0))
      continue;
    return porep_config(p, api_version, porep_id);
  }
  throw std::invalid_argument("no registered seal proof of sector size " +
                              std::to_string(sector_size));
}

}  // namespace zk::filecoin
