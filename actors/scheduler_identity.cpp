// The scheduler's identities: sessions, hello and login.
#include <optional>
#include <string>

#include "actors/scheduler_internal.hpp"
#include "common/security/certs.hpp"
#include "common/util/log.hpp"

namespace zk::actors {

using namespace zk::node;  // the policy's types
using security::role_t;

result_t<security::identity_t, caf::error> scheduler_actor_state::who(
    const std::string& token, std::optional<role_t> role) const {
  auto id = token.size() <= max_id_length ? sessions->find(token) : std::nullopt;
  if (!id) return caf::make_error(zk_errc::unauthenticated, "no valid session: log in first");
  if (role && id->role != *role)
    return caf::make_error(zk_errc::forbidden, std::string("a ") + security::role_name(id->role) +
                                                   " may not do that (only a " +
                                                   security::role_name(*role) + ")");
  return *id;
}

caf::result<hello_msg> scheduler_actor_state::hello(const std::string& nonce) {
  auto h = sessions->hello(nonce);
  if (!h) return caf::make_error(zk_errc::bad_request, h.error());
  return hello_msg{h->challenge, sessions->secure(), h->scheduler_cert, h->signature};
}

caf::result<std::string> scheduler_actor_state::login(const login_msg& m) {
  const auto& sender = self->current_sender();
  const std::string caller = sender ? caf::to_string(sender->node()) : "";
  auto t = sessions->login(
      {m.name, m.node ? role_t::node : role_t::client, m.cert_pem, m.challenge, m.signature},
      caller);
  if (!t) {
    log::warn("refused a login from " + caller + ": " + t.error());
    return caf::make_error(zk_errc::unauthenticated, t.error());
  }
  // A node's login is an event of the cluster; a client logs in for each command it runs.
  if (m.node)
    log::info("node " + m.name + " logged in");
  else
    log::debug("client " + m.name + " logged in");
  return t->token;
}

}  // namespace zk::actors
