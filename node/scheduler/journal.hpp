#pragma once
// The scheduler's durable journal: every job, each partition's attempts and last placement, and
// every accepted proof, in one SQLite file (WAL mode), so that a restarted scheduler replays what
// it had promised. Plain C++ (no CAF): the scheduler actor owns one and calls it before it
// acknowledges (a job before its id is returned, a proof before it is reported done).
//
// The file:
//   - WAL mode with synchronous NORMAL or FULL (journal_sync_t): FULL fsyncs every commit, so an
//     acknowledged job or proof survives a power loss; NORMAL survives a crash of the process but
//     the last commits before a power loss may be lost.
//   - PRAGMA user_version holds the schema version (schema_version, 3). An older version is
//     migrated at open, once: a copy of the file first (<path>.v<N>-<unix ms>, VACUUM INTO), then
//     every step from it to 3 in one transaction, all or nothing. Version 1 (inputs as
//     length-prefixed strings) to 2: each job's inputs read into its typed spec (node/
//     job_spec.hpp, as JSON; job_spec_from_v1; a job whose inputs cannot be read refuses the open
//     and leaves the file as it was). Version 2 to 3: each job's request id and request
//     fingerprint (job_request_msg::request_id, request_digest), empty for the jobs already
//     there. Any other version, or a file that is not SQLite, is refused, never rewritten.
//   - Held exclusively (locking_mode EXCLUSIVE and a write at open) for as long as the journal_t
//     lives: a second scheduler on the same file, in this process or another, is refused after
//     busy_timeout_ms.
//   - Tables: jobs (one row per job), parts (one row per partition that ever had attempts or a
//     placement noted; the others are 0 and "" on replay), proofs (one per accepted partition,
//     in acceptance order), meta (next_seq, kept past forget_job so job numbers never repeat).
//     A job's spec is one JSON object (node/job_spec.hpp to_json: readable with sqlite3, a new
//     kind or field needs no new schema version); public signals are a blob of length-prefixed
//     strings (any bytes).
// Every call is one transaction; every failure throws std::runtime_error naming the file, the
// operation and SQLite's message. One thread at a time (the scheduler actor).
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "node/job_spec.hpp"

struct sqlite3;
struct sqlite3_stmt;

namespace zk::node {

enum class journal_sync_t { normal, full };  // PRAGMA synchronous in WAL mode
const char* journal_sync_name(journal_sync_t s);

struct journaled_proof_t {
  uint32_t partition = 0;
  std::string proof_json;
  std::vector<std::string> public_signals;
  double prove_seconds = 0;  // must not be NaN (SQLite would store NULL)
  std::string prover;
};

struct journaled_job_t {
  uint64_t seq = 0;  // the scheduler's internal job number; never reused
  std::string public_id, owner, circuit;
  uint8_t priority = 2;
  bool circuit_priority = false;
  uint32_t partitions = 0;
  job_spec_t spec;             // what the job proves, as the scheduler took it in
  std::string request_id;      // the client's idempotency key ("": none; schema 3)
  std::string request_digest;  // the fingerprint of its request (with a request_id)
  std::string state = "open";  // open | done | failed | cancelled
  std::string error;
  int64_t submitted_ms = 0, finished_ms = 0;  // unix ms; 0 = not finished
  std::vector<uint32_t> attempts;             // per partition: attempts spent (size == partitions
                                              // after replay; add_job: empty or that size)
  std::vector<std::string> placement;     // per partition: "" or the last node names "synth>prover"
  std::vector<journaled_proof_t> proofs;  // accepted proofs, in acceptance order
};

struct journal_stats_t {
  uint64_t jobs = 0, open_jobs = 0, proofs = 0, file_bytes = 0;  // file_bytes: the file + its WAL
};

class journal_t {
 public:
  static constexpr int schema_version = 3;
  // How long an open waits for another holder of the file before it is refused.
  static constexpr int busy_timeout_ms = 1000;

  // Opens or creates the journal at `path`. Its directory must exist (the caller makes it: the
  // journal does not guess permissions); refused with the reason when it does not, when the file
  // is not a journal of this schema version, or when another journal_t holds it.
  journal_t(const std::string& path, journal_sync_t sync);
  ~journal_t();
  journal_t(const journal_t&) = delete;
  journal_t& operator=(const journal_t&) = delete;

  // Every job still in the journal, by seq, with attempts and placement (one entry per
  // partition) and proofs (in acceptance order).
  std::vector<journaled_job_t> replay();
  // One past the largest seq ever added, kept even after forget_job (ids never repeat); 1 for a
  // journal that never had a job (job numbers start at 1).
  uint64_t next_seq() const { return next_seq_; }
  // The job with its spec, and the attempts, placement and proofs it carries (normally none),
  // in one transaction. Throws if the seq is in the journal, or the state is not one of the four.
  void add_job(const journaled_job_t& j);
  // The job's spec replaced (a job of schema v1 taken in again at restore). Throws for an unknown
  // job.
  void set_spec(uint64_t seq, const job_spec_t& spec);
  // One transaction. Throws for an unknown job, a partition out of its range, or a second proof
  // for the same partition.
  void add_proof(uint64_t seq, const journaled_proof_t& p);
  // The partition's attempts spent and last placement, replacing what was noted before.
  void note_part(uint64_t seq, uint32_t partition, uint32_t attempts, const std::string& placement);
  // state: done, failed or cancelled.
  void finish_job(uint64_t seq, const std::string& state, const std::string& error,
                  int64_t finished_ms);
  // A finished job open again (zkfleet retry): state open, its error and finish time cleared.
  void reopen_job(uint64_t seq);
  // The job's priority, set by its operator (zkfleet priority): no longer the circuit's.
  void set_priority(uint64_t seq, uint8_t priority);
  // Deletes the job, its parts and its proofs (retention); next_seq is kept.
  void forget_job(uint64_t seq);

  journal_stats_t stats() const;
  const std::string& path() const { return path_; }
  journal_sync_t sync() const { return sync_; }
  // The copy of an older schema's file this open migrated ("" when it migrated none), and the
  // version it had (0 when none).
  const std::string& migration_backup() const { return migration_backup_; }
  int migrated_from() const { return migrated_from_; }

 private:
  struct db_close_t {
    void operator()(sqlite3* db) const;
  };
  struct stmt_finalize_t {
    void operator()(sqlite3_stmt* s) const;
  };
  using stmt_ptr_t = std::unique_ptr<sqlite3_stmt, stmt_finalize_t>;
  class tx_t;  // one explicit transaction, rolled back unless committed

  [[noreturn]] void fail(const std::string& op) const;  // with sqlite3_errmsg
  [[noreturn]] void refuse(const std::string& why) const;
  void exec(const char* sql, const std::string& op) const;
  stmt_ptr_t prepare(const char* sql) const;
  void run(sqlite3_stmt* st, const std::string& op);  // steps to SQLITE_DONE, then resets
  void check_header() const;                          // a non-empty file must be SQLite's
  void open_schema();
  // Schema v1 → v2 inside the open's transaction.
  void migrate_v1();
  // Schema v2 → v3 inside the open's transaction.
  void migrate_v2();

  std::string path_;
  journal_sync_t sync_;
  uint64_t next_seq_ = 1;
  std::string migration_backup_;
  int migrated_from_ = 0;
  // Declared first: destroyed after the statements.
  std::unique_ptr<sqlite3, db_close_t> db_;
  stmt_ptr_t begin_, commit_, rollback_;
  stmt_ptr_t add_job_, add_part_, add_proof_, note_part_, finish_job_, keep_seq_, forget_job_;
};

}  // namespace zk::node
