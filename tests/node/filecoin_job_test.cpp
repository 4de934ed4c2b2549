// node/filecoin_job and node/synth/filecoin_synth: a Filecoin C2 job's intake (a 2 KiB sector
// sealed here, its C1 written as the API's JSON and as the lotus wrapper: accepted; every refusal
// names what is wrong), the assembly of the sector's proof in partition order, and a partition
// synthesized into a synth buffer (its public signals the derived inputs; a C1 whose vanilla
// proofs leave a constraint unsatisfied is a bad_input_error naming the constraint).
#include "node/filecoin_job.hpp"

#include <doctest/doctest.h>

#include <cstring>
#include <string>
#include <vector>

#include "node/job_inputs.hpp"
#include "node/synth/filecoin_synth.hpp"
#include "node/verify_proof.hpp"
#include "tests/test_util.hpp"
#include "zk/base/hex.hpp"
#include "zk/bellperson/groth16/files.hpp"
#include "zk/filecoin/api/seal.hpp"
#include "zk/filecoin/core/fr32.hpp"
#include "zk/filecoin/porep/circuit/public_inputs.hpp"
#include "zk/filecoin/porep/vanilla/graph.hpp"
#include "zk/formats/json.hpp"

namespace fc = zk::filecoin;
using zk::node::circuit_def_t;
using zk::test::contains;

namespace {

struct sector_t {
  fc::seal_request_t req;
  fc::c1_output_t c1;
};

const sector_t& sealed_2k() {
  static const sector_t s = [] {
    sector_t s;
    s.req.config = fc::porep_config(fc::registered_proof("StackedDrg2KiBV1_1"));
    s.req.prover_id.fill(0x11);
    s.req.sector = 42;
    s.req.ticket.fill(0x22);
    s.req.seed.fill(0x33);
    s.req.piece = fc::random_piece(9, fc::fr32_unpadded_size(s.req.config.sector_size));
    const fc::seal_result_t r = fc::seal_sector(s.req);
    s.c1.registered_proof = s.req.config.proof;
    s.c1.vanilla_proofs = r.vanilla_proofs;
    s.c1.comm_r = r.comm_r;
    s.c1.comm_d = r.comm_d;
    s.c1.replica_id = r.replica_id;
    s.c1.seed = s.req.seed;
    s.c1.ticket = s.req.ticket;
    return s;
  }();
  return s;
}

// The circuit as the scheduler describes it (counts, digest), without a .vk.
const circuit_def_t& circuit_2k() {
  static const circuit_def_t c = zk::node::filecoin_circuit("fc2k", "StackedDrg2KiBV1_1");
  return c;
}

std::string hex(const zk::bytes32_t& b) { return zk::to_hex(b); }

std::vector<std::string> job(const std::string& c1, const std::string& prover, uint64_t sector) {
  return {c1, "prover_id=" + prover, "sector=" + std::to_string(sector)};
}

}  // namespace

TEST_CASE("filecoin job: a sealed C1 is accepted, as JSON and as the lotus wrapper") {
  const auto& s = sealed_2k();
  zk::test::temp_dir_t dir("zk_fcjob");
  const std::string json = (dir.path() / "c1.json").string();
  const std::string wrapped = (dir.path() / "c1-wrapped.json").string();
  zk::test::write_text(json, fc::write_c1_json(s.c1));
  zk::test::write_text(wrapped, fc::write_c1_wrapper_json(s.c1, 42));
  const auto& c = circuit_2k();
  CHECK(c.kind == zk::node::circuit_kind_t::filecoin_porep);
  CHECK(c.n_public == 39);  // the 2 KiB circuit: 40 inputs, ONE included
  CHECK_FALSE(zk::node::check_job_inputs(c, job(json, hex(s.req.prover_id), 42), 1));
  CHECK_FALSE(zk::node::check_job_inputs(c, job(wrapped, hex(s.req.prover_id), 42), 1));
  // The arguments in any order.
  CHECK_FALSE(
      zk::node::check_job_inputs(c, {"sector=42", json, "prover_id=" + hex(s.req.prover_id)}, 1));
}

