#include "node/scheduler/journal.hpp"

#include <doctest/doctest.h>
#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <stdexcept>
#include <string>

#include "tests/test_util.hpp"
#include "zk/base/hex.hpp"

using zk::node::journal_stats_t;
using zk::node::journal_sync_t;
using zk::node::journal_t;
using zk::node::journaled_job_t;
using zk::node::journaled_proof_t;
using zk::test::contains;
// The message of what `f` throws as std::runtime_error ("" when it throws nothing).
template <class F>
std::string thrown(F&& f) {
  return zk::test::thrown<std::runtime_error>(std::forward<F>(f));
}

namespace {

journaled_job_t make_job(uint64_t seq, uint32_t partitions) {
  journaled_job_t j;
  j.seq = seq;
  j.public_id = "job-" + std::to_string(seq);
  j.owner = "client-a";
  j.circuit = "porep";
  j.priority = 1;
  j.circuit_priority = true;
  j.partitions = partitions;
  // A spec of two inputs (its JSON round trip: tests/node/job_spec_test.cpp).
  j.spec = zk::node::circom_job_spec({"/srv/in/a b.wtns", "/srv/in/ü\\\"x\".json"});
  j.submitted_ms = 1767225600000 + int64_t(seq);
  return j;
}

journaled_proof_t make_proof(uint32_t partition) {
  journaled_proof_t p;
  p.partition = partition;
  p.proof_json = R"({"pi_a": ["1", "2", "1"], "partition": )" + std::to_string(partition) + "}";
  p.public_signals = {"123456789", std::to_string(partition), ""};
  p.prove_seconds = 0.25 + partition;
  p.prover = "prover-" + std::to_string(partition % 2);
  return p;
}

void check_same_proof(const journaled_proof_t& got, const journaled_proof_t& want) {
  CHECK(got.partition == want.partition);
  CHECK(got.proof_json == want.proof_json);
  CHECK(got.public_signals == want.public_signals);
  CHECK(got.prove_seconds == want.prove_seconds);
  CHECK(got.prover == want.prover);
}

// `want` as replay returns it: attempts and placement one entry per partition.
void check_same(const journaled_job_t& got, journaled_job_t want) {
  want.attempts.resize(want.partitions, 0);
  want.placement.resize(want.partitions);
  CHECK(got.seq == want.seq);
  CHECK(got.public_id == want.public_id);
  CHECK(got.owner == want.owner);
  CHECK(got.circuit == want.circuit);
  CHECK(got.priority == want.priority);
  CHECK(got.circuit_priority == want.circuit_priority);
  CHECK(got.partitions == want.partitions);
  CHECK(zk::node::to_json(got.spec) == zk::node::to_json(want.spec));
  CHECK(got.state == want.state);
  CHECK(got.error == want.error);
  CHECK(got.submitted_ms == want.submitted_ms);
  CHECK(got.finished_ms == want.finished_ms);
  CHECK(got.attempts == want.attempts);
  CHECK(got.placement == want.placement);
  REQUIRE(got.proofs.size() == want.proofs.size());
  for (size_t i = 0; i < got.proofs.size(); ++i) check_same_proof(got.proofs[i], want.proofs[i]);
}

// Runs SQL on a closed journal file behind the journal's back.
void sql_on(const std::string& path, const char* sql) {
  sqlite3* db = nullptr;
  REQUIRE(sqlite3_open(path.c_str(), &db) == SQLITE_OK);
  char* err = nullptr;
  const int rc = sqlite3_exec(db, sql, nullptr, nullptr, &err);
  const std::string msg = err ? err : "";
  sqlite3_free(err);
  sqlite3_close(db);
  REQUIRE_MESSAGE(rc == SQLITE_OK, msg);
}

}  // namespace

