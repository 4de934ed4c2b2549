// node/filecoin_job and node/synth/filecoin_synth: a Filecoin C2 job's intake (a 2 KiB sector
// sealed here, its C1 written as the API's JSON and as the lotus wrapper, on a path or uploaded:
// taken in once, each partition's input stored, its digest the public inputs the verifier derives;
// every refusal names what is wrong and the file as the user named it, and stores nothing), the
// assembly of the sector's proof in partition order, and a partition synthesized from its input
// into a synth buffer (its public signals the derived inputs; an input whose vanilla proofs leave
// a constraint unsatisfied, whose challenges are not the circuit's, or that is malformed is a
// bad_input_error naming it).
#include "node/filecoin_job.hpp"

#include <doctest/doctest.h>

#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "node/job_spec.hpp"
#include "node/synth/synthesize.hpp"
#include "node/verify_proof.hpp"
#include "tests/filecoin/sealed_2k.hpp"
#include "tests/test_util.hpp"
#include "zk/base/hex.hpp"
#include "zk/bellperson/groth16/files.hpp"
#include "zk/filecoin/api/partition_input.hpp"
#include "zk/filecoin/api/seal.hpp"
#include "zk/filecoin/core/fr32.hpp"
#include "zk/filecoin/porep/circuit/public_inputs.hpp"
#include "zk/filecoin/porep/vanilla/graph.hpp"
#include "zk/formats/json.hpp"

namespace fc = zk::filecoin;
using zk::node::circuit_def_t;
using zk::node::filecoin_porep_spec_t;
using zk::node::input_file_t;
using zk::test::contains;

namespace {

using zk::test::sealed_2k;

// The circuit as the scheduler describes it (counts, digest), without a .vk.
const circuit_def_t& circuit_2k() {
  static const circuit_def_t c = zk::node::filecoin_circuit("fc2k", "StackedDrg2KiBV1_1");
  return c;
}

// A scheduler's files: its input root (C1s on its disk) and its store.
struct scheduler_files_t {
  zk::test::temp_dir_t dir{"zk_fcjob"};
  std::string root = (dir.path() / "in").string();
  zk::node::upload_store_t store{(dir.path() / "store").string(), uint64_t(1) << 30};
  scheduler_files_t() { std::filesystem::create_directories(root); }
  zk::node::intake_env_t env() { return {{root}, &store}; }
  std::string write(const std::string& name, const std::string& text) {
    const std::string p = root + "/" + name;
    zk::test::write_text(p, text);
    return p;
  }
  size_t stored(const char* ext) const {
    size_t n = 0;
    for (const auto& e : std::filesystem::directory_iterator(store.dir()))
      n += e.path().extension() == ext;
    return n;
  }
};

filecoin_porep_spec_t job(input_file_t c1, uint64_t sector,
                          const zk::bytes32_t& prover = sealed_2k().req.prover_id) {
  filecoin_porep_spec_t s;
  s.prover_id = prover;
  s.sector = sector;
  s.c1 = std::move(c1);
  return s;
}

// The digest of the public inputs Filecoin's verifier derives for partition 0 of the sector.
std::string derived_digest(const zk::test::sealed_2k_t& s, uint64_t sector) {
  const fc::graph_t g(s.req.config);
  fc::sector_ids_t ids{s.req.prover_id, sector, s.c1.ticket, s.c1.seed, s.c1.comm_d, s.c1.comm_r};
  std::vector<std::string> decimal;
  for (const auto& x : fc::partition_inputs(s.req.config, g, ids, 0).inputs) {
    const auto b = fc::fr_to_bytes(x);
    decimal.push_back(zk::formats::le_to_decimal(b.data(), b.size()));
  }
  return *zk::node::public_digest(decimal);
}

}  // namespace

