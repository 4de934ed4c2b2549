// The config file's sections, each read and checked on its own (common/config/yaml_reader.hpp):
// the scheduler, a circuit of the registry (circom or native), a node, the simulation.
#include <filesystem>
#include <regex>

#include "common/config/yaml_reader.hpp"
#include "common/net/networks.hpp"
#include "zk/circuit/porep.hpp"
#include "zk/filecoin/api/registry.hpp"

namespace zk::config::detail {

namespace fs = std::filesystem;

namespace {

// scheduler.grpc, grpc_client, grpc_insecure_networks, grpc_tls (config.hpp scheduler_t).
template <class Listener>
void read_grpc(const ctx_t& c, const map_t& m, scheduler_t& s, Listener&& listener) {
  if (m.has("grpc")) {
    const YAML::Node v = m.get("grpc");
    const std::string text = as_string(c, v, m.path("grpc"));
    const std::string unix_prefix = "unix://";
    if (text.rfind(unix_prefix, 0) == 0) {
      s.grpc_unix = text.substr(unix_prefix.size());
      if (s.grpc_unix.empty() || s.grpc_unix[0] != '/')
        fail(c, v, m.path("grpc"),
             quoted(v) + " is not unix:///ABSOLUTE/PATH (three slashes: the path is absolute)");
      s.grpc = text;
    } else {
      s.grpc_tcp = listener("grpc", "127.0.0.1:9820, or unix:///run/zkfleet/cuzk.sock");
      s.grpc = s.grpc_tcp->str();
    }
  }
  if (m.has("grpc_client")) {
    const YAML::Node v = m.get("grpc_client");
    s.grpc_client = as_string(c, v, m.path("grpc_client"));
    if (!valid_name(s.grpc_client))
      fail(c, v, m.path("grpc_client"), quoted(v) + " is not a client name");
  }
  if (m.has("grpc_insecure_networks")) {
    const YAML::Node l =
        as_list(c, m.get("grpc_insecure_networks"), m.path("grpc_insecure_networks"), false);
    for (size_t i = 0; i < l.size(); ++i) {
      const std::string p = index(m.path("grpc_insecure_networks"), i);
      const std::string net = as_string(c, l[i], p);
      if (!net::parse_network(net))
        fail(c, l[i], p,
             quoted(l[i]) + " is not a network (CIDR: 10.1.0.0/16, fd00::/8, or one address)");
      s.grpc_insecure_networks.push_back(net);
    }
    if (!s.grpc_tcp)
      fail(c, m.get("grpc_insecure_networks"), m.path("grpc_insecure_networks"),
           "names the networks scheduler.grpc takes plaintext peers from, but scheduler.grpc is " +
               std::string(s.grpc.empty() ? "not set" : "a unix socket"));
  }
  if (s.grpc_tcp && !net::is_loopback_host(s.grpc_tcp->host) && s.grpc_insecure_networks.empty())
    fail(c, m.get("grpc"), m.path("grpc"),
         s.grpc_tcp->str() +
             " is not loopback, and Curio speaks plaintext gRPC: listen on a unix socket or a "
             "loopback address (a remote Curio goes through `zkfleet gateway` and "
             "scheduler.grpc_tls), or name the networks whose peers may use it in "
             "scheduler.grpc_insecure_networks (zkfleet config check warns about it)");
  if (m.has("grpc_tls")) s.grpc_tls = listener("grpc_tls", "0.0.0.0:9821");
}

}  // namespace

scheduler_t read_scheduler(const ctx_t& c, const YAML::Node& n) {
  map_t m(c, n, "scheduler", keys_of("scheduler"));
  scheduler_t s;
  s.endpoint = as_endpoint(c, m.need("endpoint"), m.path("endpoint"));
  if (m.has("lookahead_max"))
    s.lookahead.max = unsigned(as_uint(c, m.get("lookahead_max"), m.path("lookahead_max"), 1, 64));
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
  if (m.has("max_attempts"))
    s.max_attempts = unsigned(as_uint(c, m.get("max_attempts"), m.path("max_attempts"), 1, 100));
  // A listener's endpoint where port 0 means any free port (the node prints the one bound).
  auto listener = [&](const char* key, const char* example) {
    const YAML::Node v = m.get(key);
    static const std::regex zero("^(.*):0$");
    std::smatch z;
    const std::string text = v.IsScalar() ? v.Scalar() : "";
    if (!std::regex_match(text, z, zero)) return as_endpoint(c, v, m.path(key));
    auto e = parse_endpoint(z[1].str() + ":1");
    if (!e)
      fail(c, v, m.path(key),
           quoted(v) + " is not host:port (e.g. " + example + "; port 0: any free port)");
    e->port = 0;
    return *e;
  };
  if (m.has("http")) s.http = listener("http", "127.0.0.1:9410");
  read_grpc(c, m, s, listener);
  if (m.has("default_priority")) {
    s.default_priority =
        as_enum(c, m.get("default_priority"), m.path("default_priority"), priority_choices);
  }
  if (m.has("max_partitions"))
    s.max_partitions =
        uint32_t(as_uint(c, m.get("max_partitions"), m.path("max_partitions"), 1, 1u << 20));
  if (m.has("max_queued_jobs"))
    s.max_queued_jobs =
        uint32_t(as_uint(c, m.get("max_queued_jobs"), m.path("max_queued_jobs"), 1, 1u << 24));
  if (m.has("retention")) s.retention = as_duration(c, m.get("retention"), m.path("retention"));
  if (m.has("input_roots")) {
    const YAML::Node l = as_list(c, m.get("input_roots"), m.path("input_roots"), true);
    for (size_t i = 0; i < l.size(); ++i) {
      const std::string p = index(m.path("input_roots"), i);
      const std::string root = resolve(c, as_string(c, l[i], p));
      std::error_code ec;
      if (c.options.check_files && !fs::is_directory(root, ec))
        fail(c, l[i], p, root + " is not a directory");
      s.input_roots.push_back(root);
    }
  }
  const std::string state = resolve(c, fs::path(c.source).stem().string() + ".state");
  s.journal = state + "/journal.db";
  if (m.has("journal")) {
    const YAML::Node v = m.get("journal");
    const std::string p = as_string(c, v, m.path("journal"));
    s.journal = p == "off" ? "" : resolve(c, p);
  }
  // Uploads live beside the journal (one folder of state to make writable, back up or wipe);
  // without a journal, in the config's state folder.
  s.uploads = s.journal.empty() ? state + "/uploads"
                                : (fs::path(s.journal).parent_path() / "uploads").string();
  if (m.has("uploads")) s.uploads = resolve(c, as_string(c, m.get("uploads"), m.path("uploads")));
  if (m.has("max_upload")) s.max_upload = as_size(c, m.get("max_upload"), m.path("max_upload"));
  if (m.has("journal_sync"))
    s.journal_sync_full = as_enum(c, m.get("journal_sync"), m.path("journal_sync"), sync_choices);
  auto duration = [&](const char* key, std::chrono::milliseconds& out) {
    if (m.has(key)) out = as_duration(c, m.get(key), m.path(key));
  };
  duration("heartbeat", s.heartbeat);
  duration("node_timeout", s.node_timeout);
  duration("placement_timeout", s.placement_timeout);
  duration("stage_timeout", s.stage_timeout);
  if (s.node_timeout < 2 * s.heartbeat)
    fail(c, m.has("node_timeout") ? m.get("node_timeout") : n, m.path("node_timeout"),
         "must be at least twice scheduler.heartbeat (a peer would be dropped between two of its "
         "heartbeats)");
  return s;
}

security_t read_security(const ctx_t& c, const YAML::Node& n) {
  map_t m(c, n, "security", keys_of("security"));
  security_t s;
  if (m.has("insecure")) s.insecure = as_bool(c, m.get("insecure"), m.path("insecure"));
  if (m.has("certs_dir")) {
    if (s.insecure)
      fail(c, m.get("certs_dir"), m.path("certs_dir"),
           "give certs_dir (mutual TLS) or insecure: true, not both");
    s.certs_dir = resolve(c, as_string(c, m.get("certs_dir"), m.path("certs_dir")));
  } else if (!s.insecure) {
    fail(c, n, "security",
         "set certs_dir (mutual TLS between every node and client) or, on loopback only, "
         "insecure: true");
  }
  if (m.has("dev_certs")) {
    s.dev_certs = as_bool(c, m.get("dev_certs"), m.path("dev_certs"));
    if (s.dev_certs && s.insecure)
      fail(c, m.get("dev_certs"), m.path("dev_certs"),
           "is for certs_dir (development certificates); insecure: true uses none");
  }
  return s;
}

// A native circuit: `native` names it, `params` its shape (the syntax of `zkfleet setup --circuit
// porep-lite --params`, checked here), `key_dir` where its key lives. Jobs choose partitions and
// the replica seed, so the shape parameters may not.
namespace {

// Filecoin's PoRep circuit (filecoin-porep) or SnapDeals update circuit (filecoin-snap):
// `registered_proof` names it (a RegisteredSealProof, or a RegisteredUpdateProof for an update:
// its sector size, tree shape and challenges fix the R1CS), `vk` is the bellperson verifying key
// the scheduler checks every partition's proof with. The parameters are per prover node
// (node.filecoin_params); jobs bring a C1 output with the sector's prover id and number (PoRep),
// or the update's vanilla proofs and three commitments (SnapDeals).
circuit_t read_filecoin_circuit(const ctx_t& c, const map_t& m, circuit_t& ci) {
  const std::string kind = circuit_kind_name(ci.kind);
  for (const char* key : {"zkey", "r1cs", "witness_generator", "params", "key_dir", "shape"})
    if (m.has(key))
      fail(c, m.get(key), m.path(key),
           "not for a " + kind +
               " circuit (give registered_proof and vk; each prover node's parameters go in its "
               "filecoin_params)");
  const YAML::Node rp = m.need("registered_proof");
  ci.registered_proof = as_string(c, rp, m.path("registered_proof"));
  try {
    if (ci.kind == circuit_kind_t::filecoin_snap) {
      filecoin::registered_update_proof(ci.registered_proof);
    } else {
      const auto& proof = filecoin::registered_proof(ci.registered_proof);
      if (proof.feature == filecoin::feature_t::non_interactive_porep)
        fail(c, rp, m.path("registered_proof"),
             ci.registered_proof +
                 ": non-interactive PoRep proofs are SnarkPack aggregates, not C2 partitions");
    }
  } catch (const std::invalid_argument& e) {
    fail(c, rp, m.path("registered_proof"), e.what());
  }
  const YAML::Node vk = m.need("vk");
  ci.vk = resolve(c, as_string(c, vk, m.path("vk")));
  std::error_code ec;
  if (c.options.check_files && !fs::is_regular_file(ci.vk, ec))
    fail(c, vk, m.path("vk"), ci.vk + " does not exist (the .vk of the circuit's parameters)");
  // The update circuit's copied challenges read their own digest bits, which the packed wire's
  // rebuild does not remap yet: its partitions cross as a, b, c and the witness.
  if (ci.kind == circuit_kind_t::filecoin_snap) ci.wire = wire_t::full;
  if (m.has("wire")) {
    ci.wire = as_enum(c, m.get("wire"), m.path("wire"), wire_choices);
    if (ci.kind == circuit_kind_t::filecoin_snap && ci.wire != wire_t::full)
      fail(c, m.get("wire"), m.path("wire"),
           "a filecoin-snap circuit's partitions cross the data plane as `wire: full` only (the "
           "packed wire's rebuild of the update circuit is not built yet)");
  }
  if (m.has("link_per_s")) {
    if (ci.wire != wire_t::automatic)
      fail(c, m.get("link_per_s"), m.path("link_per_s"),
           "link_per_s is the link rate `wire: auto` assumes before it measures: give `wire: auto` "
           "or drop it");
    ci.link_per_s = as_size(c, m.get("link_per_s"), m.path("link_per_s"));
  }
  if (m.has("priority"))
    ci.priority = as_enum(c, m.get("priority"), m.path("priority"), priority_choices);
  return ci;
}

circuit_t read_native_circuit(const ctx_t& c, const map_t& m, circuit_t& ci) {
  // The one place a circuit's kind is decided.
  const YAML::Node n = m.get("native");
  const std::string native = as_string(c, n, m.path("native"));
  for (circuit_kind_t k : {circuit_kind_t::filecoin_porep, circuit_kind_t::filecoin_snap})
    if (native == circuit_kind_name(k)) {
      ci.kind = k;
      return read_filecoin_circuit(c, m, ci);
    }
  if (native != circuit_kind_name(circuit_kind_t::porep_lite))
    fail(c, n, m.path("native"),
         "\"" + native +
             "\" is not a native circuit (known: porep-lite, filecoin-porep, filecoin-snap)");
  ci.kind = circuit_kind_t::porep_lite;
  for (const char* key : {"registered_proof", "vk", "wire"})
    if (m.has(key))
      fail(c, m.get(key), m.path(key), "only for native: filecoin-porep or filecoin-snap");
  for (const char* key : {"zkey", "r1cs", "witness_generator"})
    if (m.has(key))
      fail(c, m.get(key), m.path(key), "not for a native circuit (its key is made from `params`)");
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
        fail(c, v, m.path("params"),
             std::string(job_key) + " belongs to jobs (zkfleet submit), not to the circuit");
  }
  if (m.has("key_dir")) ci.key_dir = resolve(c, as_string(c, m.get("key_dir"), m.path("key_dir")));
  if (m.has("shape")) {
    ci.shape = as_enum(c, m.get("shape"), m.path("shape"), shape_choices);
    if (ci.shape == shape_t::witness_only)
      fail(c, m.get("shape"), m.path("shape"),
           "a native circuit's buffers are abc_witness (synthesis computes a, b, c in one pass)");
  }
  if (m.has("priority"))
    ci.priority = as_enum(c, m.get("priority"), m.path("priority"), priority_choices);
  return ci;
}

}  // namespace

