#include "zk/filecoin/update/config.hpp"

#include <stdexcept>

#include "zk/base/hex.hpp"
#include "zk/base/sha256.hpp"

namespace zk::filecoin {

namespace {

// Sector sizes in nodes (constants.rs SECTOR_SIZE_*).
constexpr uint64_t kib_nodes = 1024 / 32, mib_nodes = 1024 * kib_nodes,
                   gib_nodes = 1024 * mib_nodes;

// ALLOWED_SECTOR_SIZES with validate_tree_r_shape's TreeR arities (base, sub, top).
struct allowed_t {
  uint64_t nodes;
  tree_shape_t shape;
};
constexpr allowed_t allowed[] = {
    {1 * kib_nodes, {8, 4, 0}},  {2 * kib_nodes, {8, 0, 0}},  {4 * kib_nodes, {8, 2, 0}},
    {8 * kib_nodes, {8, 4, 0}},  {16 * kib_nodes, {8, 8, 0}}, {32 * kib_nodes, {8, 8, 2}},
    {8 * mib_nodes, {8, 0, 0}},  {16 * mib_nodes, {8, 2, 0}}, {512 * mib_nodes, {8, 0, 0}},
    {32 * gib_nodes, {8, 8, 0}}, {64 * gib_nodes, {8, 8, 2}},
};

uint32_t log2_exact(uint64_t v) {
  uint32_t b = 0;
  while ((uint64_t(1) << b) < v) ++b;
  return b;
}

std::array<uint32_t, 6> hs_for(uint64_t nodes) {
  if (nodes <= 32 * kib_nodes) return {1, 1, 1, 1, 1, 1};
  return {7, 8, 9, 10, 11, 12};
}

}  // namespace

uint32_t update_h_select(uint64_t nodes, uint32_t h) {
  const std::array<uint32_t, 6> hs = hs_for(nodes);
  for (uint32_t i = 0; i < hs.size(); ++i)
    if (hs[i] == h) return uint32_t(1) << i;  // the first position: 0 when hs are all ones
  throw std::invalid_argument("h = " + std::to_string(h) +
                              " is not one of the sector's six h values");
}

update_config_t update_config_for_size(uint64_t sector_size) {
  const allowed_t* a = nullptr;
  for (const allowed_t& x : allowed)
    if (x.nodes * 32 == sector_size) a = &x;
  if (a == nullptr)
    throw std::invalid_argument("no SnapDeals update is defined for a sector of " +
                                std::to_string(sector_size) + " bytes");
  update_config_t c;
  c.sector_size = sector_size;
  c.nodes = a->nodes;
  c.node_bits = log2_exact(c.nodes);
  c.partitions = c.nodes <= 8 * kib_nodes    ? 1
                 : c.nodes <= 32 * kib_nodes ? 2
                 : c.nodes <= 16 * mib_nodes ? 4
                                             : 16;
  c.partition_bits = log2_exact(c.partitions);
  c.challenges = c.nodes <= 16 * mib_nodes ? 10 : 86;
  c.apex_leaves = c.nodes <= 8 * kib_nodes ? 8 : 128;
  c.apex_leaf_bits = log2_exact(c.apex_leaves);
  c.hs = hs_for(c.nodes);
  c.h = c.hs[3];
  c.h_select = update_h_select(c.nodes, c.h);
  c.shape = a->shape;
  return c;
}

std::string update_config_t::identifier() const {
  return "empty_sector_update::PublicParams{ sector_nodes: " + std::to_string(nodes) + " }";
}

std::string update_config_t::parameter_id() const {
  const std::string id = identifier();
  return "empty-sector-update-merkletree-poseidon_hasher-" + std::to_string(shape.base_arity) +
         "-" + std::to_string(shape.sub_arity) + "-" + std::to_string(shape.top_arity) + "-" +
         to_hex(sha256(id.data(), id.size()));
}

}  // namespace zk::filecoin
