#include "node/scheduler/journal.hpp"

#include <sqlite3.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <limits>
#include <stdexcept>
#include <unordered_map>

namespace zk::node {

namespace fs = std::filesystem;

namespace {

// The schema of version 1 (journal_t::schema_version). Seqs are SQLite integers (int64), so
// add_job refuses a seq past INT64_MAX - 1. Parts rows exist only for partitions whose attempts
// or placement were noted: a queued job costs one row, and replay fills in 0 and "".
const char* const schema_v1 = R"sql(
CREATE TABLE meta (
  key   TEXT PRIMARY KEY,
  value INTEGER NOT NULL
) WITHOUT ROWID;
INSERT INTO meta (key, value) VALUES ('next_seq', 1), ('opens', 0);
CREATE TABLE jobs (
  seq              INTEGER PRIMARY KEY,
  public_id        TEXT NOT NULL,
  owner            TEXT NOT NULL,
  circuit          TEXT NOT NULL,
  priority         INTEGER NOT NULL CHECK (priority BETWEEN 0 AND 255),
  circuit_priority INTEGER NOT NULL CHECK (circuit_priority IN (0, 1)),
  partitions       INTEGER NOT NULL CHECK (partitions BETWEEN 0 AND 4294967295),
  inputs           BLOB NOT NULL,
  state            TEXT NOT NULL CHECK (state IN ('open', 'done', 'failed', 'cancelled')),
  error            TEXT NOT NULL,
  submitted_ms     INTEGER NOT NULL,
  finished_ms      INTEGER NOT NULL
);
CREATE TABLE parts (
  seq       INTEGER NOT NULL REFERENCES jobs (seq) ON DELETE CASCADE,
  part      INTEGER NOT NULL,
  attempts  INTEGER NOT NULL CHECK (attempts BETWEEN 0 AND 4294967295),
  placement TEXT NOT NULL,
  PRIMARY KEY (seq, part)
) WITHOUT ROWID;
CREATE TABLE proofs (
  id             INTEGER PRIMARY KEY,  -- acceptance order
  seq            INTEGER NOT NULL REFERENCES jobs (seq) ON DELETE CASCADE,
  part           INTEGER NOT NULL,
  proof_json     TEXT NOT NULL,
  public_signals BLOB NOT NULL,
  prove_seconds  REAL NOT NULL,
  prover         TEXT NOT NULL,
  UNIQUE (seq, part)
);
PRAGMA user_version = 1;
)sql";

const char* const tables_v1[] = {"meta", "jobs", "parts", "proofs"};

bool valid_state(const std::string& s) {
  return s == "open" || s == "done" || s == "failed" || s == "cancelled";
}

// Strings as one blob: each one a 4-byte little-endian length, then its bytes (any bytes).
std::string encode_strings(const std::vector<std::string>& v) {
  size_t n = 0;
  for (const auto& s : v) n += 4 + s.size();
  std::string out;
  out.reserve(n);
  for (const auto& s : v) {
    if (s.size() > std::numeric_limits<uint32_t>::max())
      throw std::runtime_error("a string of " + std::to_string(s.size()) +
                               " bytes (the journal takes at most 4 GiB - 1 per string)");
    const uint32_t len = uint32_t(s.size());
    for (int i = 0; i < 4; ++i) out.push_back(char((len >> (8 * i)) & 0xff));
    out += s;
  }
  return out;
}

bool decode_strings(const unsigned char* p, size_t n, std::vector<std::string>& out) {
  out.clear();
  size_t at = 0;
  while (at < n) {
    if (n - at < 4) return false;
    uint32_t len = 0;
    for (int i = 0; i < 4; ++i) len |= uint32_t(p[at + i]) << (8 * i);
    at += 4;
    if (n - at < len) return false;
    out.emplace_back(reinterpret_cast<const char*>(p + at), len);
    at += len;
  }
  return true;
}

// A column's bytes as they are stored (TEXT or BLOB; NULL reads as empty).
std::string column_bytes(sqlite3_stmt* st, int i) {
  const void* p = sqlite3_column_blob(st, i);
  const int n = sqlite3_column_bytes(st, i);
  return p ? std::string(static_cast<const char*>(p), size_t(n)) : std::string();
}

// Resets a statement when the call that stepped it ends, also by an exception: a statement
// left mid-way would hold its transaction open. Bindings are cleared too (they point into the
// caller's strings: SQLITE_STATIC).
class reset_t {
 public:
  explicit reset_t(sqlite3_stmt* st) : st_(st) {}
  ~reset_t() {
    sqlite3_reset(st_);
    sqlite3_clear_bindings(st_);
  }
  reset_t(const reset_t&) = delete;
  reset_t& operator=(const reset_t&) = delete;

