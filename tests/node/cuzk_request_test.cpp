// node/cuzk: Curio's cuzk requests mapped without gRPC — the prover id of a miner (filecoin-ffi's
// toProverID: LEB128, cuzk's make_prover_id test vectors), the registered proof numbers (the Go
// abi / FFI / proofs-api order), every refusal before the C1 is stored (kind, proof, circuit,
// sector size, miner, request id, an empty C1), the priority mapping, the request fingerprint,
// and Curio's own wrapper of a sealed 2 KiB C1 (json.Marshal of {SectorNum, Phase1Out,
// SectorSize}) streamed into the store and taken in by the scheduler's intake; a garbage
// vanilla_proof refused by the store.
#include <doctest/doctest.h>

#include <limits>
#include <string>
#include <vector>

#include "node/cuzk/request.hpp"
#include "node/filecoin_job.hpp"
#include "node/filecoin_snap_job.hpp"
#include "node/job_spec.hpp"
#include "tests/test_util.hpp"
#include "zk/base/base64.hpp"
#include "zk/base/hex.hpp"
#include "zk/filecoin/api/c1.hpp"
#include "zk/filecoin/api/seal.hpp"
#include "zk/filecoin/core/fr32.hpp"
#include "zk/filecoin/update/vanilla_proof.hpp"

namespace cz = zk::node::cuzk;
namespace fc = zk::filecoin;
using zk::node::circuit_def_t;
using zk::test::contains;

namespace {

std::string prover_hex(uint64_t miner) {
  auto id = cz::prover_id_of(miner);
  REQUIRE_MESSAGE(id, id.error());
  return zk::to_hex(id.value());
}

std::string zeros(size_t bytes) { return std::string(2 * bytes, '0'); }

const std::vector<circuit_def_t>& circuits() {
  static const std::vector<circuit_def_t> c = [] {
    std::vector<circuit_def_t> v{zk::node::filecoin_circuit("fc2k-b", "StackedDrg2KiBV1_1"),
                                 zk::node::filecoin_circuit("fc2k-a", "StackedDrg2KiBV1_1"),
                                 zk::node::filecoin_circuit("fc8m", "StackedDrg8MiBV1")};
    circuit_def_t circom;
    circom.id = "mulchain";
    v.push_back(circom);
    v.push_back(zk::node::snap_circuit("snap2k", "StackedDrg2KiBV1"));
    return v;
  }();
  return c;
}

// A request as Curio's PoRepSnarkCuzk sends it for a 2 KiB sector (the C1 stored).
cz::submit_t curio_submit() {
  cz::submit_t s;
  s.request_id = "porep-1000-42";
  s.proof_kind = cz::porep_seal_commit;
  s.sector_size = 2048;
  s.registered_proof = 5;  // StackedDrg2KiBV1_1
  s.priority = 2;          // NORMAL
  s.sector_number = 42;
  s.miner_id = 1000;
  s.vanilla_proof_bytes = 100;
  s.c1 = zk::node::stored_object_t{std::string(64, 'c'), zk::node::object_type_t::json};
  return s;
}

}  // namespace

TEST_CASE("cuzk: the prover id of a miner is its ID address payload (LEB128), zero padded") {
  // cuzk-core prover.rs make_prover_id's tests, and go-address's varint.
  CHECK(prover_hex(0) == zeros(32));
  CHECK(prover_hex(1) == "01" + zeros(31));
  CHECK(prover_hex(127) == "7f" + zeros(31));
  CHECK(prover_hex(128) == "8001" + zeros(30));
  CHECK(prover_hex(1000) == "e807" + zeros(30));  // f01000
  CHECK(prover_hex(300) == "ac02" + zeros(30));
  CHECK(prover_hex(16384) == "808001" + zeros(29));
  CHECK(prover_hex(uint64_t(std::numeric_limits<int64_t>::max())) ==
        "ffffffffffffffff7f" + zeros(23));  // nine bytes
  // go-address refuses ids of 2^63 and over.
  for (uint64_t bad : {uint64_t(1) << 63, std::numeric_limits<uint64_t>::max()}) {
    auto id = cz::prover_id_of(bad);
    REQUIRE_FALSE(id);
    CHECK(contains(id.error(), "below 2^63"));
  }
}

