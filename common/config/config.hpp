#pragma once
// Node configuration: YAML → plain structs, read once and validated at start-up (docs/design.md
// "Configuration": this parser is the one place where each config key is read). Every key, its
// type and default is documented in configs/README.md.
//
// A file describes a cluster: the scheduler's endpoint and policy, the circuits registry, and its
// nodes, either as `node:` (one node: this process) or `nodes:` (a list; each process picks its
// entry by name: `zkfleet node --config farm.yaml --node gpu-1`, and `zkfleet up` starts them
// all). An optional `simulation:` section models a farm (never the default).
//
// Any wrong key, type or value stops the load with a config_error naming the file, line, column
// and the key path:
//   configs/x.yaml:12:20: node.resources.memory_budget: "8 GB" is not a size (use e.g. 8GiB)
//   configs/x.yaml:9:5: nodes[1].resources.memroy_budget: unknown key (known: cores, ...)
#include <chrono>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace zk::config {

struct config_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

enum class node_role_t { scheduler, synth, prover };
enum class backend_t { cpu, cuda, automatic };
enum class shape_t { abc_witness, witness_only, automatic };
// What a Filecoin circuit's partitions cross the data plane as (the circuit's `wire:`):
//   packed  the witness alone, packed (0/1 values as 2-bit codes): 86.7 MB for a 32 GiB
//           partition; the prover host rebuilds a, b, c from the circuit's structure (default)
//   full    a, b, c and the witness, 32 bytes each: 16.7 GB for a 32 GiB partition
//   auto    the scheduler picks packed or full per partition at dispatch, whichever its measured
//           link rate, synthesis seconds and prover rebuild seconds say is ready to prove sooner
//           (node/scheduler/wire_choice.hpp); filecoin-porep only
enum class wire_t : uint8_t { packed = 0, full = 1, automatic = 2 };
// Job priority, most urgent first (the scheduler orders by the value; it travels in messages).
enum class priority_t : uint8_t { critical = 0, high = 1, normal = 2, low = 3 };
// What a circuit is, decided once where its entry is read (`native:`, or none): every layer
// that treats the kinds differently tests this value, never a name. It travels in messages.
//   circom          a snarkjs .zkey (and .r1cs, witness generator); jobs bring a .wtns or
//   input.json porep_lite      zkfleet's own PoRep-like circuit (`native: porep-lite`); jobs bring
//   a seed filecoin_porep  Filecoin's StackedDrg circuit (`native: filecoin-porep`); jobs bring a
//   C1
//   filecoin_snap   Filecoin's SnapDeals update circuit (`native: filecoin-snap`); jobs bring a
//                   sector's update vanilla proofs and its three commitments
enum class circuit_kind_t : uint8_t {
  circom = 0,
  porep_lite = 1,
  filecoin_porep = 2,
  filecoin_snap = 3
};
// The kinds proven with bellperson parameters that each prover node maps itself
// (node.filecoin_params) and checked with a bellperson .vk: filecoin-porep and filecoin-snap.
constexpr bool uses_filecoin_params(circuit_kind_t k) {
  return k == circuit_kind_t::filecoin_porep || k == circuit_kind_t::filecoin_snap;
}
const char* node_role_name(node_role_t r);
const char* backend_name(backend_t b);
const char* shape_name(shape_t s);
const char* wire_name(wire_t w);
const char* priority_name(priority_t p);
// "circom", "porep-lite", "filecoin-porep", "filecoin-snap" (all but the first: the config's
// `native:` names).
const char* circuit_kind_name(circuit_kind_t k);
// "critical" | "high" | "normal" | "low", any case.
std::optional<priority_t> parse_priority(std::string_view s);

struct endpoint_t {
  std::string
      host;  // name or address; IPv6 written [::1]:7000 in the file, stored without brackets
  uint16_t port = 0;
  std::string str() const;
};

struct resources_t {
  std::optional<unsigned> cores;  // nullopt: auto (the machine's hardware threads)
  uint64_t memory_budget = 0;     // bytes for synth buffers (synth) / buffers + work (prover)
  backend_t prover_backend = backend_t::automatic;
  std::optional<unsigned> gpus;  // nullopt: auto (every visible GPU)
  std::optional<uint64_t> vram;  // bytes per GPU usable by the prover; nullopt: auto
};

struct data_plane_t {
  unsigned io_threads = 1;
  unsigned send_streams = 1;  // synth role: buffers sent at a time, each to a different prover
  std::chrono::milliseconds connect_timeout{5000};
  std::chrono::milliseconds io_timeout{10000};
  std::chrono::milliseconds idle_timeout{60000};
  std::chrono::milliseconds frame_timeout{30000};  // a frame's bound, plus its bytes at 16 MiB/s
  unsigned max_attempts = 4;
  uint64_t max_payload = uint64_t(64) << 30;
};

