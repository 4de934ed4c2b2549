// The prover engine's precomputed base tables (resident keys): built when a key is mapped if they
// fit the precompute budget, counted in precompute_bytes(), proofs with them verify; a key whose
// tables would exceed what is left proves without them; off by default.
#include <doctest/doctest.h>

#include <string>

#include "node/job_spec.hpp"
#include "node/prover/prover_engine.hpp"
#include "node/synth/synthesize.hpp"
#include "tests/test_util.hpp"

using namespace zk::node;

TEST_CASE("prover engine: precomputed tables within the budget, counted, proofs verify") {
  const std::string mc = zk::test::fixture_dir("bn254", "mulchain"),
                    ps = zk::test::fixture_dir("bn254", "poseidon");
  circuit_def_t a = describe_zkey_circuit("mulchain", mc + "/circuit.zkey", "");
  circuit_def_t b = describe_zkey_circuit("poseidon", ps + "/circuit.zkey", "");
  zk::buffer::buffer_store_t store(64ull << 20);
  csr_cache_t cache;
  auto ma = synthesize(a, partition_spec(circom_job_spec({mc + "/witness.wtns"}), 0),
                       mc + "/witness.wtns", mc + "/witness.wtns", 1, 1, 0, store, cache);
  auto mb = synthesize(b, partition_spec(circom_job_spec({ps + "/witness.wtns"}), 0),
                       ps + "/witness.wtns", ps + "/witness.wtns", 2, 1, 0, store, cache);
  auto ba = store.find(ma.buffer_id), bb = store.find(mb.buffer_id);
  REQUIRE(ba);
  REQUIRE(bb);

  prover_engine_t off;  // default: no tables
  off.load(a);
  CHECK(off.precompute_bytes() == 0);
  CHECK(off.prove(a, *ba).proof_json.size() > 0);

  const zk::groth16::precompute_t pre{true, 2};
  zk::formats::zkey_file_t za(a.zkey), zb(b.zkey);
  const auto need_a = zk::groth16::key_tables_t<zk::curves::bn254>::bytes_for(
      zk::groth16::proving_key_t<zk::curves::bn254>::view(za), pre);
  const auto need_b = zk::groth16::key_tables_t<zk::curves::bn254>::bytes_for(
      zk::groth16::proving_key_t<zk::curves::bn254>::view(zb), pre);
  REQUIRE(need_a > 0);

  prover_engine_t engine;
  engine.set_precompute(pre, need_a + need_b / 2);  // room for a's tables, not for b's too
  engine.load(a);
  CHECK(engine.precompute_bytes() == need_a);
  engine.load(b);
  CHECK(engine.precompute_bytes() == need_a);  // b proves without
  // Both prove (prove_verified checks each proof with the key's verification key).
  CHECK_NOTHROW(engine.prove(a, *ba));
  CHECK_NOTHROW(engine.prove(b, *bb));

  prover_engine_t roomy;
  roomy.set_precompute(pre, need_a + need_b);
  roomy.load(b);
  roomy.load(a);
  CHECK(roomy.precompute_bytes() == need_a + need_b);
  CHECK_NOTHROW(roomy.prove(b, *bb));
}
