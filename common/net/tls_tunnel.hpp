#pragma once
// Mutual TLS around the control plane's TCP connections (docs/security.md "Control plane").
// CAF 0.17's OpenSSL module lost messages on long-lived connections here (replies never
// delivered, peers dropped as unreachable when a third process connected; fixed upstream only in
// later CAF), so the middleman speaks plain BASP on loopback and these tunnels carry it over TLS:
//
//   client process                                     scheduler process
//   CAF remote_actor ─▶ 127.0.0.1:P ─ originate ══TLS══▶ terminate ─▶ 127.0.0.1:Q CAF publish
//
// terminate: listens on the cluster address; each connection must complete a TLS 1.3 handshake
//   with a node or client certificate of the cluster CA (O=zkfleet, OU=node|client) within the
//   handshake timeout, then it is piped to the local port. A refusal is reported (on_refused)
//   with the peer and OpenSSL's reason; at most max_connections at once (per peer address at
//   most max_per_peer); the rest are closed at accept.
// originate: listens on 127.0.0.1 (an ephemeral port) for the process's own middleman and takes
//   one connection (then the port closes: no other local user rides this host's certificate),
//   which becomes a TLS connection to the cluster address, whose certificate must be a node
//   certificate of the CA named `expected_peer`.
// forward: originate on a given local address for any number of connections, each its own TLS
//   connection (`zkfleet gateway`: a local Curio's gRPC to the scheduler's gRPC over mutual TLS).
//
// The gRPC face uses a terminating tunnel too (scheduler.grpc_tls): clients only, and each piped
// connection reported (on_pipe) with the client its certificate names and the local port it
// connects from, so that the gRPC server knows whose calls arrive on it.
// The identity of a peer is then proven to the scheduler actor itself with a signed challenge
// (node/scheduler/sessions.hpp): the tunnel decides who may speak, the session who is speaking.
// One thread per tunnel; every connect, handshake and idle pipe has a deadline or a keepalive.
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "common/net/tls.hpp"

namespace zk::net {

struct tunnel_options_t {
  std::chrono::milliseconds handshake_timeout{10000};
  std::chrono::milliseconds connect_timeout{5000};
  unsigned max_connections = 256;
  unsigned max_per_peer = 32;
  bool clients_only = false;  // terminate: client certificates only (node ones are refused)
  // terminate: a verified connection piped to the local port (open), and gone (closed, before
  // its local connection closes): the name of its certificate and the local port it connects
  // from. Called on the tunnel's thread.
  std::function<void(const std::string& name, uint16_t local_port, bool open)> on_pipe;
};

class tls_tunnel_t {
 public:
  using on_refused_t = std::function<void(const std::string& peer, const std::string& why)>;

  // Binds at once; throws std::runtime_error naming the address (or the TLS file) when it cannot.
  static std::unique_ptr<tls_tunnel_t> terminate(const std::string& host, uint16_t port,
                                                 uint16_t local_port, const tls_files_t& files,
                                                 on_refused_t on_refused = {},
                                                 tunnel_options_t options = {});
  static std::unique_ptr<tls_tunnel_t> originate(const std::string& host, uint16_t port,
                                                 const tls_files_t& files,
                                                 const std::string& expected_peer = "",
                                                 on_refused_t on_refused = {},
                                                 tunnel_options_t options = {});
  static std::unique_ptr<tls_tunnel_t> forward(const std::string& listen_host, uint16_t listen_port,
                                               const std::string& host, uint16_t port,
                                               const tls_files_t& files,
                                               const std::string& expected_peer,
                                               on_refused_t on_refused = {},
                                               tunnel_options_t options = {});
  ~tls_tunnel_t();
  tls_tunnel_t(const tls_tunnel_t&) = delete;
  tls_tunnel_t& operator=(const tls_tunnel_t&) = delete;

  uint16_t port() const;  // where it listens
  void stop();            // closes the listener and every pipe, joins the thread; idempotent

  struct impl_t;

 private:
  explicit tls_tunnel_t(std::shared_ptr<impl_t> impl);
  std::shared_ptr<impl_t> impl_;
};

}  // namespace zk::net