TEST_CASE("filecoin job: a sealed C1 is taken in once: each partition's input stored, its digest") {
  const auto& s = sealed_2k();
  scheduler_files_t f;
  const auto& c = circuit_2k();
  CHECK(c.kind == zk::node::circuit_kind_t::filecoin_porep);
  CHECK(c.n_public == 39);  // the 2 KiB circuit: 40 inputs, ONE included
  const std::string json = f.write("c1.json", fc::write_c1_json(s.c1));
  auto taken = zk::node::take_in(c, job(input_file_t::at(json), 42), 1, f.env());
  REQUIRE_MESSAGE(taken, taken.error());
  REQUIRE(taken->partitions.size() == 1);
  const auto& part = taken->partitions[0];
  CHECK(part.input.object.type == zk::node::object_type_t::partition);
  CHECK(part.public_digest == derived_digest(s, 42));
  // The stored input is the partition's, byte for byte.
  const auto path = f.store.path_of(part.input.object);
  REQUIRE(path);
  const fc::graph_t g(s.req.config);
  const auto blob = fc::partition_input_from_c1(s.req.config, g, s.c1,
                                                fc::sector_ids_of(s.c1, s.req.prover_id, 42), 0);
  CHECK(zk::test::read_text(*path) == std::string(blob.begin(), blob.end()));
  CHECK(blob.size() == 16964);
  CHECK(f.stored(".fcp") == 1);
  // The lotus wrapper, and the C1 uploaded: the same partition input (content-addressed).
  const std::string wrapped = f.write("c1-wrapped.json", fc::write_c1_wrapper_json(s.c1, 42));
  auto w = zk::node::take_in(c, job(input_file_t::at(wrapped), 42), 1, f.env());
  REQUIRE_MESSAGE(w, w.error());
  CHECK(w->partitions[0].input.object == part.input.object);
  const auto up = zk::node::parse_upload(f.store.put(fc::write_c1_json(s.c1), true));
  REQUIRE(up);
  auto u = zk::node::take_in(c, job(input_file_t::of(*up), 42), 1, f.env());
  REQUIRE_MESSAGE(u, u.error());
  CHECK(u->partitions[0].input.object == part.input.object);
  CHECK(f.stored(".fcp") == 1);
  // Through the job spec: what a partition gets is its input, never the C1.
  const zk::node::job_spec_t spec{*u};
  const auto p0 = zk::node::partition_spec(spec, 0);
  REQUIRE(zk::node::file_of(p0));
  CHECK(zk::node::file_of(p0)->object == part.input.object);
  const auto needed = zk::node::stored_objects(spec);
  REQUIRE(needed.size() == 1);
  CHECK(needed[0] == part.input.object);
}

