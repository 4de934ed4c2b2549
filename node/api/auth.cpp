// The API's identities: who a request is (a client certificate, a bearer token, admin on an
// insecure cluster), its session at the scheduler, and the circuits (cached a minute).
#include "node/api/service.hpp"

namespace zk::node {

std::optional<api_server_t::impl_t::who_t> api_server_t::impl_t::authenticate(
    const net::http_request_t& r) {
  if (!secure) return who_t{"client", "admin"};
  if (!r.cert_role.empty()) return who_t{r.cert_role, r.cert_name};
  const std::string auth = r.header("authorization");
  if (o.tokens && auth.rfind("Bearer ", 0) == 0)
    if (auto name = o.tokens->identify(auth.substr(7))) return who_t{"client", *name};
  return std::nullopt;
}

std::string api_server_t::impl_t::session(const std::string& client) {
  std::lock_guard<std::mutex> lock(mu);
  auto& t = session_of[client];
  if (t.empty()) t = sessions->add({security::role_t::client, client});
  return t;
}

std::optional<circuit_def_t> api_server_t::impl_t::circuit(const std::string& id) {
  {
    std::lock_guard<std::mutex> lock(mu);
    if (std::chrono::steady_clock::now() - circuits_at < std::chrono::minutes(1))
      for (const auto& c : circuits)
        if (c.id == id) return c;
  }
  auto list = gateway->circuits(session("admin"));
  if (!list) return std::nullopt;
  std::lock_guard<std::mutex> lock(mu);
  circuits = *list;
  circuits_at = std::chrono::steady_clock::now();
  for (const auto& c : circuits)
    if (c.id == id) return c;
  return std::nullopt;
}

}  // namespace zk::node
