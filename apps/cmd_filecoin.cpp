// zkfleet filecoin: Filecoin PoRep (zk/filecoin, docs/filecoin.md).
//
//   zkfleet filecoin verify --vk FILE --proof FILE --registered-proof NAME --prover-id HEX
//       --sector N --ticket HEX --seed HEX --comm-r HEX --comm-d HEX
//       [--porep-id HEX] [--api-version V1_0_0|V1_1_0|V1_2_0] [--print-public-inputs]
//   zkfleet filecoin verify-update --registered-update-proof NAME --vk FILE --proof FILE
//       --comm-r-old HEX --comm-r-new HEX --comm-d-new HEX [--print-public-inputs]
//   zkfleet filecoin derive --registered-proof NAME [--prover-id HEX --sector N --ticket HEX
//       --seed HEX --comm-d HEX --comm-r HEX] [--porep-id HEX] [--api-version V] [--parents-all]
//   zkfleet filecoin c1 --c1 FILE [--out FILE] [--form same|api|wrapper] [--sector N]
//   zkfleet filecoin vk --vk FILE [--out FILE] [--compressed]
//   zkfleet filecoin params --params FILE [--unchecked] [--out FILE]
//   zkfleet filecoin seal --registered-proof NAME --prover-id HEX --sector N --ticket HEX
//       --seed HEX (--data FILE | --zeros | --random N) --out DIR [--porep-id HEX]
//       [--api-version V] [--write-layers] [--no-replica] [--parent-cache DIR]
//   zkfleet filecoin seal --sparse --registered-proof NAME --prover-id HEX --sector N
//       --ticket HEX --seed HEX --random N --out DIR   (TEST DATA: zk/filecoin/api/sparse_seal.hpp)
//   zkfleet filecoin check-c1 --c1 FILE --prover-id HEX --sector N [--registered-proof NAME]
//       [--porep-id HEX] [--api-version V]
//   zkfleet filecoin prove --c1 FILE --params FILE --prover-id HEX --sector N --out FILE
//       [--vk FILE] [--partition K] [--backend cpu|cuda|auto] [--no-split] [--timings]
//   zkfleet filecoin prove-update --registered-update-proof NAME --vanilla FILE --comm-r-old HEX
//       --comm-r-new HEX --comm-d-new HEX --params FILE --out FILE [--backend B] [--timings]
//   zkfleet filecoin setup (--registered-proof NAME | --registered-update-proof NAME) --out DIR
//       [--seed N] [--vk-only]   (the three in apps/cmd_filecoin_prove.cpp)
//   zkfleet filecoin synthesize --c1 FILE --prover-id HEX --sector N --partition K [--check]
//       [--json] [--witness-only]   (apps/cmd_filecoin_synth.cpp)
//   zkfleet filecoin budget --registered-proof NAME [--json]   (apps/cmd_filecoin_budget.cpp)
//   zkfleet filecoin update --registered-update-proof NAME --sector-key DIR
//       (--data FILE | --random N) --out DIR   (apps/cmd_filecoin_update.cpp)
//
// The group is a table of subcommands (k_subcommands below): a new one is a function that
// declares its options on the group and returns what to run.
#include "apps/cmd_filecoin.hpp"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "apps/commands.hpp"
#include "zk/base/error.hpp"
#include "zk/base/files.hpp"
#include "zk/base/hex.hpp"
#include "zk/base/process.hpp"
#include "zk/base/thread_pool.hpp"
#include "zk/bellperson/groth16/files.hpp"
#include "zk/filecoin/api/c1.hpp"
#include "zk/filecoin/api/check_c1.hpp"
#include "zk/filecoin/api/prover_id.hpp"
#include "zk/filecoin/api/registry.hpp"
#include "zk/filecoin/api/seal.hpp"
#include "zk/filecoin/api/sparse_seal.hpp"
#include "zk/filecoin/api/verify_seal.hpp"
#include "zk/filecoin/api/verify_update.hpp"
#include "zk/filecoin/core/fr32.hpp"
#include "zk/filecoin/porep/circuit/public_inputs.hpp"
#include "zk/filecoin/porep/vanilla/proof.hpp"

namespace zk::apps {

void update_statement_opts_t::declare(CLI::App* app) {
  proof_name = add_update_proof_option(app);
  comm_r_old = add_value(app, "--comm-r-old", "HEX", "the sector key's comm_r (32 bytes)");
  comm_r_new = add_value(app, "--comm-r-new", "HEX", "the updated sector's comm_r (32 bytes)");
  comm_d_new = add_value(app, "--comm-d-new", "HEX", "the new data's comm_d (32 bytes)");
}

zk::filecoin::update_config_t update_statement_opts_t::config() const {
  return zk::filecoin::update_config(zk::filecoin::registered_update_proof(proof_name.one()));
}

zk::filecoin::update_commitments_t update_statement_opts_t::comms() const {
  zk::filecoin::update_commitments_t c;
  c.comm_r_old = zk::parse_hex32(comm_r_old.one(), "--comm-r-old");
  c.comm_r_new = zk::parse_hex32(comm_r_new.one(), "--comm-r-new");
  c.comm_d_new = zk::parse_hex32(comm_d_new.one(), "--comm-d-new");
  return c;
}

namespace {

namespace fc = zk::filecoin;
using ojson_t = nlohmann::ordered_json;

// --- shared options --------------------------------------------------------------------------

// --registered-proof, --api-version, --porep-id.
struct porep_opts_t {
  opt_t proof, api_version, porep_id;