TEST_CASE("cuzk: registered_proof numbers are RegisteredSealProof's, 0 to 19") {
  // go-state-types abi/sector.go, filecoin-ffi's #[repr(i32)] enum and proofs-api's
  // REGISTERED_PROOF_IDS, in that order (research of curio e0294b0f).
  const char* names[] = {"StackedDrg2KiBV1",
                         "StackedDrg8MiBV1",
                         "StackedDrg512MiBV1",
                         "StackedDrg32GiBV1",
                         "StackedDrg64GiBV1",
                         "StackedDrg2KiBV1_1",
                         "StackedDrg8MiBV1_1",
                         "StackedDrg512MiBV1_1",
                         "StackedDrg32GiBV1_1",
                         "StackedDrg64GiBV1_1",
                         "StackedDrg2KiBV1_1_Feat_SyntheticPoRep",
                         "StackedDrg8MiBV1_1_Feat_SyntheticPoRep",
                         "StackedDrg512MiBV1_1_Feat_SyntheticPoRep",
                         "StackedDrg32GiBV1_1_Feat_SyntheticPoRep",
                         "StackedDrg64GiBV1_1_Feat_SyntheticPoRep",
                         "StackedDrg2KiBV1_2_Feat_NonInteractivePoRep",
                         "StackedDrg8MiBV1_2_Feat_NonInteractivePoRep",
                         "StackedDrg512MiBV1_2_Feat_NonInteractivePoRep",
                         "StackedDrg32GiBV1_2_Feat_NonInteractivePoRep",
                         "StackedDrg64GiBV1_2_Feat_NonInteractivePoRep"};
  for (uint64_t n = 0; n < 20; ++n) {
    CAPTURE(n);
    auto p = cz::seal_proof_of(n);
    REQUIRE(p);
    CHECK(p.value()->name == names[n]);
    CHECK(p.value()->id == n);
  }
  CHECK(cz::seal_proof_of(8).value()->sector_size == uint64_t(32) << 30);
  auto bad = cz::seal_proof_of(20);
  REQUIRE_FALSE(bad);
  CHECK(bad.error() == "registered_proof 20 is no RegisteredSealProof (0 to 19)");
  // The circuit: the configured one of that proof, the first by id when several.
  auto c = cz::circuit_for(circuits(), *cz::seal_proof_of(5).value());
  REQUIRE(c);
  CHECK(c->id == "fc2k-a");
  CHECK(cz::circuit_for(circuits(), *cz::seal_proof_of(1).value())->id == "fc8m");
  auto none = cz::circuit_for(circuits(), *cz::seal_proof_of(8).value());
  REQUIRE_FALSE(none);
  CHECK(none.error().code == cz::code_t::failed_precondition);
  CHECK(none.error().why ==
        "registered_proof 8 (StackedDrg32GiBV1_1) is not proved by this cluster: no "
        "filecoin-porep circuit of it is configured (its filecoin-porep circuits: fc2k-b "
        "(StackedDrg2KiBV1_1), fc2k-a (StackedDrg2KiBV1_1), fc8m (StackedDrg8MiBV1))");
}