TEST_CASE("journal: jobs, attempts, placement and proofs survive close and reopen") {
  zk::test::temp_dir_t dir("zk_journal");
  const std::string path = dir.file("journal.db");
  journaled_job_t a = make_job(1, 4), b = make_job(2, 3);
  b.priority = 0;
  b.circuit_priority = false;
  b.spec = zk::node::porep_lite_job_spec(3);
  {
    journal_t j(path, journal_sync_t::full);
    CHECK(j.path() == path);
    CHECK(j.sync() == journal_sync_t::full);
    CHECK(j.next_seq() == 1);  // job numbers start at 1
    CHECK(j.replay().empty());
    j.add_job(a);
    j.add_job(b);
    CHECK(j.next_seq() == 3);
    j.note_part(1, 2, 1, "synth-1>prover-1");
    j.note_part(1, 2, 2, "synth-2>prover-1");  // replaces the first note
    j.note_part(1, 0, 0, "synth-1>prover-2");
    a.attempts = {0, 0, 2, 0};
    a.placement = {"synth-1>prover-2", "", "synth-2>prover-1", ""};
    // Acceptance order, not partition order.
    for (uint32_t p : {3u, 0u, 2u}) {
      j.add_proof(1, make_proof(p));
      a.proofs.push_back(make_proof(p));
    }
    j.add_proof(2, make_proof(1));
    b.proofs.push_back(make_proof(1));
    j.finish_job(2, "failed", "partition 0: out of memory on prover-1", 1767225700000);
    b.state = "failed";
    b.error = "partition 0: out of memory on prover-1";
    b.finished_ms = 1767225700000;
    const journal_stats_t s = j.stats();
    CHECK(s.jobs == 2);
    CHECK(s.open_jobs == 1);
    CHECK(s.proofs == 4);
    CHECK(s.file_bytes > 0);
  }
  CHECK_FALSE(std::filesystem::exists(path + "-shm"));  // exclusive mode: no shared memory
  // The other sync mode reads the same file.
  journal_t j(path, journal_sync_t::normal);
  CHECK(j.sync() == journal_sync_t::normal);
  CHECK(j.next_seq() == 3);
  const auto jobs = j.replay();
  REQUIRE(jobs.size() == 2);
  check_same(jobs[0], a);
  check_same(jobs[1], b);
  // A job may come with what it had already (a migration, a copy): replayed as given.
  journaled_job_t c = make_job(7, 2);
  c.attempts = {1, 0};
  c.placement = {"", "synth-1>prover-1"};
  c.proofs = {make_proof(1)};
  j.add_job(c);
  CHECK(j.next_seq() == 8);
  const auto again = j.replay();
  REQUIRE(again.size() == 3);
  check_same(again[2], c);
}

TEST_CASE("journal: next_seq survives forget_job and reopen: job numbers never repeat") {
  zk::test::temp_dir_t dir("zk_journal");
  const std::string path = dir.file("journal.db");
  {
    journal_t j(path, journal_sync_t::normal);
    j.add_job(make_job(5, 1));
    j.add_job(make_job(9, 1));
    CHECK(j.next_seq() == 10);
    j.forget_job(9);  // the largest one
    CHECK(j.next_seq() == 10);
  }
  {
    journal_t j(path, journal_sync_t::normal);
    CHECK(j.next_seq() == 10);  // from meta: no job row says so any more
    REQUIRE(j.replay().size() == 1);
    j.forget_job(5);
    CHECK(j.replay().empty());
  }
  journal_t j(path, journal_sync_t::full);
  CHECK(j.next_seq() == 10);
  j.add_job(make_job(10, 1));
  CHECK(j.next_seq() == 11);
}