  void declare(CLI::App* app) {
    proof = add_value(app, "--registered-proof", "NAME",
                      "the RegisteredSealProof, e.g. StackedDrg32GiBV1_1 (required)");
    api_version = add_value(app, "--api-version", "V1_0_0|V1_1_0|V1_2_0",
                            "override the proof's ApiVersion (it changes the graphs)");
    porep_id = add_value(app, "--porep-id", "HEX",
                         "override the porep_id (32 bytes; default: the proof's id, nonce 0)");
  }
  // Bad values are input errors (exit 1) naming the option.
  // `fallback`: the proof when --registered-proof is not given (check-c1: the C1's own).
  fc::porep_config_t config(const fc::registered_proof_t* fallback = nullptr) const {
    if (!proof.given() && !fallback) throw usage_error("--registered-proof NAME is required");
    const fc::registered_proof_t& p = proof.given() ? fc::registered_proof(proof.one()) : *fallback;
    std::optional<fc::api_version_t> v;
    if (api_version.given()) v = fc::parse_api_version(api_version.one());
    std::optional<zk::bytes32_t> id;
    if (porep_id.given()) id = zk::parse_hex32(porep_id.one(), "--porep-id");
    return fc::porep_config(p, v, id);
  }
};

// --prover-id, --sector, --ticket, --seed, --comm-d, --comm-r.
struct sector_opts_t {
  opt_t prover_id, sector, ticket, seed, comm_d, comm_r;