void read_circuit(const ctx_t& c, const std::string& id, const YAML::Node& n,
                  const std::string& path, circuit_t& ci) {
  map_t m(c, n, path, keys_of("circuits.<id>"));
  ci = circuit_t{};
  ci.id = id;
  if (m.has("native")) {
    read_native_circuit(c, m, ci);
    return;
  }
  for (const char* key : {"params", "key_dir"})
    if (m.has(key))
      fail(c, m.get(key), m.path(key), "only for native circuits (with `native: porep-lite`)");
  for (const char* key : {"registered_proof", "vk", "wire"})
    if (m.has(key))
      fail(c, m.get(key), m.path(key), "only for native: filecoin-porep or filecoin-snap");
  for (auto [key, dst] :
       {std::pair<const char*, std::string*>{"zkey", &ci.zkey}, {"r1cs", &ci.r1cs}}) {
    const YAML::Node v = m.need(key);
    *dst = resolve(c, as_string(c, v, m.path(key)));
    std::error_code ec;  // a name too long for the file system is an error too, not a throw
    if (c.options.check_files && !fs::is_regular_file(*dst, ec))
      fail(c, v, m.path(key),
           *dst + (ec && ec != std::errc::no_such_file_or_directory
                       ? " cannot be read: " + ec.message()
                       : " does not exist"));
  }
  if (m.has("witness_generator")) {
    const YAML::Node v = m.get("witness_generator");
    const std::string p = m.path("witness_generator");
    if (v.IsScalar()) {
      fail(c, v, p,
           "is a string; give the command as an argv list (it runs without a shell), e.g. "
           "[snarkjs, wtns, calculate, circuit.wasm, \"{input}\", \"{output}\"]");
    }
    const YAML::Node l = as_list(c, v, p, false);
    bool in = false, out = false;
    for (size_t i = 0; i < l.size(); ++i) {
      ci.witness_generator.push_back(as_string(c, l[i], index(p, i)));
      in = in || ci.witness_generator.back().find("{input}") != std::string::npos;
      out = out || ci.witness_generator.back().find("{output}") != std::string::npos;
    }
    if (!in || !out)
      fail(c, v, p,
           "must name \"{input}\" (the job's input.json) and \"{output}\" (the .wtns to write)");
  }
  if (m.has("shape")) ci.shape = as_enum(c, m.get("shape"), m.path("shape"), shape_choices);
  if (m.has("priority"))
    ci.priority = as_enum(c, m.get("priority"), m.path("priority"), priority_choices);
}

