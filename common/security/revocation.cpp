#include "common/security/revocation.hpp"

#include <openssl/evp.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509_vfy.h>
#include <sys/stat.h>

#include <algorithm>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <stdexcept>

#include "common/security/openssl.hpp"
#include "zk/base/hex.hpp"

namespace zk::security {

namespace fs = std::filesystem;

namespace {

std::string utc_now() {
  char when[32];
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  ::gmtime_r(&t, &tm);
  std::strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return when;
}

bool is_fingerprint(const std::string& s) {
  return s.size() == 64 && std::all_of(s.begin(), s.end(), [](char c) {
           return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
         });
}

// One line of the file, or nullopt for a blank one; throws naming file:line for a bad one.
std::optional<revoked_cert_t> parse_line(const std::string& line, const std::string& file,
                                         size_t number) {
  std::istringstream f(line);
  revoked_cert_t r;
  if (!(f >> r.fingerprint)) return std::nullopt;
  if (!(f >> r.role >> r.name >> r.revoked_at) || !is_fingerprint(r.fingerprint))
    throw std::runtime_error(file + ":" + std::to_string(number) +
                             ": not a revocation line (FINGERPRINT ROLE NAME REVOKED_AT, the "
                             "fingerprint 64 lowercase hex digits)");
  return r;
}

// OpenSSL's verification of the chain, then the leaf against the list. A revoked leaf is reported
// to the connection's own verify callback (asio's, which records why) as the chain's error.
int verify_with_revocation(X509_STORE_CTX* x, void* arg) {
  const int ok = X509_verify_cert(x);
  if (ok <= 0) return ok;
  X509* leaf = X509_STORE_CTX_get0_cert(x);
  auto* list = static_cast<revocation_list_t*>(arg);
  if (!leaf || !list->revoked(detail::cert_fingerprint(leaf))) return ok;
  X509_STORE_CTX_set_error(x, X509_V_ERR_CERT_REVOKED);
  X509_STORE_CTX_set_error_depth(x, 0);
  X509_STORE_CTX_set_current_cert(x, leaf);
  if (auto cb = X509_STORE_CTX_get_verify_cb(x)) cb(0, x);
  return 0;
}

}  // namespace

std::string revoked_path(const std::string& dir) { return (fs::path(dir) / "revoked").string(); }

std::vector<revoked_cert_t> read_revoked(const std::string& file) {
  std::vector<revoked_cert_t> out;
  std::ifstream in(file);
  size_t number = 0;
  for (std::string line; std::getline(in, line);)
    if (auto r = parse_line(line, file, ++number)) out.push_back(std::move(*r));
  return out;
}

bool revoke_cert(const std::string& dir, const cert_info_t& cert) {
  const std::string path = revoked_path(dir);
  auto list = read_revoked(path);
  for (const auto& r : list)
    if (r.fingerprint == cert.fingerprint) return false;
  list.push_back({cert.fingerprint, role_name(cert.role), cert.name, utc_now()});
  const std::string tmp = path + ".new";
  {
    std::ofstream out(tmp, std::ios::trunc);
    if (!out) throw std::runtime_error(tmp + ": cannot write");
    for (const auto& r : list)
      out << r.fingerprint << " " << r.role << " " << r.name << " " << r.revoked_at << "\n";
    if (!out) throw std::runtime_error(tmp + ": cannot write");
  }
  ::chmod(tmp.c_str(), 0644);
  std::error_code ec;
  fs::rename(tmp, path, ec);
  if (ec) throw std::runtime_error(path + ": cannot replace: " + ec.message());
  return true;
}

// One stat per handshake; each rewrite is a rename (a new inode), so a change is never missed.
// A line that does not parse is skipped here (`zkfleet certs list` names it): the handshake
// still checks every line that does.
void revocation_list_t::reload_if_changed() {
  switch (stamp_.check(file_)) {
    case util::file_stamp_t::seen_t::missing:
      fingerprints_.clear();
      return;
    case util::file_stamp_t::seen_t::same:
      return;
    case util::file_stamp_t::seen_t::changed:
      break;
  }
  fingerprints_.clear();
  std::ifstream in(file_);
  for (std::string line; std::getline(in, line);) {
    std::istringstream f(line);
    std::string fp;
    if ((f >> fp) && is_fingerprint(fp)) fingerprints_.push_back(fp);
  }
}

bool revocation_list_t::revoked(const std::string& fingerprint) {
  std::lock_guard<std::mutex> lock(mu_);
  reload_if_changed();
  return std::find(fingerprints_.begin(), fingerprints_.end(), fingerprint) != fingerprints_.end();
}

void install_revocation_check(ssl_ctx_st* ctx, const std::string& file) {
  static std::mutex mu;
  static std::map<std::string, std::unique_ptr<revocation_list_t>> lists;
  revocation_list_t* list = nullptr;
  {
    std::lock_guard<std::mutex> lock(mu);
    auto& slot = lists[file];
    if (!slot) slot = std::make_unique<revocation_list_t>(file);
    list = slot.get();
  }
  SSL_CTX_set_cert_verify_callback(ctx, verify_with_revocation, list);
}

}  // namespace zk::security
