// The journal opened: the file and its header checked, the schema created or migrated.
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <vector>

#include "node/scheduler/journal_sqlite.hpp"

namespace zk::node {

namespace fs = std::filesystem;
using namespace journal_detail;

namespace {

// The schema of version 3 (journal_t::schema_version): version 1 with a job's inputs (a blob of
// length-prefixed strings) replaced by its spec (JSON text, node/job_spec.hpp; version 2), then
// its request id and request fingerprint (version 3), last, as the migrations leave them (ALTER
// TABLE ADD COLUMN, DROP COLUMN). Seqs are SQLite integers (int64), so add_job refuses a seq past
// INT64_MAX - 1. Parts rows exist only for partitions whose attempts or placement were noted: a
// queued job costs one row, and replay fills in 0 and "".
const char* const schema_v3 = R"sql(
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
  state            TEXT NOT NULL CHECK (state IN ('open', 'done', 'failed', 'cancelled')),
  error            TEXT NOT NULL,
  submitted_ms     INTEGER NOT NULL,
  finished_ms      INTEGER NOT NULL,
  spec             TEXT NOT NULL DEFAULT '',
  request_id       TEXT NOT NULL DEFAULT '',
  request_digest   TEXT NOT NULL DEFAULT ''
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
PRAGMA user_version = 3;
)sql";

// Every version has these tables (version 1's jobs has `inputs` where later ones have `spec`).
const char* const tables[] = {"meta", "jobs", "parts", "proofs"};
// The columns of jobs that tell the versions apart.
const std::vector<const char*>& version_columns(int version) {
  static const std::vector<const char*> v1{"inputs"}, v2{"spec"},
      v3{"spec", "request_id", "request_digest"};
  return version == 1 ? v1 : version == 2 ? v2 : v3;
}

// Version 1 to 2, in the open's transaction (journal_t::migrate_v1).
const char* const v1_add_spec = "ALTER TABLE jobs ADD COLUMN spec TEXT NOT NULL DEFAULT ''";
const char* const v1_drop_inputs = "ALTER TABLE jobs DROP COLUMN inputs";
// Version 2 to 3 (journal_t::migrate_v2): the jobs already there have no request id.
const char* const v2_add_request_id =
    "ALTER TABLE jobs ADD COLUMN request_id TEXT NOT NULL DEFAULT ''";
const char* const v2_add_request_digest =
    "ALTER TABLE jobs ADD COLUMN request_digest TEXT NOT NULL DEFAULT ''";

int64_t unix_ms_now() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace

const char* journal_sync_name(journal_sync_t s) {
  return s == journal_sync_t::full ? "full" : "normal";
}

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
      "spec, state, error, submitted_ms, finished_ms, request_id, request_digest) "
      "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)");
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
  auto begin = [&] {
    reset_t r(begin_.get());
    if (sqlite3_step(begin_.get()) != SQLITE_DONE) open_fail("BEGIN IMMEDIATE");
  };
  begin();
  std::optional<tx_t> tx(std::in_place, *this, tx_t::adopt_t{});  // rolls back on a refusal
  int version = std::atoi(query("PRAGMA user_version").c_str());
  const int objects = std::atoi(query("SELECT count(*) FROM sqlite_master").c_str());
  auto check_tables = [&] {
    for (const char* t : tables) {
      const std::string sql =
          std::string("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = '") + t +
          "'";
      if (query(sql.c_str()) != "1")
        refuse("schema version " + std::to_string(version) + " but table '" + std::string(t) +
               "' is missing");
    }
    for (const char* column : version_columns(version)) {
      const std::string sql =
          std::string("SELECT count(*) FROM pragma_table_info('jobs') WHERE name = '") + column +
          "'";
      if (query(sql.c_str()) != "1")
        refuse("schema version " + std::to_string(version) + " but jobs has no column '" + column +
               "'");
    }
  };
  if (version == 0 && objects == 0) {
    exec(schema_v3, "create the schema");
  } else if (version == 0) {
    refuse("an SQLite database that is not a zkfleet journal (PRAGMA user_version 0, " +
           std::to_string(objects) + " schema objects)");
  } else if (version == 1 || version == 2) {
    check_tables();
    // A copy to go back to, before anything changes: VACUUM INTO runs outside a transaction (the
    // exclusive lock stays held meanwhile), then the migration is one transaction.
    tx.reset();
    const std::string from = std::to_string(version);
    const std::string backup = path_ + ".v" + from + "-" + std::to_string(unix_ms_now());
    {
      stmt_ptr_t vacuum = prepare("VACUUM INTO ?1");
      binder_t b{vacuum.get()};
      b.text(1, backup);
      if (b.rc != SQLITE_OK || sqlite3_step(vacuum.get()) != SQLITE_DONE) {
        const std::string why = sqlite3_errmsg(db);
        std::error_code ec;
        fs::remove(backup, ec);
        refuse("schema version " + from + ": the copy to keep before migrating it to version " +
               std::to_string(schema_version) + " (" + backup +
               ") could not be made, so nothing was changed: " + why);
      }
    }
    // The copy goes again when the migration is refused (the file itself is left as it was).
    struct backup_guard_t {
      std::string path;
      bool keep = false;
      ~backup_guard_t() {
        std::error_code ec;
        if (!keep) fs::remove(path, ec);
      }
    } guard{backup};
    begin();
    tx.emplace(*this, tx_t::adopt_t{});
    if (version == 1) migrate_v1();
    migrate_v2();
    exec("PRAGMA user_version = 3", "migrate: the version");
    guard.keep = true;
    migration_backup_ = backup;
    migrated_from_ = version;
    version = schema_version;
  } else if (version != schema_version) {
    refuse("schema version " + std::to_string(version) + " (PRAGMA user_version); this zkfleet " +
           "reads version " + std::to_string(schema_version) + " (and migrates versions 1 and 2)" +
           (version > schema_version ? " (written by a newer zkfleet?)" : ""));
  } else {
    check_tables();
  }
  // A write at every open: the exclusive lock is surely held from here on, and the count says
  // how many times a scheduler started on this file.
  exec("UPDATE meta SET value = value + 1 WHERE key = 'opens'", "count the open");
  const std::string next = query(
      "SELECT max((SELECT value FROM meta WHERE key = 'next_seq'), "
      "coalesce((SELECT max(seq) FROM jobs) + 1, 1))");
  next_seq_ = std::strtoull(next.c_str(), nullptr, 10);
  if (next_seq_ == 0) refuse("meta.next_seq is missing or not a number");
  tx->commit("open");
}