node_t read_node(const ctx_t& c, const YAML::Node& n, const std::string& path) {
  map_t m(c, n, path, keys_of("node"));
  node_t node;
  node.name = as_string(c, m.need("name"), m.path("name"));
  if (!valid_name(node.name))
    fail(c, m.get("name"), m.path("name"),
         "\"" + node.name + "\" is not a name (letters, digits, _ . -)");
  node.roles = as_roles(c, m.need("roles"), m.path("roles"));
  if (m.has("listen")) {
    map_t l(c, m.get("listen"), m.path("listen"), keys_of("node.listen"));
    if (l.has("control")) node.control = as_endpoint(c, l.get("control"), l.path("control"));
    if (l.has("data")) node.data = as_endpoint(c, l.get("data"), l.path("data"));
  }
  if (node.has(node_role_t::scheduler) && !node.control) {
    fail(c, n, m.path("listen.control"), "missing (required for the scheduler role)");
  }
  if ((node.has(node_role_t::synth) || node.has(node_role_t::prover)) && !node.data) {
    fail(c, n, m.path("listen.data"), "missing (required for the synth and prover roles)");
  }
  const bool holds_buffers = node.has(node_role_t::synth) || node.has(node_role_t::prover);
  if (m.has("resources")) {
    map_t r(c, m.get("resources"), m.path("resources"), keys_of("node.resources"));
    auto& res = node.resources;
    if (r.has("cores")) {
      const YAML::Node v = r.get("cores");
      if (!(v.IsScalar() && v.Scalar() == "auto"))
        res.cores = unsigned(as_uint(c, v, r.path("cores"), 1, 4096));
    }
    if (r.has("memory_budget"))
      res.memory_budget = as_size(c, r.get("memory_budget"), r.path("memory_budget"), 1 << 20);
    if (r.has("prover_backend"))
      res.prover_backend =
          as_enum(c, r.get("prover_backend"), r.path("prover_backend"), backend_choices);
    if (r.has("gpus")) {
      const YAML::Node v = r.get("gpus");
      if (!(v.IsScalar() && v.Scalar() == "auto"))
        res.gpus = unsigned(as_uint(c, v, r.path("gpus"), 0, 64));
    }
    if (r.has("vram")) {
      const YAML::Node v = r.get("vram");
      if (!(v.IsScalar() && v.Scalar() == "auto"))
        res.vram = as_size(c, v, r.path("vram"), 1 << 20);
    }
    if (res.prover_backend == backend_t::cpu && ((res.gpus && *res.gpus > 0) || res.vram)) {
      fail(c, r.node(), r.path("prover_backend"),
           "is cpu, but gpus/vram are given (use cuda or auto, or drop them)");
    }
    if (res.gpus && *res.gpus > 1) {
      fail(c, r.get("gpus"), r.path("gpus"),
           "is " + std::to_string(*res.gpus) +
               ": a prover node drives one GPU; run one prover node per GPU, each "
               "started with its own CUDA_VISIBLE_DEVICES");
    }
    if (res.prover_backend == backend_t::cuda && res.gpus && *res.gpus == 0) {
      fail(c, r.get("gpus"), r.path("gpus"), "is 0 with prover_backend cuda");
    }
    if ((res.gpus || res.vram || r.has("prover_backend")) && !node.has(node_role_t::prover)) {
      fail(c, r.node(), m.path("resources"),
           "gives prover_backend/gpus/vram to a node without the prover role");
    }
  }
  if (holds_buffers && node.resources.memory_budget == 0) {
    fail(c, n, m.path("resources.memory_budget"),
         "missing (required for the synth and prover roles: e.g. 8GiB)");
  }
  if (m.has("hot_circuits")) {
    if (!node.has(node_role_t::prover))
      fail(c, m.get("hot_circuits"), m.path("hot_circuits"),
           "only a prover keeps proving keys resident");
    node.hot_circuits = as_names(c, m.get("hot_circuits"), m.path("hot_circuits"));
  }
  if (m.has("filecoin_params")) {  // circuit id → .params path; the ids are checked by the file
    const YAML::Node v = m.get("filecoin_params");
    const std::string p = m.path("filecoin_params");
    if (!node.has(node_role_t::prover)) fail(c, v, p, "only a prover maps Filecoin parameters");
    if (!v.IsMap() || v.size() == 0)
      fail(c, v, p, "is " + quoted(v) + "; expected a mapping of circuit id to .params path");
    for (auto it = v.begin(); it != v.end(); ++it) {
      const std::string id = as_string(c, it->first, p);
      const std::string key = join(p, id);
      for (const auto& [other, path] : node.filecoin_params)
        if (other == id) fail(c, it->first, key, "given twice");
      node.filecoin_params.push_back({id, resolve(c, as_string(c, it->second, key))});
    }
  }
  if (m.has("data_plane")) {
    map_t d(c, m.get("data_plane"), m.path("data_plane"), keys_of("node.data_plane"));
    auto& dp = node.data_plane;
    if (d.has("io_threads"))
      dp.io_threads = unsigned(as_uint(c, d.get("io_threads"), d.path("io_threads"), 1, 64));
    if (d.has("send_streams"))
      dp.send_streams = unsigned(as_uint(c, d.get("send_streams"), d.path("send_streams"), 1, 64));
    if (d.has("connect_timeout"))
      dp.connect_timeout = as_duration(c, d.get("connect_timeout"), d.path("connect_timeout"));
    if (d.has("io_timeout"))
      dp.io_timeout = as_duration(c, d.get("io_timeout"), d.path("io_timeout"));
    if (d.has("idle_timeout"))
      dp.idle_timeout = as_duration(c, d.get("idle_timeout"), d.path("idle_timeout"));
    if (d.has("frame_timeout"))
      dp.frame_timeout = as_duration(c, d.get("frame_timeout"), d.path("frame_timeout"));
    if (d.has("max_attempts"))
      dp.max_attempts = unsigned(as_uint(c, d.get("max_attempts"), d.path("max_attempts"), 1, 100));
    if (d.has("max_payload"))
      dp.max_payload = as_size(c, d.get("max_payload"), d.path("max_payload"));
  }
  return node;
}

