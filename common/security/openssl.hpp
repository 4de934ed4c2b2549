#pragma once
// Plumbing shared by certs.cpp and identity.cpp: owning pointers for OpenSSL's objects, its error
// queue as one line of text, and reading a PEM file whole.
#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>

#include "zk/base/files.hpp"
#include "zk/base/hex.hpp"

namespace zk::security::detail {

struct ossl_free_t {
  void operator()(EVP_PKEY* p) const { EVP_PKEY_free(p); }
  void operator()(X509* p) const { X509_free(p); }
  void operator()(X509_NAME* p) const { X509_NAME_free(p); }
  void operator()(X509_EXTENSION* p) const { X509_EXTENSION_free(p); }
  void operator()(X509_STORE* p) const { X509_STORE_free(p); }
  void operator()(X509_STORE_CTX* p) const { X509_STORE_CTX_free(p); }
  void operator()(EVP_MD_CTX* p) const { EVP_MD_CTX_free(p); }
  void operator()(BIO* p) const { BIO_free_all(p); }
  void operator()(BIGNUM* p) const { BN_free(p); }
  void operator()(GENERAL_NAMES* p) const { GENERAL_NAMES_free(p); }
};
template <class T>
using ossl_ptr_t = std::unique_ptr<T, ossl_free_t>;

// OpenSSL's error queue, emptied, as one line.
inline std::string openssl_errors() {
  std::string s;
  char buf[256];
  while (unsigned long e = ERR_get_error()) {
    ERR_error_string_n(e, buf, sizeof buf);
    s += (s.empty() ? "" : "; ") + std::string(buf);
  }
  return s.empty() ? "no detail from OpenSSL" : s;
}

// The whole file as text (zk/base/files.hpp: format_error "<path>: cannot open: <reason>").
using zk::read_text;

// A certificate's SHA-256 fingerprint (of its DER encoding), lowercase hex: what revocation lists
// and `zkfleet certs` name a certificate by. "" when OpenSSL cannot compute it.
inline std::string cert_fingerprint(X509* x) {
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int n = 0;
  if (X509_digest(x, EVP_sha256(), md, &n) != 1) return "";
  return to_hex(md, n);
}

}  // namespace zk::security::detail
