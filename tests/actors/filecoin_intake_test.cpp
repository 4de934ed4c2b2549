// A Filecoin C2 job through the scheduler actor, in one process (the five-process cluster with
// Filecoin's own verifier is tests/filecoin/cluster.sh): its C1 taken in at submit (each
// partition's input in the store and in the journal before the id is returned; a refusal naming
// the user's file, nothing stored); a synthesis node of the embedded cluster reading its
// partition's input straight from the store, its buffer bound to the public inputs derived at
// intake; a synthesis node that binds another witness refused; and at restart, a job journaled
// before its intake (schema v1) taken in again, while jobs that cannot go on fail saying why.
#include <doctest/doctest.h>

#include <filesystem>
#include <future>
#include <mutex>

#include "tests/actors/cluster_fixture.hpp"
#include "tests/filecoin/sealed_2k.hpp"
#include "zk/filecoin/api/seal.hpp"
#include "zk/filecoin/core/fr32.hpp"

using namespace zk::actors;
using namespace zk::actors::test;
using namespace zk::node;
using namespace std::chrono_literals;
namespace fc = zk::filecoin;
using zk::test::contains;

namespace {

using zk::test::sealed_2k;

const circuit_def_t& fc2k() {
  static const circuit_def_t c = filecoin_circuit("fc2k", "StackedDrg2KiBV1_1");
  return c;
}

job_request_msg fc_job(const input_file_t& c1, uint64_t sector) {
  filecoin_porep_spec_t s;
  s.prover_id = sealed_2k().req.prover_id;
  s.sector = sector;
  s.c1 = c1;
  return {"fc2k", priority_t::normal, 1, {s}};
}

// A prover that says it has fc2k's parameters resident and hands each prove request to the test.
struct captured_t {
  std::mutex mu;
  std::vector<prove_request_msg> requests;
  size_t count() {
    std::lock_guard<std::mutex> l(mu);
    return requests.size();
  }
};
prover_actor::behavior_type capturing_prover(prover_actor::pointer,
                                             std::shared_ptr<captured_t> got) {
  return {
      [got](const prove_request_msg& m) {
        std::lock_guard<std::mutex> l(got->mu);
        got->requests.push_back(m);
      },
      [](release_atom, uint64_t) {},
      [](cancel_atom, uint64_t) {},
      [](rebind_atom) {},
      [](loaded_atom) { return std::vector<std::string>{"fc2k"}; },
      [](params_atom, const std::string&, bool) {  // it holds no key it could move
        return key_outcome_msg{"", "refused", "a test's prover moves no key", 0, 0};
      },
  };
}

// A synthesis node that answers every dispatch at once with a buffer whose public digest is
// another witness's.
synthesizer_actor::behavior_type lying_synthesizer(synthesizer_actor::pointer self,
                                                   scheduler_actor scheduler) {
  return {
      [self, scheduler](const dispatch_msg& d) {
        buffer_ready_msg m;
        m.job = d.job;
        m.partition = d.partition;
        m.attempt = d.attempt;
        m.buffer_id = 1;
        m.size = d.circuit.buffer_bytes;
        m.endpoint = "local:synth-liar";
        m.public_digest = std::string(32, '\x5a');
        m.report_token = d.report_token;
        self->send(scheduler, m);
      },
      [](release_atom, uint64_t) {},
      [](cancel_atom, uint64_t) {},
      [](rebind_atom) { return std::vector<held_buffer_msg>{}; },
      [](tick_atom) {},
  };
}

caf::expected<node_id_t> join(fixture_t& f, const std::string& name, node_join_msg m) {
  m.resources.name = name;
  m.resources.memory_budget = uint64_t(8) << 30;
  m.resources.data_endpoint = "local:" + name;
  return ask<node_id_t>(*f.sys, f.cluster->scheduler, 10s, join_atom::value, f.node_token(name), m);
}

std::shared_ptr<captured_t> join_fc_prover(fixture_t& f) {
  auto got = std::make_shared<captured_t>();
  node_join_msg m;
  m.resources.hot_keys = {"fc2k"};
  m.prover = f.sys->spawn(capturing_prover, got);
  REQUIRE(join(f, "prover-fc", m));
  return got;
}

// The files of a scheduler: an input root with the C1 in it, the store.
struct files_t {
  zk::test::temp_dir_t dir{"zk_fc_intake"};
  std::string c1 = (dir.path() / "c1.json").string();
  std::shared_ptr<upload_store_t> store =
      std::make_shared<upload_store_t>((dir.path() / "store").string(), uint64_t(1) << 30);
  std::string journal = (dir.path() / "journal.db").string();
  files_t() { zk::test::write_text(c1, fc::write_c1_json(sealed_2k().c1)); }
  size_t stored(const char* ext) const {
    size_t n = 0;
    for (const auto& e : std::filesystem::directory_iterator(store->dir()))
      n += e.path().extension() == ext;
    return n;
  }
};

cluster_config_t config(const files_t& files, unsigned synth_nodes) {
  cluster_config_t cc;
  cc.synth_nodes = synth_nodes;
  cc.synth_budget = uint64_t(2) << 30;
  cc.store = files.store;
  cc.journal = std::make_shared<journal_t>(files.journal, journal_sync_t::full);
  cc.max_attempts = 2;
  return cc;
}

}  // namespace