TEST_CASE("filecoin job: refusals at intake name what is wrong and the C1 as the user named it") {
  const auto& s = sealed_2k();
  scheduler_files_t f;
  const auto& c = circuit_2k();
  const std::string json = f.write("c1.json", fc::write_c1_json(s.c1));
  auto refusal = [&](filecoin_porep_spec_t spec, uint32_t parts = 1,
                     const circuit_def_t& circuit = circuit_2k()) {
    auto r = zk::node::take_in(circuit, std::move(spec), parts, f.env());
    REQUIRE_FALSE(r);
    return r.error();
  };
  // The wrong sector or prover id: the replica_id does not derive.
  std::string why = refusal(job(input_file_t::at(json), 43));
  CHECK(contains(why, json + ": the C1's replica_id"));
  CHECK(contains(why, "wrong prover id or sector"));
  zk::bytes32_t other;
  other.fill(0x99);
  CHECK(contains(refusal(job(input_file_t::at(json), 42, other)), "replica_id"));
  // The C1's partitions are the job's.
  CHECK(contains(refusal(job(input_file_t::at(json), 42), 2), "the C1 has 1 partition(s)"));
  // Another registered proof (the same circuit, another porep_id): refused by name.
  circuit_def_t v1 = c;
  v1.native_params = "StackedDrg2KiBV1";
  CHECK(contains(refusal(job(input_file_t::at(json), 42), 1, v1),
                 "the C1 is for StackedDrg2KiBV1_1, not StackedDrg2KiBV1"));
  // A wrapper whose SectorNum is not the job's sector.
  const std::string wrapped = f.write("w.json", fc::write_c1_wrapper_json(s.c1, 42));
  CHECK(contains(refusal(job(input_file_t::at(wrapped), 43)),
                 "w.json: the wrapper's SectorNum is 42, not sector 43"));
  // A file that is no C1: the reader's message, naming the file.
  const std::string junk = f.write("junk.json", "{\"registered_proof\": 7}");
  CHECK(contains(refusal(job(input_file_t::at(junk), 42)), "junk.json"));
  // Uploaded: named as the upload, never by the store's file.
  const auto up = zk::node::parse_upload(f.store.put("{\"registered_proof\": 7}", true));
  why = refusal(job(input_file_t::of(*up), 42));
  CHECK(contains(why, "the upload " + up->name()));
  CHECK_FALSE(contains(why, f.store.dir()));
  // A tampered vanilla proof: a labeling parent changed.
  fc::c1_output_t bad = s.c1;
  bad.vanilla_proofs[0][1].labeling_proofs[0].parents[3][0] ^= 1;
  const std::string tampered = f.write("tampered.json", fc::write_c1_json(bad));
  why = refusal(job(input_file_t::at(tampered), 42));
  CHECK(contains(why, "the vanilla proofs do not verify"));
  CHECK(contains(why, "challenge 1"));
  // Where the C1 is: under the input roots, or an upload the store holds; a store for the inputs.
  zk::test::temp_dir_t elsewhere("zk_fcjob_out");
  const std::string outside = (elsewhere.path() / "c1.json").string();
  zk::test::write_text(outside, fc::write_c1_json(s.c1));
  CHECK(contains(refusal(job(input_file_t::at(outside), 42)),
                 "not under any of scheduler.input_roots"));
  CHECK(contains(
      refusal(job(input_file_t::of({std::string(64, 'e'), zk::node::object_type_t::json}), 42)),
      "is not an upload this scheduler holds"));
  auto no_store = zk::node::take_in(c, job(input_file_t::at(json), 42), 1, {{f.root}, nullptr});
  REQUIRE_FALSE(no_store);
  CHECK(contains(no_store.error(), "has no store for the partitions' inputs"));
  // A client brings no partition inputs.
  filecoin_porep_spec_t forged = job(input_file_t::at(json), 42);
  forged.partitions.push_back(
      {input_file_t::of({std::string(64, 'f'), zk::node::object_type_t::partition}),
       std::string(32, 'x')});
  CHECK(contains(refusal(forged), "a job brings its C1, not its partitions' inputs"));
  // Nothing stored by any refusal.
  CHECK(f.stored(".fcp") == 0);
}