 private:
  sqlite3_stmt* st_;
};

bool is_constraint(sqlite3* db, int extended) { return sqlite3_extended_errcode(db) == extended; }

}  // namespace

const char* journal_sync_name(journal_sync_t s) {
  return s == journal_sync_t::full ? "full" : "normal";
}

void journal_t::db_close_t::operator()(sqlite3* db) const { sqlite3_close_v2(db); }
void journal_t::stmt_finalize_t::operator()(sqlite3_stmt* s) const { sqlite3_finalize(s); }

// One explicit transaction: rolled back unless committed (a throw on the way out of a call
// leaves the journal as it was before the call).
class journal_t::tx_t {
 public:
  tx_t(journal_t& j, const std::string& op) : j_(j) { j_.run(j_.begin_.get(), op + ": BEGIN"); }
  // Guards a transaction the caller has begun itself.
  struct adopt_t {};
  tx_t(journal_t& j, adopt_t) : j_(j) {}
  void commit(const std::string& op) {
    j_.run(j_.commit_.get(), op + ": COMMIT");
    done_ = true;
  }
  ~tx_t() {
    // A failed COMMIT may already have rolled back: only an open transaction is rolled back.
    if (!done_ && !sqlite3_get_autocommit(j_.db_.get())) {
      sqlite3_step(j_.rollback_.get());
      sqlite3_reset(j_.rollback_.get());
    }
  }
  tx_t(const tx_t&) = delete;
  tx_t& operator=(const tx_t&) = delete;

 private:
  journal_t& j_;
  bool done_ = false;
};

void journal_t::fail(const std::string& op) const {
  sqlite3* db = db_.get();
  std::string msg = "out of memory";
  if (db) {
    // The message, and the code's name when the message does not already say it.
    msg = sqlite3_errmsg(db);
    const std::string code = sqlite3_errstr(sqlite3_extended_errcode(db));
    if (msg != code) msg += " (" + code + ")";
  }
  throw std::runtime_error("journal " + path_ + ": " + op + ": " + msg);
}

void journal_t::refuse(const std::string& why) const {
  throw std::runtime_error("journal " + path_ + ": " + why);
}

void journal_t::exec(const char* sql, const std::string& op) const {
  if (sqlite3_exec(db_.get(), sql, nullptr, nullptr, nullptr) != SQLITE_OK) fail(op);
}

journal_t::stmt_ptr_t journal_t::prepare(const char* sql) const {
  sqlite3_stmt* st = nullptr;
  if (sqlite3_prepare_v3(db_.get(), sql, -1, SQLITE_PREPARE_PERSISTENT, &st, nullptr) != SQLITE_OK)
    fail(std::string("prepare \"") + sql + "\"");
  return stmt_ptr_t(st);
}

void journal_t::run(sqlite3_stmt* st, const std::string& op) {
  reset_t r(st);
  if (sqlite3_step(st) != SQLITE_DONE) fail(op);
}