TEST_CASE("a Filecoin job is taken in at submit, synthesized from its partition's input only") {
  files_t files;
  std::string id;
  {
    fixture_t f(config(files, 1), {fc2k()});
    auto got = join_fc_prover(f);
    // Refused: the user's file named, the reason given, nothing stored, nothing journaled.
    auto bad = f.submit(fc_job(input_file_t::at(files.c1), 43));
    REQUIRE_FALSE(bad);
    CHECK(bad.error() == caf::make_error(zk_errc::bad_request));
    CHECK(contains(describe(bad.error()), files.c1 + ": the C1's replica_id"));
    CHECK(contains(describe(bad.error()), "wrong prover id or sector"));
    CHECK(files.stored(".fcp") == 0);
    // A circom job for the Filecoin circuit: refused by kind.
    auto wrong = f.submit({"fc2k", priority_t::normal, 1, f.wtns_job()});
    REQUIRE_FALSE(wrong);
    CHECK(contains(describe(wrong.error()),
                   "circuit 'fc2k' is filecoin-porep, the job a circom job"));
    // Accepted: its partition's input is in the store before the id comes back.
    auto job = f.submit(fc_job(input_file_t::at(files.c1), 42));
    REQUIRE_MESSAGE(job, describe(job.error()));
    id = *job;
    CHECK(files.stored(".fcp") == 1);
    CHECK(f.status(id).kind == circuit_kind_t::filecoin_porep);
    // The embedded cluster's synthesis node read the input from the store (no HTTP here): its
    // buffer reaches the prover bound to the inputs derived at intake.
    REQUIRE(f.eventually([&] { return got->count() == 1; }, 120s));
    const prove_request_msg m = got->requests[0];
    CHECK(m.circuit.id == "fc2k");
    CHECK(m.buffer.public_digest.size() == 32);
    f.cancel(id);
  }
  // Journaled with its taken-in spec: the partition's input, the digest the buffer had.
  journal_t j(files.journal, journal_sync_t::full);
  const auto jobs = j.replay();
  REQUIRE(jobs.size() == 1);
  const auto& spec = std::get<filecoin_porep_spec_t>(jobs[0].spec.v);
  REQUIRE(spec.partitions.size() == 1);
  CHECK(files.store->path_of(spec.partitions[0].input.object));
  CHECK(spec.c1.path == files.c1);
  CHECK(spec.sector == 42);
}

TEST_CASE("an uploaded C1 whose intake refuses it is deleted at once, nothing accepted goes") {
  files_t files;
  fixture_t f(config(files, 1), {fc2k()});
  auto got = join_fc_prover(f);
  const std::string bytes = zk::test::read_text(files.c1);
  const auto c1 = *parse_upload(files.store->put(bytes, true));
  const auto other = *parse_upload(files.store->put("{\"kept\": true}", true));
  // Refused (the C1 is not of sector 43): its upload goes, without waiting for the hourly sweep;
  // an upload no submission named stays.
  REQUIRE_FALSE(f.submit(fc_job(input_file_t::of(c1), 43)));
  CHECK(f.eventually([&] { return !files.store->path_of(c1); }, 10s));
  CHECK(files.store->path_of(other));
  // Uploaded again, and accepted: its partition's input is in the store.
  REQUIRE(parse_upload(files.store->put(bytes, true)) == c1);
  auto job = f.submit(fc_job(input_file_t::of(c1), 42));
  REQUIRE_MESSAGE(job, describe(job.error()));
  CHECK(files.stored(".fcp") == 1);
  // A refused submission of the same C1 while the job runs leaves the job's inputs.
  REQUIRE(parse_upload(files.store->put(bytes, true)) == c1);
  REQUIRE_FALSE(f.submit(fc_job(input_file_t::of(c1), 44)));
  CHECK(f.eventually([&] { return !files.store->path_of(c1); }, 10s));
  CHECK(files.stored(".fcp") == 1);
  CHECK(files.store->path_of(other));
  REQUIRE(f.eventually([&] { return got->count() == 1; }, 120s));
  f.cancel(*job);
}