TEST_CASE("filecoin job: refusals at submit name what is wrong") {
  const auto& s = sealed_2k();
  zk::test::temp_dir_t dir("zk_fcjob");
  const std::string json = (dir.path() / "c1.json").string();
  zk::test::write_text(json, fc::write_c1_json(s.c1));
  const auto& c = circuit_2k();
  const std::string prover = hex(s.req.prover_id);
  auto refusal = [&](const std::vector<std::string>& in, uint32_t parts = 1) {
    auto why = zk::node::check_job_inputs(c, in, parts);
    REQUIRE(why);
    return *why;
  };
  // The wrong sector or prover id: the replica_id does not derive.
  CHECK(contains(refusal(job(json, prover, 43)), "wrong prover id or sector"));
  CHECK(contains(refusal(job(json, std::string(64, '9'), 42)), "replica_id"));
  // The C1's partitions are the job's.
  CHECK(contains(refusal(job(json, prover, 42), 2), "the C1 has 1 partition(s)"));
  // Another registered proof (the same circuit, another porep_id): refused by name.
  circuit_def_t v1 = c;
  v1.native_params = "StackedDrg2KiBV1";
  auto why = zk::node::check_job_inputs(v1, job(json, prover, 42), 1);
  REQUIRE(why);
  CHECK(contains(*why, "the C1 is for StackedDrg2KiBV1_1, not StackedDrg2KiBV1"));
  // Arguments: missing, twice, malformed.
  CHECK(contains(refusal({json, "sector=42"}), "prover_id is missing"));
  CHECK(contains(refusal({json, "prover_id=" + prover}), "sector is missing"));
  CHECK(contains(refusal({"sector=42", "prover_id=" + prover}), "no C1 given"));
  CHECK(contains(refusal({json, json, "sector=42"}), "a second C1"));
  CHECK(contains(refusal({json, "sector=x", "prover_id=" + prover}), "not a sector number"));
  CHECK(contains(refusal({json, "sector=1", "sector=2", "prover_id=" + prover}), "twice"));
  CHECK(contains(refusal({json, "sector=42", "prover_id=12"}), "prover_id"));
  // A file that is no C1: the reader's message, naming the file.
  const std::string junk = (dir.path() / "junk.json").string();
  zk::test::write_text(junk, "{\"registered_proof\": 7}");
  CHECK(contains(refusal(job(junk, prover, 42)), "junk.json"));
  // A tampered vanilla proof: a labeling parent changed.
  fc::c1_output_t bad = s.c1;
  bad.vanilla_proofs[0][1].labeling_proofs[0].parents[3][0] ^= 1;
  const std::string tampered = (dir.path() / "tampered.json").string();
  zk::test::write_text(tampered, fc::write_c1_json(bad));
  CHECK(contains(refusal(job(tampered, prover, 42)), "the vanilla proofs do not verify"));
  CHECK(contains(refusal(job(tampered, prover, 42)), "challenge 1"));
}