TEST_CASE("journal: a second proof for a partition, or a proof of no partition, is refused") {
  zk::test::temp_dir_t dir("zk_journal");
  const std::string path = dir.file("journal.db");
  journal_t j(path, journal_sync_t::normal);
  j.add_job(make_job(1, 2));
  j.add_proof(1, make_proof(0));
  std::string e = thrown([&] { j.add_proof(1, make_proof(0)); });
  CHECK(contains(e, path));
  CHECK(contains(e, "add_proof (seq 1, partition 0)"));
  CHECK(contains(e, "already has a proof"));
  CHECK(contains(thrown([&] { j.add_proof(1, make_proof(2)); }), "out of its range"));
  CHECK(contains(thrown([&] { j.add_proof(3, make_proof(0)); }), "no such job"));
  CHECK(contains(thrown([&] { j.note_part(1, 2, 1, "x>y"); }), "out of its range"));
  CHECK(contains(thrown([&] { j.note_part(4, 0, 1, "x>y"); }), "no such job"));
  journaled_proof_t nan = make_proof(1);
  nan.prove_seconds = std::nan("");
  CHECK(contains(thrown([&] { j.add_proof(1, nan); }), "NaN"));
  // A job already there, a bad state, attempts of the wrong size: refused, nothing written.
  CHECK(contains(thrown([&] { j.add_job(make_job(1, 2)); }), "already in the journal"));
  journaled_job_t bad = make_job(2, 2);
  bad.state = "running";
  CHECK(contains(thrown([&] { j.add_job(bad); }), "state 'running'"));
  bad = make_job(2, 2);
  bad.attempts = {1};
  CHECK(contains(thrown([&] { j.add_job(bad); }), "1 attempts for 2 partitions"));
  // A job whose own proofs clash is rolled back whole.
  bad = make_job(2, 2);
  bad.proofs = {make_proof(1), make_proof(1)};
  CHECK(contains(thrown([&] { j.add_job(bad); }), "already has a proof"));
  const auto jobs = j.replay();
  REQUIRE(jobs.size() == 1);
  REQUIRE(jobs[0].proofs.size() == 1);
  CHECK(j.stats().proofs == 1);
  CHECK(j.next_seq() == 2);
  j.add_job(make_job(2, 2));  // the rolled back seq is free
}

TEST_CASE("journal: a scheduler killed without closing its journal loses no committed call") {
  zk::test::temp_dir_t dir("zk_journal");
  const std::string path = dir.file("journal.db");
  const pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    // No destructor, no checkpoint: the commits are in the WAL only, and the lock dies with us.
    auto* j = new journal_t(path, journal_sync_t::normal);
    j->add_job(make_job(1, 3));
    j->note_part(1, 1, 2, "synth-1>prover-1");
    j->add_proof(1, make_proof(2));
    ::_exit(0);
  }
  int status = 0;
  REQUIRE(::waitpid(child, &status, 0) == child);
  REQUIRE(WIFEXITED(status));
  CHECK(std::filesystem::exists(path + "-wal"));
  journal_t j(path, journal_sync_t::normal);
  const auto jobs = j.replay();
  REQUIRE(jobs.size() == 1);
  journaled_job_t want = make_job(1, 3);
  want.attempts = {0, 2, 0};
  want.placement = {"", "synth-1>prover-1", ""};
  want.proofs = {make_proof(2)};
  check_same(jobs[0], want);
  CHECK(j.next_seq() == 2);
}

TEST_CASE("journal: a second journal on the same file is refused until the first is closed") {
  zk::test::temp_dir_t dir("zk_journal");
  const std::string path = dir.file("journal.db");
  {
    journal_t first(path, journal_sync_t::full);
    first.add_job(make_job(1, 1));
    const std::string e = thrown([&] { journal_t second(path, journal_sync_t::full); });
    CHECK(contains(e, path));
    CHECK(contains(e, "held by another scheduler"));
    // The refused opener left the holder's lock and data alone.
    first.add_proof(1, make_proof(0));
    CHECK(contains(thrown([&] { journal_t third(path, journal_sync_t::normal); }), "held by"));
    CHECK(first.replay().size() == 1);
  }
  journal_t again(path, journal_sync_t::normal);
  const auto jobs = again.replay();
  REQUIRE(jobs.size() == 1);
  CHECK(jobs[0].proofs.size() == 1);
}

