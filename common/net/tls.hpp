#pragma once
// TLS of the data plane (common/net/README.md "TLS"): contexts for both ends and the check of the
// peer's identity. Both ends present node certificates of the cluster CA and verify each other:
//
//   - TLS 1.3 only; cipher suites TLS_AES_128_GCM_SHA256 (preferred: AES-NI), then
//     TLS_AES_256_GCM_SHA384 and TLS_CHACHA20_POLY1305_SHA256; no session tickets.
//   - verify_peer | verify_fail_if_no_peer_cert on both sides, chain to the CA file.
//   - Peer identity by the subject convention O=zkfleet, OU=node|client|ca, CN=<name>: the peer's
//     leaf must be a node certificate (O=zkfleet, OU=node, a CN); a sender given an expected peer
//     also requires CN == that name. There is no host-name check: nodes are named by their
//     certificates, not by their addresses.
//
// make_tls_context reads the files once (a context serves any number of connections; it is
// thread-safe once made). verify_node_peer runs inside OpenSSL's verify callback of one
// connection: it records why it refused in that connection's string.
#include <boost/asio/ssl/context.hpp>  // and OpenSSL's X509, X509_STORE_CTX
#include <memory>
#include <string>

namespace zk::net {

// PEM files of one end. All empty: plaintext. Any set: all three are required.
struct tls_files_t {
  std::string cert_file;  // the node's certificate (chain), PEM
  std::string key_file;   // its private key, PEM
  std::string ca_file;    // the cluster CA's certificate, PEM: the only trust anchor
  // The certs_dir's revocation list (common/security/revocation.hpp); a peer whose certificate
  // it lists is refused at the handshake. Empty: none checked. The file need not exist.
  std::string revoked_file;
  bool enabled() const { return !cert_file.empty() || !key_file.empty() || !ca_file.empty(); }
};

enum class tls_side_t { server, client };
using tls_context_t = boost::asio::ssl::context;

// A context as described above. Throws std::runtime_error naming the file (and what OpenSSL
// said) when a file is missing, unreadable or does not match, or naming the missing setting.
std::shared_ptr<tls_context_t> make_tls_context(const tls_files_t& files, tls_side_t side);

// Whether an X509_V_ERR_* of a peer's chain means "not signed by the CA this side trusts" (a
// self-signed certificate, an issuer not in the CA file, a signature that does not verify): the
// peer was reached, but it belongs to another CA (or this side has another cluster's ca.crt).
bool is_foreign_ca_error(long x509_error);

// The subject's attributes in the certificate's order: "O=zkfleet, OU=node, CN=n1"; "(none)"
// without a certificate.
std::string subject_text(const X509* cert);
// The CN of a zkfleet node certificate (O=zkfleet, OU=node, exactly one non-empty CN); "" else.
std::string node_name_of(const X509* cert);

// The body of a verify callback (asio: set_verify_callback on the stream). Accepts a chain that
// OpenSSL verified whose leaf is a node certificate (with CN == expected_name when that is not
// empty); otherwise returns false and, when `why` is still empty, sets it to a sentence naming
// the peer's subject ("peer certificate O=zkfleet, OU=client, CN=c1 is not a node certificate").
bool verify_node_peer(bool preverified, X509_STORE_CTX* ctx, const std::string& expected_name,
                      std::string& why);

}  // namespace zk::net
