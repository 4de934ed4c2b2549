// Identities proven by a signed challenge (common/security/identity.hpp): the verifier checks a
// leaf certificate against the cluster CA (X509_verify_cert) and a signature by its key; the
// signer holds a node's or client's certificate and key.
#include "common/security/identity.hpp"

#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include <cerrno>
#include <cstring>
#include <ctime>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "common/security/openssl.hpp"
#include "zk/base/hex.hpp"

namespace zk::security {
namespace {

using detail::openssl_errors;
using detail::ossl_ptr_t;
using detail::read_text;

int no_passphrase(char*, int, int, void*) { return 0; }

// The first certificate of a PEM text; null when there is none (the error queue emptied).
ossl_ptr_t<X509> parse_cert(const std::string& pem) {
  ossl_ptr_t<BIO> b(BIO_new_mem_buf(pem.data(), int(pem.size())));
  ossl_ptr_t<X509> x(b ? PEM_read_bio_X509(b.get(), nullptr, no_passphrase, nullptr) : nullptr);
  if (!x) ERR_clear_error();
  return x;
}

ossl_ptr_t<X509> read_cert_file(const std::string& path) {
  ossl_ptr_t<X509> x = parse_cert(read_text(path));
  if (!x) throw std::runtime_error(path + ": not a PEM certificate");
  return x;
}

// "2026-01-02 03:04:05 UTC".
std::string utc_text(const ASN1_TIME* t) {
  std::tm tm{};
  if (!t || ASN1_TIME_to_tm(t, &tm) != 1) return "(a date that does not parse)";
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S UTC", &tm);
  return buf;
}

// The subject in one line ("O=zkfleet, OU=node, CN=n1").
std::string subject_text(X509* x) {
  ossl_ptr_t<BIO> b(BIO_new(BIO_s_mem()));
  if (!b || X509_NAME_print_ex(b.get(), X509_get_subject_name(x), 0, XN_FLAG_ONELINE) < 0)
    return "?";
  char* p = nullptr;
  const long n = BIO_get_mem_data(b.get(), &p);
  return std::string(p, size_t(n));
}

// Why X509_verify_cert refused the chain, in the verifier's words.
std::string chain_error(X509_STORE_CTX* ctx, X509* leaf) {
  const int err = X509_STORE_CTX_get_error(ctx);
  const bool at_leaf = X509_STORE_CTX_get_error_depth(ctx) == 0;
  X509* cur = X509_STORE_CTX_get_current_cert(ctx);
  const std::string whose = at_leaf || !cur ? "certificate" : "the CA certificate";
  switch (err) {
    case X509_V_ERR_CERT_HAS_EXPIRED:
      return whose + " expired on " + utc_text(X509_get0_notAfter(cur ? cur : leaf));
    case X509_V_ERR_CERT_NOT_YET_VALID:
      return whose + " is not valid before " + utc_text(X509_get0_notBefore(cur ? cur : leaf));
    case X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT:
    case X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY:
    case X509_V_ERR_UNABLE_TO_VERIFY_LEAF_SIGNATURE:
    case X509_V_ERR_CERT_SIGNATURE_FAILURE:
    case X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT:
    case X509_V_ERR_SELF_SIGNED_CERT_IN_CHAIN:
    case X509_V_ERR_CERT_UNTRUSTED:
    case X509_V_ERR_CERT_REJECTED:
      return "certificate is not signed by this cluster's CA (" +
             std::string(X509_verify_cert_error_string(err)) + ")";
    case X509_V_ERR_INVALID_PURPOSE:
      return X509_check_ca(leaf) != 0
                 ? "not a node or client certificate (it is a CA certificate)"
                 : "not a node or client certificate (not for TLS client authentication)";
    default:
      return "certificate rejected: " + std::string(X509_verify_cert_error_string(err));
  }
}

}  // namespace

std::string random_hex(size_t bytes) {
  std::vector<unsigned char> b(bytes);
  if (bytes > 0 && RAND_bytes(b.data(), int(bytes)) != 1)
    throw std::runtime_error("RAND_bytes: " + openssl_errors());
  return to_hex(b.data(), b.size());
}

// --- verifier ------------------------------------------------------------------------------------

struct verifier_t::state_t {
  ossl_ptr_t<X509_STORE> store;  // the CA alone; read-only once made (X509_STORE locks itself)

