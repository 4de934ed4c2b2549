// zkfleet filecoin update: a SnapDeals update of a sector `zkfleet filecoin seal` sealed
// (zk/filecoin/update/encode.hpp, docs/filecoin.md "SnapDeals").
//
//   zkfleet filecoin update --registered-update-proof NAME --sector-key DIR
//       (--data FILE | --random N) --out DIR
//
// DIR (--sector-key) is a full seal's folder: commit.json (the sector size, comm_c, comm_r_last,
// comm_r) and replica.bin (the sector key). The update writes, once its own vanilla proofs pass
// verify_update_partitions (nothing is written otherwise):
//   DIR/replica-new.bin   the new replica (32-byte nodes)
//   DIR/vanilla.json      the partitions' vanilla proofs as Curio's snap-vproof.json holds them
//   DIR/update.json       the commitments (64 hex digits each), the partition count, timings
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "apps/cmd_filecoin.hpp"
#include "zk/base/error.hpp"
#include "zk/base/files.hpp"
#include "zk/base/hex.hpp"
#include "zk/filecoin/api/registry.hpp"
#include "zk/filecoin/api/seal.hpp"
#include "zk/filecoin/core/fr32.hpp"
#include "zk/filecoin/update/encode.hpp"
#include "zk/filecoin/update/vanilla.hpp"
#include "zk/filecoin/update/vanilla_proof.hpp"

namespace zk::apps {
namespace {

namespace fc = zk::filecoin;
using ojson_t = nlohmann::ordered_json;

// commit.json is a few kilobytes; anything far larger is not a seal's.
constexpr uint64_t max_commit_json_bytes = 1 << 24;

struct update_opts_t {
  opt_t proof_name, sector_key, data, random, out;
};

// What an update takes from a seal's folder.
struct sealed_sector_t {
  zk::bytes32_t comm_c{}, comm_r_last{}, comm_r{};
  std::vector<zk::bytes32_t> replica;
};

// A 32-byte commitment of commit.json, named with the file when absent or malformed.
zk::bytes32_t commitment(const nlohmann::json& j, const char* key, const std::string& file) {
  if (!j.contains(key) || !j[key].is_string())
    throw std::invalid_argument(file + ": no \"" + std::string(key) +
                                "\" (a seal's commit.json has comm_c, comm_r_last and comm_r)");
  return zk::parse_hex32(j[key].get<std::string>(), file + " \"" + key + "\"");
}

// The seal's folder: commit.json of a full seal of the update's sector size, and replica.bin.
sealed_sector_t read_sealed_sector(const std::string& dir, const fc::update_config_t& c) {
  const std::string commit_file = dir + "/commit.json";
  if (!std::filesystem::is_regular_file(commit_file))
    throw std::invalid_argument("--sector-key " + dir +
                                " has no commit.json: it must be the --out folder of `zkfleet "
                                "filecoin seal`");
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(zk::read_text(commit_file, max_commit_json_bytes));
  } catch (const nlohmann::json::exception& e) {
    throw std::invalid_argument(commit_file + ": not JSON: " + e.what());
  }
  if (!j.is_object()) throw std::invalid_argument(commit_file + ": not a JSON object");
  if (j.value("sparse", false))
    throw std::invalid_argument(
        "--sector-key " + dir +
        " is a sparse seal's folder (seal --sparse, TEST DATA): no replica exists there, only "
        "the challenged nodes' labels were computed, and an update encodes its data into the "
        "whole replica (the sector key); seal the sector without --sparse");
  if (!j.contains("sector_size") || !j["sector_size"].is_number_unsigned())
    throw std::invalid_argument(commit_file + ": no \"sector_size\"");
  const uint64_t size = j["sector_size"].get<uint64_t>();
  if (size != c.sector_size)
    throw std::invalid_argument("--sector-key " + dir + " holds a " + std::to_string(size) +
                                "-byte sector (" + j.value("registered_proof", std::string("?")) +
                                "); --registered-update-proof " + std::string(c.proof->name) +
                                " updates " + std::to_string(c.sector_size) + "-byte sectors");
  sealed_sector_t s;
  s.comm_c = commitment(j, "comm_c", commit_file);
  s.comm_r_last = commitment(j, "comm_r_last", commit_file);
  s.comm_r = commitment(j, "comm_r", commit_file);

