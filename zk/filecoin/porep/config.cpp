#include "zk/filecoin/porep/config.hpp"

#include <stdexcept>
#include <string>

namespace zk::filecoin {

namespace {
constexpr uint64_t kib = 1024, mib = 1024 * kib, gib = 1024 * mib;
}  // namespace

std::string_view challenge_kind_name(challenge_kind_t k) {
  switch (k) {
    case challenge_kind_t::interactive:
      return "interactive";
    case challenge_kind_t::synthetic:
      return "synthetic";
    case challenge_kind_t::non_interactive:
      return "non-interactive";
  }
  return "?";
}

tree_shape_t tree_shape_for(uint64_t sector_size) {
  switch (sector_size) {
    case 2 * kib:
    case 8 * mib:
    case 512 * mib:
      return {8, 0, 0};
    case 4 * kib:
    case 16 * mib:
    case 1 * gib:
      return {8, 2, 0};
    case 16 * kib:
    case 32 * gib:
      return {8, 8, 0};
    case 32 * kib:
    case 64 * gib:
      return {8, 8, 2};
    default:
      throw std::invalid_argument("no Filecoin tree shape for sector size " +
                                  std::to_string(sector_size));
  }
}

uint32_t layers_for(uint64_t sector_size) {
  switch (sector_size) {
    case 2 * kib:
    case 4 * kib:
    case 16 * kib:
    case 32 * kib:
    case 8 * mib:
    case 16 * mib:
    case 512 * mib:
    case 1 * gib:
      return 2;
    case 32 * gib:
    case 64 * gib:
      return 11;
    default:
      throw std::invalid_argument("no Filecoin layer count for sector size " +
                                  std::to_string(sector_size));
  }
}

}  // namespace zk::filecoin
