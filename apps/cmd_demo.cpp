// zkfleet demo: the embedded cluster (actors/node.hpp) proves a Filecoin sector's C2 (2 KiB: the
// sector sealed here, zkfleet's development parameters made once and cached — NOT a ceremony —,
// its partition synthesized from the input intake cut from the C1 and proved with the parameters
// resident on the prover, the sector's proof checked by Filecoin's verify_seal as zkfleet
// implements it), porep-lite jobs (the native sealing-like circuit, abc+witness buffers) and the
// bundled circom fixtures (witness-only buffers), verifies every proof, and ends with a summary,
// the waterfall and the stats of the run's timeline. Options size the run (bench/pipeline drives
// it with them).
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "actors/node.hpp"
#include "apps/cmd_filecoin.hpp"
#include "apps/commands.hpp"
#include "common/timeline/render.hpp"
#include "node/filecoin_job.hpp"
#include "node/scheduler/uploads.hpp"
#include "node/verify_proof.hpp"
#include "zk/base/files.hpp"
#include "zk/bellperson/groth16/files.hpp"
#include "zk/circuit/api.hpp"
#include "zk/filecoin/api/c1.hpp"
#include "zk/filecoin/api/registry.hpp"
#include "zk/filecoin/api/seal.hpp"
#include "zk/filecoin/api/verify_seal.hpp"
#include "zk/filecoin/core/fr32.hpp"
#include "zk/formats/json.hpp"

#ifndef ZK_FIXTURES_DIR
#define ZK_FIXTURES_DIR "tests/fixtures"
#endif