TEST_CASE("cuzk: what the cluster cannot prove is refused before the C1 is stored, saying why") {
  CHECK(cz::check_submit(curio_submit(), circuits())->id == "fc2k-a");
  auto refused = [](auto change, cz::code_t code, const std::string& why) {
    cz::submit_t s = curio_submit();
    change(s);
    auto r = cz::check_submit(s, circuits());
    REQUIRE_FALSE(r);
    CHECK(r.error().code == code);
    CHECK_MESSAGE(contains(r.error().why, why), r.error().why);
  };
  using cz::code_t;
  refused([](cz::submit_t& s) { s.proof_kind = 0; }, code_t::invalid_argument,
          "invalid proof_kind: 0 (PROOF_KIND_UNSPECIFIED)");
  refused([](cz::submit_t& s) { s.proof_kind = 9; }, code_t::invalid_argument,
          "invalid proof_kind: 9");
  // The kinds zkfleet does not prove: named, with what is configured.
  refused([](cz::submit_t& s) { s.proof_kind = 3; }, code_t::unimplemented,
          "WINDOW_POST_PARTITION is not proved by this zkfleet cluster: it proves "
          "POREP_SEAL_COMMIT and SNAP_DEALS_UPDATE (its filecoin-porep circuits: fc2k-b "
          "(StackedDrg2KiBV1_1), fc2k-a");
  refused([](cz::submit_t& s) { s.proof_kind = 4; }, code_t::unimplemented,
          "WINNING_POST is not proved");
  refused([](cz::submit_t& s) { s.registered_proof = 99; }, code_t::invalid_argument,
          "registered_proof 99 is no RegisteredSealProof (0 to 19)");
  refused([](cz::submit_t& s) { s.registered_proof = 8; }, code_t::failed_precondition,
          "registered_proof 8 (StackedDrg32GiBV1_1) is not proved by this cluster");
  refused([](cz::submit_t& s) { s.sector_size = uint64_t(32) << 30; }, code_t::invalid_argument,
          "sector_size 34359738368 is not the sector size of StackedDrg2KiBV1_1 (2048)");
  refused([](cz::submit_t& s) { s.miner_id = uint64_t(1) << 63; }, code_t::invalid_argument,
          "miner_id 9223372036854775808 is not an actor id");
  refused([](cz::submit_t& s) { s.request_id = std::string(257, 'x'); }, code_t::invalid_argument,
          "request_id: 257 bytes, more than the 256 a job may carry");
  refused([](cz::submit_t& s) { s.request_id = "a\nb"; }, code_t::invalid_argument,
          "request_id: holds a control character");
  refused([](cz::submit_t& s) { s.vanilla_proof_bytes = 0; }, code_t::invalid_argument,
          "vanilla_proof is empty");
  // sector_size 0 (not given), and Curio's WindowPoSt-style ids with spaces and brackets: taken.
  cz::submit_t s = curio_submit();
  s.sector_size = 0;
  s.request_id = "wdpost-1000-0-[12 34 56 78 90 1 2 3]";
  CHECK(cz::check_submit(s, circuits()));
}

