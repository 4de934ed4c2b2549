#pragma once
// The cluster's certificates (CockroachDB's model): one directory holds the cluster CA
// (`ca.crt`, `ca.key`) and the certificates of nodes (`node.NAME.crt|key`) and clients
// (`client.NAME.crt|key`), all ECDSA P-256 with SHA-256 signatures, made with OpenSSL's library.
//
// Subjects (other code reads them, exactly):
//   CA      O=zkfleet, OU=ca,     CN=zkfleet CA   CA:TRUE (critical), keyCertSign + cRLSign, 10
//   years node    O=zkfleet, OU=node,   CN=<name>       serverAuth + clientAuth, SAN DNS:<name> +
//   hosts client  O=zkfleet, OU=client, CN=<name>       clientAuth
// Leaves are CA:FALSE, digitalSignature + keyEncipherment, 2 years by default, and never outlive
// their CA (a longer validity is cut at the CA's notAfter). Serials are random 128-bit numbers.
// Keys are written mode 0600 (created so, never chmod-ed afterwards), certificates 0644.
//
// Every failure (a file missing, unreadable or not a certificate, an invalid name, a file that
// exists) is a std::runtime_error whose message names the file or the name and what is wrong.
#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

struct x509_st;  // OpenSSL's X509 (openssl/types.h), for subject_identity below

namespace zk::security {

enum class role_t { ca, node, client };
// "ca", "node", "client": the subject's OU and the files' prefix.
const char* role_name(role_t role);

// A node or client name: 1–64 characters of [A-Za-z0-9._-], not starting with '.' or '-'.
bool valid_name(std::string_view name);
// The rule valid_name checks, in words, for error messages.
extern const char* const name_rule;

struct create_options_t {
  int days = 0;                    // validity; 0: the default of the kind (CA 10 years, leaves 2)
  bool overwrite = false;          // replace existing files instead of refusing
  std::vector<std::string> hosts;  // node certificates: extra SANs (IP addresses or DNS names)
};

// Makes ca.crt and ca.key in `dir`, which is created (mode 0700) when missing.
void create_ca(const std::string& dir, const create_options_t& opt = {});
// Makes the certificate and key of a node or a client, signed by the CA of `dir` (its ca.crt and
// ca.key must be there).
void create_cert(const std::string& dir, role_t role, const std::string& name,
                 const create_options_t& opt = {});

// dir/ca.crt, dir/node.NAME.crt, dir/client.NAME.crt (the name is ignored for the CA); and .key.
std::string cert_path(const std::string& dir, role_t role, const std::string& name);
std::string key_path(const std::string& dir, role_t role, const std::string& name);

struct cert_info_t {
  std::string file;  // the file's name in its directory (node.n1.crt)
  role_t role;       // from the subject's OU
  std::string name;  // the subject's CN (the CA's: "zkfleet CA")
  std::chrono::system_clock::time_point not_before, not_after;
  std::string fingerprint;  // SHA-256 of the DER certificate, lowercase hex
};
// One certificate file (PEM); an error naming it when it does not parse or is not a zkfleet
// certificate (O=zkfleet, OU ca|node|client).
cert_info_t read_cert_info(const std::string& file);
// Every *.crt of `dir`, sorted by file name.
std::vector<cert_info_t> list_certs(const std::string& dir);

// Who a certificate says its holder is (its subject's OU and CN).
struct identity_t {
  role_t role;
  std::string name;
};

// What a certificate's subject says, by the convention above: O=zkfleet, one OU that is a role,
// one CN (a valid name for node and client). nullopt when the subject does not follow it. Shared
// with identity.cpp; it checks nothing else (neither the signature nor the dates).
std::optional<identity_t> subject_identity(const x509_st* cert);

}  // namespace zk::security