namespace {

// Binds, or throws through `fail` (only a misuse or out of memory makes a bind fail).
struct binder_t {
  sqlite3_stmt* st;
  int rc = SQLITE_OK;
  binder_t& i64(int i, int64_t v) {
    if (rc == SQLITE_OK) rc = sqlite3_bind_int64(st, i, v);
    return *this;
  }
  binder_t& real(int i, double v) {
    if (rc == SQLITE_OK) rc = sqlite3_bind_double(st, i, v);
    return *this;
  }
  // Never a null pointer: SQLite binds a null data pointer as NULL, not as "".
  binder_t& text(int i, const std::string& s) {
    if (rc == SQLITE_OK)
      rc = sqlite3_bind_text64(st, i, s.c_str(), s.size(), SQLITE_STATIC, SQLITE_UTF8);
    return *this;
  }
  binder_t& blob(int i, const std::string& s) {
    if (rc == SQLITE_OK) rc = sqlite3_bind_blob64(st, i, s.c_str(), s.size(), SQLITE_STATIC);
    return *this;
  }
};

}  // namespace

journal_t::journal_t(const std::string& path, journal_sync_t sync) : path_(path), sync_(sync) {
  if (path.empty()) throw std::runtime_error("journal: no path given");
  // The directory is the caller's to make (with the permissions it wants); a missing one is
  // most often a typo in the configuration, so say which.
  fs::path dir = fs::path(path).parent_path();
  if (dir.empty()) dir = ".";
  std::error_code ec;
  if (!fs::is_directory(dir, ec))
    refuse("directory " + dir.string() +
           (fs::exists(dir, ec) ? " is not a directory" : " does not exist"));
  if (fs::exists(path, ec) && !fs::is_regular_file(path, ec)) refuse("not a regular file");

  sqlite3* raw = nullptr;
  const int rc =
      sqlite3_open_v2(path.c_str(), &raw,
                      SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nullptr);
  db_.reset(raw);  // a handle comes back even when the open fails, and must be closed
  if (rc != SQLITE_OK) fail("open");
  sqlite3_extended_result_codes(raw, 1);
  // A bound on every wait for the file's lock: a second scheduler is refused, not hung.
  sqlite3_busy_timeout(raw, busy_timeout_ms);
  check_header();
  open_schema();

  add_job_ = prepare(
      "INSERT INTO jobs (seq, public_id, owner, circuit, priority, circuit_priority, partitions, "
      "inputs, state, error, submitted_ms, finished_ms) "
      "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)");
  add_part_ = prepare("INSERT INTO parts (seq, part, attempts, placement) VALUES (?1, ?2, ?3, ?4)");
  // Through the job's row: no row is inserted for an unknown job or a partition out of range.
  add_proof_ = prepare(
      "INSERT INTO proofs (seq, part, proof_json, public_signals, prove_seconds, prover) "
      "SELECT seq, ?2, ?3, ?4, ?5, ?6 FROM jobs WHERE seq = ?1 AND ?2 < partitions");
  note_part_ = prepare(
      "INSERT INTO parts (seq, part, attempts, placement) "
      "SELECT seq, ?2, ?3, ?4 FROM jobs WHERE seq = ?1 AND ?2 < partitions "
      "ON CONFLICT (seq, part) DO UPDATE SET attempts = excluded.attempts, "
      "placement = excluded.placement");
  finish_job_ = prepare("UPDATE jobs SET state = ?2, error = ?3, finished_ms = ?4 WHERE seq = ?1");
  keep_seq_ = prepare("UPDATE meta SET value = max(value, ?1) WHERE key = 'next_seq'");
  forget_job_ = prepare("DELETE FROM jobs WHERE seq = ?1");
}

