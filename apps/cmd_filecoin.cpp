// zkfleet filecoin: Filecoin PoRep (zk/filecoin, docs/filecoin.md).
//
//   zkfleet filecoin seal --registered-proof NAME --prover-id HEX --sector N --ticket HEX
//       --seed HEX (--data FILE | --zeros | --random N) --out DIR [--porep-id HEX]
//       [--api-version V] [--write-layers] [--write-replica]
//   zkfleet filecoin check-c1 --c1 FILE --prover-id HEX --sector N
//       [--porep-id HEX] [--api-version V]
//
// The group is a table of subcommands (k_subcommands below): a new one is a function that
// declares its options on the group and returns what to run. (fc-b's part; fc-a's verify, derive
// and c1 join the same table.)
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "apps/commands.hpp"
#include "zk/base/error.hpp"
#include "zk/filecoin/derive.hpp"
#include "zk/filecoin/fr32.hpp"
#include "zk/filecoin/registry.hpp"
#include "zk/filecoin/seal.hpp"
#include "zk/filecoin/vanilla_json.hpp"

namespace zk::apps {
namespace {

namespace fc = zk::filecoin;
using ojson = nlohmann::ordered_json;

// One subcommand of `filecoin`: its app, what it runs once its line is parsed, and its usage
// sentence for a stray word.
struct filecoin_sub_t {
  CLI::App* app = nullptr;
  std::function<int()> run;
  std::string takes;
};

// --registered-proof, --api-version, --porep-id.
struct seal_porep_opts_t {
  opt_t proof, api_version, porep_id;

