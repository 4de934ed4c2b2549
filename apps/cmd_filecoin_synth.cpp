// zkfleet filecoin synthesize: one partition of a C1 synthesized as a synthesis node does, with
// its figures (docs/filecoin.md §15):
//
//   zkfleet filecoin synthesize --c1 FILE --prover-id HEX --sector N --partition K [--check]
//       [--json] [--witness-only]
//
// The partition's input is cut from the C1 as intake cuts it (partition_input_from_c1: the
// witness of vanilla_proofs[K] and the challenges derived for the sector), read back as a
// synthesis node reads the stored object, and synthesized:
//   default         node/synth/filecoin_synth.hpp synthesize_porep_payload into a payload of
//                   today's buffer (a, b, c of every constraint and the witness): 16.7 GB at
//                   32 GiB
//   --witness-only  the witness only (filecoin::synthesize_partition_witness): a, b, c in a window
//                   of one challenge per compute thread, checked there and dropped — a 32 GiB
//                   partition in ~5 GB
// `seconds` is wall time, `constraints_per_s_per_core` constraints / seconds / cores;
// `cpu_seconds` and `constraints_per_cpu_s` the same from the process's CPU time over the
// synthesis (on a shared machine the wall time counts other processes' turns).
// The vanilla proofs are not checked (`filecoin check-c1` does; intake did before a node sees a
// partition): with --check, a C1 whose proofs do not fit the circuit reports `satisfied: false`
// and the first failing constraint, and the exit status is 1.
#include <chrono>
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "apps/cmd_filecoin.hpp"
#include "apps/commands.hpp"
#include "common/buffer/synth_buffer.hpp"
#include "node/filecoin_job.hpp"
#include "node/synth/filecoin_synth.hpp"
#include "zk/base/error.hpp"
#include "zk/base/hex.hpp"
#include "zk/base/process.hpp"
#include "zk/base/thread_pool.hpp"
#include "zk/filecoin/api/c1.hpp"
#include "zk/filecoin/api/partition_input.hpp"
#include "zk/filecoin/api/registry.hpp"
#include "zk/filecoin/porep/circuit/circuit.hpp"

