#include "common/net/tls.hpp"

#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509_vfy.h>

#include <filesystem>
#include <stdexcept>
#include <vector>

#include "common/security/revocation.hpp"

namespace zk::net {
namespace ssl = boost::asio::ssl;

namespace {

// Every queued OpenSSL error, joined ("" when none): the reason behind a failed load.
std::string openssl_errors() {
  std::string s;
  while (unsigned long e = ERR_get_error()) {
    char buf[256];
    ERR_error_string_n(e, buf, sizeof(buf));
    if (!s.empty()) s += "; ";
    s += buf;
  }
  return s;
}

[[noreturn]] void fail(const std::string& what) {
  const std::string detail = openssl_errors();
  throw std::runtime_error("data plane TLS: " + what + (detail.empty() ? "" : ": " + detail));
}

// The values of one attribute of a name, in order.
std::vector<std::string> entries(const X509_NAME* name, int nid) {
  std::vector<std::string> out;
  for (int i = X509_NAME_get_index_by_NID(name, nid, -1); i >= 0;
       i = X509_NAME_get_index_by_NID(name, nid, i)) {
    const ASN1_STRING* d = X509_NAME_ENTRY_get_data(X509_NAME_get_entry(name, i));
    unsigned char* utf8 = nullptr;
    const int n = ASN1_STRING_to_UTF8(&utf8, d);
    out.emplace_back(n > 0 ? std::string(reinterpret_cast<char*>(utf8), size_t(n)) : "");
    OPENSSL_free(utf8);
  }
  return out;
}

}  // namespace

std::string subject_text(const X509* cert) {
  if (cert == nullptr) return "(none)";
  const X509_NAME* name = X509_get_subject_name(cert);
  std::string s;
  for (int i = 0; i < X509_NAME_entry_count(name); ++i) {
    const X509_NAME_ENTRY* e = X509_NAME_get_entry(name, i);
    const int nid = OBJ_obj2nid(X509_NAME_ENTRY_get_object(e));
    const char* key = nid == NID_undef ? "?" : OBJ_nid2sn(nid);
    unsigned char* utf8 = nullptr;
    const int n = ASN1_STRING_to_UTF8(&utf8, X509_NAME_ENTRY_get_data(e));
    if (!s.empty()) s += ", ";
    s += std::string(key) + "=" +
         (n > 0 ? std::string(reinterpret_cast<char*>(utf8), size_t(n)) : std::string());
    OPENSSL_free(utf8);
  }
  return s.empty() ? "(empty subject)" : s;
}

std::string node_name_of(const X509* cert) {
  if (cert == nullptr) return {};
  const X509_NAME* name = X509_get_subject_name(cert);
  const auto o = entries(name, NID_organizationName);
  const auto ou = entries(name, NID_organizationalUnitName);
  const auto cn = entries(name, NID_commonName);
  if (o.size() != 1 || o[0] != "zkfleet" || ou.size() != 1 || ou[0] != "node" || cn.size() != 1 ||
      cn[0].empty())
    return {};
  return cn[0];
}

bool is_foreign_ca_error(long e) {
  return e == X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT || e == X509_V_ERR_SELF_SIGNED_CERT_IN_CHAIN ||
         e == X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY ||
         e == X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT ||
         e == X509_V_ERR_UNABLE_TO_VERIFY_LEAF_SIGNATURE || e == X509_V_ERR_CERT_SIGNATURE_FAILURE;
}

bool verify_node_peer(bool preverified, X509_STORE_CTX* ctx, const std::string& expected_name,
                      std::string& why) {
  X509* cert = X509_STORE_CTX_get_current_cert(ctx);
  if (!preverified) {
    if (why.empty()) {
      // Named by the peer's own certificate; where in its chain verification failed, after it.
      const X509* leaf = X509_STORE_CTX_get0_cert(ctx);
      why = "peer certificate " + subject_text(leaf ? leaf : cert) + ": " +
            X509_verify_cert_error_string(X509_STORE_CTX_get_error(ctx));
      if (leaf && cert && leaf != cert) why += " (at " + subject_text(cert) + ")";
    }
    return false;
  }
  if (X509_STORE_CTX_get_error_depth(ctx) != 0) return true;  // the CA's part of the chain
  const std::string name = node_name_of(cert);
  if (name.empty()) {
    if (why.empty())
      why = "peer certificate " + subject_text(cert) +
            " is not a zkfleet node certificate (O=zkfleet, OU=node, CN=<name>)";
    return false;
  }
  if (!expected_name.empty() && name != expected_name) {
    if (why.empty())
      why = "peer certificate " + subject_text(cert) + " is node '" + name + "', expected '" +
            expected_name + "'";
    return false;
  }
  return true;
}

std::shared_ptr<tls_context_t> make_tls_context(const tls_files_t& files, tls_side_t side) {
  std::string missing;
  for (auto [value, key] :
       {std::pair{&files.cert_file, "cert_file"}, std::pair{&files.key_file, "key_file"},
        std::pair{&files.ca_file, "ca_file"}}) {
    if (value->empty()) missing += std::string(missing.empty() ? "" : ", ") + key;
  }
  if (!missing.empty())
    throw std::runtime_error("data plane TLS: " + missing +
                             " not set (certificate, key and CA file are all required)");
  for (auto [file, what] :
       {std::pair{&files.ca_file, "CA file"}, std::pair{&files.cert_file, "certificate file"},
        std::pair{&files.key_file, "key file"}}) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(*file, ec))
      throw std::runtime_error("data plane TLS: " + std::string(what) + " '" + *file +
                               "' does not exist or is not a file");
  }
  ERR_clear_error();
  auto ctx = std::make_shared<tls_context_t>(side == tls_side_t::server ? ssl::context::tls_server
                                                                        : ssl::context::tls_client);
  SSL_CTX* native = ctx->native_handle();
  if (SSL_CTX_set_min_proto_version(native, TLS1_3_VERSION) != 1) fail("cannot require TLS 1.3");
  if (SSL_CTX_set_ciphersuites(
          native, "TLS_AES_128_GCM_SHA256:TLS_AES_256_GCM_SHA384:TLS_CHACHA20_POLY1305_SHA256") !=
      1)
    fail("cannot set the TLS 1.3 cipher suites");
  SSL_CTX_set_options(native, SSL_OP_CIPHER_SERVER_PREFERENCE | SSL_OP_NO_RENEGOTIATION);
  if (side == tls_side_t::server) SSL_CTX_set_num_tickets(native, 0);  // connections are kept
  boost::system::error_code ec;
  ctx->set_verify_mode(ssl::verify_peer | ssl::verify_fail_if_no_peer_cert, ec);
  if (ec) fail("cannot set the verify mode: " + ec.message());
  if (ctx->load_verify_file(files.ca_file, ec))
    fail("CA file '" + files.ca_file + "': " + ec.message());
  if (ctx->use_certificate_chain_file(files.cert_file, ec))
    fail("certificate file '" + files.cert_file + "': " + ec.message());
  // A key of another certificate fails here already ("key values mismatch").
  if (ctx->use_private_key_file(files.key_file, ssl::context::pem, ec))
    fail("key file '" + files.key_file + "' does not match certificate file '" + files.cert_file +
         "' or is not a PEM private key: " + ec.message());
  if (SSL_CTX_check_private_key(native) != 1)
    fail("key file '" + files.key_file + "' does not match certificate file '" + files.cert_file +
         "'");
  if (!files.revoked_file.empty()) security::install_revocation_check(native, files.revoked_file);
  return ctx;
}

}  // namespace zk::net
