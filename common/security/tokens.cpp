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

namespace zk::security {

namespace fs = std::filesystem;

namespace {

std::string to_hex(const unsigned char* md, unsigned n) {
  static const char* hex = "0123456789abcdef";
  std::string out;
  for (unsigned i = 0; i < n; ++i) out += hex[md[i] >> 4], out += hex[md[i] & 15];
  return out;
}

}  // namespace

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

std::string create_token(const std::string& dir, const std::string& name) {
  if (!valid_name(name))
    throw std::runtime_error("'" + name + "' is not a valid name (" + name_rule + ")");
  const std::string path = tokens_file(dir);
  std::vector<std::string> kept;
  {
    std::ifstream in(path);
    for (std::string line; std::getline(in, line);) {
      std::istringstream f(line);
      std::string who;
      if ((f >> who) && who != name) kept.push_back(line);
    }
  }
  const std::string token = std::string(prefix) + random_hex(32);
  char when[32];
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  ::gmtime_r(&t, &tm);
  std::strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &tm);
  kept.push_back(name + " " + sha256_hex(token) + " " + when);
  const std::string tmp = path + ".new";
  {
    std::ofstream out(tmp, std::ios::trunc);
    if (!out) throw std::runtime_error(tmp + ": cannot write");
    for (const auto& l : kept) out << l << "\n";
    if (!out) throw std::runtime_error(tmp + ": cannot write");
  }
  ::chmod(tmp.c_str(), 0600);
  std::error_code ec;
  fs::rename(tmp, path, ec);
  if (ec) throw std::runtime_error(path + ": cannot replace: " + ec.message());
  return token;
}

token_store_t::token_store_t(std::string dir) : path_(tokens_file(dir)) {}

void token_store_t::reload_if_changed() {
  const auto now = std::chrono::steady_clock::now();
  if (seen_mtime_ != -1 && now - checked_ < std::chrono::seconds(1)) return;
  checked_ = now;
  struct stat st {};
  if (::stat(path_.c_str(), &st) != 0) {
    entries_.clear();
    seen_mtime_ = seen_size_ = 0;
    return;
  }
  const int64_t mtime = int64_t(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
  if (mtime == seen_mtime_ && int64_t(st.st_size) == seen_size_) return;
  seen_mtime_ = mtime;
  seen_size_ = int64_t(st.st_size);
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