namespace {

// Each mapping of the list under `key` of `m` (none when the key is absent), read with the keys
// of schema section `section`: f(entry, index).
template <class F>
void each_entry(const ctx_t& c, const map_t& m, const char* key, const char* section, F&& f) {
  if (!m.has(key)) return;
  const YAML::Node l = as_list(c, m.get(key), m.path(key), false);
  for (size_t i = 0; i < l.size(); ++i)
    f(map_t(c, l[i], index(m.path(key), i), keys_of(section)), i);
}

// A circuit's wires (simulation.circuits[].wires).
std::vector<sim_wire_t> read_sim_wires(const ctx_t& c, const map_t& e) {
  std::vector<sim_wire_t> out;
  each_entry(c, e, "wires", "simulation.circuits[].wires[]", [&](const map_t& w, size_t) {
    sim_wire_t wire;
    wire.name = as_string(c, w.need("name"), w.path("name"));
    wire.bytes = as_size(c, w.need("bytes"), w.path("bytes"));
    if (w.has("rebuild_seconds"))
      wire.rebuild_seconds = as_seconds(c, w.get("rebuild_seconds"), w.path("rebuild_seconds"));
    for (const auto& other : out)
      if (other.name == wire.name)
        fail(c, w.get("name"), w.path("name"), "\"" + wire.name + "\" is defined twice");
    out.push_back(wire);
  });
  return out;
}

}  // namespace