  const std::string replica_file = dir + "/replica.bin";
  std::error_code ec;
  const uint64_t bytes = std::filesystem::file_size(replica_file, ec);
  if (ec)
    throw std::invalid_argument("--sector-key " + dir + " has no replica.bin (" + ec.message() +
                                "): the sector key is the replica `zkfleet filecoin seal` writes "
                                "there unless --no-replica is given");
  if (bytes != c.sector_size)
    throw std::invalid_argument(replica_file + " has " + std::to_string(bytes) +
                                " bytes; the sector's replica is " + std::to_string(c.sector_size));
  // Read in place: a sector's worth of memory, not two.
  s.replica.resize(c.nodes);
  std::ifstream f(replica_file, std::ios::binary);
  if (!f.read(reinterpret_cast<char*>(s.replica.data()), std::streamsize(c.sector_size)))
    throw std::runtime_error(replica_file + ": cannot read " + std::to_string(c.sector_size) +
                             " bytes: " + std::strerror(errno));
  return s;
}

// The new data, fr32-padded: --data FILE (the unpadded piece) or --random N.
std::vector<zk::bytes32_t> read_new_data(const update_opts_t& o, const fc::update_config_t& c,
                                         ojson_t& source) {
  const uint64_t unpadded = fc::fr32_unpadded_size(c.sector_size);
  std::vector<uint8_t> piece;
  if (o.data.given()) {
    const std::string& file = o.data.one();
    std::error_code ec;
    const uint64_t bytes = std::filesystem::file_size(file, ec);
    if (ec) throw std::invalid_argument("--data " + file + ": " + ec.message());
    if (bytes != unpadded)
      throw std::invalid_argument(
          "--data " + file + " has " + std::to_string(bytes) + " bytes; the unpadded piece of a " +
          std::to_string(c.sector_size) + "-byte sector is " + std::to_string(unpadded) + " bytes");
    const std::string text = zk::read_text(file, unpadded);
    piece.assign(text.begin(), text.end());
    source = {{"kind", "data"}, {"file", file}};
  } else {
    const uint64_t seed = parse_uint_arg("--random", o.random.one());
    piece = fc::random_piece(seed, unpadded);
    source = {{"kind", "random"},
              {"seed", seed},
              {"generator", "SHA-256(seed u64 LE || i u64 LE), i = 0,1,..., concatenated, cut"}};
  }
  std::vector<zk::bytes32_t> data(c.nodes);
  fc::fr32_pad(piece.data(), piece.size(), data[0].data());
  return data;
}

int run_update(const update_opts_t& o) {
  require_options({{&o.proof_name, "--registered-update-proof NAME"},
                   {&o.sector_key, "--sector-key DIR"},
                   {&o.out, "--out DIR"}});
  if (int(o.data.given()) + int(o.random.given()) != 1)
    throw usage_error("give exactly one of --data FILE, --random N");
  const fc::update_config_t c = fc::update_config(fc::registered_update_proof(o.proof_name.one()));
  const sealed_sector_t s = read_sealed_sector(o.sector_key.one(), c);
  ojson_t source;
  const std::vector<zk::bytes32_t> data = read_new_data(o, c, source);

  // The library names the node or the root; the message adds the files and options.
  fc::update_encoding_t e;
  try {
    e = fc::encode_update(
        c, s.comm_c, s.replica, data,
        [](const std::string& stage) { std::fprintf(stderr, "update: %s\n", stage.c_str()); },
        s.comm_r_last);
  } catch (const std::invalid_argument& x) {
    throw std::invalid_argument(
        o.sector_key.one() + "/replica.bin (comm_c, comm_r_last: its " + "commit.json) with " +
        (o.data.given() ? "--data " + o.data.one() : "--random " + o.random.one()) + ": " +
        x.what());
  }
  // commit.json's own commitments agree (comm_r = Poseidon2(comm_c, comm_r_last)).
  if (e.comm_r_old != s.comm_r)
    throw std::invalid_argument(o.sector_key.one() + "/commit.json: comm_r " +
                                zk::to_hex(s.comm_r) + " is not Poseidon2(comm_c, comm_r_last) " +
                                zk::to_hex(e.comm_r_old));
  const fc::update_commitments_t comms{e.comm_r_old, e.comm_d_new, e.comm_r_new};
  if (const check_t ok = fc::verify_update_partitions(c, comms, e.proofs); !ok)
    throw std::runtime_error(
        "the update's own vanilla proofs fail verification (nothing written): " + ok.reason());

  const std::string dir = o.out.one();
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw std::runtime_error("cannot create --out " + dir + ": " + ec.message());
  zk::write_file_atomic(dir + "/replica-new.bin",
                        std::string_view(reinterpret_cast<const char*>(e.replica.data()),
                                         e.replica.size() * sizeof(zk::bytes32_t)));
  std::vector<std::vector<uint8_t>> partitions;
  for (const fc::update_partition_proof_t& p : e.proofs)
    partitions.push_back(fc::encode_update_partition_proof(p));
  zk::write_file_atomic(dir + "/vanilla.json", fc::snap_vproof_json(partitions));

  ojson_t j;
  j["registered_update_proof"] = std::string(c.proof->name);
  j["sector_size"] = c.sector_size;
  j["comm_r_old"] = zk::to_hex(e.comm_r_old);
  j["comm_r_new"] = zk::to_hex(e.comm_r_new);
  j["comm_d_new"] = zk::to_hex(e.comm_d_new);
  j["comm_r_last_new"] = zk::to_hex(e.comm_r_last_new);
  j["comm_c"] = zk::to_hex(e.comm_c);
  j["partitions"] = c.partitions;
  j["data_source"] = source;
  j["files"] = {{"replica", "replica-new.bin"}, {"vanilla_proofs", "vanilla.json"}};
  j["timings_s"] = {{"tree_d", e.seconds.tree_d}, {"tree_r_old", e.seconds.tree_r_old},
                    {"encode", e.seconds.encode}, {"tree_r_new", e.seconds.tree_r_new},
                    {"proofs", e.seconds.proofs}, {"total", e.seconds.total}};
  const std::string text = j.dump(2) + "\n";
  zk::write_file_atomic(dir + "/update.json", text);
  std::fputs(text.c_str(), stdout);
  return 0;
}

}  // namespace

