#pragma once
// The revocation list of a certs_dir (docs/security.md "Revocation"): DIR/revoked, one line per
// revoked certificate, "SHA256FINGERPRINT ROLE NAME REVOKED_AT" (the fingerprint of the DER
// certificate, lowercase hex, as `zkfleet certs list` shows it; the role and name are for people).
// `zkfleet certs revoke NAME` appends the line of DIR/client.NAME.crt (or node.NAME.crt).
//
// Every TLS context made with a revoked file (net::make_tls_context: the control-plane tunnels,
// the data plane, the HTTP API) checks each peer's leaf after OpenSSL has verified its chain, and
// refuses a revoked one with X509_V_ERR_CERT_REVOKED ("certificate revoked"). The file is looked
// at (inode, size, mtime) on every handshake and read again when it changed: a revocation takes
// effect from the next connection on, without a restart. Connections already open stay open.
// Bearer tokens are revoked by removing them from DIR/tokens (common/security/tokens.hpp).
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "common/security/certs.hpp"

struct ssl_ctx_st;  // OpenSSL's SSL_CTX

#include "common/util/file_stamp.hpp"

namespace zk::security {

struct revoked_cert_t {
  std::string fingerprint;  // SHA-256 of the DER certificate, lowercase hex
  std::string role, name;   // what its subject said
  std::string revoked_at;   // "2026-12-06T00:40:00Z"
};

// dir/revoked.
std::string revoked_path(const std::string& dir);
// The list of `file` (none when it does not exist). Throws naming the file and line when a line
// is not "FINGERPRINT ROLE NAME REVOKED_AT".
std::vector<revoked_cert_t> read_revoked(const std::string& file);
// Adds `cert` to dir/revoked (written to a new file and renamed over the old one, mode 0644).
// false when it was already there (nothing written).
bool revoke_cert(const std::string& dir, const cert_info_t& cert);

// The revoked fingerprints of one file, read again whenever the file changed.
class revocation_list_t {
 public:
  explicit revocation_list_t(std::string file) : file_(std::move(file)) {}
  bool revoked(const std::string& fingerprint);
  const std::string& file() const { return file_; }

 private:
  void reload_if_changed();
  std::string file_;
  std::mutex mu_;
  std::vector<std::string> fingerprints_;
  util::file_stamp_t stamp_;
};

// Makes every handshake of `ctx` refuse a peer whose certificate is listed in `file` (above). The
// list lives as long as the process (one per file, shared by the contexts that name it).
void install_revocation_check(ssl_ctx_st* ctx, const std::string& file);

}  // namespace zk::security
