#pragma once
// Bearer tokens for the HTTP API (docs/api.md): an identity for clients that cannot present a
// client certificate (scripts, dashboards behind a proxy). `zkfleet certs create-token NAME`
// makes one: 32 random bytes, shown once as "zkf_<64 hex>", stored only as its SHA-256 in
// <certs_dir>/tokens ("NAME SHA256HEX CREATED" lines, mode 0600; a new token for NAME replaces
// NAME's line; `zkfleet certs revoke-token NAME` removes it). The HTTP server keeps the file's
// entries and looks at the file (inode, size, mtime) on every request, reading it again when it
// changed: a replaced or revoked token fails from the next request on, and the new one works at
// once (no cache window). A presented token is compared with every entry's hash in constant
// time. A token names a client identity (NAME), never a node.
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/util/file_stamp.hpp"

namespace zk::security {

// Lowercase hex of the SHA-256 of `bytes`; of HMAC-SHA256(key, message).
std::string sha256_hex(std::string_view bytes);
std::string hmac_sha256_hex(std::string_view key, std::string_view message);

// Makes NAME's token in dir/tokens (replacing an earlier one of NAME) and returns it. Throws
// naming the file, or the name when it is not a valid name.
std::string create_token(const std::string& dir, const std::string& name);

// One line of the tokens file as `certs list-tokens` shows it (the hash stays in the file).
struct token_entry_t {
  std::string name;
  std::string created;  // "2026-12-06T00:12:03Z", as written by create_token
};
// The tokens of dir/tokens in file order (none when the file is missing). Throws naming the file
// and line when a line is not "NAME SHA256HEX CREATED".
std::vector<token_entry_t> list_tokens(const std::string& dir);
// Removes NAME's token from dir/tokens (the HTTP API refuses it from the next request on). Throws
// naming the file when NAME has none there, or when the file cannot be rewritten.
void revoke_token(const std::string& dir, const std::string& name);

// The tokens file of `dir`, read again whenever it changed (looked at on every identify).
class token_store_t {
 public:
  explicit token_store_t(std::string dir);
  // The client name a presented token belongs to; nullopt for an unknown or malformed token.
  std::optional<std::string> identify(std::string_view token);
  std::string path() const { return path_; }

 private:
  struct entry_t {
    std::string name, hash;
  };
  void reload_if_changed();
  std::string path_;
  std::mutex mu_;
  std::vector<entry_t> entries_;
  util::file_stamp_t stamp_;
};

}  // namespace zk::security