filecoin_sub_t add_filecoin_update(CLI::App* group) {
  CLI::App* app = add_command(
      *group, "update",
      "a SnapDeals update (EmptySectorUpdate encode_into and its vanilla partition proofs) of a "
      "sector `zkfleet filecoin seal` sealed: write DIR/update.json (the commitments), "
      "DIR/vanilla.json (Curio's snap-vproof.json) and DIR/replica-new.bin");
  auto o = std::make_shared<update_opts_t>();
  o->proof_name = add_update_proof_option(app);
  o->sector_key = add_value(app, "--sector-key", "DIR",
                            "the --out folder of a full `zkfleet filecoin seal` of the sector: "
                            "its commit.json and replica.bin (the sector key)");
  o->data = add_value(app, "--data", "FILE",
                      "the new unpadded piece, exactly sector size × 127/128 bytes");
  o->random = add_value(
      app, "--random", "N",
      "the reference tool's random piece as new data: SHA-256(N u64 LE ‖ i u64 LE), i = 0, 1, …");
  o->out = add_value(app, "--out", "DIR", "where update.json, vanilla.json and replica-new.bin go");
  app->footer(
      "The update's own vanilla proofs are checked (verify_update_partitions) before anything is "
      "written. A sparse seal's folder is refused: it has no replica.");
  return {app, [o] { return run_update(*o); }, "filecoin update takes options only"};
}

}  // namespace zk::apps
