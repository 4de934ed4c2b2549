#pragma once
// Curio's cuzk API on the scheduler node: the gRPC service cuzk.v1.ProvingEngine
// (grpcapi/proto/cuzk/v1/proving.proto, Curio's contract; docs/api.md "gRPC: Curio's cuzk API"
// says what each call answers), so that a Curio configured with `[Cuzk] Address` sends its
// sectors' C2s to the cluster. It runs beside the scheduler in the scheduler node's process and
// asks the cluster through the gateway the HTTP API uses (node/api/gateway.hpp; the actors' one
// is actors/api_gateway.hpp), as a client with a session of its own:
//
//   SubmitProof  the request read off the wire, checked (node/cuzk/request.hpp), its C1 streamed
//                once into the scheduler's store, the job submitted under its request_id
//   AwaitProof   the job's outcome (node/cuzk/answer.hpp), waited for without holding a thread
//   Prove        both
//   CancelProof  the scheduler's cancel
//   GetStatus, GetMetrics, PreloadSRS, EvictSRS   from the scheduler's and the aggregator's answers
//
// Who calls: Curio dials plaintext (insecure credentials, no token), so a call on the plaintext
// listener acts as client `client` (scheduler.grpc_client); the listener is a unix socket or a
// loopback address unless `insecure_networks` names the networks whose peers it also takes
// (others: PERMISSION_DENIED). A remote Curio goes through `zkfleet gateway` instead: its calls
// arrive over the scheduler's mutual-TLS listener (scheduler.grpc_tls, a terminating TLS tunnel,
// common/net/tls_tunnel.hpp) piped to this server's tunnel port on 127.0.0.1, and act as the
// client whose certificate that connection showed (`tunnel_client`, by the local port the
// tunnel connected from).
//
// Threads: gRPC's callback API (no gRPC thread waits on the cluster); a few worker threads of
// its own store C1s and ask the scheduler; a job's end is waited for by a helper actor, which
// answers the call. Messages up to `max_message` each way (Curio's client: 256 MiB).
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "node/api/gateway.hpp"
#include "node/scheduler/sessions.hpp"
#include "node/scheduler/uploads.hpp"

namespace zk::grpcapi {

struct server_options_t {
  // The plaintext listener: "unix:///PATH" or "HOST:PORT" (port 0: any free port); "": none.
  std::string listen;
  // CIDR networks whose peers the plaintext TCP listener takes besides loopback ones.
  std::vector<std::string> insecure_networks;
  std::string client = "curio";  // whose jobs the plaintext listener's calls are
  // A listener on 127.0.0.1 (a free port: tunnel_port()) for the scheduler's mutual-TLS tunnel.
  bool tunnel = false;
  // The client a tunnelled connection proved to be, by the local port the tunnel connected from
  // (its peer's port here); nullopt: not a tunnelled connection.
  std::function<std::optional<std::string>(uint16_t port)> tunnel_client;
  uint64_t max_message = uint64_t(256) << 20;     // each way
  std::shared_ptr<node::upload_store_t> uploads;  // where vanilla_proof goes; null: none taken
  unsigned workers = 4;                           // threads that store C1s and ask the scheduler
};

class server_t {
 public:
  // Binds at once and serves. Throws std::runtime_error naming the address when it cannot.
  // Destroy it before what the gateway asks (the actor system).
  server_t(std::shared_ptr<node::api_gateway_t> gateway, std::shared_ptr<node::sessions_t> sessions,
           server_options_t options);
  ~server_t();  // calls still in progress are cancelled
  server_t(const server_t&) = delete;
  server_t& operator=(const server_t&) = delete;

  // Where the plaintext listener is ("unix:///run/zkfleet/cuzk.sock", "127.0.0.1:9820"; the
  // port bound when 0 was asked), or "" without one.
  std::string address() const;
  uint16_t tunnel_port() const;  // 0 without a tunnel listener

  struct impl_t;

 private:
  std::unique_ptr<impl_t> impl_;
};

}  // namespace zk::grpcapi
