// zkfleet filecoin synthesize: one partition of a C1 synthesized as a synthesis node does, with
// its figures (docs/filecoin.md §15):
//
//   zkfleet filecoin synthesize --c1 FILE --prover-id HEX --sector N --partition K [--check]
//       [--json] [--witness-only | --wire full|packed]
//
// The partition's input is cut from the C1 as intake cuts it (partition_input_from_c1: the
// witness of vanilla_proofs[K] and the challenges derived for the sector), read back as a
// synthesis node reads the stored object, and synthesized:
//   default         (--wire full) node/synth/filecoin_synth.hpp synthesize_porep_payload into a
//                   payload of the full buffer (a, b, c of every constraint and the witness):
//                   16.7 GB at 32 GiB
//   --wire packed   as a synthesis node on the packed wire (synthesize_porep_packed's way: the
//                   witness streamed a challenge at a time into a packed witness, ~0.6 GB at
//                   32 GiB), then as the prover host: the packed witness checked and read into bit
//                   sets, a, b, c rebuilt from the circuit's structure into work arrays of the
//                   prover's size (12.5 GB at 32 GiB; with --check every rebuilt row checked, timed
//                   apart) and the MSM plan made from the packed witness's classes, beside the
//                   full wire's work for the same (load_abc's copy into the same arrays, the plan
//                   from the unpacked values) and the unpack an accelerator's scalars stand in
//                   for. Reports packed_bytes, structure_seconds/bytes, rebuild_cpu_seconds,
//                   plan_cpu_seconds, full_wire_load_cpu_seconds, full_wire_plan_cpu_seconds,
//                   unpack_cpu_seconds and prover_extra_cpu_seconds (the packed wire's prover
//                   work less the full wire's, reception not counted)
//   --witness-only  the witness only (filecoin::synthesize_partition_witness: streamed, each
//                   constraint checked as made), with what it is made of (0s, 1s, others) and
//                   the size it packs to
// `seconds` is wall time, `constraints_per_s_per_core` constraints / seconds / cores;
// `cpu_seconds` and `constraints_per_cpu_s` the same from the process's CPU time over the
// synthesis (on a shared machine the wall time counts other processes' turns).
// The vanilla proofs are not checked (`filecoin check-c1` does; intake did before a node sees a
// partition): with --check, a C1 whose proofs do not fit the circuit reports `satisfied: false`
// and the first failing constraint, and the exit status is 1.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
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
#include "zk/formats/packed_witness.hpp"
#include "zk/msm/msm.hpp"