namespace zk::apps {
namespace {

namespace fc = zk::filecoin;
using ojson_t = nlohmann::ordered_json;
using steady_clock_t = std::chrono::steady_clock;

double since(steady_clock_t::time_point t) {
  return std::chrono::duration<double>(steady_clock_t::now() - t).count();
}

struct synth_args_t {
  opt_t c1, prover_id, sector, partition, check, json, witness_only;
};

int refuse(const std::string& why) {
  std::printf("REFUSED: %s\n", why.c_str());
  return 1;
}

int run_synthesize(const synth_args_t& a) {
  const std::pair<const opt_t*, const char*> required[] = {{&a.c1, "--c1 FILE"},
                                                           {&a.prover_id, "--prover-id HEX"},
                                                           {&a.sector, "--sector N"},
                                                           {&a.partition, "--partition K"}};
  for (const auto& [o, what] : required)
    if (!o->given()) throw usage_error(std::string(what) + " is required");
  const zk::bytes32_t prover_id = zk::parse_hex32(a.prover_id.one(), "--prover-id");
  const uint64_t sector = parse_uint_arg("--sector", a.sector.one());
  const uint32_t k = uint32_t(parse_uint_arg("--partition", a.partition.one(), 0, 1u << 20));
  const bool check = a.check.given(), witness_only = a.witness_only.given();

  auto t = steady_clock_t::now();
  fc::c1_read_t read;
  try {
    read = fc::read_c1_file(a.c1.one());
  } catch (const zk::format_error& e) {
    return refuse(e.what());
  }
  const fc::c1_output_t& c1 = read.c1;
  const fc::porep_config_t pc = fc::porep_config(*c1.registered_proof);
  if (k >= c1.vanilla_proofs.size())
    return refuse("--partition " + std::to_string(k) + ": " + a.c1.one() + " has " +
                  std::to_string(c1.vanilla_proofs.size()) + " partition" +
                  (c1.vanilla_proofs.size() == 1 ? "" : "s"));
  // The partition's input as intake cuts it and a synthesis node reads it.
  const std::string name = a.c1.one() + " partition " + std::to_string(k);
  std::vector<uint8_t> input;
  try {
    input = fc::partition_input_from_c1(pc, fc::graph_t(pc), c1,
                                        fc::sector_ids_of(c1, prover_id, sector), k);
  } catch (const std::invalid_argument& e) {
    return refuse(name + ": " + e.what());
  }
  const double c1_seconds = since(t);

  const fc::circuit_config_t cc = fc::circuit_config(pc);
  const fc::circuit_layout_t& layout = fc::circuit_layout(cc);
  const uint64_t n_vars = uint64_t(layout.total.inputs) + layout.total.aux;
  const uint64_t rows = uint64_t(layout.total.constraints) + layout.total.inputs;
  const uint64_t payload =
      buffer::payload_bytes_for(n_vars, rows, buffer::synth_shape_t::abc_witness);

  ojson_t out;
  out["registered_proof"] = std::string(pc.proof->name);
  out["partition"] = k;
  out["mode"] = witness_only ? "witness-only" : "full";
  out["constraints"] = layout.total.constraints;
  out["inputs"] = layout.total.inputs;
  out["aux"] = layout.total.aux;
  std::optional<fc::unsatisfied_t> bad;
  double seconds = 0, shape_seconds = 0, cpu = 0;
  if (witness_only) {
    t = steady_clock_t::now();
    cpu = zk::cpu_seconds();
    const fc::partition_input_t in = fc::read_partition_input(pc, input.data(), input.size(), name);
    std::vector<fc::fr_t> inputs(layout.total.inputs), aux(layout.total.aux);
    bad = fc::synthesize_partition_witness(cc, in.witness, inputs.data(), aux.data(), check);
    const std::vector<fc::fr_t> derived = fc::public_inputs_of(in);
    if (derived.size() + 1 != inputs.size())
      return refuse(name + ": the circuit has " + std::to_string(inputs.size()) +
                    " inputs, the partition's input derives " + std::to_string(derived.size()) +
                    " public inputs");
    for (size_t i = 0; i < derived.size(); ++i)
      if (!(inputs[i + 1] == derived[i]))
        return refuse(name + ": public input " + std::to_string(i) +
                      " of the synthesized circuit is not the one derived for the sector");
    seconds = since(t);
    cpu = zk::cpu_seconds() - cpu;
    // What the witness is made of, for choosing a wire (issue 35): values that are 0 or 1 could
    // travel as bits, the others need their 32 bytes. Counted by value, so an upper bound on what
    // the circuit allocates as booleans.
    uint64_t zeros = 0, ones = 0;
    for (const fc::fr_t& v : aux) zeros += v.is_zero(), ones += v.is_one();
    out["aux_zero_values"] = zeros;
    out["aux_one_values"] = ones;
    out["aux_other_values"] = aux.size() - zeros - ones;
    // The witness with its 0/1 values as bits (a bitmap of which are which, one bit a value, plus
    // the bits) and the others in full.
    out["packed_witness_bytes"] = (aux.size() + 7) / 8 + (zeros + ones + 7) / 8 +
                                  (aux.size() - zeros - ones + inputs.size()) * sizeof(fc::fr_t);
  } else {
    // As a synthesis node: the circuit's description (its shape's counts and digest, once per
    // process on a node), then the partition into a payload of today's buffer.
    t = steady_clock_t::now();
    const node::circuit_def_t def = node::filecoin_circuit("filecoin", std::string(pc.proof->name));
    shape_seconds = since(t);
    t = steady_clock_t::now();
    cpu = zk::cpu_seconds();
    std::unique_ptr<uint8_t[]> buf(new uint8_t[payload]);  // not zeroed: the synthesis writes it
    node::porep_input_ref_t ref;
    ref.name = name;
    ref.bytes = &input;
    try {
      bad = node::synthesize_porep_payload(def, ref, 0, k, buf.get(), check).unsatisfied;
    } catch (const node::bad_input_error& e) {
      return refuse(e.what());
    }
    seconds = since(t);
    cpu = zk::cpu_seconds() - cpu;
  }
  const unsigned cores = compute_threads();
  out["seconds"] = seconds;
  out["cores"] = cores;
  out["constraints_per_s_per_core"] = double(layout.total.constraints) / seconds / cores;
  // The same from the CPU time the synthesis used (all threads): what a core does when it is not
  // shared, the steadier figure on a loaded machine.
  out["cpu_seconds"] = cpu;
  out["constraints_per_cpu_s"] = double(layout.total.constraints) / cpu;
  out["peak_rss_bytes"] = zk::peak_rss_bytes();
  out["buffer_bytes"] = payload;
  out["wire_bytes"] = payload + buffer::synth_header_size;
  out["partition_input_bytes"] = input.size();
  out["c1_read_seconds"] = c1_seconds;
  if (!witness_only) out["shape_seconds"] = shape_seconds;
  if (check) {
    out["satisfied"] = !bad;
    if (bad) out["unsatisfied"] = {{"constraint", bad->constraint}, {"where", bad->where}};
  }
  if (a.json.given()) {
    std::printf("%s\n", out.dump(2).c_str());
  } else {
    for (const auto& [key, v] : out.items())
      std::printf("%-27s %s\n", (key + ":").c_str(),
                  v.is_string() ? v.get<std::string>().c_str() : v.dump().c_str());
  }
  return bad ? 1 : 0;
}

}  // namespace

filecoin_sub_t add_filecoin_synthesize(CLI::App* group) {
  CLI::App* app = add_command(
      *group, "synthesize",
      "synthesize one partition of a C1 as a synthesis node does and report its figures "
      "(constraints, seconds, constraints/s per core, peak RSS, buffer and wire bytes)");
  auto a = std::make_shared<synth_args_t>();
  a->c1 = add_value(app, "--c1", "FILE",
                    "the C1 output (the API's JSON or the lotus-bench / curio wrapper)");
  a->prover_id = add_value(app, "--prover-id", "HEX", "the prover id (32 bytes)");
  a->sector = add_value(app, "--sector", "N", "the sector number");
  a->partition = add_value(app, "--partition", "K", "the partition to synthesize");
  a->check = add_flag(app, "--check", "check every constraint (reports satisfied)");
  a->json = add_flag(app, "--json", "print the figures as JSON");
  a->witness_only =
      add_flag(app, "--witness-only",
               "keep the witness only: a, b, c one challenge at a time per thread (a 32 GiB "
               "partition in ~5 GB instead of today's 16.7 GB buffer)");
  app->footer(
      "Exit status: 0 synthesized (with --check: every constraint satisfied); 1 refused, bad "
      "input or a constraint not satisfied (named); 2 usage error. The vanilla proofs are not "
      "checked here: zkfleet filecoin check-c1 does.");
  return {app, [a] { return run_synthesize(*a); }, "filecoin synthesize takes options only"};
}

}  // namespace zk::apps
