// The prover engine against its key file on disk: a zkey rewritten in place (cut shorter) after
// the prover mapped it is refused with the reason — never read, which would fault (SIGBUS) on
// the pages past the new end — and stays refused; a fresh engine proves with the file again.
#include <doctest/doctest.h>

#include <filesystem>
#include <string>

#include "actors/engine.hpp"
#include "tests/test_util.hpp"

using namespace zk::actors;
namespace fs = std::filesystem;

TEST_CASE("prover engine: a key file changed on disk after mapping is refused, not read") {
  zk::test::temp_dir tmp("zk_engine_key");
  const std::string mc = zk::test::fixture_dir("bn254", "mulchain");
  const std::string zkey = tmp.file("circuit.zkey");
  fs::copy_file(mc + "/circuit.zkey", zkey);
  circuit_def_t c = describe_zkey_circuit("mulchain", zkey, "");
  zk::buffer::buffer_store_t store(64ull << 20);
  synth_cache_t cache;
  auto made = synthesize(c, {mc + "/witness.wtns"}, 1, 1, 0, store, cache);
  auto buf = store.find(made.buffer_id);
  REQUIRE(buf);

  prover_engine_t engine;
  auto first = engine.prove(c, *buf);
  CHECK_FALSE(first.proof_json.empty());

  fs::resize_file(zkey, fs::file_size(zkey) / 2);  // in place: the mapping's pages past the end are gone
  std::string e;
  try {
    engine.prove(c, *buf);
  } catch (const std::exception& ex) {
    e = ex.what();
  }
  CAPTURE(e);
  CHECK(e.find("circuit 'mulchain': " + zkey + " changed on disk after this prover mapped it") != std::string::npos);
  CHECK(e.find("rewritten in place") != std::string::npos);
  // Restored, it is still refused: the circuit's registration is of the key that was there.
  fs::copy_file(mc + "/circuit.zkey", zkey, fs::copy_options::overwrite_existing);
  CHECK_THROWS_WITH(engine.prove(c, *buf), doctest::Contains("changed on disk"));
  // A new engine (a restarted prover) maps it and proves.
  prover_engine_t fresh;
  CHECK_FALSE(fresh.prove(c, *buf).proof_json.empty());
}