simulation_t read_simulation(const ctx_t& c, const YAML::Node& n) {
  map_t m(c, n, "simulation", keys_of("simulation"));
  simulation_t s;
  if (m.has("enabled")) s.enabled = as_bool(c, m.get("enabled"), m.path("enabled"));
  if (m.has("seed")) s.seed = as_uint(c, m.get("seed"), m.path("seed"), 0, UINT64_MAX);
  if (m.has("jitter")) s.jitter = as_fraction(c, m.get("jitter"), m.path("jitter"));
  each_entry(c, m, "circuits", "simulation.circuits[]", [&](const map_t& e, size_t) {
    sim_circuit_t ci;
    ci.id = as_string(c, e.need("id"), e.path("id"));
    ci.buffer_size = as_size(c, e.need("buffer_size"), e.path("buffer_size"));
    if (e.has("prover_work"))
      ci.prover_work = as_size(c, e.get("prover_work"), e.path("prover_work"), 0);
    // The synthesis time given, or from the partition's constraints and the measured rate.
    if (e.has("constraints") || e.has("synth_rate")) {
      if (e.has("synth_seconds"))
        fail(c, e.get("synth_seconds"), e.path("synth_seconds"),
             "give synth_seconds or constraints and synth_rate, not both");
      ci.constraints = as_uint(c, e.need("constraints"), e.path("constraints"), 1, UINT32_MAX);
      ci.synth_rate = as_uint(c, e.need("synth_rate"), e.path("synth_rate"), 1, UINT64_MAX);
      ci.synth_seconds = double(ci.constraints) / double(ci.synth_rate);
    } else {
      ci.synth_seconds = as_seconds(c, e.need("synth_seconds"), e.path("synth_seconds"));
    }
    ci.prove_seconds = as_seconds(c, e.need("prove_seconds"), e.path("prove_seconds"));
    ci.wires = read_sim_wires(c, e);
    for (const auto& other : s.circuits) {
      if (other.id == ci.id)
        fail(c, e.get("id"), e.path("id"), "\"" + ci.id + "\" is defined twice");
    }
    s.circuits.push_back(ci);
  });
  // `zkfleet simulate` runs the farm once per wire: every circuit that lists wires lists the same.
  const sim_circuit_t* first_wired = nullptr;
  for (size_t i = 0; i < s.circuits.size(); ++i) {
    const sim_circuit_t& ci = s.circuits[i];
    if (ci.wires.empty()) continue;
    if (!first_wired) {
      first_wired = &ci;
      continue;
    }
    auto names = [](const sim_circuit_t& x) {
      std::string out;
      for (const auto& w : x.wires) out += (out.empty() ? "" : ", ") + w.name;
      return out;
    };
    if (names(ci) != names(*first_wired))
      fail(c, m.get("circuits")[i], index(m.path("circuits"), i) + ".wires",
           "names the wires " + names(ci) + ", circuit \"" + first_wired->id + "\" names " +
               names(*first_wired) + ": every circuit with wires lists the same, in one order");
  }
  auto known_circuit = [&](const std::string& id) {
    for (const auto& ci : s.circuits) {
      if (ci.id == id) return true;
    }
    return false;
  };
  each_entry(c, m, "nodes", "simulation.nodes[]", [&](const map_t& e, size_t) {
    sim_node_group_t g;
    g.name_prefix = as_string(c, e.need("name_prefix"), e.path("name_prefix"));
    if (e.has("count")) g.count = unsigned(as_uint(c, e.get("count"), e.path("count"), 1, 100000));
    g.roles = as_roles(c, e.need("roles"), e.path("roles"));
    if (e.has("cores")) g.cores = unsigned(as_uint(c, e.get("cores"), e.path("cores"), 1, 4096));
    g.memory_budget = as_size(c, e.need("memory_budget"), e.path("memory_budget"));
    if (e.has("uplink_per_s"))
      g.uplink_per_s = as_size(c, e.get("uplink_per_s"), e.path("uplink_per_s"));
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
  });
  each_entry(c, m, "jobs", "simulation.jobs[]", [&](const map_t& e, size_t) {
    sim_jobs_t j;
    j.circuit = as_string(c, e.need("circuit"), e.path("circuit"));
    if (!known_circuit(j.circuit))
      fail(c, e.get("circuit"), e.path("circuit"),
           "\"" + j.circuit + "\" is not in simulation.circuits");
    if (e.has("count")) j.count = unsigned(as_uint(c, e.get("count"), e.path("count"), 1, 1000000));
    if (e.has("partitions"))
      j.partitions = unsigned(as_uint(c, e.get("partitions"), e.path("partitions"), 1, 1024));
    if (e.has("priority"))
      j.priority = as_enum(c, e.get("priority"), e.path("priority"), priority_choices);
    if (e.has("start_seconds"))
      j.start_seconds = as_seconds(c, e.get("start_seconds"), e.path("start_seconds"));
    if (e.has("every_seconds"))
      j.every_seconds = as_seconds(c, e.get("every_seconds"), e.path("every_seconds"));
    s.jobs.push_back(j);
  });
  if (s.enabled) {
    bool synth = false, prover = false;
    for (const auto& g : s.nodes) {
      for (auto r : g.roles)
        synth = synth || r == node_role_t::synth, prover = prover || r == node_role_t::prover;
    }
    if (!synth || !prover || s.jobs.empty()) {
      fail(c, n, "simulation", "is enabled but lacks synth nodes, prover nodes or jobs");
    }
  }
  return s;
}

}  // namespace zk::config::detail