namespace zk::apps {
namespace {

namespace fs = std::filesystem;
using namespace zk::actors;
using namespace zk::node;

struct demo_job_t {
  std::string circuit;
  uint32_t partitions;
  job_spec_t spec;
  std::string id;    // the scheduler's public id
  uint64_t seq = 0;  // its job number (as the waterfall names it)
};

struct demo_options_t {
  std::string fixtures = ZK_FIXTURES_DIR;
  bool circom = true;    // also prove the bundled circom fixtures
  bool filecoin = true;  // and a 2 KiB Filecoin sector's C2
  std::string porep_params = "curve=bn254,challenges=2,depth=16";
  unsigned porep_jobs = 1, porep_partitions = 10;  // Filecoin PoRep: 10 partitions per sector
  unsigned synth_nodes = 2;
  lookahead_t lookahead{false, 1, 8};
  std::string trace_path;
};

// The demo's Filecoin sector: sealed here (random ids and data), its C1 written where the job
// names it, the 2 KiB circuit described with the development parameters' verifying key.
struct demo_sector_t {
  cached_params_t params;
  circuit_def_t circuit;
  filecoin_porep_spec_t spec;
  filecoin::c1_output_t c1;
};

demo_sector_t prepare_sector(const fs::path& out) {
  const char* proof = "StackedDrg2KiBV1_1";
  demo_sector_t d;
  d.params = cached_dev_params(proof, 1);  // made once (minutes), then from the cache
  std::random_device rd;
  auto random32 = [&rd] {
    bytes32_t b;
    for (auto& x : b) x = uint8_t(rd());
    return b;
  };
  filecoin::seal_request_t req;
  req.config = filecoin::porep_config(filecoin::registered_proof(proof));
  req.prover_id = random32();
  req.sector = 1 + rd() % 100000;
  req.ticket = random32();
  req.ticket[31] &= 0x3f;
  req.seed = random32();
  req.piece = filecoin::random_piece(rd(), filecoin::fr32_unpadded_size(req.config.sector_size));
  const filecoin::seal_result_t sealed = filecoin::seal_sector(req);
  d.c1 = filecoin::c1_of(req, sealed);
  const fs::path c1_path = out / "sector-c1.json";
  write_file_atomic(c1_path.string(), filecoin::write_c1_json(d.c1));
  d.circuit = describe_filecoin_circuit("filecoin/c2-2kib", proof, d.params.vk);
  d.spec.prover_id = req.prover_id;
  d.spec.sector = req.sector;
  d.spec.c1 = input_file_t::at(c1_path.string());
  return d;
}

struct seal_check_t {
  bool accepted = false;
  std::string text;
};

// The sector's proof (its partitions' proofs in order) written beside the others and checked as
// Filecoin's verify_seal does (zk/filecoin/api/verify_seal.hpp): the public inputs derived from
// the sector's ids, the pairing checks with the parameters' verifying key.
seal_check_t check_sector_proof(const demo_sector_t& d, const job_result_msg& r,
                                const fs::path& out, uint64_t seq) {
  std::vector<std::pair<uint32_t, std::string>> texts;
  for (const auto& p : r.proofs) texts.push_back({p.partition, p.proof_json});
  const filecoin::porep_config_t pc = filecoin::porep_config(*d.c1.registered_proof);
  auto bytes = assemble_sector_proof(pc.partitions, texts);
  if (!bytes) return {false, "the sector's proof: " + bytes.error()};
  const fs::path file = out / ("job" + std::to_string(seq) + "-sector-proof.bin");
  write_file_atomic(file.string(),
                    std::string_view(reinterpret_cast<const char*>(bytes->data()), bytes->size()));
  const auto vk = bellperson::read_vk_file(d.params.vk).vk;
  const auto proofs = bellperson::decode_proofs(bytes->data(), bytes->size(), file.string());
  const auto v = filecoin::verify_seal(
      vk, proofs, pc, filecoin::sector_ids_of(d.c1, d.spec.prover_id, d.spec.sector));
  return {v.verdict.ok(), std::string("sector ") + std::to_string(d.spec.sector) + ": " +
                              std::to_string(bytes->size()) + "-byte proof " +
                              (v.verdict ? "accepted" : "REJECTED (" + v.verdict.reason() + ")") +
                              " by verify_seal (development parameters, seed 1)"};
}

// The embedded cluster: a scheduler, synthesis nodes, one prover node and the timeline
// aggregator in one actor_system, on porep-lite partitions (abc+witness) and the bundled circom
// fixtures (witness-only), every proof verified again here.
int run_cluster_demo(const demo_options_t& o) {
  const auto t_start = std::chrono::steady_clock::now();
  caf::actor_system_config cfg;
  add_message_types(cfg);
  cfg.set("scheduler.max-threads", 2);
  caf::actor_system sys{cfg};
  cluster_config_t cc;
  cc.synth_nodes = o.synth_nodes;
  cc.synth_budget = uint64_t(256) << 20;
  cc.prover_budget = uint64_t(512) << 20;
  cc.lookahead = o.lookahead;
  fs::path out = fs::temp_directory_path() / ("zkfleet-demo-" + std::to_string(::getpid()));
  fs::create_directories(out);

  // Circuits: porep-lite (native, abc+witness), and every fixture (circom, witness-only).
  std::vector<circuit_def_t> circuits;
  std::vector<demo_job_t> jobs;
  if (o.porep_jobs > 0) {
    circuits.push_back(describe_porep_lite_circuit(
        "porep-lite", o.porep_params, circuit::default_key_dir("porep-lite", o.porep_params)));
    for (unsigned k = 0; k < o.porep_jobs; ++k)
      jobs.push_back({"porep-lite", o.porep_partitions, {porep_lite_spec_t{2026 + k}}, "", 0});
  }
  if (o.circom) {
    if (!fs::is_directory(o.fixtures))
      throw std::runtime_error(o.fixtures + ": no such fixtures directory");
    std::vector<fs::path> dirs;
    for (const auto& curve : fs::directory_iterator(o.fixtures))
      if (curve.is_directory())
        for (const auto& c : fs::directory_iterator(curve.path()))
          if (fs::exists(c.path() / "circuit.zkey") && fs::exists(c.path() / "witness.wtns"))
            dirs.push_back(c.path());
    std::sort(dirs.begin(), dirs.end());
    if (dirs.empty())
      throw std::runtime_error(o.fixtures + ": no fixtures (circuit.zkey + witness.wtns) found");
    for (const auto& d : dirs) {
      std::string id = d.parent_path().filename().string() + "/" + d.filename().string();
      circuits.push_back(describe_zkey_circuit(id, (d / "circuit.zkey").string()));
      jobs.push_back({id,
                      2,
                      {circom_spec_t{{{circom_input_t::form_t::wtns,
                                       input_file_t::at((d / "witness.wtns").string())}}}},
                      "",
                      0});
    }
  }
  std::optional<demo_sector_t> sector;
  if (o.filecoin) {
    sector = prepare_sector(out);
    circuits.push_back(sector->circuit);
    jobs.push_back({sector->circuit.id, 1, {sector->spec}, "", 0});
    cc.store = std::make_shared<upload_store_t>((out / "store").string(), uint64_t(1) << 30);
    cc.prover_filecoin_params = {{sector->circuit.id, sector->params.params}};
    // The decoded parameters stay resident beside one partition's buffer and work arrays.
    const uint64_t one = sector->circuit.buffer_bytes + sector->circuit.prover_work_bytes;
    cc.synth_budget =
        std::max(cc.synth_budget, sector->circuit.buffer_bytes + (uint64_t(64) << 20));
    cc.prover_budget += fs::file_size(sector->params.params) + one;
  }
  if (jobs.empty())
    throw std::runtime_error("nothing to prove: --porep-jobs 0, --no-circom and --no-filecoin");
  cc.circuits = circuits;
  embedded_cluster_t cluster(sys, cc);

  std::string la = o.lookahead.automatic ? "auto" : std::to_string(o.lookahead.value);
  std::printf(
      "zkfleet demo: embedded cluster in one process: scheduler (lookahead %s), %u synthesis "
      "node%s, "
      "prover-0 (cpu%s), timeline\n\n",
      la.c_str(), o.synth_nodes, o.synth_nodes == 1 ? "" : "s",
      sector ? ", the 2 KiB parameters resident" : "");
  std::printf("%-20s %-14s %-13s %-9s %7s %8s %10s\n", "circuit", "kind", "buffer shape", "curve",
              "domain", "wires", "buffer");
  for (const auto& c : circuits) {
    std::printf("%-20s %-14s %-13s %-9s %5s%-2d %8llu %10s\n", c.id.c_str(),
                config::circuit_kind_name(c.kind),
                c.shape == buffer::synth_shape_t::witness_only     ? "witness-only"
                : c.shape == buffer::synth_shape_t::packed_witness ? "packed witness"
                                                                   : "abc+witness",
                curve_name(c.curve), "2^", __builtin_ctzll(c.domain_size),
                (unsigned long long)c.n_vars, buffer::format_bytes(c.buffer_bytes).c_str());
  }

  const auto t0 = std::chrono::steady_clock::now();
  for (auto& j : jobs) {
    auto id = ask<std::string>(
        sys, cluster.scheduler, std::chrono::seconds(60), submit_atom::value, cluster.admin,
        job_request_msg{j.circuit, priority_t::normal, j.partitions, j.spec});
    if (!id) throw std::runtime_error("submitting " + j.circuit + ": " + describe(id.error()));
    j.id = *id;
    auto st = ask<job_status_msg>(sys, cluster.scheduler, std::chrono::seconds(10),
                                  status_atom::value, cluster.admin, j.id);
    if (st) j.seq = st->seq;
  }
  std::printf("\n%-4s %-20s %5s %10s %10s %10s  %s\n", "job", "circuit", "parts", "synth ms",
              "prove ms", "verify ms", "proofs");
  size_t proofs = 0, valid = 0, failed_jobs = 0;
  for (const auto& j : jobs) {
    auto r = ask<job_result_msg>(sys, cluster.scheduler, std::chrono::minutes(5), await_atom::value,
                                 cluster.admin, j.id);
    if (!r) {
      ++failed_jobs;
      std::printf("%-4llu %-20s %5u  FAILED: %s\n", (unsigned long long)j.seq, j.circuit.c_str(),
                  j.partitions, describe(r.error()).c_str());
      continue;
    }
    const circuit_def_t& c = *std::find_if(circuits.begin(), circuits.end(),
                                           [&](const auto& x) { return x.id == j.circuit; });
    double syn = 0, prv = 0, ver = 0;
    size_t ok = 0;
    for (const auto& p : r->proofs) {
      syn += p.synth_seconds, prv += p.prove_seconds, ver += p.verify_seconds;
      const check_t v = verify_proof(c, p.proof_json, p.public_signals);
      ok += v.ok();
      if (!v)
        std::printf("  job %llu partition %u: INVALID (%s)\n", (unsigned long long)j.seq,
                    p.partition, v.reason().c_str());
      if (c.kind == circuit_kind_t::filecoin_porep) continue;  // the sector's proof, below
      std::string stem =
          (out / ("job" + std::to_string(j.seq) + "-p" + std::to_string(p.partition))).string();
      formats::write_proof_json(stem + "-proof.json",
                                formats::parse_proof_json(p.proof_json, "proof"));
      formats::write_public_json(stem + "-public.json", p.public_signals);
    }
    if (c.kind == circuit_kind_t::filecoin_porep && sector) {
      const auto seal = check_sector_proof(*sector, *r, out, j.seq);
      std::printf("     %s\n", seal.text.c_str());
      if (!seal.accepted) ok = 0;
    }
    const double n = double(std::max<size_t>(1, r->proofs.size()));
    proofs += r->proofs.size();
    valid += ok;
    std::printf("%-4llu %-20s %5u %10.2f %10.2f %10.2f  %zu/%zu verified\n",
                (unsigned long long)j.seq, j.circuit.c_str(), j.partitions, syn / n * 1e3,
                prv / n * 1e3, ver / n * 1e3, ok, r->proofs.size());
  }
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  auto usage = ask<std::vector<node_usage_msg>>(sys, cluster.scheduler, std::chrono::seconds(10),
                                                stats_atom::value, cluster.admin);
  auto flushed =
      ask<caf::ok_atom>(sys, cluster.aggregator, std::chrono::seconds(10), flush_atom::value);
  auto snap = ask<timeline_snapshot_msg>(sys, cluster.aggregator, std::chrono::seconds(10),
                                         snapshot_atom::value);
  cluster.stop();
  if (!flushed || !snap) throw std::runtime_error("the timeline aggregator did not answer");
  auto agg = to_aggregator(*snap);
  auto all = agg.events();
  timeline::backends_t backends;  // the legend says what the prover stages ran on
  if (usage)
    for (const auto& n : *usage)
      if (n.prover) backends[n.name] = n.backend;
  std::printf("\ntimeline:\n%s\n",
              timeline::render_ascii(all, agg.names(), terminal_width(), 0, backends).c_str());
  std::printf(
      "%s", timeline::render_stats(timeline::compute_stats(all, agg.names(), o.lookahead)).c_str());
  if (!o.trace_path.empty()) {
    agg.save(o.trace_path);
    std::printf(
        "events saved to %s (zkfleet timeline --format chrome %s > trace.json opens in Perfetto)\n",
        o.trace_path.c_str(), o.trace_path.c_str());
  }
  if (usage) {  // the scheduler's account: reserved before work starts, so never above budget
    std::printf("memory (peak reserved / budget):");
    bool over = false;
    for (const auto& n : *usage) {
      std::printf(" %s %s / %s;", n.name.c_str(), buffer::format_bytes(n.peak_reserved).c_str(),
                  buffer::format_bytes(n.budget).c_str());
      over = over || n.peak_reserved > n.budget;
    }
    std::printf(over ? " OVER BUDGET\n" : " within budget\n");
  }
  const double total =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t_start).count();
  std::printf(
      "\nsummary: %zu jobs, %zu proofs (%zu verified, %zu failed jobs), %.2f s from submit to last "
      "proof "
      "(%.2f s in all), %.1f proofs/min\nproofs and public signals written under %s\n",
      jobs.size(), proofs, valid, failed_jobs, wall, total, proofs / wall * 60.0,
      out.string().c_str());
  return valid == proofs && failed_jobs == 0 ? 0 : 1;
}

}  // namespace

