// zkfleet filecoin prove: C2, a sector's PoRep proof from its C1 output
// (zk/filecoin/api/c2.hpp, docs/filecoin.md §13); prove-update: a SnapDeals update's proof from
// its vanilla proofs (zk/filecoin/api/prove_update.hpp, docs/filecoin.md "SnapDeals").
//
//   zkfleet filecoin prove --c1 FILE --params FILE --prover-id HEX --sector N --out FILE
//       [--vk FILE] [--partition K] [--backend cpu|cuda|auto] [--no-split] [--timings]
//   zkfleet filecoin prove-update --registered-update-proof NAME --vanilla FILE --comm-r-old HEX
//       --comm-r-new HEX --comm-d-new HEX --params FILE --out FILE [--backend cpu|cuda|auto]
//       [--timings]
//   zkfleet filecoin setup (--registered-proof NAME | --registered-update-proof NAME) --out DIR
//       [--seed N] [--vk-only]
//
// setup writes development parameters (zk/filecoin/api/dev_params.hpp; NOT a ceremony), cached in
// ${ZK_CACHE_DIR:-~/.cache/zkfleet}/filecoin-params/dev-<circuit hash>-seed<N>/ and linked
// (or copied) into DIR.
//
// prove refuses (exit 1, nothing written) a C1 whose replica_id is not the prover's and sector's,
// whose vanilla proofs fail a check, whose assignment leaves a constraint unsatisfied, or whose
// proof does not verify with the params' verifying key (and --vk). --out gets the raw proof bytes:
// 192 a partition, partition 0 first (or the one --partition names). prove-update refuses the
// same way, naming the partition and the check: vanilla proofs that fail filecoin-proofs' vanilla
// verifier for the commitments, a constraint, a partition's proof, or the sector's proof as
// verify-update checks it with the params' verifying key.
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "apps/backend.hpp"
#include "apps/cmd_filecoin.hpp"
#include "zk/base/error.hpp"
#include "zk/base/files.hpp"
#include "zk/base/hex.hpp"
#include "zk/base/thread_pool.hpp"
#include "zk/filecoin/api/c1.hpp"
#include "zk/filecoin/api/c2.hpp"
#include "zk/filecoin/api/check_c1.hpp"
#include "zk/filecoin/api/dev_params.hpp"
#include "zk/filecoin/api/prove_update.hpp"
#include "zk/filecoin/api/prover_id.hpp"
#include "zk/filecoin/api/registry.hpp"
#include "zk/filecoin/api/verify_seal.hpp"
#include "zk/filecoin/api/verify_update.hpp"
#include "zk/filecoin/porep/circuit/public_inputs.hpp"
#include "zk/filecoin/porep/vanilla/graph.hpp"
#include "zk/filecoin/update/circuit.hpp"
#include "zk/filecoin/update/vanilla.hpp"
#include "zk/filecoin/update/vanilla_proof.hpp"

namespace zk::apps {
namespace {

namespace fc = zk::filecoin;

// --params, --out, --backend, --timings: what prove and prove-update both take.
struct prover_opts_t {
  opt_t params, out, backend, timings;

