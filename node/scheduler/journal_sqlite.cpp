// The journal's SQLite plumbing: errors, statements, the strings-as-one-blob encoding.
#include "node/scheduler/journal_sqlite.hpp"

#include <limits>
#include <stdexcept>

namespace zk::node {

using namespace journal_detail;

void journal_t::db_close_t::operator()(sqlite3* db) const { sqlite3_close_v2(db); }
void journal_t::stmt_finalize_t::operator()(sqlite3_stmt* s) const { sqlite3_finalize(s); }

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

std::string journal_detail::encode_strings(const std::vector<std::string>& v) {
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

std::optional<std::vector<std::string>> journal_detail::decode_strings(const unsigned char* p,
                                                                       size_t n) {
  std::vector<std::string> out;
  size_t at = 0;
  while (at < n) {
    if (n - at < 4) return std::nullopt;
    uint32_t len = 0;
    for (int i = 0; i < 4; ++i) len |= uint32_t(p[at + i]) << (8 * i);
    at += 4;
    if (n - at < len) return std::nullopt;
    out.emplace_back(reinterpret_cast<const char*>(p + at), len);
    at += len;
  }
  return out;
}

std::string journal_detail::column_bytes(sqlite3_stmt* st, int i) {
  const void* p = sqlite3_column_blob(st, i);
  const int n = sqlite3_column_bytes(st, i);
  return p ? std::string(static_cast<const char*>(p), size_t(n)) : std::string();
}

}  // namespace zk::node