struct node_t {
  std::string name;
  std::vector<node_role_t> roles;
  std::optional<endpoint_t>
      control;  // listen.control: CAF middleman port (the scheduler's publish port)
  std::optional<endpoint_t> data;  // listen.data: the Asio data plane (synth and prover roles)
  resources_t resources;
  std::vector<std::string> hot_circuits;  // proving keys kept resident (prover role)
  // Prover role: the bellperson .params file of each filecoin-porep circuit this node proves
  // (circuit id → path, resolved against the config file's directory), mapped at start-up and kept
  // resident within resources.memory_budget. A prover proves a filecoin-porep circuit only with
  // its parameters here.
  std::vector<std::pair<std::string, std::string>> filecoin_params;
  data_plane_t data_plane;
  bool has(node_role_t r) const;
};

struct circuit_t {
  std::string id;
  // `native:` absent: circom. A native circuit (zkfleet's own C++ circuit): porep-lite
  // (synthesized by the synth nodes, keyed by the scheduler with a development setup cached in
  // key_dir) or filecoin-porep (Filecoin's StackedDrg circuit: jobs are C1 outputs, provers bring
  // the parameters in their node's filecoin_params).
  circuit_kind_t kind = circuit_kind_t::circom;
  // filecoin-porep: the RegisteredSealProof ("StackedDrg2KiBV1_1"); filecoin-snap: the
  // RegisteredUpdateProof ("StackedDrg2KiBV1")
  std::string registered_proof;
  std::string vk;  // filecoin-*: the bellperson .vk the scheduler checks proofs with
  // filecoin-porep: what its partitions cross the data plane as (filecoin-snap: full only)
  wire_t wire = wire_t::packed;
  // wire: auto: the data plane's bytes per second the scheduler assumes for the choice until it
  // has measured the circuit's transfers (0: 10 GbE's line rate)
  uint64_t link_per_s = 0;
  std::string params;   // native: the shape parameters ("curve=bn254,challenges=2,depth=16")
  std::string key_dir;  // native: where the key is made/reused; empty: the user's cache
  std::string
      zkey;  // circom: absolute (relative paths are resolved against the config file's directory)
  std::string r1cs;
  // argv of the witness generator, run without a shell; "{input}" and "{output}" are replaced by
  // the job's input.json and the .wtns to write. Empty: jobs bring a .wtns.
  std::vector<std::string> witness_generator;
  shape_t shape = shape_t::automatic;
  std::optional<priority_t>
      priority;  // jobs of this circuit that name none; else scheduler's default
};

struct lookahead_t {
  bool automatic = false;  // "auto": from measured synthesis, transfer and prove times
  unsigned value = 1;      // fixed lookahead, or where auto starts
  unsigned max = 8;        // auto's ceiling
};

struct scheduler_t {
  endpoint_t endpoint;  // where every node reaches the scheduler (control plane)
  lookahead_t lookahead;
  unsigned max_attempts = 3;  // a partition failing this often fails its job
  priority_t default_priority = priority_t::normal;
  // Where the scheduler node serves HTTP (docs/api.md: the job API, the dashboard, /healthz,
  // /readyz, /metrics); HTTPS with security.certs_dir.
  std::optional<endpoint_t> http;
  // Curio's cuzk API (docs/api.md "gRPC: Curio's cuzk API"). `grpc`: the plaintext listener
  // Curio dials, "unix:///PATH" (grpc_unix set) or HOST:PORT (grpc_tcp set; port 0: any free
  // port), "" for none: plaintext only on a unix socket or loopback unless grpc_insecure_networks
  // names the networks (CIDR) whose peers it takes. Its calls act as client `grpc_client`.
  // `grpc_tls`: a mutual-TLS listener for `zkfleet gateway` beside a remote Curio (needs
  // security.certs_dir): each connection's client certificate is whose jobs its calls make.
  std::string grpc;
  std::string grpc_unix;  // the socket's path
  std::optional<endpoint_t> grpc_tcp;
  std::string grpc_client = "curio";
  std::vector<std::string> grpc_insecure_networks;
  std::optional<endpoint_t> grpc_tls;
  // Limits on what one request may ask (docs/security.md): partitions (and inputs) per job,
  // jobs a client may have unfinished, how long a finished job is kept for status/await.
  uint32_t max_partitions = 1024;
  uint32_t max_queued_jobs = 1000;
  std::chrono::milliseconds retention{std::chrono::hours(1)};
  // Where job inputs given as paths may be (resolved, symlinks followed; relative entries against
  // the config file's directory). Empty: no job may name a file.
  std::vector<std::string> input_roots;
  // Durability (docs/durability.md): the journal of jobs and proofs (SQLite), by default
  // <config dir>/<config name>.state/journal.db; empty: none (`journal: off`, nothing survives a
  // restart). journal_sync: full (a proof reported done survives a power loss) or normal (it
  // survives a crash of the process; the last commits may be lost to a power loss).
  std::string journal;
  // Inputs uploaded through the HTTP API (node/scheduler/uploads.hpp), by default
  // <config dir>/<config name>.state/uploads; the largest one accepted.
  std::string uploads;
  uint64_t max_upload = uint64_t(1) << 30;
  bool journal_sync_full = true;
  // Liveness: CAF heartbeats between every process and the scheduler every `heartbeat`; a peer
  // silent for `node_timeout` is dropped (its partitions go elsewhere). A job no live node can
  // hold fails after `placement_timeout`; every partition's stage has a deadline of at least
  // `stage_timeout` (more when that circuit's stage has been measured slower).
  std::chrono::milliseconds heartbeat{std::chrono::seconds(2)};
  std::chrono::milliseconds node_timeout{std::chrono::seconds(10)};
  std::chrono::milliseconds placement_timeout{std::chrono::minutes(10)};
  std::chrono::milliseconds stage_timeout{std::chrono::minutes(2)};
};