  // The leaf's identity, its chain to the CA checked (signature, dates, TLS client purpose).
  result_t<identity_t> check(X509* leaf) const {
    if (!X509_get0_pubkey(leaf) || (X509_get_extension_flags(leaf) & EXFLAG_INVALID)) {
      ERR_clear_error();
      return std::string("certificate is malformed (altered?): its key or extensions do not parse");
    }
    ossl_ptr_t<X509_STORE_CTX> ctx(X509_STORE_CTX_new());
    if (!ctx || X509_STORE_CTX_init(ctx.get(), store.get(), leaf, nullptr) != 1)
      return std::string("cannot check the certificate: " + openssl_errors());
    X509_STORE_CTX_set_purpose(ctx.get(), X509_PURPOSE_SSL_CLIENT);
    const bool chained = X509_verify_cert(ctx.get()) == 1;
    ERR_clear_error();
    if (!chained) return chain_error(ctx.get(), leaf);
    if (X509_check_ca(leaf) != 0)
      return std::string("not a node or client certificate (it is a CA certificate)");
    const auto s = subject_identity(leaf);
    if (!s || s->role == role_t::ca)
      return "not a node or client certificate (subject " + subject_text(leaf) + ")";
    return *s;
  }
};

verifier_t::verifier_t(const std::string& ca_file) {
  auto ca = read_cert_file(ca_file);
  const auto s = subject_identity(ca.get());
  if (!s || s->role != role_t::ca || X509_check_ca(ca.get()) == 0)
    throw std::runtime_error(ca_file +
                             ": not a zkfleet CA certificate (O=zkfleet, OU=ca, CA:TRUE)");
  auto st = std::make_shared<state_t>();
  st->store.reset(X509_STORE_new());
  if (!st->store || X509_STORE_add_cert(st->store.get(), ca.get()) != 1)
    throw std::runtime_error(ca_file + ": cannot make a certificate store: " + openssl_errors());
  s_ = std::move(st);
}

result_t<identity_t> verifier_t::verify(const std::string& cert_pem) const {
  ossl_ptr_t<X509> leaf = parse_cert(cert_pem);
  if (!leaf) return std::string("certificate does not parse (not a PEM certificate)");
  return s_->check(leaf.get());
}

result_t<identity_t> verifier_t::verify_signed(const std::string& cert_pem,
                                               std::string_view message,
                                               const std::string& signature) const {
  ossl_ptr_t<X509> leaf = parse_cert(cert_pem);
  if (!leaf) return std::string("certificate does not parse (not a PEM certificate)");
  auto id = s_->check(leaf.get());
  if (!id) return id;
  ossl_ptr_t<EVP_MD_CTX> md(EVP_MD_CTX_new());
  const bool ok =
      md &&
      EVP_DigestVerifyInit(md.get(), nullptr, EVP_sha256(), nullptr,
                           X509_get0_pubkey(leaf.get())) == 1 &&
      EVP_DigestVerify(md.get(), reinterpret_cast<const unsigned char*>(signature.data()),
                       signature.size(), reinterpret_cast<const unsigned char*>(message.data()),
                       message.size()) == 1;
  ERR_clear_error();
  if (!ok)
    return "the signature does not match the key of " + std::string(role_name(id->role)) + " " +
           id->name + "'s certificate";
  return id;
}

// --- signer --------------------------------------------------------------------------------------

struct signer_t::state_t {
  std::string pem;
  ossl_ptr_t<EVP_PKEY> key;  // read-only once loaded: each sign() has its own EVP_MD_CTX
  identity_t id;
};

signer_t::signer_t(const std::string& cert_file, const std::string& key_file) {
  auto x = read_cert_file(cert_file);
  const auto s = subject_identity(x.get());
  if (!s || s->role == role_t::ca)
    throw std::runtime_error(cert_file + ": not a node or client certificate (subject " +
                             subject_text(x.get()) + ")");
  auto st = std::make_shared<state_t>();
  const std::string key_text = read_text(key_file);
  ossl_ptr_t<BIO> b(BIO_new_mem_buf(key_text.data(), int(key_text.size())));
  st->key.reset(b ? PEM_read_bio_PrivateKey(b.get(), nullptr, no_passphrase, nullptr) : nullptr);
  if (!st->key)
    throw std::runtime_error(key_file +
                             ": not an unencrypted PEM private key: " + openssl_errors());
  if (EVP_PKEY_base_id(st->key.get()) != EVP_PKEY_EC)
    throw std::runtime_error(key_file + ": not an ECDSA key");
  if (X509_check_private_key(x.get(), st->key.get()) != 1) {
    ERR_clear_error();
    throw std::runtime_error(key_file + " is not the key of " + cert_file);
  }
  ossl_ptr_t<BIO> out(BIO_new(BIO_s_mem()));
  if (!out || PEM_write_bio_X509(out.get(), x.get()) != 1)
    throw std::runtime_error(cert_file + ": " + openssl_errors());
  char* p = nullptr;
  const long n = BIO_get_mem_data(out.get(), &p);
  st->pem.assign(p, size_t(n));
  st->id = *s;
  s_ = std::move(st);
}

const std::string& signer_t::cert_pem() const { return s_->pem; }

identity_t signer_t::identity() const { return s_->id; }

std::string signer_t::sign(std::string_view message) const {
  ossl_ptr_t<EVP_MD_CTX> md(EVP_MD_CTX_new());
  const auto* m = reinterpret_cast<const unsigned char*>(message.data());
  size_t len = 0;
  if (!md || EVP_DigestSignInit(md.get(), nullptr, EVP_sha256(), nullptr, s_->key.get()) != 1 ||
      EVP_DigestSign(md.get(), nullptr, &len, m, message.size()) != 1)
    throw std::runtime_error("signing: " + openssl_errors());
  std::string sig(len, '\0');
  if (EVP_DigestSign(md.get(), reinterpret_cast<unsigned char*>(sig.data()), &len, m,
                     message.size()) != 1)
    throw std::runtime_error("signing: " + openssl_errors());
  sig.resize(len);
  return sig;
}

}  // namespace zk::security