void journal_t::check_header() const {
  // SQLite takes a file shorter than a page for an empty database and would write a journal
  // over it: a non-empty file must begin with SQLite's header. Read through the connection's own
  // file handle: opening the file a second time and closing it would drop the process's POSIX
  // locks on it, those of a journal_t that holds it included.
  sqlite3_file* f = nullptr;
  if (sqlite3_file_control(db_.get(), "main", SQLITE_FCNTL_FILE_POINTER, &f) != SQLITE_OK || !f ||
      !f->pMethods)
    refuse("cannot reach the file under the SQLite connection");
  // The size by stat, not xFileSize: SQLite's unix VFS reports a 1-byte file as empty.
  std::error_code ec;
  const auto st_size = fs::file_size(path_, ec);
  if (ec) refuse("cannot read the size of the file: " + ec.message());
  const sqlite3_int64 size = sqlite3_int64(st_size);
  if (size == 0) return;  // new: made at open, or left empty by an open that failed
  static const char magic[16] = {'S', 'Q', 'L', 'i', 't', 'e', ' ', 'f',
                                 'o', 'r', 'm', 'a', 't', ' ', '3', '\0'};
  unsigned char head[16] = {};
  const int n = int(std::min<sqlite3_int64>(size, sizeof head));
  const int rc = f->pMethods->xRead(f, head, n, 0);
  if (rc != SQLITE_OK && rc != SQLITE_IOERR_SHORT_READ) fail("read the file's header");
  if (size >= 100 && std::memcmp(head, magic, sizeof magic) == 0) return;
  std::string shown;  // what was found, printable
  for (int i = 0; i < n; ++i) {
    const unsigned char c = head[i];
    if (c >= 0x20 && c < 0x7f && c != '\\' && c != '"') {
      shown += char(c);
    } else {
      char hex[8];
      std::snprintf(hex, sizeof hex, "\\x%02x", c);
      shown += hex;
    }
  }
  refuse("not an SQLite database (" + std::to_string(size) + (size == 1 ? " byte" : " bytes") +
         ", beginning \"" + shown + (size > n ? "...\"" : "\"") +
         "; SQLite's begin with \"SQLite format 3\\x00\")");
}

void journal_t::open_schema() {
  sqlite3* db = db_.get();
  // What a failed step at open means: the file is not SQLite, or another journal_t holds it.
  auto open_fail = [&](const std::string& op) {
    const int code = sqlite3_extended_errcode(db);
    if (code == SQLITE_NOTADB) {
      std::error_code ec;
      const auto size = fs::file_size(path_, ec);
      refuse("not an SQLite database, or a damaged one (" +
             (ec ? std::string("a file") : std::to_string(size) + " bytes") +
             " with SQLite's header; SQLite says: " + sqlite3_errmsg(db) + ")");
    }
    if ((code & 0xff) == SQLITE_BUSY || (code & 0xff) == SQLITE_LOCKED)
      refuse("held by another scheduler (the file stayed locked for " +
             std::to_string(busy_timeout_ms) + " ms; one scheduler at a time may open it)");
    fail(op);
  };
  // One query's first column, as text (or "" when it returns no row).
  auto query = [&](const char* sql) {
    sqlite3_stmt* st = nullptr;
    if (sqlite3_prepare_v2(db, sql, -1, &st, nullptr) != SQLITE_OK) open_fail(sql);
    stmt_ptr_t owned(st);
    const int rc = sqlite3_step(st);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE) open_fail(sql);
    return rc == SQLITE_ROW ? column_bytes(st, 0) : std::string();
  };

  // Exclusive before the first access: the lock is then taken at the first read and kept, and
  // WAL needs no shared-memory file.
  exec("PRAGMA locking_mode = EXCLUSIVE", "PRAGMA locking_mode = EXCLUSIVE");
  const std::string mode = query("PRAGMA journal_mode = WAL");
  if (mode != "wal") refuse("journal_mode is '" + mode + "' after PRAGMA journal_mode = WAL");
  exec(sync_ == journal_sync_t::full ? "PRAGMA synchronous = FULL" : "PRAGMA synchronous = NORMAL",
       "PRAGMA synchronous");
  const std::string want_sync = sync_ == journal_sync_t::full ? "2" : "1";
  if (query("PRAGMA synchronous") != want_sync)
    refuse("PRAGMA synchronous did not take " + std::string(journal_sync_name(sync_)));
  exec("PRAGMA foreign_keys = ON", "PRAGMA foreign_keys = ON");
  if (query("PRAGMA foreign_keys") != "1")
    refuse("this SQLite has no foreign keys (PRAGMA foreign_keys stays off)");

  // Prepared here, where the tables may not exist yet: these name none.
  begin_ = prepare("BEGIN IMMEDIATE");
  commit_ = prepare("COMMIT");
  rollback_ = prepare("ROLLBACK");

  // BEGIN IMMEDIATE takes the write lock; in exclusive mode it is kept until close.
  {
    reset_t r(begin_.get());
    if (sqlite3_step(begin_.get()) != SQLITE_DONE) open_fail("BEGIN IMMEDIATE");
  }
  tx_t tx(*this, tx_t::adopt_t{});  // rolls back on a refusal below
  const int version = std::atoi(query("PRAGMA user_version").c_str());
  const int tables = std::atoi(query("SELECT count(*) FROM sqlite_master").c_str());
  if (version == 0 && tables == 0) {
    exec(schema_v1, "create the schema");
  } else if (version == 0) {
    refuse("an SQLite database that is not a zkfleet journal (PRAGMA user_version 0, " +
           std::to_string(tables) + " schema objects)");
  } else if (version != schema_version) {
    refuse("schema version " + std::to_string(version) + " (PRAGMA user_version); this zkfleet " +
           "reads version " + std::to_string(schema_version) +
           (version > schema_version ? " (written by a newer zkfleet?)" : ""));
  } else {
    for (const char* t : tables_v1) {
      const std::string sql =
          std::string("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = '") + t +
          "'";
      if (query(sql.c_str()) != "1")
        refuse("schema version 1 but table '" + std::string(t) + "' is missing");
    }
  }
  // A write at every open: the exclusive lock is surely held from here on, and the count says
  // how many times a scheduler started on this file.
  exec("UPDATE meta SET value = value + 1 WHERE key = 'opens'", "count the open");
  const std::string next = query(
      "SELECT max((SELECT value FROM meta WHERE key = 'next_seq'), "
      "coalesce((SELECT max(seq) FROM jobs) + 1, 1))");
  next_seq_ = std::strtoull(next.c_str(), nullptr, 10);
  if (next_seq_ == 0) refuse("meta.next_seq is missing or not a number");
  tx.commit("open");
}