// The `security` section: mutual TLS with the cluster's certificates, or an explicit opt-out
// that only loopback listeners may use.
struct security_t {
  std::string certs_dir;  // resolved against the config's directory; empty when insecure
  bool insecure = false;
  // `zkfleet up` may make development certificates in certs_dir (a CA when it has none, each
  // node's and client.admin's): only when the file says so, never for a certs_dir typo.
  bool dev_certs = false;
  bool tls() const { return !certs_dir.empty(); }
};

// SIMULATED WORKLOAD (issue 3 §8): modelled nodes, circuits and jobs; nothing is proven.
struct sim_node_group_t {
  std::string name_prefix;  // nodes are named <prefix>-1 .. <prefix>-<count>
  unsigned count = 1;
  std::vector<node_role_t> roles;
  unsigned cores = 1;
  uint64_t memory_budget = 0;
  uint64_t uplink_per_s = uint64_t(1) << 30;  // bytes per second out of each node
  std::vector<std::string> hot_circuits;
};
// One way a partition crosses the network (`zkfleet simulate` runs the farm once per wire).
struct sim_wire_t {
  std::string name;
  uint64_t bytes = 0;          // on the link per partition
  double rebuild_seconds = 0;  // the prover host's CPU time per partition before its proof (one
                               // core; a, b, c rebuilt from a packed witness), overlapping the GPU
};
struct sim_circuit_t {
  std::string id;
  uint64_t buffer_size = 0;  // reserved on the synthesis node, then on the prover
  uint64_t prover_work = 0;
  // synth_seconds given, or constraints / synth_rate (constraints per core-second, as measured).
  double synth_seconds = 1;
  double prove_seconds = 1;
  uint64_t constraints = 0, synth_rate = 0;  // 0: synth_seconds was given
  std::vector<sim_wire_t> wires;             // none: buffer_size bytes on the link, no rebuild
};
struct sim_jobs_t {
  std::string circuit;
  unsigned count = 1;
  unsigned partitions = 1;
  priority_t priority = priority_t::normal;
  double start_seconds = 0;
  double every_seconds = 0;
};
struct simulation_t {
  bool enabled = false;
  uint64_t seed = 1;
  double jitter = 0;  // relative spread of each partition's synthesis and proving time
  std::vector<sim_node_group_t> nodes;
  std::vector<sim_circuit_t> circuits;
  std::vector<sim_jobs_t> jobs;
};

// Whether the scheduler's plaintext gRPC listener is open past this host: a TCP listener on an
// address that is not loopback (scheduler.grpc_insecure_networks allowed it). `zkfleet config
// check` warns about it.
bool grpc_plaintext_open(const scheduler_t& s);

struct config_t {
  std::string source;        // the file it came from
  bool single_node = false;  // written as `node:` rather than `nodes:`
  scheduler_t scheduler;
  security_t security;
  std::vector<circuit_t> circuits;
  std::vector<node_t> nodes;
  simulation_t simulation;

  const node_t* find_node(const std::string& name) const;
  const circuit_t* find_circuit(const std::string& id) const;
};

struct load_options_t {
  bool check_files = true;  // circuits' zkey/r1cs must exist (off for files describing other hosts)
};

// The file's mappings and their keys ("node" stands for each entry of `nodes` too; "circuits.<id>"
// for each circuit; "[]" for each list entry). The parser accepts exactly these keys.
struct schema_section_t {
  std::string section;
  std::vector<std::string> keys;
};
const std::vector<schema_section_t>& schema();

// Reads and validates; throws config_error.
config_t load_config(const std::string& path, const load_options_t& options = {});
// The same from text: `source` names it in messages, relative paths resolve against base_dir.
config_t parse_config(const std::string& yaml, const std::string& source,
                      const std::string& base_dir, const load_options_t& options = {});

// The node this process runs: by name, or the only one when name is empty. Throws config_error.
const node_t& select_node(const config_t& config, const std::string& name);

// Bytes: a plain integer, or a number directly followed by B, KiB, MiB, GiB or TiB (4096,
// 512KiB, 1.5GiB). Decimal units (KB, GB) and spaces are refused as ambiguous.
std::optional<uint64_t> parse_size(const std::string& text);
// 250ms, 10s, 1.5s, 2m, 1h.
std::optional<std::chrono::milliseconds> parse_duration(const std::string& text);
std::optional<endpoint_t> parse_endpoint(const std::string& text);

}  // namespace zk::config