// zkfleet demo [fixtures-dir] [--trace FILE] [--lookahead N|auto] [--synth-nodes N]
//              [--porep PARAMS] [--porep-jobs N] [--partitions N] [--no-circom] [--no-filecoin]
void add_demo_command(CLI::App& root, commands_t& out) {
  CLI::App* app =
      add_command(root, "demo",
                  "The embedded cluster (scheduler, synthesizers, a prover, the timeline in one "
                  "process) proves and verifies a 2 KiB Filecoin C2, porep-lite and the bundled "
                  "circom fixtures");
  const opt_t fixtures =
      add_positional(app, "fixtures-dir", "the circom fixtures (default: the bundled ones)", false);
  const opt_t trace =
      add_value(app, "--trace", "FILE", "save the run's events (for zkfleet timeline)");
  const opt_t lookahead =
      add_value(app, "--lookahead", "N|auto",
                "partitions synthesized ahead per prover (0-64, auto; default 1)");
  const opt_t synth_nodes =
      add_value(app, "--synth-nodes", "N", "synthesis nodes (1-64, default 2)");
  const opt_t porep = add_value(app, "--porep", "PARAMS",
                                "porep-lite's shape (default curve=bn254,challenges=2,depth=16)");
  const opt_t porep_jobs =
      add_value(app, "--porep-jobs", "N", "porep-lite jobs (0-1000, default 1)");
  const opt_t partitions =
      add_value(app, "--partitions", "N", "partitions per porep-lite job (1-10000, default 10)");
  const opt_t no_circom = add_flag(app, "--no-circom", "skip the circom fixtures");
  const opt_t no_filecoin = add_flag(app, "--no-filecoin",
                                     "skip the 2 KiB Filecoin C2 (its development parameters take "
                                     "minutes to make the first time)");
  command_t c;
  c.app = app;
  c.takes = "demo takes at most one argument: the fixtures directory";
  c.run = [=] {
    demo_options_t o;
    auto count = [&](const opt_t& x, const char* name, unsigned def, unsigned lo, unsigned hi) {
      return x.given() ? unsigned(parse_uint_arg(name, x.one(), lo, hi)) : def;
    };
    o.trace_path = trace.one();
    o.circom = !no_circom.given();
    o.filecoin = !no_filecoin.given();
    o.porep_params = porep.one(o.porep_params);
    o.porep_jobs = count(porep_jobs, "--porep-jobs", o.porep_jobs, 0, 1000);
    o.porep_partitions = count(partitions, "--partitions", o.porep_partitions, 1, 10000);
    o.synth_nodes = count(synth_nodes, "--synth-nodes", o.synth_nodes, 1, 64);
    if (lookahead.one() == "auto")
      o.lookahead.automatic = true;
    else
      o.lookahead.value = count(lookahead, "--lookahead", o.lookahead.value, 0, 64);
    if (fixtures.given()) o.fixtures = fixtures.one();
    return run_cluster_demo(o);
  };
  out.push_back(std::move(c));
}

}  // namespace zk::apps
