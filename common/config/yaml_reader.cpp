// The config parser's YAML reading helpers (common/config/yaml_reader.hpp).
#include "common/config/yaml_reader.hpp"

#include <cerrno>
#include <filesystem>
#include <regex>
#include <set>
#include <stdexcept>

namespace zk::config::detail {

namespace fs = std::filesystem;

std::string join(const std::string& path, const std::string& key) {
  return path.empty() ? key : path + "." + key;
}
std::string index(const std::string& path, size_t i) {
  return path + "[" + std::to_string(i) + "]";
}

std::string where(const ctx_t& c, const YAML::Node& n) {
  if (n.IsDefined()) {
    const YAML::Mark m = n.Mark();
    if (m.line >= 0)
      return c.source + ":" + std::to_string(m.line + 1) + ":" + std::to_string(m.column + 1);
  }
  return c.source;
}

[[noreturn]] void fail(const ctx_t& c, const YAML::Node& n, const std::string& path,
                       const std::string& what) {
  throw config_error(where(c, n) + ": " + path + ": " + what);
}

std::string quoted(const YAML::Node& n) {
  return n.IsScalar()     ? "\"" + n.Scalar() + "\""
         : n.IsSequence() ? "a list"
         : n.IsMap()      ? "a mapping"
                          : "empty";
}

const std::vector<schema_section_t>& schema_table() {
  static const std::vector<schema_section_t> table = {
      {"", {"version", "scheduler", "security", "circuits", "node", "nodes", "simulation"}},
      {"scheduler", {"endpoint",     "lookahead",        "lookahead_max",
                     "max_attempts", "default_priority", "http",
                     "grpc",         "grpc_client",      "grpc_insecure_networks",
                     "grpc_tls",     "max_partitions",   "max_queued_jobs",
                     "retention",    "input_roots",      "journal",
                     "uploads",      "max_upload",       "journal_sync",
                     "heartbeat",    "node_timeout",     "placement_timeout",
                     "stage_timeout"}},
      {"security", {"certs_dir", "insecure", "dev_certs"}},
      {"circuits.<id>",
       {"native", "params", "key_dir", "registered_proof", "vk", "zkey", "r1cs",
        "witness_generator", "shape", "priority", "wire", "link_per_s"}},
      {"node",
       {"name", "roles", "listen", "resources", "hot_circuits", "filecoin_params", "data_plane"}},
      {"node.listen", {"control", "data"}},
      {"node.resources", {"cores", "memory_budget", "prover_backend", "gpus", "vram"}},
      {"node.data_plane",
       {"io_threads", "send_streams", "connect_timeout", "io_timeout", "idle_timeout",
        "frame_timeout", "max_attempts", "max_payload"}},
      {"simulation", {"enabled", "seed", "jitter", "nodes", "circuits", "jobs"}},
      {"simulation.circuits[]",
       {"id", "buffer_size", "prover_work", "synth_seconds", "constraints", "synth_rate",
        "prove_seconds", "wires"}},
      {"simulation.circuits[].wires[]", {"name", "bytes", "rebuild_seconds"}},
      {"simulation.nodes[]",
       {"name_prefix", "count", "roles", "cores", "memory_budget", "uplink_per_s", "hot_circuits"}},
      {"simulation.jobs[]",
       {"circuit", "count", "partitions", "priority", "start_seconds", "every_seconds"}},
  };
  return table;
}

const std::vector<std::string>& keys_of(const char* section) {
  for (const auto& s : schema_table()) {
    if (s.section == section) return s.keys;
  }
  throw std::logic_error(std::string("config schema: no section ") + section);
}

map_t::map_t(const ctx_t& c, const YAML::Node& n, std::string path,
             const std::vector<std::string>& known)
    : c_(c), n_(n), path_(std::move(path)) {
  if (!n.IsMap())
    fail(c, n, path_.empty() ? "(top level)" : path_, "is " + quoted(n) + "; expected a mapping");
  std::set<std::string> seen;
  for (auto it = n.begin(); it != n.end(); ++it) {
    if (!it->first.IsScalar()) fail(c, it->first, path_, "a key must be a plain name");
    const std::string key = it->first.Scalar();
    bool ok = false;
    std::string list;
    for (const auto& k : known) {
      ok = ok || key == k;
      list += (list.empty() ? "" : ", ") + k;
    }
    if (!ok) fail(c, it->first, join(path_, key), "unknown key (known: " + list + ")");
    if (!seen.insert(key).second) fail(c, it->first, join(path_, key), "given twice");
  }
}

YAML::Node map_t::need(const char* key) const {
  YAML::Node v = n_[key];
  if (!v.IsDefined()) fail(c_, n_, path(key), "missing (required)");
  return v;
}

std::string as_string(const ctx_t& c, const YAML::Node& n, const std::string& path) {
  if (!n.IsScalar() || n.Scalar().empty())
    fail(c, n, path, "is " + quoted(n) + "; expected a string");
  return n.Scalar();
}

uint64_t as_uint(const ctx_t& c, const YAML::Node& n, const std::string& path, uint64_t min,
                 uint64_t max) {
  static const std::regex re("^[0-9]{1,20}$");
  if (!n.IsScalar() || !std::regex_match(n.Scalar(), re))
    fail(c, n, path, quoted(n) + " is not a whole number");
  errno = 0;
  const uint64_t v = std::strtoull(n.Scalar().c_str(), nullptr, 10);  // saturates past 2^64 - 1
  if (errno == ERANGE) fail(c, n, path, n.Scalar() + " is larger than 2^64 - 1");
  if (v < min || v > max) {
    fail(
        c, n, path,
        n.Scalar() + " is out of range [" + std::to_string(min) + ", " + std::to_string(max) + "]");
  }
  return v;
}

double as_seconds(const ctx_t& c, const YAML::Node& n, const std::string& path) {
  static const std::regex re(R"(^[0-9]{1,9}(\.[0-9]{1,9})?$)");
  if (!n.IsScalar() || !std::regex_match(n.Scalar(), re)) {
    fail(c, n, path, quoted(n) + " is not a number of seconds (e.g. 2.5)");
  }
  return std::stod(n.Scalar());
}

double as_fraction(const ctx_t& c, const YAML::Node& n, const std::string& path) {
  static const std::regex re(R"(^0(\.[0-9]{1,9})?$)");
  if (!n.IsScalar() || !std::regex_match(n.Scalar(), re))
    fail(c, n, path, quoted(n) + " is not a fraction in [0, 1) (e.g. 0.2)");
  return std::stod(n.Scalar());
}

bool as_bool(const ctx_t& c, const YAML::Node& n, const std::string& path) {
  if (n.IsScalar() && n.Scalar() == "true") return true;
  if (n.IsScalar() && n.Scalar() == "false") return false;
  fail(c, n, path, quoted(n) + " is not true or false");
}

uint64_t as_size(const ctx_t& c, const YAML::Node& n, const std::string& path, uint64_t min) {
  auto v = n.IsScalar() ? parse_size(n.Scalar()) : std::nullopt;
  if (!v) fail(c, n, path, quoted(n) + " is not a size (use e.g. 8GiB)");
  if (*v < min)
    fail(c, n, path, quoted(n) + " is too small (at least " + std::to_string(min) + " bytes)");
  return *v;
}

std::chrono::milliseconds as_duration(const ctx_t& c, const YAML::Node& n,
                                      const std::string& path) {
  auto v = n.IsScalar() ? parse_duration(n.Scalar()) : std::nullopt;
  if (!v || v->count() <= 0)
    fail(c, n, path, quoted(n) + " is not a positive duration (use e.g. 500ms, 10s, 2m)");
  // Timers past this overflow on their way to the I/O deadlines (and fire at once).
  constexpr auto longest = std::chrono::hours(24 * 7);
  if (*v > longest)
    fail(c, n, path, quoted(n) + " is longer than a week, the longest timeout accepted");
  return *v;
}

endpoint_t as_endpoint(const ctx_t& c, const YAML::Node& n, const std::string& path) {
  auto v = n.IsScalar() ? parse_endpoint(n.Scalar()) : std::nullopt;
  if (!v)
    fail(c, n, path,
         quoted(n) + " is not host:port (e.g. 127.0.0.1:7000, [::1]:7000; port 1-65535)");
  return *v;
}

YAML::Node as_list(const ctx_t& c, const YAML::Node& n, const std::string& path, bool allow_empty) {
  if (!n.IsSequence()) fail(c, n, path, "is " + quoted(n) + "; expected a list");
  if (!allow_empty && n.size() == 0) fail(c, n, path, "is an empty list");
  return n;
}

std::vector<std::string> as_names(const ctx_t& c, const YAML::Node& n, const std::string& path) {
  std::vector<std::string> out;
  std::set<std::string> seen;
  const YAML::Node l = as_list(c, n, path, true);
  for (size_t i = 0; i < l.size(); ++i) {
    out.push_back(as_string(c, l[i], index(path, i)));
    if (!seen.insert(out.back()).second)
      fail(c, l[i], index(path, i), "\"" + out.back() + "\" is listed twice");
  }
  return out;
}

std::vector<node_role_t> as_roles(const ctx_t& c, const YAML::Node& n, const std::string& path) {
  std::vector<node_role_t> out;
  const YAML::Node l = as_list(c, n, path, false);
  for (size_t i = 0; i < l.size(); ++i) {
    const node_role_t r = as_enum(c, l[i], index(path, i), role_choices);
    for (auto x : out) {
      if (x == r)
        fail(c, l[i], index(path, i),
             std::string("role ") + node_role_name(r) + " is listed twice");
    }
    out.push_back(r);
  }
  return out;
}

bool valid_name(const std::string& s) {
  static const std::regex re("^[A-Za-z0-9][A-Za-z0-9_.-]*$");
  return std::regex_match(s, re);
}

std::string resolve(const ctx_t& c, const std::string& p) {
  fs::path path(p);
  if (path.is_relative()) path = fs::path(c.base_dir) / path;
  // No trailing separator ("certs/" is "certs"): a path joined to it later has no "//".
  std::string out = path.lexically_normal().string();
  while (out.size() > 1 && out.back() == '/') out.pop_back();
  return out;
}

}  // namespace zk::config::detail
