// zkfleet gateway --config F --listen 127.0.0.1:9820 [--client NAME]: Curio's cuzk API for a
// Curio on another host than the scheduler (docs/security.md "Curio's gRPC"). Curio dials
// plaintext gRPC; the gateway takes it on a loopback address of Curio's own host and carries each
// connection to the scheduler's scheduler.grpc_tls over mutual TLS with the certificate of client
// NAME (common/net/tls_tunnel.hpp forward), the scheduler's node certificate required on the
// other end: the network between them sees TLS only, and the jobs belong to NAME. Byte for byte:
// it neither reads nor changes the calls. Runs until SIGINT or SIGTERM.
#include <thread>

#include "apps/client.hpp"
#include "apps/cluster.hpp"
#include "apps/commands.hpp"
#include "common/net/networks.hpp"
#include "common/util/log.hpp"

namespace zk::apps {
namespace {

int run_gateway(const config::config_t& c, const std::string& listen, const std::string& client) {
  if (!c.security.tls())
    throw std::runtime_error(c.source +
                             ": security.certs_dir is not set: the gateway carries Curio's calls "
                             "over mutual TLS with a client certificate of the cluster");
  if (!c.scheduler.grpc_tls)
    throw std::runtime_error(c.source +
                             ": scheduler.grpc_tls is not set: the scheduler takes the gateway's "
                             "mutual TLS there (docs/api.md \"gRPC: Curio's cuzk API\")");
  const auto at = config::parse_endpoint(listen);
  if (!at || at->port == 0) throw usage_error("--listen needs HOST:PORT, got '" + listen + "'");
  if (!net::is_loopback_host(at->host))
    throw usage_error("--listen " + listen +
                      ": the gateway's side towards Curio is plaintext gRPC (Curio's client has "
                      "no TLS): a loopback address of Curio's host only");
  const tls_identity_t id = tls_identity(c, security::role_t::client, client);
  // A listen address of "any" is not where to connect: the scheduler's host is.
  config::endpoint_t to = *c.scheduler.grpc_tls;
  if (to.host == "0.0.0.0" || to.host == "::") to.host = c.scheduler.endpoint.host;
  catch_stop_signals();
  auto tunnel = net::tls_tunnel_t::forward(
      at->host, at->port, to.host, to.port, {id.cert, id.key, id.ca, id.revoked},
      scheduler_node_name(c), [](const std::string& peer, const std::string& why) {
        log::warn("gateway: the connection to the scheduler failed (" + peer + "): " + why);
      });
  log::info("zkfleet gateway: Curio's gRPC on " + at->str() + " is carried to " + to.str() +
            " over mutual TLS as client " + client + " ([Cuzk] Address = \"" + at->str() + "\")");
  while (!stop_requested()) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  tunnel->stop();
  log::info("zkfleet gateway stopped");
  return 0;
}

}  // namespace

void add_gateway_command(CLI::App& root, commands_t& out) {
  CLI::App* app = add_command(
      root, "gateway",
      "Curio's gRPC from this host to the scheduler over mutual TLS (a remote Curio's [Cuzk] "
      "Address); runs until SIGINT/SIGTERM");
  const opt_t config = add_value(app, "--config", "FILE", "the cluster's config file (required)");
  const opt_t listen = add_value(app, "--listen", "HOST:PORT",
                                 "where Curio dials, on loopback (default 127.0.0.1:9820)");
  const opt_t client = add_value(app, "--client", "NAME",
                                 "the client certificate the calls carry, whose jobs they make "
                                 "(default admin)");
  const opt_t level = add_log_level(app);
  command_t c;
  c.app = app;
  c.run = [=] {
    if (!config.given()) throw usage_error("--config FILE is required");
    log::init("gateway", log_level(level));
    try {
      return run_gateway(config::load_config(config.one(), {.check_files = false}),
                         listen.one("127.0.0.1:9820"), client.one("admin"));
    } catch (const usage_error&) {
      throw;
    } catch (const std::exception& e) {
      log::error(e.what());
      return 1;
    }
  };
  out.push_back(std::move(c));
}

}  // namespace zk::apps
