#pragma once
// The journal's SQLite plumbing shared by its files, not for use outside them (journal.hpp is the
// interface): statement guards, binders, the strings-as-one-blob encoding, one transaction. The
// files: journal_sqlite.cpp (errors, statements, the encoding), journal_schema.cpp (opening,
// the header check, the schema and its migration), journal.cpp (records and replay).
#include <sqlite3.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "node/scheduler/journal.hpp"

namespace zk::node {

namespace journal_detail {

inline bool valid_state(const std::string& s) {
  return s == "open" || s == "done" || s == "failed" || s == "cancelled";
}

// Strings as one blob: each one a 4-byte little-endian length, then its bytes (any bytes).
std::string encode_strings(const std::vector<std::string>& v);
// The strings of such a blob; nullopt when it is not one (a length past its end).
std::optional<std::vector<std::string>> decode_strings(const unsigned char* p, size_t n);

// A column's bytes as they are stored (TEXT or BLOB; NULL reads as empty).
std::string column_bytes(sqlite3_stmt* st, int i);

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

inline bool is_constraint(sqlite3* db, int extended) {
  return sqlite3_extended_errcode(db) == extended;
}

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

}  // namespace journal_detail

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

}  // namespace zk::node
