// Config loader: zk::config::parse_config(yaml, source, base_dir, options)
// (common/config/config.hpp), with check_files off (paths are not looked at), then — for a file
// that loads — again with check_files on (base_dir: an empty private directory), then
// select_node for the file's nodes.
// Expected for bad input: config::config_error (naming file, line, column and key path); any
// other exception (yaml-cpp's, std::out_of_range, std::filesystem_error, ...) is a bug.
// Properties of a loaded file: select_node finds every node by its name, and without a name
// exactly when there is one node.
#include "common/config/config.hpp"

#include <cstdint>
#include <string>

#include "fuzz/fuzz_util.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace zk::config;
  const std::string yaml(reinterpret_cast<const char*>(data), size);
  const std::string& base = zk::fuzz::scratch_dir();
  config_t cfg;
  try {
    cfg = parse_config(yaml, "fuzz.yaml", base, load_options_t{false});
  } catch (const config_error&) {
    return 0;
  }
  ZK_FUZZ_CHECK(!cfg.nodes.empty());
  for (const node_t& n : cfg.nodes) ZK_FUZZ_CHECK(&select_node(cfg, n.name) == &n);
  try {
    const node_t& only = select_node(cfg, "");
    ZK_FUZZ_CHECK(cfg.nodes.size() == 1 && &only == &cfg.nodes.front());
  } catch (const config_error&) {
    ZK_FUZZ_CHECK(cfg.nodes.size() > 1);
  }
  try {
    (void)parse_config(yaml, "fuzz.yaml", base, load_options_t{true});
  } catch (const config_error&) {
  }
  return 0;
}
