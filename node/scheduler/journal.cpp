// The journal's records (jobs, partitions, proofs, finishes) and their replay.
#include "node/scheduler/journal.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <limits>
#include <stdexcept>
#include <unordered_map>

#include "node/scheduler/journal_sqlite.hpp"

namespace zk::node {

namespace fs = std::filesystem;
using namespace journal_detail;

void journal_t::add_job(const journaled_job_t& j) {
  const std::string op = "add_job (seq " + std::to_string(j.seq) + ")";
  if (j.seq >= uint64_t(std::numeric_limits<int64_t>::max()))
    refuse(op + ": seq is past the largest the journal stores (2^63 - 2)");
  if (!valid_state(j.state))
    refuse(op + ": state '" + j.state + "' is none of open, done, failed, cancelled");
  if (!j.attempts.empty() && j.attempts.size() != j.partitions)
    refuse(op + ": " + std::to_string(j.attempts.size()) + " attempts for " +
           std::to_string(j.partitions) + " partitions");
  if (!j.placement.empty() && j.placement.size() != j.partitions)
    refuse(op + ": " + std::to_string(j.placement.size()) + " placements for " +
           std::to_string(j.partitions) + " partitions");
  const std::string spec = to_json(j.spec);

  tx_t tx(*this, op);
  {
    sqlite3_stmt* st = add_job_.get();
    reset_t r(st);
    binder_t b{st};
    b.i64(1, int64_t(j.seq))
        .text(2, j.public_id)
        .text(3, j.owner)
        .text(4, j.circuit)
        .i64(5, j.priority)
        .i64(6, j.circuit_priority ? 1 : 0)
        .i64(7, j.partitions)
        .text(8, spec)
        .text(9, j.state)
        .text(10, j.error)
        .i64(11, j.submitted_ms)
        .i64(12, j.finished_ms)
        .text(13, j.request_id)
        .text(14, j.request_digest);
    if (b.rc != SQLITE_OK) fail(op + ": bind");
    if (sqlite3_step(st) != SQLITE_DONE) {
      if (is_constraint(db_.get(), SQLITE_CONSTRAINT_PRIMARYKEY))
        refuse(op + ": the job is already in the journal");
      fail(op);
    }
  }
  for (uint32_t p = 0; p < j.partitions; ++p) {
    const uint32_t a = j.attempts.empty() ? 0 : j.attempts[p];
    const std::string& where = j.placement.empty() ? std::string() : j.placement[p];
    if (a == 0 && where.empty()) continue;  // what replay fills in anyway
    sqlite3_stmt* st = add_part_.get();
    reset_t r(st);
    binder_t b{st};
    b.i64(1, int64_t(j.seq)).i64(2, p).i64(3, a).text(4, where);
    if (b.rc != SQLITE_OK) fail(op + ": bind");
    if (sqlite3_step(st) != SQLITE_DONE) fail(op + ": partition " + std::to_string(p));
  }
  for (const auto& proof : j.proofs) add_proof(j.seq, proof);  // joins this transaction
  tx.commit(op);
  next_seq_ = std::max(next_seq_, j.seq + 1);
}

void journal_t::set_spec(uint64_t seq, const job_spec_t& spec) {
  const std::string op = "set_spec (seq " + std::to_string(seq) + ")";
  const std::string text = to_json(spec);
  stmt_ptr_t st = prepare("UPDATE jobs SET spec = ?2 WHERE seq = ?1");
  binder_t b{st.get()};
  b.i64(1, int64_t(seq)).text(2, text);
  if (b.rc != SQLITE_OK) fail(op + ": bind");
  if (sqlite3_step(st.get()) != SQLITE_DONE) fail(op);
  if (sqlite3_changes(db_.get()) == 0) refuse(op + ": no such job");
}

void journal_t::add_proof(uint64_t seq, const journaled_proof_t& p) {
  const std::string op =
      "add_proof (seq " + std::to_string(seq) + ", partition " + std::to_string(p.partition) + ")";
  if (std::isnan(p.prove_seconds)) refuse(op + ": prove_seconds is NaN");
  std::string signals;
  try {
    signals = encode_strings(p.public_signals);
  } catch (const std::exception& e) {
    refuse(op + ": public signals: " + e.what());
  }
  sqlite3_stmt* st = add_proof_.get();
  reset_t r(st);
  binder_t b{st};
  b.i64(1, int64_t(seq))
      .i64(2, p.partition)
      .text(3, p.proof_json)
      .blob(4, signals)
      .real(5, p.prove_seconds)
      .text(6, p.prover);
  if (b.rc != SQLITE_OK) fail(op + ": bind");
  if (sqlite3_step(st) != SQLITE_DONE) {
    if (is_constraint(db_.get(), SQLITE_CONSTRAINT_UNIQUE))
      refuse(op + ": the partition already has a proof in the journal");
    fail(op);
  }
  if (sqlite3_changes(db_.get()) == 0)
    refuse(op + ": no such job, or the partition is out of its range");
}

void journal_t::note_part(uint64_t seq, uint32_t partition, uint32_t attempts,
                          const std::string& placement) {
  sqlite3_stmt* st = note_part_.get();
  reset_t r(st);
  binder_t b{st};
  b.i64(1, int64_t(seq)).i64(2, partition).i64(3, attempts).text(4, placement);
  auto op = [&] {
    return "note_part (seq " + std::to_string(seq) + ", partition " + std::to_string(partition) +
           ")";
  };
  if (b.rc != SQLITE_OK) fail(op() + ": bind");
  if (sqlite3_step(st) != SQLITE_DONE) fail(op());
  if (sqlite3_changes(db_.get()) == 0)
    refuse(op() + ": no such job, or the partition is out of its range");
}

void journal_t::finish_job(uint64_t seq, const std::string& state, const std::string& error,
                           int64_t finished_ms) {
  const std::string op = "finish_job (seq " + std::to_string(seq) + ")";
  if (state != "done" && state != "failed" && state != "cancelled")
    refuse(op + ": state '" + state + "' is none of done, failed, cancelled");
  sqlite3_stmt* st = finish_job_.get();
  reset_t r(st);
  binder_t b{st};
  b.i64(1, int64_t(seq)).text(2, state).text(3, error).i64(4, finished_ms);
  if (b.rc != SQLITE_OK) fail(op + ": bind");
  if (sqlite3_step(st) != SQLITE_DONE) fail(op);
  if (sqlite3_changes(db_.get()) == 0) refuse(op + ": no such job");
}

void journal_t::reopen_job(uint64_t seq) {
  const std::string op = "reopen_job (seq " + std::to_string(seq) + ")";
  stmt_ptr_t st =
      prepare("UPDATE jobs SET state = 'open', error = '', finished_ms = 0 WHERE seq = ?1");
  binder_t b{st.get()};
  b.i64(1, int64_t(seq));
  if (b.rc != SQLITE_OK) fail(op + ": bind");
  if (sqlite3_step(st.get()) != SQLITE_DONE) fail(op);
  if (sqlite3_changes(db_.get()) == 0) refuse(op + ": no such job");
}

void journal_t::set_priority(uint64_t seq, uint8_t priority) {
  const std::string op = "set_priority (seq " + std::to_string(seq) + ")";
  stmt_ptr_t st = prepare("UPDATE jobs SET priority = ?2, circuit_priority = 0 WHERE seq = ?1");
  binder_t b{st.get()};
  b.i64(1, int64_t(seq)).i64(2, priority);
  if (b.rc != SQLITE_OK) fail(op + ": bind");
  if (sqlite3_step(st.get()) != SQLITE_DONE) fail(op);
  if (sqlite3_changes(db_.get()) == 0) refuse(op + ": no such job");
}

void journal_t::forget_job(uint64_t seq) {
  const std::string op = "forget_job (seq " + std::to_string(seq) + ")";
  tx_t tx(*this, op);
  {
    // Its number stays taken: next_seq is kept in meta once the row that implied it is gone.
    sqlite3_stmt* st = keep_seq_.get();
    reset_t r(st);
    binder_t b{st};
    b.i64(1, int64_t(seq) + 1);
    if (b.rc != SQLITE_OK) fail(op + ": bind");
    if (sqlite3_step(st) != SQLITE_DONE) fail(op + ": keep next_seq");
  }
  {
    sqlite3_stmt* st = forget_job_.get();  // parts and proofs go with it (ON DELETE CASCADE)
    reset_t r(st);
    binder_t b{st};
    b.i64(1, int64_t(seq));
    if (b.rc != SQLITE_OK) fail(op + ": bind");
    if (sqlite3_step(st) != SQLITE_DONE) fail(op);
    if (sqlite3_changes(db_.get()) == 0) refuse(op + ": no such job");
  }
  tx.commit(op);
}

std::vector<journaled_job_t> journal_t::replay() {
  const std::string op = "replay";
  std::vector<journaled_job_t> jobs;
  std::unordered_map<uint64_t, size_t> at;  // seq → index in jobs
  auto corrupt = [&](uint64_t seq, const std::string& what) {
    refuse("replay: job seq " + std::to_string(seq) + ": " + what);
  };
  // An integer column within [lo, hi], else the journal was altered behind our back.
  auto int_col = [&](sqlite3_stmt* st, int i, int64_t lo, int64_t hi, uint64_t seq,
                     const char* name) {
    if (sqlite3_column_type(st, i) != SQLITE_INTEGER)
      corrupt(seq, std::string(name) + " is not an integer");
    const int64_t v = sqlite3_column_int64(st, i);
    if (v < lo || v > hi)
      corrupt(seq, std::string(name) + " " + std::to_string(v) + " is out of range");
    return v;
  };
  auto step_rows = [&](sqlite3_stmt* st, const char* what, auto&& row) {
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) row(st);
    if (rc != SQLITE_DONE) fail(op + ": " + what);
  };
  constexpr int64_t u32_max = std::numeric_limits<uint32_t>::max();
  constexpr int64_t i64_max = std::numeric_limits<int64_t>::max();
  constexpr int64_t i64_min = std::numeric_limits<int64_t>::min();