journal_t::~journal_t() = default;  // statements first, then the database (member order)

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
  std::string inputs;
  try {
    inputs = encode_strings(j.inputs);
  } catch (const std::exception& e) {
    refuse(op + ": inputs: " + e.what());
  }

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
        .blob(8, inputs)
        .text(9, j.state)
        .text(10, j.error)
        .i64(11, j.submitted_ms)
        .i64(12, j.finished_ms);
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
      "SELECT seq, public_id, owner, circuit, priority, circuit_priority, partitions, inputs, "
      "state, error, submitted_ms, finished_ms FROM jobs ORDER BY seq");
  step_rows(q.get(), "jobs", [&](sqlite3_stmt* st) {
    journaled_job_t j;
    j.seq = uint64_t(int_col(st, 0, 0, i64_max, 0, "seq"));
    j.public_id = column_bytes(st, 1);
    j.owner = column_bytes(st, 2);
    j.circuit = column_bytes(st, 3);
    j.priority = uint8_t(int_col(st, 4, 0, 255, j.seq, "priority"));
    j.circuit_priority = int_col(st, 5, 0, 1, j.seq, "circuit_priority") != 0;
    j.partitions = uint32_t(int_col(st, 6, 0, u32_max, j.seq, "partitions"));
    const auto* p = static_cast<const unsigned char*>(sqlite3_column_blob(st, 7));
    if (!decode_strings(p, size_t(sqlite3_column_bytes(st, 7)), j.inputs))
      corrupt(j.seq, "inputs are not a list of length-prefixed strings");
    j.state = column_bytes(st, 8);
    if (!valid_state(j.state)) corrupt(j.seq, "state '" + j.state + "'");
    j.error = column_bytes(st, 9);
    j.submitted_ms = int_col(st, 10, i64_min, i64_max, j.seq, "submitted_ms");
    j.finished_ms = int_col(st, 11, i64_min, i64_max, j.seq, "finished_ms");
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
    if (!decode_strings(sig, size_t(sqlite3_column_bytes(st, 3)), p.public_signals))
      corrupt(j.seq, "public signals of partition " + std::to_string(p.partition) +
                         " are not a list of length-prefixed strings");
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
