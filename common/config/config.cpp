#include "common/config/config.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "common/circuit/porep.hpp"

namespace zk::config {

namespace fs = std::filesystem;

// --- names ---------------------------------------------------------------------------------------

const char* role_name(role_t r) {
  switch (r) {
    case role_t::scheduler: return "scheduler";
    case role_t::synth: return "synth";
    case role_t::prover: return "prover";
  }
  return "?";
}
const char* backend_name(backend_t b) {
  switch (b) {
    case backend_t::cpu: return "cpu";
    case backend_t::cuda: return "cuda";
    case backend_t::automatic: return "auto";
  }
  return "?";
}
const char* shape_name(shape_t s) {
  switch (s) {
    case shape_t::abc_witness: return "abc_witness";
    case shape_t::witness_only: return "witness_only";
    case shape_t::automatic: return "auto";
  }
  return "?";
}
const char* priority_name(priority_t p) {
  switch (p) {
    case priority_t::critical: return "critical";
    case priority_t::high: return "high";
    case priority_t::normal: return "normal";
    case priority_t::low: return "low";
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
  return (host.find(':') != std::string::npos ? "[" + host + "]" : host) + ":" + std::to_string(port);
}

bool node_t::has(role_t r) const {
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
  if (unit == "KiB") shift = 10;
  else if (unit == "MiB") shift = 20;
  else if (unit == "GiB") shift = 30;
  else if (unit == "TiB") shift = 40;
  const std::string num = m[1].str();
  if (num.find('.') == std::string::npos) {
    if (num.size() > 19) return std::nullopt;
    const uint64_t v = std::stoull(num);
    if (shift != 0 && v > (UINT64_MAX >> shift)) return std::nullopt;
    return v << shift;
  }
  if (unit.empty() || unit == "B") return std::nullopt;  // fractional bytes
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

// --- the reader ----------------------------------------------------------------------------------

namespace {

struct ctx_t {
  std::string source;
  std::string base_dir;
  load_options_t options;
};

std::string join(const std::string& path, const std::string& key) { return path.empty() ? key : path + "." + key; }
std::string index(const std::string& path, size_t i) { return path + "[" + std::to_string(i) + "]"; }

std::string where(const ctx_t& c, const YAML::Node& n) {
  if (n.IsDefined()) {
    const YAML::Mark m = n.Mark();
    if (m.line >= 0) return c.source + ":" + std::to_string(m.line + 1) + ":" + std::to_string(m.column + 1);
  }
  return c.source;
}

[[noreturn]] void fail(const ctx_t& c, const YAML::Node& n, const std::string& path, const std::string& what) {
  throw config_error(where(c, n) + ": " + path + ": " + what);
}

std::string quoted(const YAML::Node& n) {
  return n.IsScalar() ? "\"" + n.Scalar() + "\"" : n.IsSequence() ? "a list" : n.IsMap() ? "a mapping" : "empty";
}

// Every mapping of the file and its keys: the one list the parser checks keys against (and that
// the tests compare with configs/README.md).
const std::vector<schema_section_t>& schema_table() {
  static const std::vector<schema_section_t> table = {
      {"", {"version", "scheduler", "circuits", "node", "nodes", "simulation"}},
      {"scheduler", {"endpoint", "lookahead", "lookahead_max", "max_attempts", "default_priority", "metrics"}},
      {"circuits.<id>", {"native", "params", "key_dir", "zkey", "r1cs", "witness_generator", "shape", "priority"}},
      {"node", {"name", "roles", "listen", "resources", "hot_circuits", "data_plane"}},
      {"node.listen", {"control", "data"}},
      {"node.resources", {"cores", "memory_budget", "prover_backend", "gpus", "vram"}},
      {"node.data_plane", {"io_threads", "send_streams", "connect_timeout", "io_timeout", "idle_timeout", "max_attempts", "max_payload"}},
      {"simulation", {"enabled", "seed", "jitter", "nodes", "circuits", "jobs"}},
      {"simulation.circuits[]", {"id", "buffer_size", "prover_work", "synth_seconds", "prove_seconds"}},
      {"simulation.nodes[]", {"name_prefix", "count", "roles", "cores", "memory_budget", "uplink_per_s", "hot_circuits"}},
      {"simulation.jobs[]", {"circuit", "count", "partitions", "priority", "start_seconds", "every_seconds"}},
  };
  return table;
}

const std::vector<std::string>& keys_of(const char* section) {
  for (const auto& s : schema_table()) {
    if (s.section == section) return s.keys;
  }
  throw std::logic_error(std::string("config schema: no section ") + section);
}

// A mapping whose keys are all known (and none repeated); get() returns a child or an undefined node.
class map_t {
 public:
  map_t(const ctx_t& c, const YAML::Node& n, std::string path, const std::vector<std::string>& known)
      : c_(c), n_(n), path_(std::move(path)) {
    if (!n.IsMap()) fail(c, n, path_.empty() ? "(top level)" : path_, "is " + quoted(n) + "; expected a mapping");
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
  YAML::Node get(const char* key) const { return n_[key]; }
  bool has(const char* key) const { return n_[key].IsDefined(); }
  std::string path(const char* key) const { return join(path_, key); }
  const YAML::Node& node() const { return n_; }
  // A required key.
  YAML::Node need(const char* key) const {
    YAML::Node v = n_[key];
    if (!v.IsDefined()) fail(c_, n_, path(key), "missing (required)");
    return v;
  }

 private:
  const ctx_t& c_;
  YAML::Node n_;
  std::string path_;
};

std::string as_string(const ctx_t& c, const YAML::Node& n, const std::string& path) {
  if (!n.IsScalar() || n.Scalar().empty()) fail(c, n, path, "is " + quoted(n) + "; expected a string");
  return n.Scalar();
}

uint64_t as_uint(const ctx_t& c, const YAML::Node& n, const std::string& path, uint64_t min, uint64_t max) {
  static const std::regex re("^[0-9]{1,19}$");
  if (!n.IsScalar() || !std::regex_match(n.Scalar(), re)) fail(c, n, path, quoted(n) + " is not a whole number");
  const uint64_t v = std::stoull(n.Scalar());
  if (v < min || v > max) {
    fail(c, n, path, n.Scalar() + " is out of range [" + std::to_string(min) + ", " + std::to_string(max) + "]");
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

uint64_t as_size(const ctx_t& c, const YAML::Node& n, const std::string& path, uint64_t min = 1) {
  auto v = n.IsScalar() ? parse_size(n.Scalar()) : std::nullopt;
  if (!v) fail(c, n, path, quoted(n) + " is not a size (use e.g. 8GiB)");
  if (*v < min) fail(c, n, path, quoted(n) + " is too small (at least " + std::to_string(min) + " bytes)");
  return *v;
}

std::chrono::milliseconds as_duration(const ctx_t& c, const YAML::Node& n, const std::string& path) {
  auto v = n.IsScalar() ? parse_duration(n.Scalar()) : std::nullopt;
  if (!v || v->count() <= 0) fail(c, n, path, quoted(n) + " is not a positive duration (use e.g. 500ms, 10s, 2m)");
  // Timers past this overflow on their way to the I/O deadlines (and fire at once).
  constexpr auto longest = std::chrono::hours(24 * 7);
  if (*v > longest) fail(c, n, path, quoted(n) + " is longer than a week, the longest timeout accepted");
  return *v;
}

endpoint_t as_endpoint(const ctx_t& c, const YAML::Node& n, const std::string& path) {
  auto v = n.IsScalar() ? parse_endpoint(n.Scalar()) : std::nullopt;
  if (!v) fail(c, n, path, quoted(n) + " is not host:port (e.g. 127.0.0.1:7000, [::1]:7000; port 1-65535)");
  return *v;
}

template <class E, size_t N>
E as_enum(const ctx_t& c, const YAML::Node& n, const std::string& path, const std::pair<const char*, E> (&choices)[N]) {
  std::string list;
  for (const auto& [name, value] : choices) {
    if (n.IsScalar() && n.Scalar() == name) return value;
    list += (list.empty() ? "" : ", ") + std::string(name);
  }
  fail(c, n, path, quoted(n) + " is not one of: " + list);
}

constexpr std::pair<const char*, role_t> role_choices[] = {
    {"scheduler", role_t::scheduler}, {"synth", role_t::synth}, {"prover", role_t::prover}};
constexpr std::pair<const char*, backend_t> backend_choices[] = {
    {"cpu", backend_t::cpu}, {"cuda", backend_t::cuda}, {"auto", backend_t::automatic}};
constexpr std::pair<const char*, shape_t> shape_choices[] = {
    {"abc_witness", shape_t::abc_witness}, {"witness_only", shape_t::witness_only}, {"auto", shape_t::automatic}};
constexpr std::pair<const char*, priority_t> priority_choices[] = {
    {"critical", priority_t::critical}, {"high", priority_t::high}, {"normal", priority_t::normal}, {"low", priority_t::low}};

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
    if (!seen.insert(out.back()).second) fail(c, l[i], index(path, i), "\"" + out.back() + "\" is listed twice");
  }
  return out;
}

std::vector<role_t> as_roles(const ctx_t& c, const YAML::Node& n, const std::string& path) {
  std::vector<role_t> out;
  const YAML::Node l = as_list(c, n, path, false);
  for (size_t i = 0; i < l.size(); ++i) {
    const role_t r = as_enum(c, l[i], index(path, i), role_choices);
    for (auto x : out) {
      if (x == r) fail(c, l[i], index(path, i), std::string("role ") + role_name(r) + " is listed twice");
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
  return path.lexically_normal().string();
}

// --- sections ------------------------------------------------------------------------------------

scheduler_t read_scheduler(const ctx_t& c, const YAML::Node& n) {
  map_t m(c, n, "scheduler", keys_of("scheduler"));
  scheduler_t s;
  s.endpoint = as_endpoint(c, m.need("endpoint"), m.path("endpoint"));
  if (m.has("lookahead_max")) s.lookahead.max = unsigned(as_uint(c, m.get("lookahead_max"), m.path("lookahead_max"), 1, 64));
  if (m.has("lookahead")) {
    const YAML::Node v = m.get("lookahead");
    if (v.IsScalar() && v.Scalar() == "auto") {
      s.lookahead.automatic = true;
    } else {
      static const std::regex re("^[0-9]{1,4}$");
      if (!v.IsScalar() || !std::regex_match(v.Scalar(), re)) {
        fail(c, v, m.path("lookahead"), quoted(v) + " is not a number or \"auto\"");
      }
      s.lookahead.value = unsigned(as_uint(c, v, m.path("lookahead"), 0, s.lookahead.max));
    }
  }
  if (m.has("max_attempts")) s.max_attempts = unsigned(as_uint(c, m.get("max_attempts"), m.path("max_attempts"), 1, 100));
  if (m.has("metrics")) {  // port 0: any free port (the node prints the one bound)
    const YAML::Node v = m.get("metrics");
    static const std::regex zero("^(.*):0$");
    std::smatch z;
    const std::string text = v.IsScalar() ? v.Scalar() : "";
    if (std::regex_match(text, z, zero)) {
      s.metrics = parse_endpoint(z[1].str() + ":1");
      if (!s.metrics) fail(c, v, m.path("metrics"), quoted(v) + " is not host:port (e.g. 127.0.0.1:9410; port 0: any free port)");
      s.metrics->port = 0;
    } else {
      s.metrics = as_endpoint(c, v, m.path("metrics"));
    }
  }
  if (m.has("default_priority")) {
    s.default_priority = as_enum(c, m.get("default_priority"), m.path("default_priority"), priority_choices);
  }
  return s;
}

// A native circuit: `native` names it, `params` its shape (the syntax of `zkfleet setup --circuit
// porep-lite --params`, checked here), `key_dir` where its key lives. Jobs choose partitions and
// the replica seed, so the shape parameters may not.
circuit_t read_native_circuit(const ctx_t& c, const map_t& m, circuit_t& ci) {
  const YAML::Node n = m.get("native");
  ci.native = as_string(c, n, m.path("native"));
  if (ci.native != "porep-lite") fail(c, n, m.path("native"), "\"" + ci.native + "\" is not a native circuit (known: porep-lite)");
  for (const char* key : {"zkey", "r1cs", "witness_generator"})
    if (m.has(key)) fail(c, m.get(key), m.path(key), "not for a native circuit (its key is made from `params`)");
  if (m.has("params")) {
    const YAML::Node v = m.get("params");
    ci.params = as_string(c, v, m.path("params"));
    try {
      circuit::porep_params_t::parse(ci.params);
    } catch (const std::exception& e) {
      fail(c, v, m.path("params"), e.what());
    }
    for (const char* job_key : {"partitions", "seed"})
      if (("," + ci.params).find(std::string(",") + job_key + "=") != std::string::npos)
        fail(c, v, m.path("params"), std::string(job_key) + " belongs to jobs (zkfleet submit), not to the circuit");
  }
  if (m.has("key_dir")) ci.key_dir = resolve(c, as_string(c, m.get("key_dir"), m.path("key_dir")));
  if (m.has("shape")) {
    ci.shape = as_enum(c, m.get("shape"), m.path("shape"), shape_choices);
    if (ci.shape == shape_t::witness_only)
      fail(c, m.get("shape"), m.path("shape"), "a native circuit's buffers are abc_witness (synthesis computes a, b, c in one pass)");
  }
  if (m.has("priority")) ci.priority = as_enum(c, m.get("priority"), m.path("priority"), priority_choices);
  return ci;
}

circuit_t read_circuit(const ctx_t& c, const std::string& id, const YAML::Node& n, const std::string& path) {
  map_t m(c, n, path, keys_of("circuits.<id>"));
  circuit_t ci;
  ci.id = id;
  if (m.has("native")) return read_native_circuit(c, m, ci);
  for (const char* key : {"params", "key_dir"})
    if (m.has(key)) fail(c, m.get(key), m.path(key), "only for native circuits (with `native: porep-lite`)");
  for (auto [key, dst] : {std::pair<const char*, std::string*>{"zkey", &ci.zkey}, {"r1cs", &ci.r1cs}}) {
    const YAML::Node v = m.need(key);
    *dst = resolve(c, as_string(c, v, m.path(key)));
    if (c.options.check_files && !fs::is_regular_file(*dst)) fail(c, v, m.path(key), *dst + " does not exist");
  }
  if (m.has("witness_generator")) {
    const YAML::Node v = m.get("witness_generator");
    const std::string p = m.path("witness_generator");
    if (v.IsScalar()) {
      fail(c, v, p, "is a string; give the command as an argv list (it runs without a shell), e.g. "
                    "[snarkjs, wtns, calculate, circuit.wasm, \"{input}\", \"{output}\"]");
    }
    const YAML::Node l = as_list(c, v, p, false);
    bool in = false, out = false;
    for (size_t i = 0; i < l.size(); ++i) {
      ci.witness_generator.push_back(as_string(c, l[i], index(p, i)));
      in = in || ci.witness_generator.back().find("{input}") != std::string::npos;
      out = out || ci.witness_generator.back().find("{output}") != std::string::npos;
    }
    if (!in || !out) fail(c, v, p, "must name \"{input}\" (the job's input.json) and \"{output}\" (the .wtns to write)");
  }
  if (m.has("shape")) ci.shape = as_enum(c, m.get("shape"), m.path("shape"), shape_choices);
  if (m.has("priority")) ci.priority = as_enum(c, m.get("priority"), m.path("priority"), priority_choices);
  return ci;
}

node_t read_node(const ctx_t& c, const YAML::Node& n, const std::string& path) {
  map_t m(c, n, path, keys_of("node"));
  node_t node;
  node.name = as_string(c, m.need("name"), m.path("name"));
  if (!valid_name(node.name)) fail(c, m.get("name"), m.path("name"), "\"" + node.name + "\" is not a name (letters, digits, _ . -)");
  node.roles = as_roles(c, m.need("roles"), m.path("roles"));
  if (m.has("listen")) {
    map_t l(c, m.get("listen"), m.path("listen"), keys_of("node.listen"));
    if (l.has("control")) node.control = as_endpoint(c, l.get("control"), l.path("control"));
    if (l.has("data")) node.data = as_endpoint(c, l.get("data"), l.path("data"));
  }
  if (node.has(role_t::scheduler) && !node.control) {
    fail(c, n, m.path("listen.control"), "missing (required for the scheduler role)");
  }
  if ((node.has(role_t::synth) || node.has(role_t::prover)) && !node.data) {
    fail(c, n, m.path("listen.data"), "missing (required for the synth and prover roles)");
  }
  const bool holds_buffers = node.has(role_t::synth) || node.has(role_t::prover);
  if (m.has("resources")) {
    map_t r(c, m.get("resources"), m.path("resources"), keys_of("node.resources"));
    auto& res = node.resources;
    if (r.has("cores")) {
      const YAML::Node v = r.get("cores");
      if (!(v.IsScalar() && v.Scalar() == "auto")) res.cores = unsigned(as_uint(c, v, r.path("cores"), 1, 4096));
    }
    if (r.has("memory_budget")) res.memory_budget = as_size(c, r.get("memory_budget"), r.path("memory_budget"), 1 << 20);
    if (r.has("prover_backend")) res.prover_backend = as_enum(c, r.get("prover_backend"), r.path("prover_backend"), backend_choices);
    if (r.has("gpus")) {
      const YAML::Node v = r.get("gpus");
      if (!(v.IsScalar() && v.Scalar() == "auto")) res.gpus = unsigned(as_uint(c, v, r.path("gpus"), 0, 64));
    }
    if (r.has("vram")) {
      const YAML::Node v = r.get("vram");
      if (!(v.IsScalar() && v.Scalar() == "auto")) res.vram = as_size(c, v, r.path("vram"), 1 << 20);
    }
    if (res.prover_backend == backend_t::cpu && ((res.gpus && *res.gpus > 0) || res.vram)) {
      fail(c, r.node(), r.path("prover_backend"), "is cpu, but gpus/vram are given (use cuda or auto, or drop them)");
    }
    if (res.gpus && *res.gpus > 1) {
      fail(c, r.get("gpus"), r.path("gpus"),
           "is " + std::to_string(*res.gpus) + ": a prover node drives one GPU; run one prover node per GPU, each "
           "started with its own CUDA_VISIBLE_DEVICES");
    }
    if (res.prover_backend == backend_t::cuda && res.gpus && *res.gpus == 0) {
      fail(c, r.get("gpus"), r.path("gpus"), "is 0 with prover_backend cuda");
    }
    if ((res.gpus || res.vram || r.has("prover_backend")) && !node.has(role_t::prover)) {
      fail(c, r.node(), m.path("resources"), "gives prover_backend/gpus/vram to a node without the prover role");
    }
  }
  if (holds_buffers && node.resources.memory_budget == 0) {
    fail(c, n, m.path("resources.memory_budget"), "missing (required for the synth and prover roles: e.g. 8GiB)");
  }
  if (m.has("hot_circuits")) {
    if (!node.has(role_t::prover)) fail(c, m.get("hot_circuits"), m.path("hot_circuits"), "only a prover keeps proving keys resident");
    node.hot_circuits = as_names(c, m.get("hot_circuits"), m.path("hot_circuits"));
  }
  if (m.has("data_plane")) {
    map_t d(c, m.get("data_plane"), m.path("data_plane"), keys_of("node.data_plane"));
    auto& dp = node.data_plane;
    if (d.has("io_threads")) dp.io_threads = unsigned(as_uint(c, d.get("io_threads"), d.path("io_threads"), 1, 64));
    if (d.has("send_streams"))
      dp.send_streams = unsigned(as_uint(c, d.get("send_streams"), d.path("send_streams"), 1, 64));
    if (d.has("connect_timeout")) dp.connect_timeout = as_duration(c, d.get("connect_timeout"), d.path("connect_timeout"));
    if (d.has("io_timeout")) dp.io_timeout = as_duration(c, d.get("io_timeout"), d.path("io_timeout"));
    if (d.has("idle_timeout")) dp.idle_timeout = as_duration(c, d.get("idle_timeout"), d.path("idle_timeout"));
    if (d.has("max_attempts")) dp.max_attempts = unsigned(as_uint(c, d.get("max_attempts"), d.path("max_attempts"), 1, 100));
    if (d.has("max_payload")) dp.max_payload = as_size(c, d.get("max_payload"), d.path("max_payload"));
  }
  return node;
}

simulation_t read_simulation(const ctx_t& c, const YAML::Node& n) {
  map_t m(c, n, "simulation", keys_of("simulation"));
  simulation_t s;
  if (m.has("enabled")) s.enabled = as_bool(c, m.get("enabled"), m.path("enabled"));
  if (m.has("seed")) s.seed = as_uint(c, m.get("seed"), m.path("seed"), 0, UINT64_MAX);
  if (m.has("jitter")) s.jitter = as_fraction(c, m.get("jitter"), m.path("jitter"));
  if (m.has("circuits")) {
    const YAML::Node l = as_list(c, m.get("circuits"), m.path("circuits"), false);
    for (size_t i = 0; i < l.size(); ++i) {
      const std::string p = index(m.path("circuits"), i);
      map_t e(c, l[i], p, keys_of("simulation.circuits[]"));
      sim_circuit_t ci;
      ci.id = as_string(c, e.need("id"), e.path("id"));
      ci.buffer_size = as_size(c, e.need("buffer_size"), e.path("buffer_size"));
      if (e.has("prover_work")) ci.prover_work = as_size(c, e.get("prover_work"), e.path("prover_work"), 0);
      ci.synth_seconds = as_seconds(c, e.need("synth_seconds"), e.path("synth_seconds"));
      ci.prove_seconds = as_seconds(c, e.need("prove_seconds"), e.path("prove_seconds"));
      for (const auto& other : s.circuits) {
        if (other.id == ci.id) fail(c, e.get("id"), e.path("id"), "\"" + ci.id + "\" is defined twice");
      }
      s.circuits.push_back(ci);
    }
  }
  auto known_circuit = [&](const std::string& id) {
    for (const auto& ci : s.circuits) {
      if (ci.id == id) return true;
    }
    return false;
  };
  if (m.has("nodes")) {
    const YAML::Node l = as_list(c, m.get("nodes"), m.path("nodes"), false);
    for (size_t i = 0; i < l.size(); ++i) {
      const std::string p = index(m.path("nodes"), i);
      map_t e(c, l[i], p, keys_of("simulation.nodes[]"));
      sim_node_group_t g;
      g.name_prefix = as_string(c, e.need("name_prefix"), e.path("name_prefix"));
      if (e.has("count")) g.count = unsigned(as_uint(c, e.get("count"), e.path("count"), 1, 100000));
      g.roles = as_roles(c, e.need("roles"), e.path("roles"));
      if (e.has("cores")) g.cores = unsigned(as_uint(c, e.get("cores"), e.path("cores"), 1, 4096));
      g.memory_budget = as_size(c, e.need("memory_budget"), e.path("memory_budget"));
      if (e.has("uplink_per_s")) g.uplink_per_s = as_size(c, e.get("uplink_per_s"), e.path("uplink_per_s"));
      if (e.has("hot_circuits")) {
        g.hot_circuits = as_names(c, e.get("hot_circuits"), e.path("hot_circuits"));
        for (size_t k = 0; k < g.hot_circuits.size(); ++k) {
          if (!known_circuit(g.hot_circuits[k])) {
            fail(c, e.get("hot_circuits")[k], index(e.path("hot_circuits"), k),
                 "\"" + g.hot_circuits[k] + "\" is not in simulation.circuits");
          }
        }
      }
      s.nodes.push_back(g);
    }
  }
  if (m.has("jobs")) {
    const YAML::Node l = as_list(c, m.get("jobs"), m.path("jobs"), false);
    for (size_t i = 0; i < l.size(); ++i) {
      const std::string p = index(m.path("jobs"), i);
      map_t e(c, l[i], p, keys_of("simulation.jobs[]"));
      sim_jobs_t j;
      j.circuit = as_string(c, e.need("circuit"), e.path("circuit"));
      if (!known_circuit(j.circuit)) fail(c, e.get("circuit"), e.path("circuit"), "\"" + j.circuit + "\" is not in simulation.circuits");
      if (e.has("count")) j.count = unsigned(as_uint(c, e.get("count"), e.path("count"), 1, 1000000));
      if (e.has("partitions")) j.partitions = unsigned(as_uint(c, e.get("partitions"), e.path("partitions"), 1, 1024));
      if (e.has("priority")) j.priority = as_enum(c, e.get("priority"), e.path("priority"), priority_choices);
      if (e.has("start_seconds")) j.start_seconds = as_seconds(c, e.get("start_seconds"), e.path("start_seconds"));
      if (e.has("every_seconds")) j.every_seconds = as_seconds(c, e.get("every_seconds"), e.path("every_seconds"));
      s.jobs.push_back(j);
    }
  }
  if (s.enabled) {
    bool synth = false, prover = false;
    for (const auto& g : s.nodes) {
      for (auto r : g.roles) synth = synth || r == role_t::synth, prover = prover || r == role_t::prover;
    }
    if (!synth || !prover || s.jobs.empty()) {
      fail(c, n, "simulation", "is enabled but lacks synth nodes, prover nodes or jobs");
    }
  }
  return s;
}

config_t read_config(const ctx_t& c, const YAML::Node& root) {
  if (!root.IsDefined() || root.IsNull()) throw config_error(c.source + ": the file is empty");
  map_t m(c, root, "", keys_of(""));
  config_t cfg;
  cfg.source = c.source;
  if (m.has("version")) as_uint(c, m.get("version"), "version", 1, 1);
  cfg.scheduler = read_scheduler(c, m.need("scheduler"));

  if (m.has("circuits")) {
    const YAML::Node& cs = m.get("circuits");
    if (!cs.IsMap()) fail(c, cs, "circuits", "is " + quoted(cs) + "; expected a mapping of circuit id to circuit");
    for (auto it = cs.begin(); it != cs.end(); ++it) {
      const std::string id = as_string(c, it->first, "circuits");
      if (!valid_name(id)) fail(c, it->first, "circuits." + id, "is not a circuit id (letters, digits, _ . -)");
      if (cfg.find_circuit(id)) fail(c, it->first, "circuits." + id, "is defined twice");
      cfg.circuits.push_back(read_circuit(c, id, it->second, "circuits." + id));
    }
  }

  if (m.has("node") == m.has("nodes")) {
    fail(c, root, "node", m.has("node") ? "give either node or nodes, not both" : "missing: give node (this process) or nodes (a list)");
  }
  if (m.has("node")) {
    cfg.single_node = true;
    cfg.nodes.push_back(read_node(c, m.get("node"), "node"));
  } else {
    const YAML::Node l = as_list(c, m.get("nodes"), "nodes", false);
    for (size_t i = 0; i < l.size(); ++i) cfg.nodes.push_back(read_node(c, l[i], index("nodes", i)));
  }

  // Across nodes: unique names and listen addresses, hot circuits registered, one scheduler whose
  // control port is the scheduler endpoint's.
  const std::string base = cfg.single_node ? "node" : "nodes";
  auto node_path = [&](size_t i) { return cfg.single_node ? base : index(base, i); };
  auto node_yaml = [&](size_t i) { return cfg.single_node ? m.get("node") : m.get("nodes")[i]; };
  std::set<std::pair<std::string, uint16_t>> listens;
  size_t schedulers = 0;
  for (size_t i = 0; i < cfg.nodes.size(); ++i) {
    const node_t& nd = cfg.nodes[i];
    for (size_t k = 0; k < i; ++k) {
      if (cfg.nodes[k].name == nd.name) fail(c, node_yaml(i), node_path(i) + ".name", "\"" + nd.name + "\" is used by another node");
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
    if (nd.has(role_t::scheduler)) {
      ++schedulers;
      if (nd.control->port != cfg.scheduler.endpoint.port) {
        fail(c, node_yaml(i), node_path(i) + ".listen.control",
             nd.control->str() + " does not listen on scheduler.endpoint's port (" + cfg.scheduler.endpoint.str() + ")");
      }
    }
  }
  if (!cfg.single_node && schedulers != 1) {
    fail(c, m.get("nodes"), "nodes", std::to_string(schedulers) + " nodes have the scheduler role (exactly one must)");
  }
  if (cfg.single_node && schedulers > 1) fail(c, m.get("node"), "node", "has the scheduler role twice");

  if (m.has("simulation")) cfg.simulation = read_simulation(c, m.get("simulation"));
  return cfg;
}

}  // namespace

const std::vector<schema_section_t>& schema() { return schema_table(); }

config_t parse_config(const std::string& yaml, const std::string& source, const std::string& base_dir,
                      const load_options_t& options) {
  const ctx_t c{source, base_dir, options};
  YAML::Node root;
  try {
    root = YAML::Load(yaml);
  } catch (const YAML::Exception& e) {
    throw config_error(source + ":" + std::to_string(e.mark.line + 1) + ":" + std::to_string(e.mark.column + 1) +
                       ": not valid YAML: " + e.msg);
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
    throw config_error(config.source + ": nodes: the file describes " + std::to_string(config.nodes.size()) +
                       " nodes; choose one with --node (" + names + ")");
  }
  if (const node_t* n = config.find_node(name)) return *n;
  throw config_error(config.source + ": nodes: no node named \"" + name + "\"");
}

}  // namespace zk::config
