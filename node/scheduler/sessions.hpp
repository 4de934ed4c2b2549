#pragma once
// Who is talking to the scheduler (docs/security.md "Identities"). CAF's TLS transport verifies
// that a peer holds a certificate of the cluster's CA but does not tell the actor which one, so
// identities are proven again at the actor level with a signed challenge:
//
//   caller                                   scheduler
//   hello(nonce) ───────────────────────────▶ a fresh challenge (expires, single use)
//   ◀── challenge, scheduler cert, sig(hello_text(nonce, challenge))   the caller checks that the
//                                              signer is a node certificate of its CA: it reached
//                                              the cluster's scheduler
//   login(name, role, cert, challenge, sig(login_text(challenge, role, name, caller-node)))
//   ◀── session token (128 random bits)       the certificate chains to the CA, its role and name
//                                              are the ones claimed, the signature holds, and the
//                                              caller's CAF node is the one that signed
// Every later request carries the token. Without certificates (security.insecure, loopback only)
// a login is taken at its word. Plain C++ and thread-safe: the embedding process mints sessions
// for its own in-process callers (add) while the scheduler actor serves the rest.
#include <chrono>
#include <deque>
#include <map>
#include <mutex>
#include <optional>
#include <string>

#include "common/security/identity.hpp"
#include "zk/base/result.hpp"

namespace zk::node {

// What is signed, so that a signature for one purpose is never valid for another.
std::string hello_text(const std::string& nonce, const std::string& challenge);
std::string login_text(const std::string& challenge, security::role_t role, const std::string& name,
                       const std::string& caller);

struct sessions_options_t {
  std::chrono::seconds challenge_ttl{30};
  size_t max_challenges = 4096;  // outstanding; the oldest goes first
  size_t max_sessions = 16384;   // the least recently made goes first
};

struct session_token_t {
  std::string token;
};

class sessions_t {
 public:
  struct hello_t {
    std::string challenge;
    std::string scheduler_cert;  // empty when insecure
    std::string signature;
  };
  struct login_t {
    std::string name;
    security::role_t role = security::role_t::client;
    std::string cert_pem, challenge, signature;
  };

  // Insecure: no verifier and no signer. Secure: both (the CA and the scheduler node's own
  // certificate and key).
  sessions_t(std::optional<security::verifier_t> verifier, std::optional<security::signer_t> signer,
             sessions_options_t options = {});
  bool secure() const { return verifier_.has_value(); }

  // A fresh challenge for `nonce` (at most 128 characters).
  result_t<hello_t> hello(const std::string& nonce);
  // The session token, or why the login is refused (logged by the caller). `caller` is the CAF
  // node the request came from, as the scheduler sees it.
  result_t<session_token_t> login(const login_t& l, const std::string& caller);
  // The identity behind a token; nullopt for an unknown (or evicted) one.
  std::optional<security::identity_t> find(const std::string& token) const;
  // A session for an in-process caller (the embedded cluster, the scheduler node's own gateway,
  // its own node): never evicted, however many logins come.
  std::string add(const security::identity_t& who);

 private:
  std::string add_locked(const security::identity_t& who);

  std::optional<security::verifier_t> verifier_;
  std::optional<security::signer_t> signer_;
  sessions_options_t options_;
  mutable std::mutex mu_;
  std::map<std::string, std::chrono::steady_clock::time_point> challenges_;  // → expiry
  std::deque<std::string> challenge_order_;
  std::map<std::string, security::identity_t> sessions_;  // from logins
  std::deque<std::string> session_order_;
  std::map<std::string, security::identity_t> pinned_;  // from add()
};

}  // namespace zk::node
