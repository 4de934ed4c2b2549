#pragma once
// The config parser's YAML reading helpers (internal to common/config): where a node is in the
// file, the one failure format ("<file>:<line>:<col>: <key path>: <what>"), mappings checked
// against the schema's keys, and typed values (strings, integers in a range, sizes, durations,
// endpoints, enums, lists). Every message of a wrong value is made here.
#include <yaml-cpp/yaml.h>

#include <chrono>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "common/config/config.hpp"

namespace zk::config::detail {

struct ctx_t {
  std::string source;
  std::string base_dir;
  load_options_t options;
  // A check (zkfleet config check): each section's first failure is noted here and reading goes
  // on with the next section; null: the first failure throws.
  std::vector<std::string>* problems = nullptr;
};

std::string join(const std::string& path, const std::string& key);  // "a.b"
std::string index(const std::string& path, size_t i);               // "a[3]"
std::string where(const ctx_t& c, const YAML::Node& n);             // "<file>:<line>:<col>"
[[noreturn]] void fail(const ctx_t& c, const YAML::Node& n, const std::string& path,
                       const std::string& what);
// "\"text\"", "a list", "a mapping", "empty": a value as messages name it.
std::string quoted(const YAML::Node& n);

// Every mapping of the file and its keys: the one list the parser checks keys against (and that
// the tests compare with configs/README.md).
const std::vector<schema_section_t>& schema_table();
const std::vector<std::string>& keys_of(const char* section);

// A mapping whose keys are all known (and none repeated); get() returns a child or an undefined
// node.
class map_t {
 public:
  map_t(const ctx_t& c, const YAML::Node& n, std::string path,
        const std::vector<std::string>& known);
  YAML::Node get(const char* key) const { return n_[key]; }
  bool has(const char* key) const { return n_[key].IsDefined(); }
  std::string path(const char* key) const { return join(path_, key); }
  const YAML::Node& node() const { return n_; }
  // A required key.
  YAML::Node need(const char* key) const;

 private:
  const ctx_t& c_;
  YAML::Node n_;
  std::string path_;
};

std::string as_string(const ctx_t& c, const YAML::Node& n, const std::string& path);
uint64_t as_uint(const ctx_t& c, const YAML::Node& n, const std::string& path, uint64_t min,
                 uint64_t max);
double as_seconds(const ctx_t& c, const YAML::Node& n, const std::string& path);
double as_fraction(const ctx_t& c, const YAML::Node& n, const std::string& path);
bool as_bool(const ctx_t& c, const YAML::Node& n, const std::string& path);
uint64_t as_size(const ctx_t& c, const YAML::Node& n, const std::string& path, uint64_t min = 1);
std::chrono::milliseconds as_duration(const ctx_t& c, const YAML::Node& n, const std::string& path);
endpoint_t as_endpoint(const ctx_t& c, const YAML::Node& n, const std::string& path);
YAML::Node as_list(const ctx_t& c, const YAML::Node& n, const std::string& path, bool allow_empty);
// A list of distinct names.
std::vector<std::string> as_names(const ctx_t& c, const YAML::Node& n, const std::string& path);
std::vector<node_role_t> as_roles(const ctx_t& c, const YAML::Node& n, const std::string& path);

template <class E, size_t N>
E as_enum(const ctx_t& c, const YAML::Node& n, const std::string& path,
          const std::pair<const char*, E> (&choices)[N]) {
  std::string list;
  for (const auto& [name, value] : choices) {
    if (n.IsScalar() && n.Scalar() == name) return value;
    list += (list.empty() ? "" : ", ") + std::string(name);
  }
  fail(c, n, path, quoted(n) + " is not one of: " + list);
}

inline constexpr std::pair<const char*, node_role_t> role_choices[] = {
    {"scheduler", node_role_t::scheduler},
    {"synth", node_role_t::synth},
    {"prover", node_role_t::prover}};
inline constexpr std::pair<const char*, backend_t> backend_choices[] = {
    {"cpu", backend_t::cpu}, {"cuda", backend_t::cuda}, {"auto", backend_t::automatic}};
inline constexpr std::pair<const char*, shape_t> shape_choices[] = {
    {"abc_witness", shape_t::abc_witness},
    {"witness_only", shape_t::witness_only},
    {"auto", shape_t::automatic}};
inline constexpr std::pair<const char*, wire_t> wire_choices[] = {
    {"packed", wire_t::packed}, {"full", wire_t::full}, {"auto", wire_t::automatic}};
inline constexpr std::pair<const char*, bool> sync_choices[] = {{"full", true}, {"normal", false}};
inline constexpr std::pair<const char*, priority_t> priority_choices[] = {
    {"critical", priority_t::critical},
    {"high", priority_t::high},
    {"normal", priority_t::normal},
    {"low", priority_t::low}};

// Node and circuit ids: letters, digits, _ . - (not first).
bool valid_name(const std::string& s);
// A path of the file, relative to the file's directory unless absolute.
std::string resolve(const ctx_t& c, const std::string& p);

// The whole file (common/config/config.cpp); with c.problems set, a check that reads on past a
// section's problem (common/config/check.hpp).
config_t read_root(const ctx_t& c, const YAML::Node& root);

// The sections (common/config/sections.cpp); each checks its keys and values.
scheduler_t read_scheduler(const ctx_t& c, const YAML::Node& n);
security_t read_security(const ctx_t& c, const YAML::Node& n);
// `into` is filled as the entry is read: when it fails, what was read stays (its kind above all,
// so that a check reports the entry's own problem, not one for every node and file that reads it).
void read_circuit(const ctx_t& c, const std::string& id, const YAML::Node& n,
                  const std::string& path, circuit_t& into);
node_t read_node(const ctx_t& c, const YAML::Node& n, const std::string& path);
simulation_t read_simulation(const ctx_t& c, const YAML::Node& n);

}  // namespace zk::config::detail