void journal_t::migrate_v1() {
  auto refuse_migration = [&](const std::string& why) {
    refuse("schema version 1 could not be migrated to version " + std::to_string(schema_version) +
           ", so nothing was changed: " + why);
  };
  exec(v1_add_spec, "migrate schema 1 to 2: add the spec column");
  {
    stmt_ptr_t select = prepare("SELECT seq, inputs FROM jobs ORDER BY seq");
    stmt_ptr_t update = prepare("UPDATE jobs SET spec = ?2 WHERE seq = ?1");
    int rc;
    while ((rc = sqlite3_step(select.get())) == SQLITE_ROW) {
      const int64_t seq = sqlite3_column_int64(select.get(), 0);
      const std::string job = "job seq " + std::to_string(seq);
      const auto* p = static_cast<const unsigned char*>(sqlite3_column_blob(select.get(), 1));
      auto inputs = decode_strings(p, size_t(sqlite3_column_bytes(select.get(), 1)));
      if (!inputs) refuse_migration(job + ": inputs are not a list of length-prefixed strings");
      std::string spec;
      try {
        spec = to_json(job_spec_from_v1(*inputs));
      } catch (const std::invalid_argument& e) {
        refuse_migration(job + ": its inputs: " + e.what());
      }
      reset_t r(update.get());
      binder_t b{update.get()};
      b.i64(1, seq).text(2, spec);
      if (b.rc != SQLITE_OK || sqlite3_step(update.get()) != SQLITE_DONE)
        fail("migrate schema 1 to 2: " + job);
    }
    if (rc != SQLITE_DONE) fail("migrate schema 1 to 2: read the jobs");
  }  // both statements finalized: the table may change
  exec(v1_drop_inputs, "migrate schema 1 to 2: drop the inputs column");
}

void journal_t::migrate_v2() {
  exec(v2_add_request_id, "migrate schema 2 to 3: add the request_id column");
  exec(v2_add_request_digest, "migrate schema 2 to 3: add the request_digest column");
}

journal_t::~journal_t() = default;  // statements first, then the database (member order)

}  // namespace zk::node
