#pragma once
// Proving who is at the other end of a channel that does not show the peer's certificate (CAF's
// OpenSSL module checks it against the CA but hides it): the verifier (the scheduler) sends a
// random challenge, the prover (a node or a client) answers with its certificate and its
// signature of the challenge, and the verifier checks that the certificate chains to the
// cluster's CA and that its key made the signature. The identity is then the certificate's
// subject (common/security/certs.hpp: OU node|client, CN the name).
//
// Signatures are ECDSA over SHA-256, DER-encoded, carried as a std::string of bytes.
// Both classes are cheap to copy (they share their OpenSSL objects, which are never modified
// after construction) and their const methods may be called from any thread.
#include <memory>
#include <string>
#include <string_view>

#include "common/security/certs.hpp"
#include "zk/base/result.hpp"

namespace zk::security {

// `bytes` random bytes (RAND_bytes) as lowercase hex: 16 → 32 characters. Throws when OpenSSL's
// generator fails.
std::string random_hex(size_t bytes);

// The verifier side: the cluster CA's certificate file.
class verifier_t {
 public:
  // Throws when the file does not hold a zkfleet CA certificate.
  explicit verifier_t(const std::string& ca_file);

  // The identity of a PEM leaf certificate that chains to this CA (signature, validity dates,
  // purpose: TLS client), is not a CA itself and has O=zkfleet, OU node|client and a valid CN.
  // Else what failed: "certificate is not signed by this cluster's CA", "certificate expired on
  // 2026-01-02 03:04:05 UTC", "not a node or client certificate (...)".
  result_t<identity_t> verify(const std::string& cert_pem) const;
  // verify(), then the signature of `message` by that certificate's key.
  result_t<identity_t> verify_signed(const std::string& cert_pem, std::string_view message,
                                     const std::string& signature) const;

 private:
  struct state_t;
  std::shared_ptr<const state_t> s_;
};

// The prover side: a node's or a client's certificate and key files.
class signer_t {
 public:
  // Throws when a file does not parse, the key is not the certificate's, or the certificate is
  // not a node or client certificate.
  signer_t(const std::string& cert_file, const std::string& key_file);

  // The certificate, PEM (what the verifier's verify() takes).
  const std::string& cert_pem() const;
  // What the certificate's subject says (not checked against any CA here).
  identity_t identity() const;
  // The signature of `message` (ECDSA/SHA-256, DER bytes).
  std::string sign(std::string_view message) const;

 private:
  struct state_t;
  std::shared_ptr<const state_t> s_;
};

}  // namespace zk::security