TEST_CASE("filecoin job: the sector's proof is the partitions' proofs in partition order") {
  std::vector<std::vector<uint8_t>> p(3, std::vector<uint8_t>(zk::bellperson::proof_size));
  for (size_t k = 0; k < 3; ++k)
    for (size_t i = 0; i < zk::bellperson::proof_size; ++i) p[k][i] = uint8_t(k * 7 + i);
  const std::string t0 = zk::node::filecoin_proof_text(p[0].data()),
                    t1 = zk::node::filecoin_proof_text(p[1].data()),
                    t2 = zk::node::filecoin_proof_text(p[2].data());
  CHECK(contains(t0, "\"format\":\"bellperson\""));
  CHECK_FALSE(zk::node::filecoin_proof_bytes("{\"pi_a\": []}"));
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

TEST_CASE("filecoin job: a partition synthesized from its input, every constraint checked") {
  // The packed wire (the default) and the full buffer: the same public signals, the stages each
  // reports (packed: the check is made as the constraints are, inside porep_synthesize).
  const circuit_def_t full =
      zk::node::filecoin_circuit("fc2k", "StackedDrg2KiBV1_1", zk::config::wire_t::full);
  for (const circuit_def_t* cp : {&circuit_2k(), &full}) {
    const bool packed = cp == &circuit_2k();
    CAPTURE(packed);
    const auto& s = sealed_2k();
    scheduler_files_t f;
    const auto& c = *cp;
    CHECK(c.shape == (packed ? zk::buffer::synth_shape_t::packed_witness
                             : zk::buffer::synth_shape_t::abc_witness));
    const std::string json = f.write("c1.json", fc::write_c1_json(s.c1));
    auto taken = zk::node::take_in(c, job(input_file_t::at(json), 42), 1, f.env());
    REQUIRE_MESSAGE(taken, taken.error());
    const zk::node::job_spec_t spec{*taken};
    const zk::node::partition_spec_t p0 = zk::node::partition_spec(spec, 0);
    const std::string name = zk::node::file_of(p0)->name();
    const std::string file = *f.store.path_of(zk::node::file_of(p0)->object);
    zk::buffer::buffer_store_t store(c.buffer_bytes + (64ull << 20));
    zk::node::csr_cache_t cache;
    std::vector<zk::timeline::stage_t> stages;
    auto r = zk::node::synthesize(c, p0, file, name, 1, 7, 0, store, cache, {},
                                  [&](zk::timeline::stage_t st, int64_t t0, int64_t t1) {
                                    CHECK(t1 >= t0);
                                    stages.push_back(st);
                                  });
    std::vector<zk::timeline::stage_t> want{zk::timeline::stage_t::porep_witness,
                                            zk::timeline::stage_t::porep_synthesize};
    if (!packed) want.push_back(zk::timeline::stage_t::porep_check);
    CHECK(stages == want);
    auto pin = store.find(r.buffer_id);
    REQUIRE(pin);
    CHECK(pin->header().n_vars == c.n_vars);
    CHECK(pin->header().domain_rows == c.domain_rows);
    CHECK(pin->header().shape() == c.shape);
    // A packed partition is far smaller than its full buffer and within what the circuit
    // accounts for it.
    if (packed) CHECK(r.payload_bytes * 20 < full.buffer_bytes);
    CHECK(r.payload_bytes <= c.buffer_bytes);
    // The buffer's public signals are the public inputs Filecoin's verifier derives: the digest
    // intake kept, which the scheduler checks the buffer report against.
    CHECK(zk::node::public_digest(pin->header(), pin->data()) == derived_digest(s, 42));
    CHECK(zk::node::expected_public_digest(spec, 0) == derived_digest(s, 42));
    pin.reset();
    store.release(r.buffer_id);

    // Inputs the circuit does not accept, each a bad_input_error naming the input; the buffer
    // reserved for them goes back to the store.
    const fc::partition_input_t in = fc::read_partition_input_file(s.req.config, file);
    auto synth_error = [&](const fc::partition_witness_t& w,
                           const std::vector<fc::challenge_t>& ch) {
      const auto bytes = fc::write_partition_input(s.req.config, 0, w, ch);
      const std::string bad = (f.dir.path() / "bad.fcp").string();
      zk::test::write_text(bad, std::string(bytes.begin(), bytes.end()));
      return zk::test::thrown<zk::node::bad_input_error>(
          [&] { zk::node::synthesize(c, p0, bad, name, 1, 8, 0, store, cache); });
    };
    // A data leaf changed with its tree D path left alone: the vanilla check at intake refuses it
    // (tested above); synthesis, given it anyway, finds the failing constraint and says where.
    fc::partition_witness_t leaf = in.witness;
    leaf.challenges[0].data_leaf = leaf.challenges[0].data_leaf + fc::fr_t::from_u64(1);
    std::string why = synth_error(leaf, in.challenges);
    CHECK(contains(why, name + ": partition 0"));
    CHECK(contains(why, "is not satisfied"));
    // A DRG parent that is not the one the column's path opens: every constraint holds, but the
    // circuit's public inputs are not those derived for the sector.
    std::vector<fc::challenge_t> moved = in.challenges;
    moved[0].drg[0] = (moved[0].drg[0] + 1) % 64;
    why = synth_error(in.witness, moved);
    CHECK(contains(why, name + ": partition 0: public input 4"));
    CHECK(contains(why, "is not the one derived for the sector"));
    // A malformed input: named, with the byte offset.
    const std::string cut = (f.dir.path() / "cut.fcp").string();
    zk::test::write_text(cut, zk::test::read_text(file).substr(0, 100));
    why = zk::test::thrown<zk::node::bad_input_error>(
        [&] { zk::node::synthesize(c, p0, cut, name, 1, 9, 0, store, cache); });
    CHECK(contains(why, name + ": at byte 0: 100 bytes"));
    CHECK(store.stats().registered == 0);
  }
}
