#pragma once
// The scheduler node's gRPC face for Curio (grpcapi/server.hpp), wired to its actors: the
// plaintext listener of scheduler.grpc and, with scheduler.grpc_tls, the mutual-TLS listener for
// `zkfleet gateway` (a terminating tunnel, clients only, whose connections are piped to the gRPC
// server's loopback port; the server learns each one's client from the port it comes from).
#include <caf/all.hpp>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "actors/messages.hpp"
#include "apps/client.hpp"
#include "grpcapi/server.hpp"

namespace zk::apps {

class cuzk_api_t {
 public:
  // Starts what the config asks (nothing without scheduler.grpc and grpc_tls). Throws naming the
  // address it cannot listen on.
  cuzk_api_t(caf::actor_system& sys, const config::config_t& c, const tls_identity_t& tls,
             actors::scheduler_actor scheduler, actors::timeline_actor aggregator,
             std::shared_ptr<node::sessions_t> sessions,
             std::shared_ptr<node::upload_store_t> uploads);
  ~cuzk_api_t();  // the tunnel first (no new calls), then the server
  bool running() const { return bool(server_); }

 private:
  std::mutex mu_;
  std::map<uint16_t, std::string> piped_;  // local port of a tunnelled connection → its client
  std::unique_ptr<grpcapi::server_t> server_;
  std::unique_ptr<net::tls_tunnel_t> tunnel_;
};

}  // namespace zk::apps
