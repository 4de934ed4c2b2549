// configs/farm.yaml against deploy/systemd/zkfleet-node@.service (issue 27 item 5): every path the
// scheduler node writes — the journal's folder, the uploads beside it, a native circuit's key_dir
// — lies in a folder the unit makes writable (StateDirectory under /var/lib, CacheDirectory under
// /var/cache; the unit's ProtectSystem=strict makes the rest read-only). `systemd-analyze verify`
// of the unit is tests/cli/deploy_unit.sh.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "common/config/config.hpp"

namespace {

const std::string src = ZK_SOURCE_DIR;

// The unit's writable folders for instance `node`: StateDirectory=zkfleet/%i is
// /var/lib/zkfleet/<node>, CacheDirectory=zkfleet is /var/cache/zkfleet (%i replaced).
std::vector<std::string> writable_folders(const std::string& unit, const std::string& node) {
  std::ifstream in(unit);
  std::vector<std::string> out;
  for (std::string line; std::getline(in, line);) {
    for (auto [key, base] : {std::pair<std::string, std::string>{"StateDirectory=", "/var/lib/"},
                             {"CacheDirectory=", "/var/cache/"},
                             {"ReadWritePaths=", ""}}) {
      if (line.rfind(key, 0) != 0) continue;
      std::string v = line.substr(key.size());
      for (size_t at; (at = v.find("%i")) != std::string::npos;) v.replace(at, 2, node);
      out.push_back(base + v);
    }
  }
  return out;
}

bool inside(const std::string& path, const std::vector<std::string>& folders) {
  const auto p = std::filesystem::path(path).lexically_normal();
  for (const auto& f : folders) {
    const auto rel = p.lexically_relative(std::filesystem::path(f).lexically_normal());
    if (!rel.empty() && *rel.begin() != "..") return true;
  }
  return false;
}

}  // namespace

TEST_CASE("farm.yaml's scheduler writes only inside the systemd unit's writable folders") {
  zk::config::load_options_t no_files;
  no_files.check_files = false;  // the farm's paths are on the farm's hosts
  const auto farm = zk::config::load_config(src + "/configs/farm.yaml", no_files);
  std::string scheduler;
  for (const auto& n : farm.nodes)
    if (n.has(zk::config::node_role_t::scheduler)) scheduler = n.name;
  REQUIRE(!scheduler.empty());
  const auto folders = writable_folders(src + "/deploy/systemd/zkfleet-node@.service", scheduler);
  REQUIRE(folders.size() >= 2);
  CHECK_MESSAGE(
      inside(std::filesystem::path(farm.scheduler.journal).parent_path().string(), folders),
      "scheduler.journal " << farm.scheduler.journal << " is not writable under the unit");
  CHECK_MESSAGE(inside(farm.scheduler.uploads, folders), "scheduler.uploads "
                                                             << farm.scheduler.uploads
                                                             << " is not writable under the unit");
  for (const auto& c : farm.circuits)
    if (c.kind != zk::config::circuit_kind_t::circom)
      CHECK_MESSAGE(inside(c.key_dir, folders),
                    "circuits." << c.id << ".key_dir " << c.key_dir << " is not writable");
  // The check itself: a path outside every folder is caught.
  CHECK_FALSE(inside("/var/lib/zkfleet/journal.db", folders));
  CHECK_FALSE(inside("/var/lib/zkfleet/scheduler/../journal.db", folders));
}