TEST_CASE("cuzk: the job request of a PoRep C2: its spec, partitions, priority and fingerprint") {
  const cz::submit_t s = curio_submit();
  const circuit_def_t c = *cz::check_submit(s, circuits());
  auto r = cz::job_request_of(s, c);
  REQUIRE(r);
  CHECK(r->circuit == "fc2k-a");
  CHECK(r->partitions == 1);
  CHECK(r->priority == zk::node::priority_t::normal);
  CHECK_FALSE(r->circuit_priority);
  CHECK(r->request_id == "porep-1000-42");
  CHECK(r->request_digest == cz::request_fingerprint(s));
  CHECK(r->request_digest.size() == 64);
  const auto& spec = std::get<zk::node::filecoin_porep_spec_t>(r->spec.v);
  CHECK(zk::to_hex(spec.prover_id) == "e807" + zeros(30));
  CHECK(spec.sector == 42);
  CHECK(spec.c1.object == *s.c1);
  CHECK(spec.partitions.empty());  // made by the scheduler's intake
  // Priorities: 0 the circuit's, 1-4 low..critical, past 4 normal (as cuzk).
  const std::pair<uint64_t, zk::node::priority_t> prio[] = {{1, zk::node::priority_t::low},
                                                            {2, zk::node::priority_t::normal},
                                                            {3, zk::node::priority_t::high},
                                                            {4, zk::node::priority_t::critical},
                                                            {5, zk::node::priority_t::normal}};
  for (const auto& [given, want] : prio) {
    cz::submit_t p = s;
    p.priority = given;
    CHECK(cz::job_request_of(p, c)->priority == want);
    CHECK_FALSE(cz::job_request_of(p, c)->circuit_priority);
    CHECK(cz::request_fingerprint(p) == cz::request_fingerprint(s));  // not part of the request
  }
  cz::submit_t zero = s;
  zero.priority = 0;
  CHECK(cz::job_request_of(zero, c)->circuit_priority);
  // The fingerprint: the same request, the same; another C1, sector, miner or proof, another.
  cz::submit_t other = s;
  other.c1->sha256 = std::string(64, 'd');
  CHECK(cz::request_fingerprint(other) != cz::request_fingerprint(s));
  for (auto change :
       {+[](cz::submit_t& x) { x.sector_number = 43; }, +[](cz::submit_t& x) { x.miner_id = 1001; },
        +[](cz::submit_t& x) { x.registered_proof = 0; }}) {
    cz::submit_t x = s;
    change(x);
    CHECK(cz::request_fingerprint(x) != cz::request_fingerprint(s));
  }
  // No request id: no fingerprint (no idempotency asked for).
  cz::submit_t anonymous = s;
  anonymous.request_id.clear();
  CHECK(cz::job_request_of(anonymous, c)->request_digest.empty());
}

TEST_CASE(
    "cuzk: Curio's wrapper of a sealed C1, streamed into the store, is taken in, garbage not") {
  // A 2 KiB sector sealed for miner 1000 (its prover id from the miner id), sector 42.
  fc::seal_request_t req;
  req.config = fc::porep_config(fc::registered_proof("StackedDrg2KiBV1_1"));
  req.prover_id = cz::prover_id_of(1000).value();
  req.sector = 42;
  req.ticket.fill(0x22);
  req.seed.fill(0x33);
  req.piece = fc::random_piece(5, fc::fr32_unpadded_size(req.config.sector_size));
  const fc::seal_result_t sealed = fc::seal_sector(req);
  fc::c1_output_t c1;
  c1.registered_proof = req.config.proof;
  c1.vanilla_proofs = sealed.vanilla_proofs;
  c1.comm_r = sealed.comm_r;
  c1.comm_d = sealed.comm_d;
  c1.replica_id = sealed.replica_id;
  c1.seed = req.seed;
  c1.ticket = req.ticket;
  // What Curio sends (lib/ffi/cuzk_funcs.go: json.Marshal of the Go struct; []byte as standard
  // padded base64), built here by hand rather than by zkfleet's writer.
  const std::string raw = fc::write_c1_json(c1);
  const std::string wrapper =
      R"({"SectorNum":42,"Phase1Out":")" +
      zk::base64_encode(reinterpret_cast<const uint8_t*>(raw.data()), raw.size()) +
      R"(","SectorSize":2048})";
  CHECK(wrapper == fc::write_c1_wrapper_json(c1, 42));

  zk::test::temp_dir_t dir("zk_cuzk");
  zk::node::upload_store_t store((dir.path() / "store").string(), uint64_t(1) << 30);
  // Streamed in pieces, as the gRPC face writes it from the message's slices.
  auto receive = [&](const std::string& bytes) {
    auto rx = store.receive(/*json=*/true);
    for (size_t at = 0; at < bytes.size(); at += 4096)
      if (auto e = rx->write(std::string_view(bytes).substr(at, 4096))) return std::string(e->why);
    auto ref = rx->commit();
    return ref ? ref.value() : "refused: " + ref.error().why;
  };
  const std::string ref = receive(wrapper);
  REQUIRE_MESSAGE(ref.rfind("upload:sha256:", 0) == 0, ref);
  cz::submit_t s = curio_submit();
  s.c1 = *zk::node::parse_upload(ref);
  s.vanilla_proof_bytes = wrapper.size();
  const circuit_def_t c = *cz::check_submit(s, circuits());
  auto r = cz::job_request_of(s, c);
  REQUIRE(r);
  const zk::node::intake_env_t env{{}, &store};
  auto taken = zk::node::take_in(c, r->spec, r->partitions, env);
  REQUIRE_MESSAGE(taken, taken.error());
  CHECK(std::get<zk::node::filecoin_porep_spec_t>(taken->v).partitions.size() == 1);
  // Another miner's request for the same C1: its prover id does not give the replica id.
  cz::submit_t other = s;
  other.miner_id = 1001;
  auto refused = zk::node::take_in(c, cz::job_request_of(other, c)->spec, 1, env);
  REQUIRE_FALSE(refused);
  CHECK(contains(refused.error(), "wrong prover id or sector"));
  // A garbage vanilla_proof: refused by the store, nothing kept.
  const std::string garbage = receive("this is not a C1 \x01\x02");
  CHECK_MESSAGE(contains(garbage, "refused: "), garbage);
  // A JSON that is no C1 is stored (it is JSON) and refused at intake, naming what is wrong.
  cz::submit_t junk = s;
  junk.c1 =
      *zk::node::parse_upload(receive(R"({"SectorNum":42,"Phase1Out":"!!","SectorSize":2048})"));
  auto bad = zk::node::take_in(c, cz::job_request_of(junk, c)->spec, 1, env);
  REQUIRE_FALSE(bad);
  CHECK_MESSAGE(contains(bad.error(), "Phase1Out: not standard padded base64"), bad.error());
}