  tx_t tx(*this, op);  // one consistent read, and one lock round instead of three
  stmt_ptr_t q = prepare(
      "SELECT seq, public_id, owner, circuit, priority, circuit_priority, partitions, spec, "
      "state, error, submitted_ms, finished_ms, request_id, request_digest FROM jobs ORDER BY seq");
  step_rows(q.get(), "jobs", [&](sqlite3_stmt* st) {
    journaled_job_t j;
    j.seq = uint64_t(int_col(st, 0, 0, i64_max, 0, "seq"));
    j.public_id = column_bytes(st, 1);
    j.owner = column_bytes(st, 2);
    j.circuit = column_bytes(st, 3);
    j.priority = uint8_t(int_col(st, 4, 0, 255, j.seq, "priority"));
    j.circuit_priority = int_col(st, 5, 0, 1, j.seq, "circuit_priority") != 0;
    j.partitions = uint32_t(int_col(st, 6, 0, u32_max, j.seq, "partitions"));
    try {
      j.spec = job_spec_from_json(column_bytes(st, 7));
    } catch (const std::invalid_argument& e) {
      corrupt(j.seq, std::string("its spec: ") + e.what());
    }
    j.state = column_bytes(st, 8);
    if (!valid_state(j.state)) corrupt(j.seq, "state '" + j.state + "'");
    j.error = column_bytes(st, 9);
    j.submitted_ms = int_col(st, 10, i64_min, i64_max, j.seq, "submitted_ms");
    j.finished_ms = int_col(st, 11, i64_min, i64_max, j.seq, "finished_ms");
    j.request_id = column_bytes(st, 12);
    j.request_digest = column_bytes(st, 13);
    j.attempts.assign(j.partitions, 0);
    j.placement.assign(j.partitions, std::string());
    at.emplace(j.seq, jobs.size());
    jobs.push_back(std::move(j));
  });
  auto job_of = [&](int64_t seq) -> journaled_job_t& {
    auto it = at.find(uint64_t(seq));
    if (it == at.end()) corrupt(uint64_t(seq), "a partition or proof of a job that is not there");
    return jobs[it->second];
  };
  q = prepare("SELECT seq, part, attempts, placement FROM parts ORDER BY seq, part");
  step_rows(q.get(), "parts", [&](sqlite3_stmt* st) {
    journaled_job_t& j = job_of(sqlite3_column_int64(st, 0));
    const int64_t part = int_col(st, 1, 0, int64_t(j.partitions) - 1, j.seq, "partition");
    j.attempts[size_t(part)] = uint32_t(int_col(st, 2, 0, u32_max, j.seq, "attempts"));
    j.placement[size_t(part)] = column_bytes(st, 3);
  });
  q = prepare(
      "SELECT seq, part, proof_json, public_signals, prove_seconds, prover FROM proofs ORDER BY "
      "id");
  step_rows(q.get(), "proofs", [&](sqlite3_stmt* st) {
    journaled_job_t& j = job_of(sqlite3_column_int64(st, 0));
    journaled_proof_t p;
    p.partition =
        uint32_t(int_col(st, 1, 0, int64_t(j.partitions) - 1, j.seq, "proof's partition"));
    p.proof_json = column_bytes(st, 2);
    const auto* sig = static_cast<const unsigned char*>(sqlite3_column_blob(st, 3));
    auto signals = decode_strings(sig, size_t(sqlite3_column_bytes(st, 3)));
    if (!signals)
      corrupt(j.seq, "public signals of partition " + std::to_string(p.partition) +
                         " are not a list of length-prefixed strings");
    p.public_signals = std::move(*signals);
    p.prove_seconds = sqlite3_column_double(st, 4);
    p.prover = column_bytes(st, 5);
    j.proofs.push_back(std::move(p));
  });
  q.reset();
  tx.commit(op);
  return jobs;
}

journal_stats_t journal_t::stats() const {
  journal_stats_t s;
  auto row = [&](const char* sql, auto&& read) {
    stmt_ptr_t q = prepare(sql);
    if (sqlite3_step(q.get()) != SQLITE_ROW) fail(std::string("stats: ") + sql);
    read(q.get());
  };
  row("SELECT count(*), coalesce(sum(state = 'open'), 0) FROM jobs", [&](sqlite3_stmt* st) {
    s.jobs = uint64_t(sqlite3_column_int64(st, 0));
    s.open_jobs = uint64_t(sqlite3_column_int64(st, 1));
  });
  row("SELECT count(*) FROM proofs",
      [&](sqlite3_stmt* st) { s.proofs = uint64_t(sqlite3_column_int64(st, 0)); });
  for (const std::string& f : {path_, path_ + "-wal"}) {
    std::error_code ec;
    const auto n = fs::file_size(f, ec);
    if (!ec) s.file_bytes += n;
  }
  return s;
}

}  // namespace zk::node