  void declare(CLI::App* app) {
    prover_id = add_value(app, "--prover-id", "HEX|f0N",
                          "the prover id (64 hex digits) or the miner's actor address f0N/t0N");
    sector = add_value(app, "--sector", "N", "the sector number");
    ticket = add_value(app, "--ticket", "HEX", "the sealing ticket (32 bytes)");
    seed = add_value(app, "--seed", "HEX", "the interactive seed (32 bytes)");
    comm_r = add_value(app, "--comm-r", "HEX", "the sector's comm_r (32 bytes, as on chain)");
    comm_d = add_value(app, "--comm-d", "HEX", "the sector's comm_d (32 bytes, as on chain)");
  }
  bool any_given() const {
    return prover_id.given() || sector.given() || ticket.given() || seed.given() ||
           comm_d.given() || comm_r.given();
  }
  fc::sector_ids_t ids() const {
    require_options({{&prover_id, "--prover-id HEX"},
                     {&sector, "--sector N"},
                     {&ticket, "--ticket HEX"},
                     {&seed, "--seed HEX"},
                     {&comm_r, "--comm-r HEX"},
                     {&comm_d, "--comm-d HEX"}});
    fc::sector_ids_t s;
    s.prover_id = fc::parse_prover_id(prover_id.one(), "--prover-id");
    try {
      s.sector = parse_uint_arg("--sector", sector.one());
    } catch (const usage_error& e) {  // a bad value, not a bad command line: exit 1
      throw std::invalid_argument(e.what());
    }
    s.ticket = zk::parse_hex32(ticket.one(), "--ticket");
    s.seed = zk::parse_hex32(seed.one(), "--seed");
    s.comm_r = zk::parse_hex32(comm_r.one(), "--comm-r");
    s.comm_d = zk::parse_hex32(comm_d.one(), "--comm-d");
    return s;
  }
};

// --- verify ----------------------------------------------------------------------------------

int run_verify(const opt_t& vk_file, const opt_t& proof_file, const porep_opts_t& po,
               const sector_opts_t& so, const opt_t& print_inputs) {
  if (!vk_file.given()) throw usage_error("--vk FILE is required");
  if (!proof_file.given()) throw usage_error("--proof FILE is required");
  const fc::porep_config_t c = po.config();
  const fc::sector_ids_t s = so.ids();
  // Bad files are bad input: the reason names the file, the part and the offset.
  bellperson::vk_read_t vk;
  std::vector<bellperson::proof_t> proofs;
  try {
    vk = bellperson::read_vk_file(vk_file.one());
    proofs = bellperson::read_proof_file(proof_file.one());
  } catch (const zk::format_error& e) {
    std::printf("INVALID: %s\n", e.what());
    return 1;
  }
  const fc::seal_verification_t r = fc::verify_seal(vk.vk, proofs, c, s);
  if (print_inputs.given())
    for (const auto& p : r.partitions)
      for (const auto& x : p.inputs) std::printf("%s\n", x.to_string().c_str());
  if (r.verdict.ok()) {
    std::fprintf(
        print_inputs.given() ? stderr : stdout,
        "OK: the proof is valid (%s, %u partition%s, %s key)\n", std::string(c.proof->name).c_str(),
        c.partitions, c.partitions == 1 ? "" : "s",
        vk.encoding == bellperson::vk_encoding_t::compressed ? "compressed" : "uncompressed");
    return 0;
  }
  std::fprintf(print_inputs.given() ? stderr : stdout, "INVALID: %s\n", r.verdict.reason().c_str());
  return 1;
}

filecoin_sub_t add_verify(CLI::App* group) {
  CLI::App* app = add_command(*group, "verify",
                              "verify a sector's PoRep proof (one 192-byte Groth16 proof a "
                              "partition) with a bellperson verifying key; exit 0 when valid");
  const opt_t vk = add_value(app, "--vk", "FILE",
                             "the verifying key (bellperson .vk, uncompressed or compressed)");
  const opt_t proof =
      add_value(app, "--proof", "FILE", "the proof bytes (192 a partition, partition 0 first)");
  auto po = std::make_shared<porep_opts_t>();
  auto so = std::make_shared<sector_opts_t>();
  po->declare(app);
  so->declare(app);
  const opt_t print_inputs = add_flag(
      app, "--print-public-inputs",
      "print the public inputs in decimal, one a line, in circuit order (the verdict goes to "
      "stderr)");
  app->footer(
      "HEX: 32 bytes as 64 hex digits, in the order of the C1 JSON and the chain. Exit status: "
      "0 valid; 1 invalid or bad input (the message says which and why); 2 usage error.");
  return {
      app,
      [vk, proof, po, so, print_inputs] { return run_verify(vk, proof, *po, *so, print_inputs); },
      "filecoin verify takes options only"};
}

// --- verify-update ---------------------------------------------------------------------------

struct verify_update_opts_t {
  update_statement_opts_t update;
  opt_t vk, proof, print_inputs;
};

// Exit 0 valid, 1 invalid, 2 bad input (what filecoin-proofs answers with an Err: an unknown
// proof, a bad HEX, an unreadable key or proof, proof bytes not 192 a partition, a key without 5
// IC points, a commitment that is not a field element) or a usage error.
int run_verify_update(const verify_update_opts_t& o) {
  require_options({{&o.update.proof_name, "--registered-update-proof NAME"},
                   {&o.vk, "--vk FILE"},
                   {&o.proof, "--proof FILE"},
                   {&o.update.comm_r_old, "--comm-r-old HEX"},
                   {&o.update.comm_r_new, "--comm-r-new HEX"},
                   {&o.update.comm_d_new, "--comm-d-new HEX"}});
  auto bad_input = [](const std::string& why) {
    std::fprintf(stderr, "zkfleet filecoin verify-update: bad input: %s\n", why.c_str());
    return 2;
  };
  fc::update_config_t c;
  fc::update_commitments_t comms;
  bellperson::vk_read_t vk;
  std::vector<bellperson::proof_t> proofs;
  try {
    c = o.update.config();
    comms = o.update.comms();
    vk = bellperson::read_vk_file(o.vk.one());
    proofs = bellperson::read_proof_file(o.proof.one());
  } catch (const std::invalid_argument& e) {
    return bad_input(e.what());
  } catch (const zk::format_error& e) {
    return bad_input(e.what());
  }
  const zk::result_t<fc::update_verification_t> r = fc::verify_update(vk.vk, proofs, c, comms);
  if (!r) return bad_input(r.error());
  if (o.print_inputs.given())
    for (const auto& p : r->inputs)
      for (const auto& x : p) std::printf("%s\n", x.to_string().c_str());
  std::FILE* verdict_to = o.print_inputs.given() ? stderr : stdout;
  if (r->verdict.ok()) {
    std::fprintf(verdict_to, "OK: the update proof is valid (%s, %u partition%s)\n",
                 std::string(c.proof->name).c_str(), c.partitions, c.partitions == 1 ? "" : "s");
    return 0;
  }
  std::fprintf(verdict_to, "INVALID: %s\n", r->verdict.reason().c_str());
  return 1;
}

filecoin_sub_t add_verify_update(CLI::App* group) {
  CLI::App* app = add_command(
      *group, "verify-update",
      "verify a SnapDeals update proof (one 192-byte Groth16 proof a partition) with the "
      "update's bellperson verifying key, as filecoin-proofs' verify_empty_sector_update_proof; "
      "exit 0 when valid");
  auto o = std::make_shared<verify_update_opts_t>();
  o->update.declare(app);
  o->vk = add_value(app, "--vk", "FILE",
                    "the update's verifying key (bellperson .vk, uncompressed or compressed)");
  o->proof = add_value(app, "--proof", "FILE",
                       "the proof bytes (exactly 192 a partition, partition 0 first)");
  o->print_inputs = add_flag(
      app, "--print-public-inputs",
      "print the public inputs in decimal, one a line, partition by partition (the verdict goes "
      "to stderr)");
  app->footer(
      "HEX: 32 bytes as 64 hex digits, as Curio's CIDs and filecoin-proofs' Commitment hold them. "
      "Exit status: 0 valid; 1 invalid; 2 bad input (what filecoin-proofs refuses with an error: "
      "proof bytes not 192 a partition, a bad point, a key without 5 IC points, a commitment "
      "not below r) or a usage error.");
  return {app, [o] { return run_verify_update(*o); }, "filecoin verify-update takes options only"};
}

// --- derive ----------------------------------------------------------------------------------

// The fields of the reference's `derive` (tests/filecoin-ref), with the same names and values.
ojson_t describe(const fc::porep_config_t& c, const fc::graph_t& g) {
  ojson_t j;
  j["registered_proof"] = std::string(c.proof->name);
  j["api_version"] = std::string(fc::api_version_name(c.api_version));
  j["api_version_is_default"] = c.api_version_is_default;
  j["porep_id"] = zk::to_hex(c.porep_id);
  j["porep_id_is_default"] = c.porep_id_is_default;
  j["sector_size"] = c.sector_size;
  j["partitions"] = c.partitions;
  j["challenge_kind"] = std::string(fc::challenge_kind_name(c.challenge_kind));
  j["nodes"] = c.nodes;
  j["layers"] = c.layers;
  j["challenges_per_partition"] = c.challenges_per_partition;
  j["minimum_challenges"] = c.minimum_challenges;
  j["drg_degree"] = fc::drg_degree;
  j["exp_degree"] = fc::exp_degree;
  j["drg_seed"] = zk::to_hex(g.drg_seed().data(), g.drg_seed().size());
  j["feistel_keys"] = g.feistel_keys();
  j["tree_shape"] = fc::tree_shape_name(c.shape);
  return j;
}

// Largest graph --parents-all prints (the reference's limit).
constexpr uint64_t max_parents_all_nodes = uint64_t(1) << 20;

int run_derive(const porep_opts_t& po, const sector_opts_t& so, const opt_t& parents_all) {
  const fc::porep_config_t c = po.config();
  const fc::graph_t g(c);
  ojson_t j = describe(c, g);
  if (so.any_given() || !parents_all.given()) {
    const fc::sector_ids_t s = so.ids();
    const zk::bytes32_t rid = fc::replica_id(s.prover_id, s.sector, s.ticket, s.comm_d, c.porep_id);
    j["prover_id"] = zk::to_hex(s.prover_id);
    j["sector"] = s.sector;
    j["ticket"] = zk::to_hex(s.ticket);
    j["seed"] = zk::to_hex(s.seed);
    j["comm_d"] = zk::to_hex(s.comm_d);
    j["comm_r"] = zk::to_hex(s.comm_r);
    j["replica_id"] = zk::to_hex(rid);
    j["replica_id_decimal"] = fc::fr_from_bytes(rid)->to_string();
    ojson_t parts = ojson_t::array();
    for (uint32_t k = 0; k < c.partitions; ++k) {
      const fc::partition_inputs_t p = fc::partition_inputs(c, g, s, k);
      ojson_t chs = ojson_t::array();
      for (const auto& ch : p.challenges)
        chs.push_back({{"challenge", ch.node},
                       {"drg_parents", std::vector<uint32_t>(ch.drg, ch.drg + fc::drg_degree)},
                       {"exp_parents", std::vector<uint32_t>(ch.exp, ch.exp + fc::exp_degree)}});
      ojson_t inputs = ojson_t::array();
      for (const auto& x : p.inputs) inputs.push_back(x.to_string());
      parts.push_back({{"k", k},
                       {"challenges", chs},
                       {"public_inputs", inputs},
                       {"num_public_inputs", p.inputs.size()}});
    }
    j["partition_data"] = parts;
  }
  if (parents_all.given()) {
    if (c.nodes > max_parents_all_nodes)
      throw std::invalid_argument("--parents-all is limited to " +
                                  std::to_string(max_parents_all_nodes) +
                                  " nodes (this graph has " + std::to_string(c.nodes) + ")");
    ojson_t all = ojson_t::array();
    uint32_t buf[fc::graph_degree];
    for (uint64_t node = 0; node < c.nodes; ++node) {
      g.parents(node, buf);
      all.push_back(std::vector<uint32_t>(buf, buf + fc::graph_degree));
    }
    j["parents_all"] = all;
  }
  std::printf("%s\n", j.dump(2).c_str());
  return 0;
}

filecoin_sub_t add_derive(CLI::App* group) {
  CLI::App* app = add_command(*group, "derive",
                              "print porep_id, replica_id, the challenges with their parents and "
                              "the circuit's public inputs of every partition (JSON)");
  auto po = std::make_shared<porep_opts_t>();
  auto so = std::make_shared<sector_opts_t>();
  po->declare(app);
  so->declare(app);
  const opt_t parents_all = add_flag(
      app, "--parents-all", "also print the 14 parents of every node (graphs up to 2^20 nodes)");
  app->footer(
      "Without the sector options, --parents-all prints the graph alone. The fields and values "
      "are those of tests/filecoin-ref's derive (Filecoin's own functions).");
  return {app, [po, so, parents_all] { return run_derive(*po, *so, parents_all); },
          "filecoin derive takes options only"};
}

// --- c1 --------------------------------------------------------------------------------------

int run_c1(const opt_t& in, const opt_t& out, const opt_t& form, const opt_t& sector) {
  if (!in.given()) throw usage_error("--c1 FILE is required");
  const std::string f = form.one("same");
  if (f != "same" && f != "api" && f != "wrapper")
    throw usage_error("--form needs same, api or wrapper, got '" + f + "'");
  if (!out.given() && (form.given() || sector.given()))
    throw usage_error("--form and --sector apply to --out");
  fc::c1_read_t r;
  try {
    r = fc::read_c1_file(in.one());
  } catch (const zk::format_error& e) {
    std::printf("INVALID: %s\n", e.what());
    return 1;
  }
  const fc::c1_output_t& c1 = r.c1;
  const fc::c1_shape_t shape = fc::c1_shape(*c1.registered_proof);
  ojson_t j;
  j["file"] = in.one();
  j["form"] = r.wrapper ? "wrapper" : "api";
  if (r.wrapper) {
    j["sector_num"] = r.wrapper->sector_num;
    j["sector_size"] = r.wrapper->sector_size;
  }
  j["registered_proof"] = std::string(c1.registered_proof->name);
  j["partitions"] = c1.vanilla_proofs.size();
  j["challenges_per_partition"] = shape.challenges;
  j["layers"] = shape.layers;
  j["tree_shape"] = fc::tree_shape_name(shape.tree);
  j["comm_r"] = zk::to_hex(c1.comm_r);
  j["comm_d"] = zk::to_hex(c1.comm_d);
  j["replica_id"] = zk::to_hex(c1.replica_id);
  j["seed"] = zk::to_hex(c1.seed);
  j["ticket"] = zk::to_hex(c1.ticket);
  if (out.given()) {
    const bool wrap = f == "wrapper" || (f == "same" && r.wrapper);
    int64_t num = r.wrapper ? r.wrapper->sector_num : 0;
    if (sector.given()) num = int64_t(parse_uint_arg("--sector", sector.one(), 0, INT64_MAX));
    if (wrap && !r.wrapper && !sector.given())
      throw usage_error("--form wrapper needs --sector N (the wrapper's SectorNum)");
    zk::write_file_atomic(out.one(),
                          wrap ? fc::write_c1_wrapper_json(c1, num) : fc::write_c1_json(c1));
    j["written"] = out.one();
    j["written_form"] = wrap ? "wrapper" : "api";
  }
  std::printf("%s\n", j.dump(2).c_str());
  return 0;
}

filecoin_sub_t add_c1(CLI::App* group) {
  CLI::App* app = add_command(*group, "c1",
                              "read and validate a C1 output (the API's JSON or the lotus-bench / "
                              "curio wrapper), print its summary, write it back");
  const opt_t in = add_value(app, "--c1", "FILE", "the C1 output (required)");
  const opt_t out = add_value(app, "--out", "FILE",
                              "write it again (serde_json's bytes; the same form unless --form)");
  const opt_t form =
      add_value(app, "--form", "same|api|wrapper", "the form --out writes (default: the input's)");
  const opt_t sector =
      add_value(app, "--sector", "N", "the wrapper's SectorNum (--form wrapper from the API form)");
  app->footer("Exit status: 0 valid; 1 invalid (the message names the JSON path); 2 usage error.");
  return {app, [in, out, form, sector] { return run_c1(in, out, form, sector); },
          "filecoin c1 takes options only"};
}

// --- vk ----------------------------------------------------------------------------------------

int run_vk(const opt_t& in, const opt_t& out, const opt_t& compressed) {
  if (!in.given()) throw usage_error("--vk FILE is required");
  bellperson::vk_read_t vk;
  try {
    vk = bellperson::read_vk_file(in.one());
  } catch (const zk::format_error& e) {
    std::printf("INVALID: %s\n", e.what());
    return 1;
  }
  ojson_t j;
  j["file"] = in.one();
  j["encoding"] =
      vk.encoding == bellperson::vk_encoding_t::compressed ? "compressed" : "uncompressed";
  j["bytes"] = vk.size;
  j["ic_points"] = vk.vk.ic.size();
  j["public_inputs"] = vk.vk.ic.size() - 1;
  if (out.given()) {
    const auto e = compressed.given() ? bellperson::vk_encoding_t::compressed
                                      : bellperson::vk_encoding_t::uncompressed;
    bellperson::write_vk_file(out.one(), vk.vk, e);
    j["written"] = out.one();
    j["written_encoding"] =
        e == bellperson::vk_encoding_t::compressed ? "compressed" : "uncompressed";
  } else if (compressed.given()) {
    throw usage_error("--compressed applies to --out");
  }
  std::printf("%s\n", j.dump(2).c_str());
  return 0;
}

filecoin_sub_t add_vk(CLI::App* group) {
  CLI::App* app = add_command(*group, "vk",
                              "read a bellperson verifying key (either encoding, every point "
                              "checked) and write it in bellperson's .vk layout");
  const opt_t in = add_value(app, "--vk", "FILE", "the verifying key (required)");
  const opt_t out = add_value(
      app, "--out", "FILE", "write it (uncompressed, as VerifyingKey::write, unless --compressed)");
  const opt_t compressed = add_flag(app, "--compressed", "write compressed points");
  return {app, [in, out, compressed] { return run_vk(in, out, compressed); },
          "filecoin vk takes options only"};
}

// --- params ------------------------------------------------------------------------------------

int run_params(const opt_t& in, const opt_t& unchecked, const opt_t& out) {
  if (!in.given()) throw usage_error("--params FILE is required");
  const auto mode = unchecked.given() ? bellperson::params_file_t::mode_t::unchecked
                                      : bellperson::params_file_t::mode_t::checked;
  const auto t0 = std::chrono::steady_clock::now();
  std::optional<bellperson::params_file_t> p;
  try {
    p.emplace(in.one(), mode);
  } catch (const zk::format_error& e) {
    std::printf("INVALID: %s\n", e.what());
    return 1;
  }
  const double open_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  ojson_t j;
  j["file"] = in.one();
  j["bytes"] = p->file_size();
  j["mode"] = unchecked.given() ? "unchecked" : "checked";
  j["ic_points"] = p->vk().ic.size();
  uint64_t points = 0;
  for (size_t i = 0; i < bellperson::params_file_t::section_count; ++i) {
    j["sections"][p->section(i).name] = p->section(i).count;
    points += p->section(i).count;
  }
  j["points"] = points;
  j["open_seconds"] = open_s;
  if (!unchecked.given()) j["checked_points_per_second"] = open_s > 0 ? points / open_s : 0.0;
  j["threads"] = zk::compute_threads();
  if (out.given()) {
    // Every point read back into memory and written again (the writer's own check).
    const auto t1 = std::chrono::steady_clock::now();
    bellperson::params_writer_t w(out.one(), p->vk());
    constexpr uint64_t batch = 1 << 20;
    uint64_t most_g1 = 0;
    for (size_t i = 0; i + 1 < bellperson::params_file_t::section_count; ++i)
      most_g1 = std::max(most_g1, p->section(i).count);
    std::vector<bellperson::g1_affine_t> g1(std::min(batch, most_g1));
    std::vector<bellperson::g2_affine_t> g2(std::min(batch / 2, p->b_g2().count));
    for (size_t i = 0; i < bellperson::params_file_t::section_count; ++i) {
      const auto& s = p->section(i);
      w.begin_section(s.count);
      const uint64_t step = s.g2 ? batch / 2 : batch;
      for (uint64_t at = 0; at < s.count; at += step) {
        const uint64_t n = std::min(step, s.count - at);
        if (s.g2) {
          p->read_g2(s, at, n, g2.data());
          w.append_g2(g2.data(), n);
        } else {
          p->read_g1(s, at, n, g1.data());
          w.append_g1(g1.data(), n);
        }
      }
    }
    w.finish();
    j["written"] = out.one();
    j["write_seconds"] =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t1).count();
  }
  std::printf("%s\n", j.dump(2).c_str());
  return 0;
}

filecoin_sub_t add_params(CLI::App* group) {
  CLI::App* app = add_command(*group, "params",
                              "open a bellperson .params file (mapped; checked: every point on "
                              "the curve and in its subgroup, in parallel) and print its layout");
  const opt_t in = add_value(app, "--params", "FILE", "the parameters (required)");
  const opt_t unchecked =
      add_flag(app, "--unchecked", "trust the points: check the layout and counts only");
  const opt_t out = add_value(app, "--out", "FILE",
                              "read every point and write the file again (Parameters::write)");
  return {app, [in, unchecked, out] { return run_params(in, unchecked, out); },
          "filecoin params takes options only"};
}

// --- seal and check-c1 (the sealing side) -----------------------------------------------

// An I/O failure is a runtime_error naming the file (invalid_argument is for a malformed value).
std::vector<uint8_t> read_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw std::runtime_error(path + ": cannot read: " + std::strerror(errno));
  std::vector<uint8_t> bytes{std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
  if (f.bad()) throw std::runtime_error(path + ": read error");
  return bytes;
}

// Labels and replicas: 32-byte nodes, written as write_file_atomic writes every file.
void write_nodes(const std::string& path, const zk::bytes32_t* nodes, size_t n) {
  zk::write_file_atomic(path, std::string_view(reinterpret_cast<const char*>(nodes), n * 32));
}

ojson_t hex(const zk::bytes32_t& b) { return zk::to_hex(b); }

// --- seal ------------------------------------------------------------------------------------

// What `seal --sparse` prints first and commit.json says: a sparse C1 is test data.
constexpr const char* sparse_warning =
    "TEST DATA: a sparse seal, no replica exists. Only the challenged nodes' labels are computed "
    "(SDR, from their parents); their parents' labels and every tree node off the opened paths "
    "are pseudo-random from --random, and the piece is one 8 MiB block repeated. A C1 to test C2 "
    "with, never a sector for a chain.";

// commit.json's ids and commitments of a sealed sector (full or sparse: the same fields).
template <class Request, class Result>
ojson_t sealed_ids_json(const Request& req, const Result& r) {
  ojson_t commit;
  commit["registered_proof"] = std::string(req.config.proof->name);
  commit["sector_size"] = req.config.sector_size;
  commit["api_version"] = std::string(fc::api_version_name(req.config.api_version));
  commit["porep_id"] = hex(req.config.porep_id);
  commit["prover_id"] = hex(req.prover_id);
  commit["sector"] = req.sector;
  commit["ticket"] = hex(req.ticket);
  commit["seed"] = hex(req.seed);
  commit["comm_d"] = hex(r.comm_d);
  commit["comm_r"] = hex(r.comm_r);
  commit["comm_c"] = hex(r.comm_c);
  commit["comm_r_last"] = hex(r.comm_r_last);
  commit["replica_id"] = hex(r.replica_id);
  commit["layers"] = req.config.layers;
  commit["partitions"] = req.config.partitions;
  commit["challenges"] = r.challenges;
  return commit;
}

int run_sparse_seal(const porep_opts_t& po, const opt_t& prover_id, const opt_t& sector,
                    const opt_t& ticket, const opt_t& seed, const opt_t& random, const opt_t& out) {
  fc::sparse_seal_request_t req;
  req.config = po.config();
  req.prover_id = fc::parse_prover_id(prover_id.one(), "--prover-id");
  req.sector = parse_uint_arg("--sector", sector.one());
  req.ticket = zk::parse_hex32(ticket.one(), "--ticket");
  req.seed = zk::parse_hex32(seed.one(), "--seed");
  req.random = parse_uint_arg("--random", random.one());
  const std::string dir = out.one();
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw std::invalid_argument("cannot create --out " + dir + ": " + ec.message());
  std::fprintf(stderr, "seal --sparse: %s\n", sparse_warning);

  const fc::sparse_seal_result_t r = fc::sparse_seal_sector(req);
  const fc::c1_output_t c1 = fc::c1_of(req, r);
  fc::validate_c1(c1);
  zk::write_file_atomic(dir + "/c1.json", fc::write_c1_json(c1));

  ojson_t commit;
  commit["test_data"] = sparse_warning;
  commit["sparse"] = true;
  commit.update(sealed_ids_json(req, r));
  commit["piece_source"] = {
      {"kind", "sparse"},
      {"seed", req.random},
      {"block_bytes", r.block_nodes * 32},
      {"generator",
       "the fr32 padding of SHA-256(seed u64 LE || i u64 LE), i = 0,1,..., concatenated, cut to "
       "block_bytes x 127/128, repeated to the sector's size"}};
  commit["files"] = {{"c1", "c1.json"}};
  commit["computed"] = {{"challenged_nodes", r.challenged_nodes},
                        {"labels", r.labels_computed},
                        {"columns", r.columns},
                        {"tree_c_nodes", r.tree_c_nodes},
                        {"tree_r_last_nodes", r.tree_r_last_nodes}};
  commit["peak_rss_bytes"] = zk::peak_rss_bytes();
  commit["timings_s"] = {{"data_and_tree_d", r.seconds.data_and_tree_d},
                         {"labels", r.seconds.labels},
                         {"tree_c", r.seconds.tree_c},
                         {"tree_r_last", r.seconds.tree_r_last},
                         {"proofs", r.seconds.proofs},
                         {"total", r.seconds.total}};
  const std::string text = commit.dump(2) + "\n";
  zk::write_file_atomic(dir + "/commit.json", text);
  std::fputs(text.c_str(), stdout);
  return 0;
}

int run_seal(const porep_opts_t& po, const opt_t& prover_id, const opt_t& sector,
             const opt_t& ticket, const opt_t& seed, const opt_t& data, const opt_t& zeros,
             const opt_t& random, const opt_t& out, const opt_t& write_layers,
             const opt_t& write_replica, const opt_t& no_replica, const opt_t& parent_cache,
             const opt_t& sparse) {
  require_options({{&prover_id, "--prover-id HEX"},
                   {&sector, "--sector N"},
                   {&ticket, "--ticket HEX"},
                   {&seed, "--seed HEX"},
                   {&out, "--out DIR"}});
  if (sparse.given()) {
    if (!random.given()) throw usage_error("--sparse needs --random N (the seed of its values)");
    for (const auto& [o, name] : {std::pair{&data, "--data"},
                                  {&zeros, "--zeros"},
                                  {&write_layers, "--write-layers"},
                                  {&write_replica, "--write-replica"},
                                  {&no_replica, "--no-replica"},
                                  {&parent_cache, "--parent-cache"}})
      if (o->given())
        throw usage_error(std::string(name) + " does not go with --sparse (no sector is sealed)");
    return run_sparse_seal(po, prover_id, sector, ticket, seed, random, out);
  }
  if (int(data.given()) + int(zeros.given()) + int(random.given()) != 1)
    throw usage_error("give exactly one of --data FILE, --zeros, --random N");

  fc::seal_request_t req;
  req.config = po.config();
  req.prover_id = fc::parse_prover_id(prover_id.one(), "--prover-id");
  req.sector = parse_uint_arg("--sector", sector.one());
  req.ticket = zk::parse_hex32(ticket.one(), "--ticket");
  req.seed = zk::parse_hex32(seed.one(), "--seed");
  const uint64_t unpadded = fc::fr32_unpadded_size(req.config.sector_size);
  ojson_t source;
  if (data.given()) {
    req.piece = read_file(data.one());
    if (req.piece.size() != unpadded)
      throw std::invalid_argument("--data " + data.one() + " has " +
                                  std::to_string(req.piece.size()) +
                                  " bytes; the unpadded piece "
                                  "of a " +
                                  std::to_string(req.config.sector_size) + "-byte sector is " +
                                  std::to_string(unpadded) + " bytes");
    source = {{"kind", "data"}, {"file", data.one()}};
  } else if (zeros.given()) {
    req.piece.assign(unpadded, 0);
    source = {{"kind", "zeros"}};
  } else {
    const uint64_t s = parse_uint_arg("--random", random.one());
    req.piece = fc::random_piece(s, unpadded);
    source = {{"kind", "random"},
              {"seed", s},
              {"generator", "SHA-256(seed u64 LE || i u64 LE), i = 0,1,..., concatenated, cut"}};
  }
  req.keep_layers = write_layers.given();
  // The replica is the sector key a SnapDeals update (`filecoin update`) starts from.
  if (write_replica.given() && no_replica.given())
    throw usage_error("--write-replica and --no-replica contradict each other");
  req.keep_replica = !no_replica.given();
  req.parent_cache = parent_cache.one();
  const std::string dir = out.one();
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw std::runtime_error("cannot create --out " + dir + ": " + ec.message());

  // The rvalue form takes only the piece (freed once padded); req's other fields stay.
  const fc::seal_result_t r = fc::seal_sector(
      std::move(req), [](const std::string& s) { std::fprintf(stderr, "seal: %s\n", s.c_str()); });

  // The C1 through fc-a's writer (c1.hpp), checked by its reader's rules first.
  const fc::c1_output_t c1 = fc::c1_of(req, r);
  fc::validate_c1(c1);
  zk::write_file_atomic(dir + "/c1.json", fc::write_c1_json(c1));

  std::vector<std::string> layer_files;
  for (size_t l = 0; l < r.layers.size(); ++l) {
    const std::string name = "labels-layer-" + std::to_string(l + 1) + ".bin";
    write_nodes(dir + "/" + name, r.layers[l].data(), r.layers[l].size());
    layer_files.push_back(name);
  }
  if (!r.replica.empty()) write_nodes(dir + "/replica.bin", r.replica.data(), r.replica.size());

  ojson_t commit = sealed_ids_json(req, r);
  commit["piece_source"] = source;
  commit["files"] = {{"c1", "c1.json"},
                     {"labels", layer_files},
                     {"replica", r.replica.empty() ? ojson_t() : ojson_t("replica.bin")}};
  commit["parent_table"] = r.parent_table_loaded ? "read from --parent-cache" : "computed";
  commit["memory_bytes"] = {{"parent_table", r.parent_table_bytes},
                            {"trees", r.tree_bytes},
                            {"layers", uint64_t(req.config.layers) * req.config.sector_size},
                            {"padded_sector", req.config.sector_size}};
  commit["timings_s"] = {{"pad_and_tree_d", r.seconds.pad_and_tree_d},
                         {"parents", r.seconds.parents},
                         {"labels", r.seconds.labels},
                         {"tree_c", r.seconds.tree_c},
                         {"tree_r_last", r.seconds.tree_r_last},
                         {"proofs", r.seconds.proofs},
                         {"total", r.seconds.total}};
  const std::string text = commit.dump(2) + "\n";
  zk::write_file_atomic(dir + "/commit.json", text);
  std::fputs(text.c_str(), stdout);
  return 0;
}

filecoin_sub_t add_seal(CLI::App* group) {
  CLI::App* app = add_command(*group, "seal",
                              "seal a sector (PC1, PC2, C1): write DIR/c1.json (the API's C1 "
                              "JSON), DIR/commit.json (commitments, replica_id, challenges) and "
                              "DIR/replica.bin (the replica: a SnapDeals update's sector key)");
  auto po = std::make_shared<porep_opts_t>();
  po->declare(app);
  const opt_t prover_id =
      add_value(app, "--prover-id", "HEX|f0N",
                "the prover id (64 hex digits) or the miner's actor address f0N/t0N");
  const opt_t sector = add_value(app, "--sector", "N", "the sector number");
  const opt_t ticket = add_value(app, "--ticket", "HEX", "the sealing ticket (32 bytes)");
  const opt_t seed = add_value(app, "--seed", "HEX", "the interactive seed (32 bytes)");
  const opt_t data =
      add_value(app, "--data", "FILE", "the unpadded piece, exactly sector size × 127/128 bytes");
  const opt_t zeros = add_flag(app, "--zeros", "seal an all-zero piece");
  const opt_t random = add_value(
      app, "--random", "N",
      "seal the reference tool's random piece: SHA-256(N u64 LE ‖ i u64 LE), i = 0, 1, …");
  const opt_t out = add_value(app, "--out", "DIR", "where c1.json and commit.json go");
  const opt_t write_layers =
      add_flag(app, "--write-layers", "also write every layer's labels (labels-layer-L.bin)");
  const opt_t write_replica =
      add_flag(app, "--write-replica",
               "write the replica as replica.bin: the default (the sector key `filecoin update` "
               "needs); the flag is kept for scripts that name it");
  const opt_t no_replica = add_flag(app, "--no-replica",
                                    "do not write replica.bin (a sector's worth of disk less; "
                                    "`filecoin update` refuses such a folder)");
  const opt_t parent_cache =
      add_value(app, "--parent-cache", "DIR",
                "keep the graph's parent table (56 bytes a node) in DIR and reuse it next time");
  const opt_t sparse = add_flag(
      app, "--sparse",
      "TEST DATA, no replica: a C1 of any size in seconds, only the challenged nodes' labels "
      "computed from their parents, the rest pseudo-random from --random N (interactive PoRep)");
  filecoin_sub_t s;
  s.app = app;
  s.run = [=] {
    return run_seal(*po, prover_id, sector, ticket, seed, data, zeros, random, out, write_layers,
                    write_replica, no_replica, parent_cache, sparse);
  };
  return s;
}

// --- check-c1 --------------------------------------------------------------------------------

int run_check_c1(const porep_opts_t& po, const opt_t& c1_file, const opt_t& prover_id,
                 const opt_t& sector) {
  if (!c1_file.given()) throw usage_error("--c1 FILE is required");
  if (!prover_id.given()) throw usage_error("--prover-id HEX is required");
  if (!sector.given()) throw usage_error("--sector N is required");
  const zk::bytes32_t prover = fc::parse_prover_id(prover_id.one(), "--prover-id");
  const uint64_t sector_no = parse_uint_arg("--sector", sector.one());
  fc::c1_read_t read;
  try {
    read = fc::read_c1_file(c1_file.one());
  } catch (const zk::format_error& e) {
    std::printf("INVALID: %s\n", e.what());
    return 1;
  }
  const fc::c1_output_t& c1 = read.c1;
  const fc::porep_config_t c = po.config(c1.registered_proof);
  if (const check_t ok = fc::check_c1(c, c1, read.wrapper, {prover, sector_no, std::nullopt});
      !ok) {
    std::printf("INVALID: %s\n", ok.reason().c_str());
    return 1;
  }
  std::printf("OK: the vanilla proofs are valid (%s, %zu partition%s)\n",
              std::string(c.proof->name).c_str(), c1.vanilla_proofs.size(),
              c1.vanilla_proofs.size() == 1 ? "" : "s");
  return 0;
}

filecoin_sub_t add_check_c1(CLI::App* group) {
  CLI::App* app = add_command(*group, "check-c1",
                              "check a C1's vanilla proofs (every path, column, label and the "
                              "encoding) and its replica_id; exit 0 when valid (the proof: the "
                              "C1's unless --registered-proof names it)");
  auto po = std::make_shared<porep_opts_t>();
  po->declare(app);
  const opt_t c1 = add_value(app, "--c1", "FILE",
                             "the C1 output (the API's JSON or the lotus-bench / curio wrapper)");
  const opt_t prover_id =
      add_value(app, "--prover-id", "HEX|f0N",
                "the prover id (64 hex digits) or the miner's actor address f0N/t0N");
  const opt_t sector = add_value(app, "--sector", "N", "the sector number");
  filecoin_sub_t s;
  s.app = app;
  s.run = [=] { return run_check_c1(*po, c1, prover_id, sector); };
  return s;
}

// --- the group -------------------------------------------------------------------------------

using sub_factory_t = filecoin_sub_t (*)(CLI::App*);
constexpr sub_factory_t k_subcommands[] = {add_verify,
                                           add_verify_update,
                                           add_derive,
                                           add_c1,
                                           add_vk,
                                           add_params,
                                           add_seal,
                                           add_check_c1,
                                           add_filecoin_prove,
                                           add_filecoin_prove_update,
                                           add_filecoin_setup,
                                           add_filecoin_synthesize,
                                           add_filecoin_budget,
                                           add_filecoin_update};

int run_filecoin(const std::vector<filecoin_sub_t>& subs) {
  for (const filecoin_sub_t& s : subs) {
    if (!s.app->parsed()) continue;
    command_t sub;
    sub.app = s.app;
    sub.takes = s.takes;
    finish_parse(sub);
    try {
      return s.run();
    } catch (const std::invalid_argument& e) {  // a malformed value: bad input, exit 1
      std::fprintf(stderr, "zkfleet filecoin %s: %s\n", s.app->get_name().c_str(), e.what());
      return 1;
    }
  }
  std::string names;
  for (const auto& s : subs) names += (names.empty() ? "" : ", ") + s.app->get_name();
  throw usage_error("filecoin needs a command: " + names);
}

}  // namespace

opt_t add_update_proof_option(CLI::App* app) {
  return add_value(app, "--registered-update-proof", "NAME",
                   "the RegisteredUpdateProof, StackedDrg2KiBV1 … StackedDrg64GiBV1 (required)");
}

void add_filecoin_command(CLI::App& root, commands_t& out) {
  CLI::App* app =
      add_command(root, "filecoin",
                  "Filecoin PoRep and SnapDeals: seal a sector and update it, check and rewrite "
                  "C1 outputs, verify a sector's or an update's proof, derive its challenges and "
                  "public inputs, read keys and parameters");
  std::vector<filecoin_sub_t> subs;
  for (sub_factory_t f : k_subcommands) subs.push_back(f(app));
  std::string names;
  for (const auto& s : subs) names += (names.empty() ? "" : ", ") + s.app->get_name();
  app->footer("Run `zkfleet filecoin <command> --help` for one command (" + names + ").");
  command_t c;
  c.app = app;
  c.takes = "filecoin takes a command: " + names;
  c.run = [subs] { return run_filecoin(subs); };
  out.push_back(std::move(c));
}

}  // namespace zk::apps