// What Curio's ProveUpdateCuzk sends (lib/ffi/cuzk_funcs.go) for the update Filecoin's own code
// made (tests/fixtures/filecoin/snap-2k): the partitions of its snap-vproof.json as vanilla_proofs,
// the commitments raw.
namespace {
std::string golden_hex(const std::string& text, const std::string& key) {
  const size_t at = text.find("\n" + key + "=");
  REQUIRE(at != std::string::npos);
  return text.substr(at + key.size() + 2, 64);
}
std::string raw32(const std::string& hex) {
  const zk::bytes32_t b = zk::parse_hex32(hex, "hex");
  return std::string(b.begin(), b.end());
}
}  // namespace

TEST_CASE("cuzk: a SnapDeals update as Curio sends it: checked, its job, taken in by the intake") {
  const std::string dir = std::string(ZK_SOURCE_DIR) + "/tests/fixtures/filecoin/snap-2k";
  const std::string golden = zk::test::read_text(dir + "/golden.txt");
  const std::string vproof = zk::test::read_text(dir + "/snap-vproof.json");
  cz::submit_t s;
  s.request_id = "snap-1000-7";
  s.proof_kind = cz::snap_deals_update;
  s.sector_size = 2048;
  s.registered_proof = 0;  // StackedDrg2KiBV1 (RegisteredUpdateProof)
  s.priority = 2;
  s.sector_number = 7;
  s.miner_id = 1000;
  for (const auto& p : zk::filecoin::parse_snap_vproof_json(vproof, "snap-vproof.json"))
    s.vanilla_proofs.emplace_back(p.begin(), p.end());
  s.comm_r_old = raw32(golden_hex(golden, "comm_r_old"));
  s.comm_r_new = raw32(golden_hex(golden, "comm_r_new"));
  s.comm_d_new = raw32(golden_hex(golden, "comm_d_new"));
  auto c = cz::check_submit(s, circuits());
  REQUIRE_MESSAGE(c, c.error().why);
  CHECK(c->id == "snap2k");

  // Refusals before anything is stored: the update proof's number, its circuit, the sizes.
  auto refused = [&](auto change, cz::code_t code, const std::string& why) {
    cz::submit_t x = s;
    change(x);
    auto r = cz::check_submit(x, circuits());
    REQUIRE_FALSE(r);
    CHECK(r.error().code == code);
    CHECK_MESSAGE(contains(r.error().why, why), r.error().why);
  };
  using cz::code_t;
  refused([](cz::submit_t& x) { x.registered_proof = 5; }, code_t::invalid_argument,
          "registered_proof 5 is no RegisteredUpdateProof (0 to 4)");
  refused([](cz::submit_t& x) { x.registered_proof = 3; }, code_t::failed_precondition,
          "registered_proof 3 (StackedDrg32GiBV1) is not proved by this cluster: no filecoin-snap "
          "circuit of it is configured (its filecoin-snap circuits: snap2k (StackedDrg2KiBV1))");
  refused([](cz::submit_t& x) { x.sector_size = 8 << 20; }, code_t::invalid_argument,
          "sector_size 8388608 is not the sector size of StackedDrg2KiBV1 (2048)");
  refused([](cz::submit_t& x) { x.comm_r_new.pop_back(); }, code_t::invalid_argument,
          "comm_r_new must be 32 bytes, got 31");
  refused([](cz::submit_t& x) { x.comm_d_new.clear(); }, code_t::invalid_argument,
          "comm_d_new must be 32 bytes, got 0");
  refused([](cz::submit_t& x) { x.vanilla_proofs.push_back("x"); }, code_t::invalid_argument,
          "vanilla_proofs: 2 partition proofs, an update of StackedDrg2KiBV1 has 1");

  // The partitions stored as Curio's snap-vproof.json, the job taken in: one .fup partition input
  // with the digest of the inputs the verifier derives.
  zk::test::temp_dir_t tmp("zk_cuzk_snap");
  zk::node::upload_store_t store((tmp.path() / "store").string(), uint64_t(1) << 30);
  std::vector<std::vector<uint8_t>> parts;
  for (const auto& p : s.vanilla_proofs) parts.emplace_back(p.begin(), p.end());
  s.vanilla = *zk::node::parse_upload(store.put(zk::filecoin::snap_vproof_json(parts), true));
  auto r = cz::job_request_of(s, *c);
  REQUIRE(r);
  CHECK(r->partitions == 1);
  CHECK(r->request_id == "snap-1000-7");
  CHECK(r->request_digest == cz::request_fingerprint(s));
  const auto& spec = std::get<zk::node::filecoin_snap_spec_t>(r->spec.v);
  CHECK(zk::to_hex(spec.comms.comm_r_new) == golden_hex(golden, "comm_r_new"));
  CHECK(spec.sector == 7);
  const zk::node::intake_env_t env{{}, &store};
  auto taken = zk::node::take_in(*c, r->spec, r->partitions, env);
  REQUIRE_MESSAGE(taken, taken.error());
  const auto& t = std::get<zk::node::filecoin_snap_spec_t>(taken->v);
  REQUIRE(t.partitions.size() == 1);
  CHECK(t.partitions[0].input.object.type == zk::node::object_type_t::update_partition);
  CHECK(zk::node::expected_public_digest(*taken, 0) == t.partitions[0].public_digest);
  // The journal's form reads back as it was written.
  CHECK(zk::node::to_json(zk::node::job_spec_from_json(zk::node::to_json(*taken))) ==
        zk::node::to_json(*taken));
  // Another comm_r_new: the fingerprint changes, and the vanilla verifier refuses the job at
  // intake, naming the partition.
  cz::submit_t other = s;
  other.comm_r_new[0] ^= 1;
  CHECK(cz::request_fingerprint(other) != cz::request_fingerprint(s));
  auto bad = zk::node::take_in(*c, cz::job_request_of(other, *c)->spec, 1, env);
  REQUIRE_FALSE(bad);
  CHECK_MESSAGE(contains(bad.error(), "partition 0"), bad.error());
}
