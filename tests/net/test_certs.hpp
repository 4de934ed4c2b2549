#pragma once
// Throwaway certificates for the data-plane tests (and bench_net), made with OpenSSL's library
// directly: ECDSA P-256, SHA-256, subjects by the cluster's convention O=zkfleet,
// OU=node|client|ca, CN=<name>. In a fresh temporary directory (removed when the set is destroyed):
//
//   ca.crt/.key             the cluster CA (OU=ca)
//   node.n1, node.n2        node certificates of the CA (OU=node)
//   client.c1               a client certificate of the CA (OU=client)
//   other-ca.crt/.key       another CA, and other.node.n1: a node certificate of that CA
//
// Valid from an hour ago for a day. Throws std::runtime_error when OpenSSL fails.
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>

#include "common/net/tls.hpp"

namespace zk::test {

class test_certs_t {
 public:
  test_certs_t() {
    char tmpl[] = "/tmp/zk-net-certs-XXXXXX";
    if (mkdtemp(tmpl) == nullptr) throw std::runtime_error("test certs: mkdtemp failed");
    dir_ = tmpl;
    auto ca = make_ca("ca", "zkfleet CA");
    auto other = make_ca("other-ca", "other CA");
    make_leaf(ca, "node.n1", "node", "n1");
    make_leaf(ca, "node.n2", "node", "n2");
    make_leaf(ca, "client.c1", "client", "c1");
    make_leaf(other, "other.node.n1", "node", "n1");
  }
  ~test_certs_t() {
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }
  test_certs_t(const test_certs_t&) = delete;
  test_certs_t& operator=(const test_certs_t&) = delete;

  const std::string& dir() const { return dir_; }
  std::string path(const std::string& file) const { return dir_ + "/" + file; }
  // The TLS files of a leaf ("node.n1", "client.c1", "other.node.n1") trusting `ca` ("ca" or
  // "other-ca").
  net::tls_files_t files(const std::string& leaf, const std::string& ca = "ca") const {
    return {path(leaf + ".crt"), path(leaf + ".key"), path(ca + ".crt"), ""};
  }

 private:
  struct key_cert_t {
    std::shared_ptr<EVP_PKEY> key;
    std::shared_ptr<X509> cert;
  };

  static void check(bool ok, const char* what) {
    if (!ok) throw std::runtime_error(std::string("test certs: ") + what + " failed");
  }

  static std::shared_ptr<EVP_PKEY> new_key() {
    EVP_PKEY* k = EVP_PKEY_Q_keygen(nullptr, nullptr, "EC", "P-256");
    check(k != nullptr, "EC P-256 key generation");
    return {k, EVP_PKEY_free};
  }

  static void add_ext(X509* cert, X509* issuer, int nid, const char* value) {
    X509V3_CTX ctx;
    X509V3_set_ctx_nodb(&ctx);
    X509V3_set_ctx(&ctx, issuer, cert, nullptr, nullptr, 0);
    X509_EXTENSION* ext = X509V3_EXT_conf_nid(nullptr, &ctx, nid, value);
    check(ext != nullptr, "X509V3_EXT_conf_nid");
    check(X509_add_ext(cert, ext, -1) == 1, "X509_add_ext");
    X509_EXTENSION_free(ext);
  }

  static std::shared_ptr<X509> new_cert(EVP_PKEY* key, const std::string& ou,
                                        const std::string& cn) {
    std::shared_ptr<X509> cert(X509_new(), X509_free);
    check(cert != nullptr, "X509_new");
    X509* c = cert.get();
    X509_set_version(c, 2);
    unsigned char serial[16];
    check(RAND_bytes(serial, sizeof(serial)) == 1, "RAND_bytes");
    serial[0] &= 0x7f;
    BIGNUM* bn = BN_bin2bn(serial, sizeof(serial), nullptr);
    BN_to_ASN1_INTEGER(bn, X509_get_serialNumber(c));
    BN_free(bn);
    X509_gmtime_adj(X509_getm_notBefore(c), -3600);
    X509_gmtime_adj(X509_getm_notAfter(c), 24 * 3600);
    X509_set_pubkey(c, key);
    X509_NAME* name = X509_get_subject_name(c);
    for (auto [field, value] : {std::pair<const char*, std::string>{"O", "zkfleet"},
                                std::pair<const char*, std::string>{"OU", ou},
                                std::pair<const char*, std::string>{"CN", cn}}) {
      check(X509_NAME_add_entry_by_txt(name, field, MBSTRING_UTF8,
                                       reinterpret_cast<const unsigned char*>(value.c_str()), -1,
                                       -1, 0) == 1,
            "X509_NAME_add_entry_by_txt");
    }
    return cert;
  }

  void write(const std::string& base, const key_cert_t& kc) const {
    FILE* f = std::fopen(path(base + ".crt").c_str(), "w");
    check(f != nullptr, "opening a certificate file");
    check(PEM_write_X509(f, kc.cert.get()) == 1, "PEM_write_X509");
    std::fclose(f);
    f = std::fopen(path(base + ".key").c_str(), "w");
    check(f != nullptr, "opening a key file");
    check(PEM_write_PrivateKey(f, kc.key.get(), nullptr, nullptr, 0, nullptr, nullptr) == 1,
          "PEM_write_PrivateKey");
    std::fclose(f);
  }

  key_cert_t make_ca(const std::string& base, const std::string& cn) const {
    key_cert_t ca{new_key(), nullptr};
    ca.cert = new_cert(ca.key.get(), "ca", cn);
    X509* c = ca.cert.get();
    X509_set_issuer_name(c, X509_get_subject_name(c));
    add_ext(c, c, NID_basic_constraints, "critical,CA:TRUE");
    add_ext(c, c, NID_key_usage, "critical,keyCertSign,cRLSign");
    add_ext(c, c, NID_subject_key_identifier, "hash");
    check(X509_sign(c, ca.key.get(), EVP_sha256()) > 0, "X509_sign (CA)");
    write(base, ca);
    return ca;
  }

  void make_leaf(const key_cert_t& ca, const std::string& base, const std::string& ou,
                 const std::string& cn) const {
    key_cert_t leaf{new_key(), nullptr};
    leaf.cert = new_cert(leaf.key.get(), ou, cn);
    X509* c = leaf.cert.get();
    X509_set_issuer_name(c, X509_get_subject_name(ca.cert.get()));
    add_ext(c, ca.cert.get(), NID_basic_constraints, "CA:FALSE");
    add_ext(c, ca.cert.get(), NID_key_usage, "critical,digitalSignature,keyEncipherment");
    add_ext(c, ca.cert.get(), NID_ext_key_usage,
            ou == "node" ? "serverAuth,clientAuth" : "clientAuth");
    const std::string san = "DNS:" + cn + ",IP:127.0.0.1";
    if (ou == "node") add_ext(c, ca.cert.get(), NID_subject_alt_name, san.c_str());
    check(X509_sign(c, ca.key.get(), EVP_sha256()) > 0, "X509_sign (leaf)");
    write(base, leaf);
  }

  std::string dir_;
};

// One set per process: key generation is quick, but the tests share it anyway.
inline const test_certs_t& certs() {
  static test_certs_t set;
  return set;
}

}  // namespace zk::test