namespace zk::apps {
namespace {

namespace fc = zk::filecoin;
using ojson_t = nlohmann::ordered_json;
using steady_clock_t = std::chrono::steady_clock;

double since(steady_clock_t::time_point t) {
  return std::chrono::duration<double>(steady_clock_t::now() - t).count();
}

struct synth_args_t {
  opt_t c1, prover_id, sector, partition, check, json, witness_only, wire;
};

int refuse(const std::string& why) {
  std::printf("REFUSED: %s\n", why.c_str());
  return 1;
}

int run_synthesize(const synth_args_t& a) {
  require_options({{&a.c1, "--c1 FILE"},
                   {&a.prover_id, "--prover-id HEX"},
                   {&a.sector, "--sector N"},
                   {&a.partition, "--partition K"}});
  const zk::bytes32_t prover_id = zk::parse_hex32(a.prover_id.one(), "--prover-id");
  const uint64_t sector = parse_uint_arg("--sector", a.sector.one());
  const uint32_t k = uint32_t(parse_uint_arg("--partition", a.partition.one(), 0, 1u << 20));
  const bool check = a.check.given(), witness_only = a.witness_only.given();
  const std::string wire = a.wire.given() ? a.wire.one() : "full";
  if (wire != "full" && wire != "packed")
    throw usage_error("--wire " + wire + ": expected full or packed");
  const bool packed = wire == "packed";
  if (packed && witness_only)
    throw usage_error("--wire packed and --witness-only exclude each other");

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
  out["mode"] = witness_only ? "witness-only" : packed ? "packed" : "full";
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
    // The witness packed as the packed wire ships it (zk/formats/packed_witness.hpp).
    uint64_t other_inputs = 0;
    for (const fc::fr_t& v : inputs) other_inputs += !v.is_zero() && !v.is_one();
    out["packed_witness_bytes"] =
        formats::packed_witness_bytes(n_vars, aux.size() - zeros - ones + other_inputs);
  } else if (packed) {
    // As a synthesis node on the packed wire: the witness streamed a challenge at a time into the
    // packer (constraints checked as made), never a, b, c; then as the prover host: the packed
    // witness checked and unpacked, a, b, c rebuilt from the circuit's structure — a challenge
    // at a time into one window per thread here (the prover writes them into its work arrays).
    t = steady_clock_t::now();
    cpu = zk::cpu_seconds();
    const fc::partition_input_t in = fc::read_partition_input(pc, input.data(), input.size(), name);
    std::vector<fc::fr_t> inputs(layout.total.inputs);
    formats::witness_packer_t packer(n_vars);
    bad = fc::synthesize_partition_streamed(
        cc, in.witness, inputs.data(), check, [&](uint32_t first, const fc::fr_t* v, uint32_t n) {
          packer.put(uint64_t(layout.total.inputs) + first, v, n);
        });
    packer.put(0, inputs.data(), inputs.size());
    const std::vector<uint8_t> wire_bytes = packer.finish();
    seconds = since(t);
    cpu = zk::cpu_seconds() - cpu;
    out["packed_bytes"] = wire_bytes.size();
    out["synthesis_peak_rss_bytes"] = zk::peak_rss_bytes();

    t = steady_clock_t::now();
    const auto program = fc::circuit_program(cc);
    out["structure_seconds"] = since(t);
    out["structure_bytes"] = program->bytes_kept();

    // As the prover host: the packed witness checked and read into bit sets, then a, b, c rebuilt
    // into work arrays of the prover's size (every row of the circuit and its input
    // constraints). The arrays are touched before the clock starts: every wire fills the
    // prover's work arrays (the full one by load_abc's copy), so their first touch is not this
    // wire's cost. The rebuild is timed by the process's CPU time over exactly its work (the
    // check of its rows, with --check, is timed apart: a prover does not check).
    const uint64_t rows = uint64_t(layout.total.constraints) + layout.total.inputs;
    std::unique_ptr<fc::fr_t[]> work(new fc::fr_t[3 * rows]);  // not zeroed: touched below
    bellperson::assignment_view_t view;
    view.a = work.get(), view.b = work.get() + rows, view.c = work.get() + 2 * rows;
    parallel_for(3 * rows, [&](size_t lo, size_t hi) {
      std::memset(static_cast<void*>(work.get() + lo), 0, (hi - lo) * sizeof(fc::fr_t));
    });
    t = steady_clock_t::now();
    double rcpu = zk::cpu_seconds();
    formats::check_packed_witness(wire_bytes.data(), wire_bytes.size(), fc::fr_t::modulus.l, name);
    const formats::witness_bits_t bits = formats::witness_bits(wire_bytes.data());
    out["rebuild_bits_seconds"] = since(t);
    const auto te = steady_clock_t::now();
    program->eval(bits, view);
    out["rebuild_eval_seconds"] = since(te);
    out["rebuild_seconds"] = since(t);
    // The packed witness checked and read into bit sets plus the evaluation of every row: the
    // prover host's work for a, b, c on this wire.
    out["rebuild_cpu_seconds"] = zk::cpu_seconds() - rcpu;
    if (check) {
      const double ccpu = zk::cpu_seconds();
      std::atomic<uint64_t> first_bad{UINT64_MAX};
      parallel_for(rows, [&](size_t lo, size_t hi) {
        for (size_t i = lo; i < hi; ++i)
          if (!(view.a[i] * view.b[i] == view.c[i])) {
            uint64_t cur = first_bad.load();
            while (i < cur && !first_bad.compare_exchange_weak(cur, i)) {
            }
            return;
          }
      });
      out["rebuilt_rows_satisfied"] = first_bad.load() == UINT64_MAX;
      out["rebuilt_check_cpu_seconds"] = zk::cpu_seconds() - ccpu;
    }
    // What the full wire's prover does instead for a, b, c: load_abc copies them from the
    // received buffer into the same work arrays (12.5 GB at 32 GiB; here from a 1 GiB source
    // read over and over, larger than the caches, so it fits beside the arrays).
    {
      const size_t chunk = std::min<size_t>(3 * rows, (size_t(1) << 30) / sizeof(fc::fr_t));
      std::unique_ptr<fc::fr_t[]> src(new fc::fr_t[chunk]);
      parallel_for(chunk, [&](size_t lo, size_t hi) {
        for (size_t i = lo; i < hi; ++i) src[i] = work[i];
      });
      const double lcpu = zk::cpu_seconds();
      for (size_t at = 0; at < 3 * rows; at += chunk) {
        const size_t n = std::min(chunk, 3 * rows - at);
        parallel_for(n, [&](size_t lo, size_t hi) {
          std::memcpy(static_cast<void*>(work.get() + at + lo), src.get() + lo,
                      (hi - lo) * sizeof(fc::fr_t));
        });
      }
      out["full_wire_load_cpu_seconds"] = zk::cpu_seconds() - lcpu;
    }
    // The witness as the MSMs read it. A CPU prover reads the packed witness's classes in place
    // (msm::make_plan of classed scalars: its bit sets scanned, the other values listed); the
    // full wire's prover plans the same MSM from the 32-byte values, scanning all of them. An
    // accelerator's MSMs read 32-byte values, which a GPU host writes from the classes: the
    // unpack into fresh memory, timed here, bounds that.
    work.reset();
    {
      const double pcpu = zk::cpu_seconds();
      const msm::plan_t plan = msm::make_plan(bits.classes(), fc::fr_t::bits);
      out["plan_cpu_seconds"] = zk::cpu_seconds() - pcpu;
      const auto tu = steady_clock_t::now();
      const double ucpu = zk::cpu_seconds();
      std::unique_ptr<uint8_t[]> w(new uint8_t[32 * n_vars]);  // not zeroed: unpack writes it all
      formats::unpack_witness(wire_bytes.data(), w.get());
      out["unpack_seconds"] = since(tu);
      out["unpack_cpu_seconds"] = zk::cpu_seconds() - ucpu;
      const double fcpu = zk::cpu_seconds();
      const msm::plan_t full_plan = msm::make_plan(w.get(), n_vars, fc::fr_t::bits);
      out["full_wire_plan_cpu_seconds"] = zk::cpu_seconds() - fcpu;
      if (full_plan.idx != plan.idx || full_plan.ones != plan.ones ||
          full_plan.digits != plan.digits)
        return refuse(name + ": the packed witness's MSM plan is not the unpacked witness's");
      // The prover host's work this wire adds for a CPU prover: a, b, c rebuilt and the witness
      // planned from its classes, less what the full wire's prover does for the same (a, b, c
      // copied into the work arrays, the witness planned from its values). Receiving the full
      // wire's 16.7 GB is not counted here.
      out["prover_extra_cpu_seconds"] = out["rebuild_cpu_seconds"].get<double>() +
                                        out["plan_cpu_seconds"].get<double>() -
                                        out["full_wire_load_cpu_seconds"].get<double>() -
                                        out["full_wire_plan_cpu_seconds"].get<double>();
    }
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
  out["wire_bytes"] =
      (packed ? out["packed_bytes"].get<uint64_t>() : payload) + buffer::synth_header_size;
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
               "keep the witness only, each constraint checked as made (a 32 GiB partition in "
               "~4.5 GB instead of the full buffer's 16.7 GB)");
  a->wire =
      add_value(app, "--wire", "full|packed",
                "full (default): today's buffer, a, b, c and the witness; packed: the "
                "witness packed (0/1 values as 2-bit codes), then a, b, c rebuilt from it "
                "as a prover host does, beside the full wire's prover work (reports packed_bytes, "
                "rebuild_cpu_seconds, prover_extra_cpu_seconds)");
  app->footer(
      "Exit status: 0 synthesized (with --check: every constraint satisfied); 1 refused, bad "
      "input or a constraint not satisfied (named); 2 usage error. The vanilla proofs are not "
      "checked here: zkfleet filecoin check-c1 does.");
  return {app, [a] { return run_synthesize(*a); }, "filecoin synthesize takes options only"};
}

}  // namespace zk::apps
