#include "node/scheduler/sessions.hpp"

namespace zk::node {

namespace {

constexpr size_t max_field = 128;      // nonce, challenge, name
constexpr size_t max_cert = 16 << 10;  // a PEM leaf certificate
constexpr size_t max_signature = 512;  // an ECDSA P-256 signature is ~72 bytes

// A refused login (its reason).
std::string refused(std::string why) { return why; }

}  // namespace

std::string hello_text(const std::string& nonce, const std::string& challenge) {
  return "zkfleet hello v1\n" + nonce + "\n" + challenge;
}

std::string login_text(const std::string& challenge, security::role_t role, const std::string& name,
                       const std::string& caller) {
  return "zkfleet login v1\n" + challenge + "\n" + security::role_name(role) + "\n" + name + "\n" +
         caller;
}

sessions_t::sessions_t(std::optional<security::verifier_t> verifier,
                       std::optional<security::signer_t> signer, sessions_options_t options)
    : verifier_(std::move(verifier)), signer_(std::move(signer)), options_(options) {}

result_t<sessions_t::hello_t> sessions_t::hello(const std::string& nonce) {
  if (nonce.empty() || nonce.size() > max_field)
    return std::string("hello: the nonce must be 1 to 128 characters");
  hello_t h;
  h.challenge = security::random_hex(16);
  if (signer_) {
    h.scheduler_cert = signer_->cert_pem();
    h.signature = signer_->sign(hello_text(nonce, h.challenge));
  }
  std::lock_guard<std::mutex> lock(mu_);
  const auto now = std::chrono::steady_clock::now();
  while (!challenge_order_.empty() && (challenge_order_.size() >= options_.max_challenges ||
                                       challenges_.count(challenge_order_.front()) == 0 ||
                                       challenges_[challenge_order_.front()] < now)) {
    challenges_.erase(challenge_order_.front());
    challenge_order_.pop_front();
  }
  challenges_[h.challenge] = now + options_.challenge_ttl;
  challenge_order_.push_back(h.challenge);
  return h;
}

result_t<session_token_t> sessions_t::login(const login_t& l, const std::string& caller) {
  const char* role = security::role_name(l.role);
  if (l.role == security::role_t::ca) return refused("login: a CA cannot log in");
  if (!security::valid_name(l.name))
    return refused(std::string("login: \"") + l.name.substr(0, max_field) + "\" is not a valid " +
                   role + " name");
  if (l.challenge.size() > max_field || l.cert_pem.size() > max_cert ||
      l.signature.size() > max_signature)
    return refused("login: a field is longer than a login can be");
  std::lock_guard<std::mutex> lock(mu_);
  auto c = challenges_.find(l.challenge);
  const bool fresh = c != challenges_.end() && c->second >= std::chrono::steady_clock::now();
  if (c != challenges_.end()) challenges_.erase(c);  // single use, whatever comes of it
  if (!fresh) return refused("login: the challenge is unknown, used or expired");
  if (verifier_) {
    auto who = verifier_->verify_signed(l.cert_pem, login_text(l.challenge, l.role, l.name, caller),
                                        l.signature);
    if (!who) return refused("login as " + std::string(role) + " " + l.name + ": " + who.error());
    if (who.value().role != l.role || who.value().name != l.name)
      return refused("login as " + std::string(role) + " " + l.name + ": the certificate is for " +
                     security::role_name(who.value().role) + " " + who.value().name);
  }
  return session_token_t{add_locked({l.role, l.name})};
}

std::optional<security::identity_t> sessions_t::find(const std::string& token) const {
  std::lock_guard<std::mutex> lock(mu_);
  if (auto p = pinned_.find(token); p != pinned_.end()) return p->second;
  auto it = sessions_.find(token);
  if (it == sessions_.end()) return std::nullopt;
  return it->second;
}

std::string sessions_t::add(const security::identity_t& who) {
  std::lock_guard<std::mutex> lock(mu_);
  std::string token = security::random_hex(16);
  pinned_[token] = who;
  return token;
}

std::string sessions_t::add_locked(const security::identity_t& who) {
  while (session_order_.size() >= options_.max_sessions) {
    sessions_.erase(session_order_.front());
    session_order_.pop_front();
  }
  std::string token = security::random_hex(16);
  sessions_[token] = who;
  session_order_.push_back(token);
  return token;
}

}  // namespace zk::node