TEST_CASE("a truncated C1 sent as a job's body is refused with the C1 reader's message") {
  files_t files;
  fixture_t f(config(files, 1), {fc2k()});
  join_fc_prover(f);
  const std::string cut = zk::test::read_text(files.c1).substr(0, 5000);
  // The store's own JSON check speaks nlohmann's words; the body of a Filecoin job skips it (the
  // API's server: receive(json, false)) and intake's C1 reader says what and where.
  auto checked = files.store->receive(true);
  REQUIRE_FALSE(checked->write(cut));
  auto refused = checked->commit();
  REQUIRE_FALSE(refused);
  CHECK(contains(refused.error().why, "json.exception"));
  auto body = files.store->receive(true, false);
  REQUIRE_FALSE(body->write(cut));
  auto ref = body->commit();
  REQUIRE(ref);
  const auto c1 = *parse_upload(ref.value());
  auto bad = f.submit(fc_job(input_file_t::of(c1), 42));
  REQUIRE_FALSE(bad);
  const std::string why = describe(bad.error());
  CHECK_MESSAGE(contains(why, input_file_t::of(c1).name() + ": vanilla_proofs.StackedDrg2KiBV1["),
                why);
  CHECK_MESSAGE(contains(why, "(byte 5000)"), why);
  CHECK_MESSAGE(!contains(why, "json.exception"), why);
}

TEST_CASE(
    "a synthesis node whose buffer binds other public inputs than intake derived is refused") {
  files_t files;
  fixture_t f(config(files, 0), {fc2k()});
  auto got = join_fc_prover(f);
  node_join_msg m;
  m.resources.cores = 1;
  m.synthesizer = f.sys->spawn(lying_synthesizer, f.cluster->scheduler);
  REQUIRE(join(f, "synth-liar", m));
  auto job = f.submit(fc_job(input_file_t::at(files.c1), 42));
  REQUIRE_MESSAGE(job, describe(job.error()));
  auto r = f.await(*job);
  REQUIRE_FALSE(r);
  CHECK(r.error() == caf::make_error(zk_errc::job_failed));
  CHECK_MESSAGE(contains(describe(r.error()),
                         "the synthesized partition's public inputs are not those derived from "
                         "its C1 at intake"),
                describe(r.error()));
  CHECK(got->count() == 0);  // no prover was asked to prove it
}

TEST_CASE(
    "at restart, a job journaled before its intake is taken in, and jobs that cannot go on fail") {
  files_t files;
  const std::string gone = (files.dir.path() / "gone.json").string();
  {
    journal_t j(files.journal, journal_sync_t::full);
    auto add = [&](uint64_t seq, const std::string& circuit, job_spec_t spec) {
      journaled_job_t x;
      x.seq = seq;
      x.public_id = std::string(32, char('0' + seq));
      x.owner = "admin";
      x.circuit = circuit;
      x.partitions = 1;
      x.spec = std::move(spec);
      x.submitted_ms = 1767225600000;
      j.add_job(x);
    };
    // As a schema-v1 journal's migration leaves Filecoin jobs: no partition inputs yet.
    add(1, "fc2k", fc_job(input_file_t::at(files.c1), 42).spec);
    add(2, "fc2k", fc_job(input_file_t::at(gone), 42).spec);
    add(3, "porep",
        circom_job_spec({zk::test::fixture_dir("bn254", "mulchain") + "/witness.wtns"}));
    circom_spec_t uploaded;
    uploaded.inputs.push_back({circom_input_t::form_t::wtns,
                               input_file_t::of({std::string(64, 'e'), object_type_t::wtns})});
    add(4, "mulchain", {uploaded});
  }
  {
    fixture_t f(config(files, 0), {fc2k()});
    auto st = f.status(std::string(32, '1'));
    CHECK_FALSE(st.finished);
    CHECK(files.stored(".fcp") == 1);
    auto failed = [&](char id, const std::string& why) {
      auto s = f.status(std::string(32, id));
      CHECK(s.finished);
      CHECK(s.failed > 0);
      CHECK_MESSAGE(contains(s.error, why), s.error);
    };
    failed('2', "taken in again at restart: ");
    failed('2', "gone.json");
    failed('3', "the journal holds a circom job of circuit 'porep', which is porep-lite");
    failed('4',
           "its input sha256:" + std::string(64, 'e') + ".wtns is gone from the scheduler's store");
  }
  journal_t j(files.journal, journal_sync_t::full);
  const auto jobs = j.replay();
  REQUIRE(jobs.size() == 4);
  CHECK_FALSE(needs_intake(jobs[0].spec));  // its partitions' inputs journaled
  CHECK(jobs[0].state == "open");
  for (size_t i : {1, 2, 3}) CHECK(jobs[i].state == "failed");
}