TEST_CASE("journal: a file that is not SQLite is refused, naming the file, and left as it was") {
  zk::test::temp_dir_t dir("zk_journal");
  const std::string path = dir.file("journal.db");
  std::string bytes(8192, '\0');
  std::mt19937_64 rng(42);
  for (auto& c : bytes) c = char(rng());
  { std::ofstream(path, std::ios::binary) << bytes; }
  std::string e = thrown([&] { journal_t j(path, journal_sync_t::full); });
  CHECK(contains(e, "journal " + path));
  CHECK(contains(e, "not an SQLite database"));
  CHECK(contains(e, "8192 bytes"));
  std::ifstream in(path, std::ios::binary);
  const std::string after((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  CHECK(after == bytes);

  // Shorter than a page: SQLite alone would take it for an empty database and write over it
  // (a 1-byte file it even reports as empty).
  for (const std::string small_bytes : {"x", "x\n"}) {
    const std::string small = dir.file("small.db");
    { std::ofstream(small, std::ios::binary) << small_bytes; }
    e = thrown([&] { journal_t j(small, journal_sync_t::normal); });
    CHECK(contains(e, "journal " + small + ": not an SQLite database"));
    CHECK(contains(
        e, small_bytes == "x" ? "(1 byte, beginning \"x\"" : "(2 bytes, beginning \"x\\x0a\""));
    CHECK(std::filesystem::file_size(small) == small_bytes.size());
  }

  // SQLite's header with garbage behind it: refused too, still naming the file.
  const std::string damaged = dir.file("damaged.db");
  {
    journal_t j(damaged, journal_sync_t::full);
    j.add_job(make_job(1, 1));
  }
  {
    std::fstream f(damaged, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(16);  // page size and everything after it in the header
    f.write(bytes.data(), 84);
  }
  CHECK(contains(thrown([&] { journal_t j(damaged, journal_sync_t::full); }), damaged));
}

TEST_CASE("journal: a job whose spec is not one replays as corrupt, naming the job") {
  zk::test::temp_dir_t dir("zk_journal");
  const std::string path = dir.file("journal.db");
  {
    journal_t j(path, journal_sync_t::full);
    j.add_job(make_job(1, 2));
    j.add_job(make_job(2, 2));
  }
  sql_on(path, R"(UPDATE jobs SET spec = '{"v": 1, "kind": "porep-lite"}' WHERE seq = 2)");
  journal_t j(path, journal_sync_t::full);
  const std::string e = thrown([&] { j.replay(); });
  CHECK_MESSAGE(contains(e, "replay: job seq 2: its spec: porep-lite: \"seed\""), e);
}

TEST_CASE("journal: a journal of another schema version, or another SQLite database, is refused") {
  zk::test::temp_dir_t dir("zk_journal");
  const std::string path = dir.file("journal.db");
  { journal_t j(path, journal_sync_t::full); }
  sql_on(path, "PRAGMA user_version = 7");
  std::string e = thrown([&] { journal_t j(path, journal_sync_t::full); });
  CHECK(contains(e, path));
  CHECK(contains(e, "schema version 7"));
  CHECK(contains(e, "reads version 3 (and migrates versions 1 and 2)"));
  // A file that claims version 1 but has version 3's jobs table: refused, nothing migrated.
  sql_on(path, "PRAGMA user_version = 1");
  CHECK(contains(thrown([&] { journal_t j(path, journal_sync_t::full); }),
                 "schema version 1 but jobs has no column 'inputs'"));
  sql_on(path, "PRAGMA user_version = 2; DROP TABLE parts");
  CHECK(contains(thrown([&] { journal_t j(path, journal_sync_t::full); }), "'parts' is missing"));

  const std::string other = dir.file("other.db");
  sql_on(other, "CREATE TABLE t (x)");
  e = thrown([&] { journal_t j(other, journal_sync_t::full); });
  CHECK(contains(e, other));
  CHECK(contains(e, "not a zkfleet journal"));

  // The directory must exist: named, not made.
  const std::string missing = dir.file("no/such/dir/journal.db");
  e = thrown([&] { journal_t j(missing, journal_sync_t::full); });
  CHECK(contains(e, dir.file("no/such/dir") + " does not exist"));
  CHECK_FALSE(std::filesystem::exists(dir.file("no")));
}

TEST_CASE(
    "journal: finish_job records the end, forget_job drops the job with its parts and proofs") {
  zk::test::temp_dir_t dir("zk_journal");
  const std::string path = dir.file("journal.db");
  journal_t j(path, journal_sync_t::normal);
  j.add_job(make_job(1, 2));
  j.add_job(make_job(2, 2));
  j.note_part(1, 1, 3, "a>b");
  j.add_proof(1, make_proof(0));
  j.add_proof(2, make_proof(1));
  j.finish_job(1, "done", "", 1767225800000);
  j.finish_job(2, "cancelled", "cancelled by client-a", 1767225900000);
  CHECK(j.stats().open_jobs == 0);
  CHECK(contains(thrown([&] { j.finish_job(1, "open", "", 0); }), "state 'open'"));
  CHECK(contains(thrown([&] { j.finish_job(3, "done", "", 0); }), "no such job"));
  auto jobs = j.replay();
  REQUIRE(jobs.size() == 2);
  CHECK(jobs[0].state == "done");
  CHECK(jobs[0].finished_ms == 1767225800000);
  CHECK(jobs[1].state == "cancelled");
  CHECK(jobs[1].error == "cancelled by client-a");

  j.forget_job(1);
  CHECK(contains(thrown([&] { j.forget_job(1); }), "no such job"));
  const journal_stats_t s = j.stats();
  CHECK(s.jobs == 1);
  CHECK(s.proofs == 1);  // job 1's proof went with it
  jobs = j.replay();
  REQUIRE(jobs.size() == 1);
  CHECK(jobs[0].seq == 2);
  // Its parts went too: a job added under the number again (by hand) starts clean.
  j.add_job(make_job(1, 2));
  jobs = j.replay();
  REQUIRE(jobs.size() == 2);
  CHECK(jobs[0].attempts == std::vector<uint32_t>{0, 0});
  CHECK(jobs[0].proofs.empty());
}

TEST_CASE("journal: a job of 1024 partitions: every partition's attempts, placement and proof") {
  zk::test::temp_dir_t dir("zk_journal");
  const std::string path = dir.file("journal.db");
  journaled_job_t want = make_job(3, 1024);
  want.attempts.resize(1024);
  want.placement.resize(1024);
  {
    journal_t j(path, journal_sync_t::normal);
    j.add_job(want);
    for (uint32_t p = 0; p < 1024; ++p) {
      if (p % 3 == 0) continue;  // a third never noted: 0 and "" on replay
      want.attempts[p] = p % 4;
      want.placement[p] = "synth-" + std::to_string(p % 7) + ">prover-" + std::to_string(p % 5);
      j.note_part(3, p, want.attempts[p], want.placement[p]);
    }
    for (uint32_t p = 1024; p-- > 0;) {  // accepted last partition first
      if (p % 2) continue;
      j.add_proof(3, make_proof(p));
      want.proofs.push_back(make_proof(p));
    }
  }
  journal_t j(path, journal_sync_t::normal);
  const auto jobs = j.replay();
  REQUIRE(jobs.size() == 1);
  check_same(jobs[0], want);
  CHECK(j.stats().proofs == 512);
}

// --- older schemas: v1 → v3, v2 → v3 ---------------------------------------------------------

namespace {

// tests/fixtures/journal/v<version>.sql loaded into a fresh file: a journal as zkfleet wrote that
// schema.
void load_fixture(const std::string& path, int version) {
  sql_on(path, zk::test::read_text(std::string(ZK_SOURCE_DIR) + "/tests/fixtures/journal/v" +
                                   std::to_string(version) + ".sql")
                   .c_str());
}
void load_v1(const std::string& path) { load_fixture(path, 1); }

// The copies <path>.v<version>-<ms> a migration left.
std::vector<std::string> backups_of(const std::string& path, int version = 1) {
  std::vector<std::string> out;
  const std::filesystem::path p(path);
  const std::string prefix = p.filename().string() + ".v" + std::to_string(version) + "-";
  for (const auto& e : std::filesystem::directory_iterator(p.parent_path()))
    if (e.path().filename().string().rfind(prefix, 0) == 0) out.push_back(e.path().string());
  return out;
}

// One query's first column on a closed file.
std::string sql_value(const std::string& path, const char* sql) {
  sqlite3* db = nullptr;
  REQUIRE(sqlite3_open(path.c_str(), &db) == SQLITE_OK);
  sqlite3_stmt* st = nullptr;
  REQUIRE(sqlite3_prepare_v2(db, sql, -1, &st, nullptr) == SQLITE_OK);
  std::string v;
  if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
    v = reinterpret_cast<const char*>(sqlite3_column_text(st, 0));
  sqlite3_finalize(st);
  sqlite3_close(db);
  return v;
}

}  // namespace

TEST_CASE("journal: a schema-v1 journal with every kind of job migrates once, all of it intact") {
  using namespace zk::node;
  zk::test::temp_dir_t dir("zk_journal_v1");
  const std::string path = dir.file("journal.db");
  load_v1(path);
  REQUIRE(sql_value(path, "PRAGMA user_version") == "1");
  std::vector<journaled_job_t> jobs;
  {
    journal_t j(path, journal_sync_t::full);
    CHECK(j.next_seq() == 11);
    jobs = j.replay();
    // The copy of the version-1 file, made before it changed.
    const auto backups = backups_of(path);
    REQUIRE(backups.size() == 1);
    CHECK(j.migration_backup() == backups[0]);
    CHECK(j.migrated_from() == 1);
  }
  REQUIRE(jobs.size() == 10);
  for (size_t i = 0; i < jobs.size(); ++i) {
    CHECK(jobs[i].seq == i + 1);
    CHECK(jobs[i].public_id == std::string(32, "0123456789abcdef"[(i + 1) % 16]));
    CHECK(jobs[i].owner == "admin");
    CHECK(jobs[i].priority == 2);
    CHECK(jobs[i].circuit_priority);
    CHECK(jobs[i].submitted_ms == 1767225600000 + int64_t(i + 1));
  }
  const std::string a(64, 'a'), b(64, 'b'), c(64, 'c');
  auto circom = [&](size_t i) { return std::get<circom_spec_t>(jobs[i].spec.v); };
  // 1: one path for its 2 partitions, done, with both proofs.
  CHECK(jobs[0].circuit == "mulchain");
  CHECK(jobs[0].partitions == 2);
  REQUIRE(circom(0).inputs.size() == 1);
  CHECK(circom(0).inputs[0].file.path == "/srv/in/w.wtns");
  CHECK(circom(0).inputs[0].form == circom_input_t::form_t::wtns);
  CHECK(jobs[0].state == "done");
  CHECK(jobs[0].finished_ms == 1767225700000);
  REQUIRE(jobs[0].proofs.size() == 2);
  CHECK(jobs[0].proofs[1].partition == 1);
  CHECK(jobs[0].proofs[1].proof_json == R"({"pi_a":["1","2","1"]})");
  CHECK(jobs[0].proofs[1].public_signals == std::vector<std::string>{"33", "7"});
  CHECK(jobs[0].proofs[1].prove_seconds == 0.5);
  CHECK(jobs[0].proofs[1].prover == "prover-b");
  // 2: one path per partition.
  REQUIRE(circom(1).inputs.size() == 2);
  CHECK(circom(1).inputs[1].file.path == "/srv/in/p1.wtns");
  // 3, 4: uploads, a .wtns and an input.json; 5: an input.json path, failed with its reason.
  CHECK(circom(2).inputs[0].file.object == stored_object_t{a, object_type_t::wtns});
  CHECK(circom(3).inputs[0].file.object == stored_object_t{b, object_type_t::json});
  CHECK(circom(3).inputs[0].form == circom_input_t::form_t::input_json);
  CHECK(jobs[3].circuit == "mulchain-gen");
  CHECK(circom(4).inputs[0].file.path == "/srv/in/input.json");
  CHECK(circom(4).inputs[0].form == circom_input_t::form_t::input_json);
  CHECK(jobs[4].state == "failed");
  CHECK(jobs[4].error == "bad_input: the witness does not satisfy the circuit");
  CHECK(jobs[4].finished_ms == 1767225700001);
  // 6: porep-lite seed 5, 3 partitions, partition 1 with 2 attempts and its placement, partition 0
  // proven; 7, 8: no seed (nothing, one empty string).
  CHECK(std::get<porep_lite_spec_t>(jobs[5].spec.v).seed == 5);
  CHECK(jobs[5].partitions == 3);
  CHECK(jobs[5].attempts == std::vector<uint32_t>{0, 2, 0});
  CHECK(jobs[5].placement == std::vector<std::string>{"", "synth-a>prover-b", ""});
  REQUIRE(jobs[5].proofs.size() == 1);
  CHECK(jobs[5].proofs[0].partition == 0);
  CHECK(std::get<porep_lite_spec_t>(jobs[6].spec.v).seed == 0);
  CHECK(std::get<porep_lite_spec_t>(jobs[7].spec.v).seed == 0);
  // 9, 10: Filecoin, the C1 an upload or a path, the arguments in any order; no partition inputs
  // yet (the scheduler takes them in again at restore).
  const auto f9 = std::get<filecoin_porep_spec_t>(jobs[8].spec.v);
  CHECK(f9.c1.object == stored_object_t{c, object_type_t::json});
  CHECK(zk::to_hex(f9.prover_id) == std::string(64, '1'));
  CHECK(f9.sector == 42);
  CHECK(needs_intake(jobs[8].spec));
  const auto f10 = std::get<filecoin_porep_spec_t>(jobs[9].spec.v);
  CHECK(f10.c1.path == "/srv/c1/s7.json");
  CHECK(f10.sector == 7);
  CHECK(jobs[9].partitions == 10);
  CHECK(jobs[9].circuit == "fc32g");
  for (size_t i : {1, 2, 3, 5, 6, 7, 8, 9}) CHECK(jobs[i].state == "open");

  // Version 3 now, the inputs column gone, each spec readable JSON, no request ids; a second
  // open migrates nothing and reads the same; the copy is a version-1 journal with the jobs as
  // they were.
  CHECK(sql_value(path, "PRAGMA user_version") == "3");
  CHECK(
      sql_value(path, "SELECT count(*) FROM jobs WHERE request_id = '' AND request_digest = ''") ==
      "10");
  for (const auto& job : jobs) CHECK(job.request_id.empty());
  CHECK(sql_value(path, "SELECT count(*) FROM pragma_table_info('jobs') WHERE name = 'inputs'") ==
        "0");
  CHECK(sql_value(path, "SELECT spec FROM jobs WHERE seq = 6") ==
        R"({"kind":"porep-lite","seed":5,"v":1})");
  const std::string backup = backups_of(path).at(0);
  CHECK(sql_value(backup, "PRAGMA user_version") == "1");
  CHECK(sql_value(backup, "SELECT count(*) FROM jobs") == "10");
  CHECK(sql_value(backup, "SELECT hex(inputs) FROM jobs WHERE seq = 6") == "06000000736565643D35");
  {
    journal_t j(path, journal_sync_t::full);
    CHECK(j.migration_backup().empty());
    CHECK(j.next_seq() == 11);
    const auto again = j.replay();
    REQUIRE(again.size() == jobs.size());
    for (size_t i = 0; i < again.size(); ++i) {
      CHECK(to_json(again[i].spec) == to_json(jobs[i].spec));
      CHECK(again[i].attempts == jobs[i].attempts);
      CHECK(again[i].proofs.size() == jobs[i].proofs.size());
    }
    // A migrated journal takes new jobs, and a spec set again (a v1 Filecoin job taken in).
    journaled_job_t n = make_job(11, 1);
    j.add_job(n);
    filecoin_porep_spec_t taken = f9;
    taken.partitions.push_back({input_file_t::of({std::string(64, 'd'), object_type_t::partition}),
                                std::string(32, '\x01')});
    j.set_spec(9, {taken});
    CHECK(contains(thrown([&] { j.set_spec(99, {taken}); }), "set_spec (seq 99): no such job"));
  }
  journal_t j(path, journal_sync_t::full);
  const auto last = j.replay();
  REQUIRE(last.size() == 11);
  CHECK_FALSE(needs_intake(last[8].spec));
  CHECK(std::get<filecoin_porep_spec_t>(last[8].spec.v).partitions[0].input.object.sha256 ==
        std::string(64, 'd'));
}

TEST_CASE(
    "journal: a schema-v1 journal whose inputs cannot be read is refused and left as it was") {
  using namespace zk::node;
  zk::test::temp_dir_t dir("zk_journal_v1_bad");
  const std::pair<const char*, const char*> damages[] = {
      {"a.db",
       "UPDATE jobs SET inputs = X'05000000616263' WHERE seq = 4"},  // a length past its end
      {"b.db", "UPDATE jobs SET inputs = X'08000000736563746f723d78' WHERE seq = 9"}};  // sector=x
  for (const auto& [name, damage] : damages) {
    CAPTURE(damage);
    const std::string path = dir.file(name);
    load_v1(path);
    sql_on(path, damage);
    const std::string before = sql_value(path, "SELECT group_concat(hex(inputs)) FROM jobs");
    const std::string e = thrown([&] { journal_t j(path, journal_sync_t::full); });
    CHECK_MESSAGE(contains(e,
                           "schema version 1 could not be migrated to version 3, so nothing was "
                           "changed: job seq "),
                  e);
    CHECK(sql_value(path, "PRAGMA user_version") == "1");
    CHECK(sql_value(path, "SELECT group_concat(hex(inputs)) FROM jobs") == before);
    CHECK(sql_value(path, "SELECT count(*) FROM pragma_table_info('jobs') WHERE name = 'spec'") ==
          "0");
    CHECK(backups_of(path).empty());  // the copy goes with the refusal
  }
}

TEST_CASE("journal: a schema-v2 journal migrates to v3 once, every job intact, request ids kept") {
  using namespace zk::node;
  zk::test::temp_dir_t dir("zk_journal_v2");
  const std::string path = dir.file("journal.db");
  load_fixture(path, 2);
  REQUIRE(sql_value(path, "PRAGMA user_version") == "2");
  const std::string specs_before = sql_value(path, "SELECT group_concat(spec, '|') FROM jobs");
  std::vector<journaled_job_t> jobs;
  {
    journal_t j(path, journal_sync_t::full);
    CHECK(j.migrated_from() == 2);
    const auto backups = backups_of(path, 2);
    REQUIRE(backups.size() == 1);
    CHECK(j.migration_backup() == backups[0]);
    CHECK(backups_of(path, 1).empty());
    CHECK(j.next_seq() == 13);
    jobs = j.replay();
  }
  REQUIRE(jobs.size() == 12);
  CHECK(sql_value(path, "PRAGMA user_version") == "3");
  // The specs are the same text; the jobs, attempts, placement and proofs as they were.
  CHECK(sql_value(path, "SELECT group_concat(spec, '|') FROM jobs") == specs_before);
  for (const auto& job : jobs) {
    CHECK(job.request_id.empty());
    CHECK(job.request_digest.empty());
  }
  CHECK(jobs[5].attempts == std::vector<uint32_t>{0, 2, 0});
  CHECK(jobs[0].state == "done");
  REQUIRE(jobs[0].proofs.size() == 2);
  CHECK(jobs[4].error == "bad_input: the witness does not satisfy the circuit");
  // 11: a Filecoin C2 taken in (no intake again), of miner 1000; 12: porep-lite, done, its proof.
  const auto& f = std::get<filecoin_porep_spec_t>(jobs[10].spec.v);
  CHECK(jobs[10].owner == "curio");
  CHECK_FALSE(needs_intake(jobs[10].spec));
  CHECK(zk::to_hex(f.prover_id).substr(0, 4) == "e807");
  REQUIRE(f.partitions.size() == 1);
  CHECK(f.partitions[0].input.object.sha256 == std::string(64, '9'));
  CHECK(jobs[11].state == "done");
  REQUIRE(jobs[11].proofs.size() == 1);
  CHECK(jobs[11].proofs[0].prover == "prover-c");
  // The copy is the version-2 file as it was.
  const std::string backup = backups_of(path, 2).at(0);
  CHECK(sql_value(backup, "PRAGMA user_version") == "2");
  CHECK(sql_value(backup,
                  "SELECT count(*) FROM pragma_table_info('jobs') WHERE name = "
                  "'request_id'") == "0");
  // A request id and its fingerprint survive close and reopen; a second open migrates nothing.
  {
    journal_t j(path, journal_sync_t::full);
    CHECK(j.migration_backup().empty());
    journaled_job_t n = make_job(13, 1);
    n.request_id = "porep-1000-42 [retry]";
    n.request_digest = std::string(64, 'a');
    j.add_job(n);
  }
  journal_t j(path, journal_sync_t::full);
  const auto last = j.replay();
  REQUIRE(last.size() == 13);
  CHECK(last[12].request_id == "porep-1000-42 [retry]");
  CHECK(last[12].request_digest == std::string(64, 'a'));
  CHECK(backups_of(path, 2).size() == 1);
}
