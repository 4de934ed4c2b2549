// The config: names and value syntax, the file as a whole (its sections come from
// common/config/sections.cpp, their values from common/config/yaml_reader.cpp) with the checks
// across nodes, and the node a process runs.
#include "common/config/config.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "common/config/yaml_reader.hpp"
#include "common/net/networks.hpp"

namespace zk::config {

namespace fs = std::filesystem;

// --- names ---------------------------------------------------------------------------------------

const char* node_role_name(node_role_t r) {
  switch (r) {
    case node_role_t::scheduler:
      return "scheduler";
    case node_role_t::synth:
      return "synth";
    case node_role_t::prover:
      return "prover";
  }
  return "?";
}
const char* backend_name(backend_t b) {
  switch (b) {
    case backend_t::cpu:
      return "cpu";
    case backend_t::cuda:
      return "cuda";
    case backend_t::automatic:
      return "auto";
  }
  return "?";
}
const char* shape_name(shape_t s) {
  switch (s) {
    case shape_t::abc_witness:
      return "abc_witness";
    case shape_t::witness_only:
      return "witness_only";
    case shape_t::automatic:
      return "auto";
  }
  return "?";
}
const char* wire_name(wire_t w) {
  switch (w) {
    case wire_t::packed:
      return "packed";
    case wire_t::full:
      return "full";
    case wire_t::automatic:
      return "auto";
  }
  return "?";
}

const char* priority_name(priority_t p) {
  switch (p) {
    case priority_t::critical:
      return "critical";
    case priority_t::high:
      return "high";
    case priority_t::normal:
      return "normal";
    case priority_t::low:
      return "low";
  }
  return "?";
}

const char* circuit_kind_name(circuit_kind_t k) {
  switch (k) {
    case circuit_kind_t::circom:
      return "circom";
    case circuit_kind_t::porep_lite:
      return "porep-lite";
    case circuit_kind_t::filecoin_porep:
      return "filecoin-porep";
    case circuit_kind_t::filecoin_snap:
      return "filecoin-snap";
  }
  return "?";
}

std::optional<priority_t> parse_priority(std::string_view s) {
  for (auto p : {priority_t::critical, priority_t::high, priority_t::normal, priority_t::low}) {
    const std::string_view name = priority_name(p);
    auto same = [](char a, char b) { return std::tolower(static_cast<unsigned char>(a)) == b; };
    if (s.size() == name.size() && std::equal(s.begin(), s.end(), name.begin(), same)) return p;
  }
  return std::nullopt;
}

std::string endpoint_t::str() const {
  return (host.find(':') != std::string::npos ? "[" + host + "]" : host) + ":" +
         std::to_string(port);
}

bool grpc_plaintext_open(const scheduler_t& s) {
  return s.grpc_tcp && !net::is_loopback_host(s.grpc_tcp->host);
}

bool node_t::has(node_role_t r) const {
  for (auto x : roles) {
    if (x == r) return true;
  }
  return false;
}

const node_t* config_t::find_node(const std::string& name) const {
  for (const auto& n : nodes) {
    if (n.name == name) return &n;
  }
  return nullptr;
}

const circuit_t* config_t::find_circuit(const std::string& id) const {
  for (const auto& c : circuits) {
    if (c.id == id) return &c;
  }
  return nullptr;
}

// --- value syntax --------------------------------------------------------------------------------

std::optional<uint64_t> parse_size(const std::string& text) {
  static const std::regex re(R"(^([0-9]+(?:\.[0-9]+)?)(B|KiB|MiB|GiB|TiB)?$)");
  std::smatch m;
  if (!std::regex_match(text, m, re)) return std::nullopt;
  const std::string unit = m[2].str();
  unsigned shift = 0;
  if (unit == "KiB")
    shift = 10;
  else if (unit == "MiB")
    shift = 20;
  else if (unit == "GiB")
    shift = 30;
  else if (unit == "TiB")
    shift = 40;
  const std::string num = m[1].str();
  if (num.find('.') == std::string::npos) {
    if (num.size() > 19) return std::nullopt;
    const uint64_t v = std::stoull(num);
    if (shift != 0 && v > (UINT64_MAX >> shift)) return std::nullopt;
    return v << shift;
  }
  if (unit.empty() || unit == "B") return std::nullopt;  // fractional bytes
  // At most 20 integer digits (more is past 2^64 anyway) and 20 fractional ones: std::stold then
  // neither overflows nor underflows (fuzz/pending had both).
  const size_t dot = num.find('.');
  if (dot > 20 || num.size() - dot - 1 > 20) return std::nullopt;
  const long double v = std::stold(num) * std::ldexp(1.0L, int(shift));
  if (v >= 1.8e19L) return std::nullopt;
  return static_cast<uint64_t>(v);
}

std::optional<std::chrono::milliseconds> parse_duration(const std::string& text) {
  static const std::regex re(R"(^([0-9]+(?:\.[0-9]+)?)(ms|s|m|h)$)");
  std::smatch m;
  if (!std::regex_match(text, m, re) || m[1].str().size() > 12) return std::nullopt;
  const double v = std::stod(m[1].str());
  const std::string u = m[2].str();
  const double ms = u == "ms" ? v : u == "s" ? v * 1e3 : u == "m" ? v * 60e3 : v * 3600e3;
  return std::chrono::milliseconds(static_cast<int64_t>(std::llround(ms)));
}

std::optional<endpoint_t> parse_endpoint(const std::string& text) {
  static const std::regex re(R"(^(?:\[([0-9A-Fa-f:.]+)\]|([A-Za-z0-9._-]+)):([0-9]{1,5})$)");
  std::smatch m;
  if (!std::regex_match(text, m, re)) return std::nullopt;
  const unsigned long port = std::stoul(m[3].str());
  if (port == 0 || port > 65535) return std::nullopt;
  endpoint_t e;
  e.host = m[1].matched ? m[1].str() : m[2].str();
  e.port = static_cast<uint16_t>(port);
  return e;
}

// --- the file ------------------------------------------------------------------------------------

namespace {

using namespace detail;

// Across nodes: unique names and listen addresses, hot circuits registered, one scheduler whose
// control port is the scheduler endpoint's.
void validate_nodes(const ctx_t& c, const map_t& m, const config_t& cfg) {
  const std::string base = cfg.single_node ? "node" : "nodes";
  auto node_path = [&](size_t i) { return cfg.single_node ? base : index(base, i); };
  auto node_yaml = [&](size_t i) { return cfg.single_node ? m.get("node") : m.get("nodes")[i]; };
  std::set<std::pair<std::string, uint16_t>> listens;
  size_t schedulers = 0;
  for (size_t i = 0; i < cfg.nodes.size(); ++i) {
    const node_t& nd = cfg.nodes[i];
    for (size_t k = 0; k < i; ++k) {
      if (cfg.nodes[k].name == nd.name)
        fail(c, node_yaml(i), node_path(i) + ".name",
             "\"" + nd.name + "\" is used by another node");
    }
    for (const auto* e : {&nd.control, &nd.data}) {
      if (*e && !listens.insert({(*e)->host, (*e)->port}).second) {
        fail(c, node_yaml(i), node_path(i) + ".listen", (*e)->str() + " is used twice");
      }
    }
    for (size_t k = 0; k < nd.hot_circuits.size(); ++k) {
      if (!cfg.find_circuit(nd.hot_circuits[k])) {
        fail(c, node_yaml(i)["hot_circuits"][k], index(node_path(i) + ".hot_circuits", k),
             "\"" + nd.hot_circuits[k] + "\" is not in circuits");
      }
    }
    for (const auto& [id, path] : nd.filecoin_params) {
      const circuit_t* ci = cfg.find_circuit(id);
      if (!ci || !uses_filecoin_params(ci->kind))
        fail(c, node_yaml(i)["filecoin_params"][id], node_path(i) + ".filecoin_params." + id,
             ci ? "circuit \"" + id + "\" is not native: filecoin-porep or filecoin-snap"
                : "\"" + id + "\" is not in circuits");
    }
    if (nd.has(node_role_t::scheduler)) {
      ++schedulers;
      if (nd.control->port != cfg.scheduler.endpoint.port) {
        fail(c, node_yaml(i), node_path(i) + ".listen.control",
             nd.control->str() + " does not listen on scheduler.endpoint's port (" +
                 cfg.scheduler.endpoint.str() + ")");
      }
    }
  }
  // A filecoin-porep or -snap circuit is proven only where a prover maps its parameters.
  for (const circuit_t& ci : cfg.circuits) {
    if (!uses_filecoin_params(ci.kind)) continue;
    bool mapped = false;
    for (const node_t& nd : cfg.nodes)
      for (const auto& fp : nd.filecoin_params) mapped |= fp.first == ci.id;
    if (!mapped)
      fail(c, m.get("circuits")[ci.id], "circuits." + ci.id,
           "no prover node has filecoin_params for this circuit (give a prover node "
           "`filecoin_params: {" +
               ci.id + ": /path/to/" + ci.registered_proof + ".params}`)");
  }
  // A filecoin-porep or -snap job's partitions' inputs are written to the scheduler's store at
  // intake; a synthesis node in another process fetches its partition's from there over
  // scheduler.http.
  if (!cfg.scheduler.http)
    for (const circuit_t& ci : cfg.circuits) {
      if (!uses_filecoin_params(ci.kind)) continue;
      for (size_t i = 0; i < cfg.nodes.size(); ++i) {
        const node_t& nd = cfg.nodes[i];
        if (nd.has(node_role_t::synth) && !nd.has(node_role_t::scheduler))
          fail(c, m.get("circuits")[ci.id], "circuits." + ci.id,
               std::string("a ") + circuit_kind_name(ci.kind) +
                   " circuit needs scheduler.http: synthesis node \"" + nd.name +
                   "\" fetches each partition's input from the scheduler's store over it (or "
                   "give the synth role only to the scheduler's node)");
      }
    }
  if (!cfg.single_node && schedulers != 1) {
    fail(c, m.get("nodes"), "nodes",
         std::to_string(schedulers) + " nodes have the scheduler role (exactly one must)");
  }
  if (cfg.single_node && schedulers > 1)
    fail(c, m.get("node"), "node", "has the scheduler role twice");
}

// security.insecure: every address the cluster listens on must be loopback (127.0.0.0/8, ::1,
// localhost), or anyone on the network could drive it.
bool is_loopback(const std::string& host) { return net::is_loopback_host(host); }

void refuse_open_listeners(const ctx_t& c, const map_t& m, const config_t& cfg) {
  auto refuse = [&](const std::string& where, const endpoint_t& e) {
    fail(c, m.get("security"), "security.insecure",
         "refused: " + where + " listens on " + e.str() +
             ", which is not loopback; set security.certs_dir (zkfleet certs) instead");
  };
  if (!is_loopback(cfg.scheduler.endpoint.host))
    refuse("scheduler.endpoint", cfg.scheduler.endpoint);
  if (cfg.scheduler.http && !is_loopback(cfg.scheduler.http->host))
    refuse("scheduler.http", *cfg.scheduler.http);
  if (cfg.scheduler.grpc_tcp && !is_loopback(cfg.scheduler.grpc_tcp->host))
    refuse("scheduler.grpc", *cfg.scheduler.grpc_tcp);
  for (const node_t& nd : cfg.nodes)
    for (const auto* e : {&nd.control, &nd.data})
      if (*e && !is_loopback((*e)->host)) refuse("node " + nd.name, **e);
}

// Runs `read`. In a check (c.problems set) its failure is noted and false returned, so that the
// sections after it are read too; otherwise the failure throws as it is.
template <class F>
bool section(const ctx_t& c, F&& read) {
  if (!c.problems) {
    read();
    return true;
  }
  try {
    read();
    return true;
  } catch (const config_error& e) {
    c.problems->push_back(e.what());
    return false;
  }
}

config_t read_config(const ctx_t& c, const YAML::Node& root) {
  if (!root.IsDefined() || root.IsNull()) throw config_error(c.source + ": the file is empty");
  map_t m(c, root, "", keys_of(""));
  config_t cfg;
  cfg.source = c.source;
  section(c, [&] {
    if (m.has("version")) as_uint(c, m.get("version"), "version", 1, 1);
  });
  section(c, [&] { cfg.scheduler = read_scheduler(c, m.need("scheduler")); });
  section(c, [&] {
    if (!m.has("security"))
      fail(c, root, "security",
           "missing: set security.certs_dir (mutual TLS between every node and client) or, on "
           "loopback only, security.insecure: true");
    cfg.security = read_security(c, m.get("security"));
  });

  if (m.has("circuits")) {
    const YAML::Node& cs = m.get("circuits");
    section(c, [&] {
      if (!cs.IsMap())
        fail(c, cs, "circuits",
             "is " + quoted(cs) + "; expected a mapping of circuit id to circuit");
    });
    if (cs.IsMap()) {
      for (auto it = cs.begin(); it != cs.end(); ++it) {
        std::string id;
        section(c, [&] {
          id = as_string(c, it->first, "circuits");
          if (!valid_name(id))
            fail(c, it->first, "circuits." + id, "is not a circuit id (letters, digits, _ . -)");
          if (cfg.find_circuit(id)) fail(c, it->first, "circuits." + id, "is defined twice");
        });
        if (id.empty()) continue;
        // A circuit that failed stays in the registry by its id (a check then does not also
        // report every node that names it as unknown).
        circuit_t ci;
        ci.id = id;
        section(c, [&] { read_circuit(c, id, it->second, "circuits." + id, ci); });
        if (!cfg.find_circuit(id)) cfg.circuits.push_back(std::move(ci));
      }
    }
  }

  bool nodes_read = section(c, [&] {
    if (m.has("node") == m.has("nodes")) {
      fail(c, root, "node",
           m.has("node") ? "give either node or nodes, not both"
                         : "missing: give node (this process) or nodes (a list)");
    }
  });
  if (nodes_read && m.has("node")) {
    cfg.single_node = true;
    nodes_read = section(c, [&] { cfg.nodes.push_back(read_node(c, m.get("node"), "node")); });
  } else if (nodes_read) {
    YAML::Node l;
    nodes_read = section(c, [&] { l = as_list(c, m.get("nodes"), "nodes", false); });
    for (size_t i = 0; nodes_read && i < l.size(); ++i) {
      node_t nd;
      if (section(c, [&] { nd = read_node(c, l[i], index("nodes", i)); }))
        cfg.nodes.push_back(std::move(nd));
      else
        nodes_read = false;
    }
    // The rest of the list still gets its own problems reported.
    for (size_t i = cfg.nodes.size() + 1; !nodes_read && i < l.size(); ++i)
      section(c, [&] { read_node(c, l[i], index("nodes", i)); });
  }

  // Checks across nodes need every node (their indexes are the list's).
  if (nodes_read) {
    section(c, [&] { validate_nodes(c, m, cfg); });
    section(c, [&] {
      if (cfg.security.insecure) refuse_open_listeners(c, m, cfg);
    });
    section(c, [&] {
      if (cfg.scheduler.grpc_tls && !cfg.security.tls())
        fail(c, m.get("scheduler")["grpc_tls"], "scheduler.grpc_tls",
             "is mutual TLS with the cluster's certificates: set security.certs_dir");
    });
  }

  section(c, [&] {
    if (m.has("simulation")) cfg.simulation = read_simulation(c, m.get("simulation"));
  });
  return cfg;
}

}  // namespace

config_t detail::read_root(const ctx_t& c, const YAML::Node& root) { return read_config(c, root); }

const std::vector<schema_section_t>& schema() { return detail::schema_table(); }

config_t parse_config(const std::string& yaml, const std::string& source,
                      const std::string& base_dir, const load_options_t& options) {
  const detail::ctx_t c{source, base_dir, options};
  YAML::Node root;
  try {
    root = YAML::Load(yaml);
  } catch (const YAML::Exception& e) {
    throw config_error(source + ":" + std::to_string(e.mark.line + 1) + ":" +
                       std::to_string(e.mark.column + 1) + ": not valid YAML: " + e.msg);
  }
  return read_config(c, root);
}

config_t load_config(const std::string& path, const load_options_t& options) {
  std::error_code ec;
  if (fs::is_directory(path, ec)) throw config_error(path + ": is a directory, not a config file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw config_error(path + ": cannot open the file");
  std::ostringstream text;
  text << in.rdbuf();
  const fs::path dir = fs::absolute(fs::path(path)).parent_path();
  return parse_config(text.str(), path, dir.string(), options);
}

const node_t& select_node(const config_t& config, const std::string& name) {
  if (name.empty()) {
    if (config.nodes.size() == 1) return config.nodes.front();
    std::string names;
    for (const auto& n : config.nodes) names += (names.empty() ? "" : ", ") + n.name;
    throw config_error(config.source + ": nodes: the file describes " +
                       std::to_string(config.nodes.size()) + " nodes; choose one with --node (" +
                       names + ")");
  }
  if (const node_t* n = config.find_node(name)) return *n;
  throw config_error(config.source + ": nodes: no node named \"" + name + "\"");
}

}  // namespace zk::config