  void declare(CLI::App* app) {
    proof = add_value(app, "--registered-proof", "NAME",
                      "the RegisteredSealProof, e.g. StackedDrg2KiBV1_1 (required)");
    api_version = add_value(app, "--api-version", "V1_0_0|V1_1_0|V1_2_0",
                            "override the proof's ApiVersion (it changes the graphs)");
    porep_id = add_value(app, "--porep-id", "HEX",
                         "override the porep_id (32 bytes; default: the proof's id, nonce 0)");
  }
  // `fallback`: the proof when --registered-proof is not given (check-c1: the C1's own).
  fc::porep_config_t config(const fc::registered_proof_t* fallback = nullptr) const {
    if (!proof.given() && !fallback) throw usage_error("--registered-proof NAME is required");
    const fc::registered_proof_t& p = proof.given() ? fc::registered_proof(proof.one()) : *fallback;
    std::optional<fc::api_version_t> v;
    if (api_version.given()) v = fc::parse_api_version(api_version.one());
    std::optional<fc::bytes32_t> id;
    if (porep_id.given()) id = fc::parse_hex32(porep_id.one(), "--porep-id");
    return fc::porep_config(p, v, id);
  }
};

std::vector<uint8_t> read_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw std::invalid_argument("cannot read " + path);
  return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

void write_file(const std::string& path, const void* data, size_t n) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f.write(static_cast<const char*>(data), std::streamsize(n));
  if (!f) throw std::runtime_error("cannot write " + path);
}

void write_text(const std::string& path, const std::string& text) {
  write_file(path, text.data(), text.size());
}

ojson hex(const fc::bytes32_t& b) { return fc::to_hex(b); }

// --- seal ------------------------------------------------------------------------------------

int run_seal(const seal_porep_opts_t& po, const opt_t& prover_id, const opt_t& sector,
             const opt_t& ticket, const opt_t& seed, const opt_t& data, const opt_t& zeros,
             const opt_t& random, const opt_t& out, const opt_t& write_layers,
             const opt_t& write_replica) {
  const std::pair<const opt_t*, const char*> required[] = {{&prover_id, "--prover-id HEX"},
                                                           {&sector, "--sector N"},
                                                           {&ticket, "--ticket HEX"},
                                                           {&seed, "--seed HEX"},
                                                           {&out, "--out DIR"}};
  for (const auto& [o, what] : required)
    if (!o->given()) throw usage_error(std::string(what) + " is required");
  if (int(data.given()) + int(zeros.given()) + int(random.given()) != 1)
    throw usage_error("give exactly one of --data FILE, --zeros, --random N");

  fc::seal_request_t req;
  req.config = po.config();
  req.prover_id = fc::parse_hex32(prover_id.one(), "--prover-id");
  req.sector = parse_uint_arg("--sector", sector.one());
  req.ticket = fc::parse_hex32(ticket.one(), "--ticket");
  req.seed = fc::parse_hex32(seed.one(), "--seed");
  const uint64_t unpadded = fc::fr32_unpadded_size(req.config.sector_size);
  ojson source;
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
  req.keep_replica = write_replica.given();
  const std::string dir = out.one();
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw std::invalid_argument("cannot create --out " + dir + ": " + ec.message());

  const fc::seal_result_t r = fc::seal_sector(
      req, [](const std::string& s) { std::fprintf(stderr, "seal: %s\n", s.c_str()); });

  fc::c1_fields_t c1;
  c1.proof = req.config.proof;
  c1.comm_r = r.comm_r;
  c1.comm_d = r.comm_d;
  c1.replica_id = r.replica_id;
  c1.seed = req.seed;
  c1.ticket = req.ticket;
  c1.vanilla_proofs = r.vanilla_proofs;
  write_text(dir + "/c1.json", fc::c1_json(c1).dump());

  std::vector<std::string> layer_files;
  for (size_t l = 0; l < r.layers.size(); ++l) {
    const std::string name = "labels-layer-" + std::to_string(l + 1) + ".bin";
    write_file(dir + "/" + name, r.layers[l].data(), r.layers[l].size() * 32);
    layer_files.push_back(name);
  }
  if (!r.replica.empty()) write_file(dir + "/replica.bin", r.replica.data(), r.replica.size() * 32);

  ojson commit;
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
  commit["piece_source"] = source;
  commit["files"] = {{"c1", "c1.json"},
                     {"labels", layer_files},
                     {"replica", r.replica.empty() ? ojson() : ojson("replica.bin")}};
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
  write_text(dir + "/commit.json", text);
  std::fputs(text.c_str(), stdout);
  return 0;
}

filecoin_sub_t add_seal(CLI::App* group) {
  CLI::App* app = add_command(*group, "seal",
                              "seal a sector (PC1, PC2, C1): write DIR/c1.json (the API's C1 "
                              "JSON) and DIR/commit.json (commitments, replica_id, challenges)");
  auto po = std::make_shared<seal_porep_opts_t>();
  po->declare(app);
  const opt_t prover_id = add_value(app, "--prover-id", "HEX", "the prover id (32 bytes)");
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
  const opt_t write_replica = add_flag(app, "--write-replica", "also write the replica");
  filecoin_sub_t s;
  s.app = app;
  s.run = [=] {
    return run_seal(*po, prover_id, sector, ticket, seed, data, zeros, random, out, write_layers,
                    write_replica);
  };
  return s;
}

// --- check-c1 --------------------------------------------------------------------------------

int run_check_c1(const seal_porep_opts_t& po, const opt_t& c1_file, const opt_t& prover_id,
                 const opt_t& sector) {
  if (!c1_file.given()) throw usage_error("--c1 FILE is required");
  if (!prover_id.given()) throw usage_error("--prover-id HEX is required");
  if (!sector.given()) throw usage_error("--sector N is required");
  const fc::bytes32_t prover = fc::parse_hex32(prover_id.one(), "--prover-id");
  const uint64_t sector_no = parse_uint_arg("--sector", sector.one());
  fc::c1_fields_t c1;
  try {
    std::ifstream f(c1_file.one());
    if (!f) throw std::invalid_argument("cannot read " + c1_file.one());
    nlohmann::json j;
    try {
      j = nlohmann::json::parse(f);
    } catch (const nlohmann::json::parse_error& e) {
      throw zk::format_error(c1_file.one() + ": not JSON (" + e.what() + ")");
    }
    c1 = fc::c1_from_json(j, c1_file.one());
  } catch (const zk::format_error& e) {
    std::printf("INVALID: %s\n", e.what());
    return 1;
  }
  const fc::porep_config_t c = po.config(c1.proof);
  if (c.proof != c1.proof) {
    std::printf("INVALID: the C1 is for %s, not %s\n", std::string(c1.proof->name).c_str(),
                std::string(c.proof->name).c_str());
    return 1;
  }
  const fc::bytes32_t rid = fc::replica_id(prover, sector_no, c1.ticket, c1.comm_d, c.porep_id);
  if (rid != c1.replica_id) {
    std::printf(
        "INVALID: the C1's replica_id %s is not %s (prover, sector, ticket, comm_d, "
        "porep_id)\n",
        fc::to_hex(c1.replica_id).c_str(), fc::to_hex(rid).c_str());
    return 1;
  }
  const fc::graph_t g(c);
  if (auto e = fc::check_vanilla_proofs(c, g, {c1.replica_id, c1.comm_d, c1.comm_r, c1.seed},
                                        c1.vanilla_proofs)) {
    std::printf("INVALID: %s\n", e->c_str());
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
  auto po = std::make_shared<seal_porep_opts_t>();
  po->declare(app);
  const opt_t c1 = add_value(app, "--c1", "FILE", "the C1 output (the API's JSON)");
  const opt_t prover_id = add_value(app, "--prover-id", "HEX", "the prover id (32 bytes)");
  const opt_t sector = add_value(app, "--sector", "N", "the sector number");
  filecoin_sub_t s;
  s.app = app;
  s.run = [=] { return run_check_c1(*po, c1, prover_id, sector); };
  return s;
}

using sub_factory_t = filecoin_sub_t (*)(CLI::App*);
constexpr sub_factory_t k_subcommands[] = {add_seal, add_check_c1};

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

void add_filecoin_command(CLI::App& root, commands_t& out) {
  CLI::App* app =
      add_command(root, "filecoin", "Filecoin PoRep: seal a sector and check C1 vanilla proofs");
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
