#include "apps/cuzk_api.hpp"

#include "actors/api_gateway.hpp"
#include "common/util/log.hpp"

namespace zk::apps {

namespace {

// The gateway's bound on one ask: a submit waits for the scheduler's intake of the C1 (its
// checker's bound is 60 s), the others answer in milliseconds.
constexpr std::chrono::seconds grpc_ask_timeout{120};

}  // namespace

cuzk_api_t::cuzk_api_t(caf::actor_system& sys, const config::config_t& c, const tls_identity_t& tls,
                       actors::scheduler_actor scheduler, actors::timeline_actor aggregator,
                       std::shared_ptr<node::sessions_t> sessions,
                       std::shared_ptr<node::upload_store_t> uploads) {
  const config::scheduler_t& s = c.scheduler;
  if (s.grpc.empty() && !s.grpc_tls) return;
  grpcapi::server_options_t o;
  o.listen = s.grpc;
  o.insecure_networks = s.grpc_insecure_networks;
  o.client = s.grpc_client;
  o.uploads = std::move(uploads);
  o.tunnel = bool(s.grpc_tls);
  o.tunnel_client = [this](uint16_t port) -> std::optional<std::string> {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = piped_.find(port);
    if (it == piped_.end()) return std::nullopt;
    return it->second;
  };
  server_ = std::make_unique<grpcapi::server_t>(
      actors::api_gateway(sys, std::move(scheduler), std::move(aggregator), grpc_ask_timeout),
      std::move(sessions), std::move(o));
  if (!s.grpc.empty())
    log::info("gRPC (Curio's cuzk API) at " + server_->address() + ", plaintext, as client " +
              s.grpc_client);
  if (!s.grpc_tls) return;
  net::tunnel_options_t t;
  t.clients_only = true;
  t.on_pipe = [this](const std::string& client, uint16_t port, bool open) {
    std::lock_guard<std::mutex> lock(mu_);
    if (open)
      piped_[port] = client;
    else
      piped_.erase(port);
  };
  tunnel_ = net::tls_tunnel_t::terminate(
      s.grpc_tls->host, s.grpc_tls->port, server_->tunnel_port(),
      {tls.cert, tls.key, tls.ca, tls.revoked},
      [](const std::string& peer, const std::string& why) {
        log::warn("gRPC over TLS (scheduler.grpc_tls): refused " + peer + ": " + why);
      },
      t);
  log::info("gRPC (Curio's cuzk API) over mutual TLS at " + s.grpc_tls->str() +
            " for zkfleet gateway (client certificates)");
}

cuzk_api_t::~cuzk_api_t() {
  if (tunnel_) tunnel_->stop();
  server_.reset();
}

}  // namespace zk::apps
