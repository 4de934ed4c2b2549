#include "common/security/tokens.hpp"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <sys/stat.h>

#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "common/security/certs.hpp"
#include "common/security/identity.hpp"
#include "zk/base/hex.hpp"

namespace zk::security {

namespace fs = std::filesystem;

std::string hmac_sha256_hex(std::string_view key, std::string_view message) {
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int n = 0;
  if (!HMAC(EVP_sha256(), key.data(), int(key.size()),
            reinterpret_cast<const unsigned char*>(message.data()), message.size(), md, &n))
    throw std::runtime_error("HMAC-SHA256 failed");
  return to_hex(md, n);
}

std::string sha256_hex(std::string_view bytes) {
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int n = 0;
  if (EVP_Digest(bytes.data(), bytes.size(), md, &n, EVP_sha256(), nullptr) != 1)
    throw std::runtime_error("SHA-256 failed");
  return to_hex(md, n);
}

namespace {

constexpr std::string_view prefix = "zkf_";

std::string tokens_file(const std::string& dir) { return (fs::path(dir) / "tokens").string(); }

}  // namespace

namespace {

// The file's lines, each kept as written; `keep` says which stay. Written to a new file, mode
// 0600, renamed over the old one (a reader sees the old file or the new one, never half).
void rewrite_tokens(const std::string& path, const std::vector<std::string>& lines) {
  const std::string tmp = path + ".new";
  {
    std::ofstream out(tmp, std::ios::trunc);
    if (!out) throw std::runtime_error(tmp + ": cannot write");
    for (const auto& l : lines) out << l << "\n";
    if (!out) throw std::runtime_error(tmp + ": cannot write");
  }
  ::chmod(tmp.c_str(), 0600);
  std::error_code ec;
  fs::rename(tmp, path, ec);
  if (ec) throw std::runtime_error(path + ": cannot replace: " + ec.message());
}

std::vector<std::string> read_lines(const std::string& path) {
  std::vector<std::string> out;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

std::string first_word(const std::string& line) {
  std::istringstream f(line);
  std::string w;
  f >> w;
  return w;
}

}  // namespace

std::string create_token(const std::string& dir, const std::string& name) {
  if (!valid_name(name))
    throw std::runtime_error("'" + name + "' is not a valid name (" + name_rule + ")");
  const std::string path = tokens_file(dir);
  std::vector<std::string> kept;
  for (const auto& line : read_lines(path))
    if (const auto who = first_word(line); !who.empty() && who != name) kept.push_back(line);
  const std::string token = std::string(prefix) + random_hex(32);
  char when[32];
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  ::gmtime_r(&t, &tm);
  std::strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &tm);
  kept.push_back(name + " " + sha256_hex(token) + " " + when);
  rewrite_tokens(path, kept);
  return token;
}

std::vector<token_entry_t> list_tokens(const std::string& dir) {
  const std::string path = tokens_file(dir);
  std::vector<token_entry_t> out;
  const auto lines = read_lines(path);
  for (size_t i = 0; i < lines.size(); ++i) {
    std::istringstream f(lines[i]);
    std::string name, hash, created;
    if (!(f >> name)) continue;  // a blank line
    if (!(f >> hash >> created) || hash.size() != 64 || !valid_name(name))
      throw std::runtime_error(path + ":" + std::to_string(i + 1) +
                               ": not a token line (NAME SHA256HEX CREATED)");
    out.push_back({name, created});
  }
  return out;
}

void revoke_token(const std::string& dir, const std::string& name) {
  const std::string path = tokens_file(dir);
  std::vector<std::string> kept;
  bool found = false;
  for (const auto& line : read_lines(path)) {
    if (first_word(line) == name)
      found = true;
    else
      kept.push_back(line);
  }
  if (!found) throw std::runtime_error("client " + name + " has no token in " + path);
  rewrite_tokens(path, kept);
}

token_store_t::token_store_t(std::string dir) : path_(tokens_file(dir)) {}

// One stat per request: every rewrite renames a new file over the old one, so a new inode says
// "changed" even when size and mtime (coarse on some file systems) are the same.
void token_store_t::reload_if_changed() {
  switch (stamp_.check(path_)) {
    case util::file_stamp_t::seen_t::missing:
      entries_.clear();
      return;
    case util::file_stamp_t::seen_t::same:
      return;
    case util::file_stamp_t::seen_t::changed:
      break;
  }
  entries_.clear();
  std::ifstream in(path_);
  for (std::string line; std::getline(in, line);) {
    std::istringstream f(line);
    entry_t e;
    if ((f >> e.name >> e.hash) && e.hash.size() == 64 && valid_name(e.name))
      entries_.push_back(std::move(e));
  }
}

std::optional<std::string> token_store_t::identify(std::string_view token) {
  if (token.size() != prefix.size() + 64 || token.substr(0, prefix.size()) != prefix)
    return std::nullopt;
  const std::string h = sha256_hex(token);
  std::lock_guard<std::mutex> lock(mu_);
  reload_if_changed();
  std::optional<std::string> who;
  for (const auto& e : entries_)  // every entry compared: the time says nothing of which matched
    if (CRYPTO_memcmp(e.hash.data(), h.data(), h.size()) == 0) who = e.name;
  return who;
}

}  // namespace zk::security