  void declare(CLI::App* app, const std::string& circuit) {
    params = add_value(app, "--params", "FILE",
                       "bellperson parameters of " + circuit + " (.params; mapped)");
    out = add_value(app, "--out", "FILE",
                    "where the proof goes: 192 bytes a partition, partition 0 first");
    backend = add_value(app, "--backend", "cpu|cuda|auto", "where the MSMs run (default cpu)");
    timings = add_flag(app, "--timings", "print each prover stage's time on stderr");
  }
};

struct prove_args_t {
  prover_opts_t prover;
  opt_t c1, prover_id, sector, vk, partition, no_split;
};

int refuse(const std::string& why) {
  std::printf("REFUSED: %s (nothing written)\n", why.c_str());
  return 1;
}

// --timings' lines (stderr).
void print_stage(const groth16::stage_span_t& s) {
  std::fprintf(stderr, "  %-10s %9.3f s  %s\n", groth16::stage_name(s.stage),
               double(s.end_ns - s.begin_ns) * 1e-9, groth16::backend_name(s.backend));
}

void print_synthesis(const fc::synthesis_report_t& r) {
  std::fprintf(stderr,
               "  %-10s %9.3f s (%llu constraints, %.0f constraints/s per core, %u threads)\n",
               "synthesis", r.synthesis_seconds, (unsigned long long)r.constraints,
               double(r.constraints) / r.synthesis_seconds / compute_threads(), compute_threads());
  std::fprintf(stderr, "  %-10s %9.3f s\n", "satisfied", r.satisfied_seconds);
}

void print_params(const std::string& path, uint64_t t_load, const fc::params_prover_t& p) {
  std::fprintf(stderr, "%-10s %9.3f s (%s decoded: %llu bytes resident)\n", "params",
               double(groth16::now_ns() - t_load) * 1e-9, path.c_str(),
               (unsigned long long)p.key().bytes());
}

int run_prove(const prove_args_t& a) {
  require_options({{&a.c1, "--c1 FILE"},
                   {&a.prover.params, "--params FILE"},
                   {&a.prover_id, "--prover-id HEX"},
                   {&a.sector, "--sector N"},
                   {&a.prover.out, "--out FILE"}});
  const zk::bytes32_t prover_id = zk::filecoin::parse_prover_id(a.prover_id.one(), "--prover-id");
  const uint64_t sector = parse_uint_arg("--sector", a.sector.one());
  const backend_t backend = choose_backend(a.prover.backend.one("cpu"));

  fc::c1_read_t read;
  try {
    read = fc::read_c1_file(a.c1.one());
  } catch (const zk::format_error& e) {
    return refuse(e.what());
  }
  const fc::c1_output_t& c1 = read.c1;
  const uint32_t partitions = uint32_t(c1.vanilla_proofs.size());
  uint32_t first = 0, last = partitions;
  if (a.partition.given()) {
    first = uint32_t(parse_uint_arg("--partition", a.partition.one(), 0, 1u << 20));
    if (first >= partitions)
      return refuse("--partition " + std::to_string(first) + ": the C1 has " +
                    std::to_string(partitions) + " partition" + (partitions == 1 ? "" : "s"));
    last = first + 1;
  }
  // The cheap checks first, once for every partition: no parameters are read for a C1 that
  // cannot be proved.
  const uint64_t t_check = groth16::now_ns();
  if (const check_t ok = fc::check_c1(fc::porep_config(*c1.registered_proof), c1, read.wrapper,
                                      {prover_id, sector, std::nullopt});
      !ok)
    return refuse(ok.reason());
  const double check_seconds = double(groth16::now_ns() - t_check) * 1e-9;
  std::optional<bellperson::vk_read_t> extra_vk;
  if (a.vk.given()) extra_vk = bellperson::read_vk_file(a.vk.one());

  const fc::porep_config_t pc = fc::porep_config(*c1.registered_proof);
  const uint64_t t_load = groth16::now_ns();
  std::optional<fc::c2_prover_t> c2;
  {
    const bellperson::params_file_t params(a.prover.params.one(),
                                           bellperson::params_file_t::mode_t::unchecked);
    c2.emplace(params, fc::circuit_config(pc));
  }
  c2->prover().set_split(!a.no_split.given());
  c2->prover().set_accelerator(backend.bls12_381.get());
  const bool timings = a.prover.timings.given();
  if (timings) {
    std::fprintf(stderr, "%-10s %9.3f s (replica_id, every partition's vanilla proofs)\n",
                 "check_c1", check_seconds);
    print_params(a.prover.params.one(), t_load, *c2);
  }
  fc::prove_partition_t in;
  in.c1 = &c1;
  in.prover_id = prover_id;
  in.sector = sector;
  if (timings) in.observe = print_stage;
  const fc::graph_t g(pc);
  const fc::sector_ids_t ids = fc::sector_ids_of(c1, prover_id, sector);

  std::vector<uint8_t> out;
  for (uint32_t k = first; k < last; ++k) {
    const uint64_t t0 = groth16::now_ns();
    if (timings)
      std::fprintf(stderr, "partition %u (%s, backend %s):\n", k,
                   a.no_split.given() ? "no split" : "split", backend.name.c_str());
    in.partition = k;
    auto r = fc::prove_partition(*c2, in);
    if (!r) return refuse("partition " + std::to_string(k) + ": " + r.error());
    const fc::partition_proof_t& p = *r;
    if (timings) print_synthesis(p.synthesis);
    if (extra_vk) {
      const check_t v = bellperson::verify_proof(extra_vk->vk, p.proof,
                                                 fc::partition_inputs(pc, g, ids, k).inputs);
      if (!v)
        return refuse("partition " + std::to_string(k) + ": the proof does not verify with --vk " +
                      a.vk.one() + ": " + v.reason());
    }
    if (timings)
      std::fprintf(stderr, "  %-10s %9.3f s\n", "partition", double(groth16::now_ns() - t0) * 1e-9);
    out.insert(out.end(), p.bytes.begin(), p.bytes.end());
  }
  zk::write_file_atomic(a.prover.out.one(),
                        std::string_view(reinterpret_cast<const char*>(out.data()), out.size()));
  std::printf(
      "OK: %u partition proof%s (%zu bytes) of %s sector %llu written to %s, verified "
      "with %s's verifying key%s\n",
      last - first, last - first == 1 ? "" : "s", out.size(),
      std::string(c1.registered_proof->name).c_str(), (unsigned long long)sector,
      a.prover.out.one().c_str(), a.prover.params.one().c_str(), extra_vk ? " and --vk" : "");
  return 0;
}

// --- prove-update ----------------------------------------------------------------------------

struct prove_update_args_t {
  update_statement_opts_t update;
  prover_opts_t prover;
  opt_t vanilla;
};

int run_prove_update(const prove_update_args_t& a) {
  require_options({{&a.update.proof_name, "--registered-update-proof NAME"},
                   {&a.vanilla, "--vanilla FILE"},
                   {&a.update.comm_r_old, "--comm-r-old HEX"},
                   {&a.update.comm_r_new, "--comm-r-new HEX"},
                   {&a.update.comm_d_new, "--comm-d-new HEX"},
                   {&a.prover.params, "--params FILE"},
                   {&a.prover.out, "--out FILE"}});
  const fc::update_config_t c = a.update.config();
  const fc::update_commitments_t comms = a.update.comms();
  const backend_t backend = choose_backend(a.prover.backend.one("cpu"));
  const bool timings = a.prover.timings.given();

  // The vanilla proofs first, every partition: no parameters are read for proofs that cannot be
  // proved.
  const uint64_t t_check = groth16::now_ns();
  std::vector<fc::update_partition_proof_t> vanilla;
  try {
    vanilla = fc::read_update_vanilla_file(a.vanilla.one(), c);
  } catch (const zk::format_error& e) {
    return refuse(e.what());
  }
  if (const check_t ok = fc::verify_update_partitions(c, comms, vanilla); !ok)
    return refuse("the vanilla proofs of " + a.vanilla.one() + ": " + ok.reason());
  if (timings)
    std::fprintf(stderr, "%-10s %9.3f s (every partition's vanilla proof)\n", "vanilla",
                 double(groth16::now_ns() - t_check) * 1e-9);

  const uint64_t t_load = groth16::now_ns();
  std::optional<fc::update_prover_t> prover;
  bellperson::verifying_key_t vk;
  {
    const bellperson::params_file_t params(a.prover.params.one(),
                                           bellperson::params_file_t::mode_t::unchecked);
    vk = params.vk();
    prover.emplace(params, c);
  }
  prover->prover().set_accelerator(backend.bls12_381.get());
  if (timings) print_params(a.prover.params.one(), t_load, *prover);

  fc::prove_update_partition_t in;
  in.comms = comms;
  if (timings) in.observe = print_stage;
  std::vector<uint8_t> out;
  std::vector<bellperson::proof_t> proofs;
  for (uint32_t k = 0; k < c.partitions; ++k) {
    const uint64_t t0 = groth16::now_ns();
    if (timings) std::fprintf(stderr, "partition %u (backend %s):\n", k, backend.name.c_str());
    in.partition = k;
    in.proof = &vanilla[k];
    auto r = fc::prove_update_partition(*prover, in);
    if (!r) return refuse(r.error());
    if (timings) {
      print_synthesis(r->synthesis);
      std::fprintf(stderr, "  %-10s %9.3f s\n", "partition", double(groth16::now_ns() - t0) * 1e-9);
    }
    proofs.push_back(r->proof);
    out.insert(out.end(), r->bytes.begin(), r->bytes.end());
  }
  // The sector's proof as verify-update (filecoin-proofs' verify_empty_sector_update_proof)
  // checks it, before it is written.
  const uint64_t t_verify = groth16::now_ns();
  const result_t<fc::update_verification_t> v = fc::verify_update(vk, proofs, c, comms);
  if (!v) return refuse("the sector's proof: " + v.error());
  if (!v->verdict)
    return refuse("the sector's proof does not verify with the parameters' verifying key: " +
                  v->verdict.reason());
  if (timings)
    std::fprintf(stderr, "%-10s %9.3f s (the sector's proof verified, as verify-update)\n",
                 "sector", double(groth16::now_ns() - t_verify) * 1e-9);
  zk::write_file_atomic(a.prover.out.one(),
                        std::string_view(reinterpret_cast<const char*>(out.data()), out.size()));
  std::printf(
      "OK: the update proof of %s (%u partition%s, %zu bytes) written to %s, verified with %s's "
      "verifying key\n",
      std::string(c.proof->name).c_str(), c.partitions, c.partitions == 1 ? "" : "s", out.size(),
      a.prover.out.one().c_str(), a.prover.params.one().c_str());
  return 0;
}

// A hard link where the file system allows, else a copy.
void link_or_copy(const std::filesystem::path& from, const std::filesystem::path& to) {
  std::error_code ec;
  std::filesystem::remove(to, ec);
  std::filesystem::create_hard_link(from, to, ec);
  if (ec) std::filesystem::copy_file(from, to, std::filesystem::copy_options::overwrite_existing);
}

// A registered proof's PoRep circuit or a registered update proof's SnapDeals circuit: what
// setup makes parameters for.
struct setup_circuit_t {
  std::string name;  // NAME.params, NAME.vk
  std::function<std::string()> digest;
  std::function<fc::dev_params_report_t(uint64_t seed, const std::string& dir, bool vk_only)> make;
};

setup_circuit_t porep_setup_circuit(const std::string& registered_proof) {
  const fc::registered_proof_t& rp = fc::registered_proof(registered_proof);
  const fc::circuit_config_t c = fc::circuit_config(fc::porep_config(rp));
  const std::string name(rp.name);
  return {name, [c] { return fc::circuit_shape(c, false)->digest_hex(); },
          [c, name](uint64_t seed, const std::string& dir, bool vk_only) {
            return fc::make_dev_params(c, seed, dir, name, vk_only);
          }};
}

setup_circuit_t update_setup_circuit(const std::string& registered_update_proof) {
  const fc::update_config_t c =
      fc::update_config(fc::registered_update_proof(registered_update_proof));
  const std::string name(c.proof->name);
  return {name, [c] { return fc::update_circuit_shape(c, false)->digest_hex(); },
          [c, name](uint64_t seed, const std::string& dir, bool vk_only) {
            return fc::make_dev_params(c, seed, dir, name, vk_only);
          }};
}

cached_params_t cached_params_of(const setup_circuit_t& circuit, uint64_t seed);

int run_setup(const opt_t& proof, const opt_t& update_proof, const opt_t& out,
              const opt_t& seed_opt, const opt_t& vk_only) {
  if (proof.given() == update_proof.given())
    throw usage_error("give one of --registered-proof NAME and --registered-update-proof NAME");
  if (!out.given()) throw usage_error("--out DIR is required");
  const uint64_t seed = seed_opt.given() ? parse_uint_arg("--seed", seed_opt.one()) : 0;
  const setup_circuit_t circuit =
      proof.given() ? porep_setup_circuit(proof.one()) : update_setup_circuit(update_proof.one());
  std::printf(
      "WARNING: development parameters, NOT a ceremony: anyone who knows the seed (%llu) can "
      "forge proofs with them. Never use them for a real sector.\n",
      (unsigned long long)seed);
  std::filesystem::create_directories(out.one());
  if (vk_only.given()) {
    const auto r = circuit.make(seed, out.one(), true);
    std::printf("OK: %s (verifying key only; circuit %s, %.1f s)\n", r.vk_path.c_str(),
                r.digest.c_str(), r.seconds);
    return 0;
  }
  const cached_params_t cached = cached_params_of(circuit, seed);
  for (const auto& from : {cached.params, cached.vk})
    link_or_copy(from, std::filesystem::path(out.one()) / std::filesystem::path(from).filename());
  std::printf("OK: %s/%s.params and .vk (circuit %s, seed %llu; %s)\n", out.one().c_str(),
              circuit.name.c_str(), circuit.digest().c_str(), (unsigned long long)seed,
              cached.made ? ("made in " + std::to_string(int(cached.seconds)) + " s").c_str()
                          : "from the cache");
  return 0;
}

cached_params_t cached_params_of(const setup_circuit_t& circuit, uint64_t seed) {
  namespace fs = std::filesystem;
  const std::string& name = circuit.name;
  const std::string digest = circuit.digest();
  const char* home = std::getenv("HOME");
  const char* cache_env = std::getenv("ZK_CACHE_DIR");
  const fs::path root =
      fs::path(cache_env ? cache_env : std::string(home ? home : "/tmp") + "/.cache/zkfleet") /
      "filecoin-params";
  const fs::path cache = root / ("dev-" + digest.substr(0, 16) + "-seed" + std::to_string(seed));
  cached_params_t r{cache.string(), (cache / (name + ".params")).string(),
                    (cache / (name + ".vk")).string()};
  if (fs::exists(cache / "setup.ok")) return r;
  // One maker at a time (the demo and the tests share the cache); the parameters are made into
  // a folder of their own and renamed whole when complete.
  fs::create_directories(root);
  const std::string lock_path = cache.string() + ".lock";
  const int lock = ::open(lock_path.c_str(), O_CREAT | O_RDWR | O_CLOEXEC, 0644);
  if (lock < 0) throw std::runtime_error(lock_path + ": cannot open: " + std::strerror(errno));
  struct closer_t {
    int fd;
    ~closer_t() { ::close(fd); }
  } closer{lock};
  if (::flock(lock, LOCK_EX) != 0)
    throw std::runtime_error(lock_path + ": cannot lock: " + std::strerror(errno));
  if (fs::exists(cache / "setup.ok")) return r;  // made by another process meanwhile
  std::printf("making the development parameters of %s (circuit %s) into %s (once) ...\n",
              name.c_str(), digest.c_str(), cache.c_str());
  std::fflush(stdout);
  const fs::path tmp = cache.string() + ".tmp";
  fs::remove_all(tmp);
  const auto made = circuit.make(seed, tmp.string(), false);
  zk::write_file_atomic((tmp / "setup.ok").string(),
                        "circuit " + digest + " seed " + std::to_string(seed) + "\n");
  fs::remove_all(cache);
  fs::rename(tmp, cache);
  r.made = true;
  r.seconds = made.seconds;
  return r;
}

}  // namespace

cached_params_t cached_dev_params(const std::string& registered_proof, uint64_t seed) {
  return cached_params_of(porep_setup_circuit(registered_proof), seed);
}

filecoin_sub_t add_filecoin_setup(CLI::App* group) {
  CLI::App* app = add_command(
      *group, "setup",
      "development parameters (bellperson .params + .vk) for a registered proof's circuit: NOT "
      "a ceremony");
  const opt_t proof = add_value(app, "--registered-proof", "NAME", "e.g. StackedDrg2KiBV1_1");
  const opt_t update_proof =
      add_value(app, "--registered-update-proof", "NAME",
                "the SnapDeals update's circuit instead, e.g. StackedDrg2KiBV1");
  const opt_t out = add_value(app, "--out", "DIR", "where NAME.params and NAME.vk go");
  const opt_t seed = add_value(app, "--seed", "N", "the secrets' seed (default 0)");
  const opt_t vk_only =
      add_flag(app, "--vk-only", "write the verifying key only (seconds; not cached)");
  return {app, [=] { return run_setup(proof, update_proof, out, seed, vk_only); },
          "filecoin setup takes options only"};
}

filecoin_sub_t add_filecoin_prove(CLI::App* group) {
  CLI::App* app = add_command(
      *group, "prove",
      "C2: prove a sealed sector from its C1 output with bellperson parameters (.params); the "
      "proof is verified before it is written");
  auto a = std::make_shared<prove_args_t>();
  a->c1 = add_value(app, "--c1", "FILE",
                    "the C1 output (the API's JSON or the lotus-bench / curio wrapper)");
  a->prover.declare(app, "the sector's circuit");
  a->prover_id = add_value(app, "--prover-id", "HEX|f0N",
                           "the prover id (64 hex digits) or the miner's actor address f0N/t0N");
  a->sector = add_value(app, "--sector", "N", "the sector number");
  a->vk = add_value(app, "--vk", "FILE",
                    "also verify with this verifying key (bellperson .vk) before writing");
  a->partition = add_value(app, "--partition", "K", "prove partition K only");
  a->no_split = add_flag(app, "--no-split",
                         "run every scalar through the MSM windows (no 0/1 split; for benchmarks)");
  app->footer(
      "Exit status: 0 proof written; 1 refused or bad input (the message names the partition, "
      "challenge and check, or the constraint; nothing is written); 2 usage error.");
  return {app, [a] { return run_prove(*a); }, "filecoin prove takes options only"};
}

filecoin_sub_t add_filecoin_prove_update(CLI::App* group) {
  CLI::App* app = add_command(
      *group, "prove-update",
      "prove a SnapDeals update from its vanilla proofs with the update circuit's bellperson "
      "parameters (.params), as filecoin-proofs' generate_empty_sector_update_proof_with_vanilla; "
      "the vanilla proofs are checked first and the proof is verified before it is written");
  auto a = std::make_shared<prove_update_args_t>();
  a->update.declare(app);
  a->vanilla = add_value(app, "--vanilla", "FILE",
                         "the partitions' vanilla proofs: Curio's snap-vproof.json, or the raw "
                         "bincode partition proofs concatenated, partition 0 first");
  a->prover.declare(app, "the update's circuit");
  app->footer(
      "HEX: 32 bytes as 64 hex digits, as Curio's CIDs and filecoin-proofs' Commitment hold them. "
      "Exit status: 0 proof written; 1 refused or bad input (the message names the partition and "
      "the check, or the constraint; nothing is written); 2 usage error.");
  return {app, [a] { return run_prove_update(*a); }, "filecoin prove-update takes options only"};
}

}  // namespace zk::apps
