// The prover engine against its key file on disk. The mapped file rewritten in place (cut shorter,
// other bytes) is unmapped before anything reads it — a page past a shortened end would fault
// (SIGBUS) — and mapped again; the new mapping proves only with the bytes first mapped. Touching
// the file changes nothing; a new file renamed over the old one leaves the mapping in use.
#include "node/prover/prover_engine.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "node/job_spec.hpp"
#include "node/synth/synthesize.hpp"
#include "tests/test_util.hpp"

using namespace zk::node;
namespace fs = std::filesystem;

namespace {

std::string error_of(prover_engine_t& engine, const circuit_def_t& c,
                     const zk::buffer::buffer_ref_t& b) {
  try {
    engine.prove(c, b);
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("prover engine: its key file rewritten, touched or replaced on disk while mapped") {
  zk::test::temp_dir_t tmp("zk_engine_key");
  const std::string mc = zk::test::fixture_dir("bn254", "mulchain"),
                    other = zk::test::fixture_dir("bn254", "poseidon");
  const std::string zkey = tmp.file("circuit.zkey");
  fs::copy_file(mc + "/circuit.zkey", zkey);
  circuit_def_t c = describe_zkey_circuit("mulchain", zkey, "");
  zk::buffer::buffer_store_t store(64ull << 20);
  csr_cache_t cache;
  auto made = synthesize(c, partition_spec(circom_job_spec({mc + "/witness.wtns"}), 0),
                         mc + "/witness.wtns", mc + "/witness.wtns", 1, 1, 0, store, cache);
  auto buf = store.find(made.buffer_id);
  REQUIRE(buf);
  prover_engine_t engine;
  REQUIRE(error_of(engine, c, *buf) == "");

  SUBCASE("cut shorter in place: refused naming the file, then proves once the bytes are back") {
    fs::resize_file(zkey, fs::file_size(zkey) / 2);
    const std::string e = error_of(engine, c, *buf);
    CAPTURE(e);
    CHECK(e.find(zkey) != std::string::npos);  // the reload's format error names it
    fs::copy_file(mc + "/circuit.zkey", zkey,
                  fs::copy_options::overwrite_existing);  // same inode, same bytes
    CHECK(error_of(engine, c, *buf) == "");
  }
  SUBCASE("rewritten in place with other bytes (its last byte flipped): refused as another key") {
    std::fstream f(zkey, std::ios::in | std::ios::out | std::ios::binary);
    f.seekg(-1, std::ios::end);
    const char last = char(f.get());
    f.seekp(-1, std::ios::end);
    f.put(char(last ^ 1));
    f.close();
    const std::string e = error_of(engine, c, *buf);
    CAPTURE(e);
    CHECK(e.find("was rewritten in place with other bytes since this prover first mapped it") !=
          std::string::npos);
    fs::copy_file(mc + "/circuit.zkey", zkey, fs::copy_options::overwrite_existing);
    CHECK(error_of(engine, c, *buf) == "");
  }
  SUBCASE("touched: proves") {
    fs::last_write_time(zkey, fs::last_write_time(zkey) + std::chrono::seconds(5));
    CHECK(error_of(engine, c, *buf) == "");
  }
  SUBCASE("another file renamed over it: the intact mapping keeps proving") {
    const std::string next = tmp.file("next.zkey");
    fs::copy_file(other + "/circuit.zkey", next);
    fs::rename(next, zkey);
    CHECK(error_of(engine, c, *buf) == "");
  }
}