TEST_CASE("filecoin job: the sector's proof is the partitions' proofs in partition order") {
  std::vector<std::vector<uint8_t>> p(3, std::vector<uint8_t>(zk::bellperson::proof_size));
  for (size_t k = 0; k < 3; ++k)
    for (size_t i = 0; i < zk::bellperson::proof_size; ++i) p[k][i] = uint8_t(k * 7 + i);
  const std::string t0 = zk::node::filecoin_proof_text(p[0].data()),
                    t1 = zk::node::filecoin_proof_text(p[1].data()),
                    t2 = zk::node::filecoin_proof_text(p[2].data());
  CHECK(zk::node::is_filecoin_proof_text(t0));
  CHECK_FALSE(zk::node::is_filecoin_proof_text("{\"pi_a\": []}"));
  auto back = zk::node::filecoin_proof_bytes(t1);
  REQUIRE(back);
  CHECK(*back == p[1]);
  // Reported in any order, assembled 0, 1, 2.
  auto sector = zk::node::assemble_sector_proof(3, {{2, t2}, {0, t0}, {1, t1}});
  REQUIRE(sector);
  REQUIRE(sector->size() == 3 * zk::bellperson::proof_size);
  for (size_t k = 0; k < 3; ++k)
    CHECK(std::memcmp(sector->data() + k * zk::bellperson::proof_size, p[k].data(),
                      zk::bellperson::proof_size) == 0);
  auto missing = zk::node::assemble_sector_proof(3, {{2, t2}, {0, t0}});
  REQUIRE_FALSE(missing);
  CHECK(contains(missing.error(), "partition 1 has no proof"));
  auto twice = zk::node::assemble_sector_proof(2, {{0, t0}, {0, t1}, {1, t1}});
  REQUIRE_FALSE(twice);
  CHECK(contains(twice.error(), "partition 0 has two proofs"));
  auto outside = zk::node::assemble_sector_proof(2, {{0, t0}, {2, t2}});
  REQUIRE_FALSE(outside);
  CHECK(contains(outside.error(), "the sector has 2"));
  std::string broken = t0;
  broken.replace(broken.find("\"proof\":\"") + 9, 2, "zz");
  auto not_hex = zk::node::assemble_sector_proof(1, {{0, broken}});
  REQUIRE_FALSE(not_hex);
  CHECK(contains(not_hex.error(), "not hex"));
}

TEST_CASE("filecoin job: a partition synthesized into a synth buffer, every constraint checked") {
  const auto& s = sealed_2k();
  zk::test::temp_dir_t dir("zk_fcjob");
  const std::string json = (dir.path() / "c1.json").string();
  zk::test::write_text(json, fc::write_c1_json(s.c1));
  const auto& c = circuit_2k();
  zk::buffer::buffer_store_t store(c.buffer_bytes + (64ull << 20));
  std::vector<zk::timeline::stage_t> stages;
  auto r = zk::node::synthesize_filecoin(c, job(json, hex(s.req.prover_id), 42), 7, 0, store,
                                         [&](zk::timeline::stage_t st, int64_t t0, int64_t t1) {
                                           CHECK(t1 >= t0);
                                           stages.push_back(st);
                                         });
  CHECK(stages == std::vector<zk::timeline::stage_t>{zk::timeline::stage_t::porep_witness,
                                                     zk::timeline::stage_t::porep_synthesize,
                                                     zk::timeline::stage_t::porep_check});
  auto pin = store.find(r.buffer_id);
  REQUIRE(pin);
  CHECK(pin->header().n_vars == c.n_vars);
  CHECK(pin->header().domain_rows == c.domain_rows);
  // The buffer's public signals are the public inputs Filecoin's verifier derives.
  const fc::graph_t g(s.req.config);
  fc::sector_ids_t ids{s.req.prover_id, 42, s.c1.ticket, s.c1.seed, s.c1.comm_d, s.c1.comm_r};
  const auto derived = fc::partition_inputs(s.req.config, g, ids, 0).inputs;
  REQUIRE(derived.size() == c.n_public);
  std::vector<std::string> decimal;
  for (const auto& x : derived) {
    const auto b = fc::fr_to_bytes(x);
    decimal.push_back(zk::formats::le_to_decimal(b.data(), b.size()));
  }
  CHECK(zk::node::public_digest(pin->data(), c.n_public) == zk::node::public_digest(decimal));
  pin.reset();
  store.release(r.buffer_id);

  // A data leaf changed with its tree D path left alone: the vanilla check at submit refuses it
  // (tested above); synthesis, given it anyway, finds the failing constraint and says where, and
  // the buffer reserved for it goes back to the store.
  fc::c1_output_t bad = s.c1;
  bad.vanilla_proofs[0][0].comm_d_proofs.leaf[0] ^= 1;
  const std::string tampered = (dir.path() / "tampered.json").string();
  zk::test::write_text(tampered, fc::write_c1_json(bad));
  const std::string why = zk::test::thrown<zk::node::bad_input_error>([&] {
    zk::node::synthesize_filecoin(c, job(tampered, hex(s.req.prover_id), 42), 8, 0, store);
  });
  CHECK(contains(why, "partition 0"));
  CHECK((contains(why, "is not satisfied") || contains(why, "challenge 0")));
}
