#pragma once
// The client side of the cluster commands: every direct CAF call that reaches a scheduler from
// outside it lives here — the wire probe of scheduler.endpoint, the connect loop (remote_actor,
// retried), the requests — so that a change of the actors' handle types or messages touches this
// file, not the commands. The node runner (apps/cmd_node.cpp) joins through connect_scheduler;
// the commands (submit, status, await, cancel, timeline --config, up's readiness) through
// cluster_client_t, whose interface holds no CAF type.
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "actors/messages.hpp"
#include "common/config/config.hpp"
#include "common/net/http_client.hpp"
#include "common/net/tls_tunnel.hpp"
#include "common/security/identity.hpp"
#include "common/timeline/aggregator.hpp"

namespace zk::apps {

// Who this process is on the control plane, and its TLS files (docs/security.md).
struct tls_identity_t {
  security::role_t role = security::role_t::client;
  std::string name;
  std::string ca, cert, key;  // empty: security.insecure (plain TCP)
  std::string revoked;        // certs_dir/revoked: peers it lists are refused at the handshake
  bool enabled() const { return !ca.empty(); }
};
// The identity `name` of `role` in the config's certs_dir (each file checked: a missing one is
// an error naming the `zkfleet certs` command that makes it); plain TCP when insecure.
tls_identity_t tls_identity(const config::config_t& c, security::role_t role,
                            const std::string& name);

// An actor system with the middleman (remote actors) and zkfleet's messages. With TLS files its
// connections to other hosts go through mutual-TLS tunnels (common/net/tls_tunnel.hpp: CAF 0.17's
// own OpenSSL module loses messages), the peer's certificate verified against the CA.
// CAF's heartbeats on every control-plane connection of a process, and how long a silent peer
// is kept (scheduler.heartbeat, scheduler.node_timeout); zero: off (CAF's default).
struct control_timing_t {
  std::chrono::milliseconds heartbeat{0}, timeout{0};
};
control_timing_t timing_of(const config::config_t& c);

struct middleman_system_t {
  caf::actor_system_config cfg;
  std::unique_ptr<caf::actor_system> sys;
  tls_identity_t tls;
  std::vector<std::unique_ptr<net::tls_tunnel_t>> tunnels;
  explicit middleman_system_t(tls_identity_t identity = {}, control_timing_t timing = {});
  ~middleman_system_t();
  // Stops the tunnels of earlier connections (a node reconnecting to its scheduler).
  void drop_tunnels();
  // publish / remote_actor over TLS or plain TCP, as the system was made. remote_scheduler: with
  // TLS the scheduler's certificate must be that of node `scheduler_name` (when not empty).
  caf::expected<uint16_t> publish(const actors::scheduler_actor& a, const config::endpoint_t& at);
  caf::expected<actors::scheduler_actor> remote_scheduler(const config::endpoint_t& at,
                                                          const std::string& scheduler_name);

 private:
  net::tls_files_t files() const;
};

// What answers at `ep`, asked before CAF's handshake is: a CAF middleman (the scheduler's
// publish) greets first, with a BASP server handshake (operation 0). A listener that stays silent
// (a prover's data port, an HTTP server) or greets otherwise is not a scheduler, and remote_actor
// would wait on it for minutes.
// With TLS the client speaks first: the probe is a TLS handshake with this process's
// certificate: tls_refused (the server refused it or is not of this CA), tls_cut (the connection
// closed mid-handshake without an alert: a process dying or restarting, not a refusal),
// plaintext (the listener answered in plaintext: its side has no TLS).
enum class greeting_t { nobody, scheduler, silent, foreign, tls_refused, tls_cut, plaintext };
struct probe_t {
  greeting_t greeting = greeting_t::nobody;
  std::string why;  // tls_refused, tls_cut, plaintext: what the server or this side said
  // tls_refused because the server's certificate is not signed by this side's ca.crt: the
  // server was reached, it is of another CA (or ca.crt is another cluster's).
  bool untrusted_server = false;
};
probe_t probe(const config::endpoint_t& ep, std::chrono::milliseconds wait,
              const tls_identity_t& tls = {});

// What a node that is not the scheduler reaches: the scheduler, its session there and the
// timeline aggregator.
struct scheduler_link_t {
  actors::scheduler_actor scheduler;
  std::string token;
  actors::timeline_actor aggregator;
};

// Proves `tls`'s identity to the scheduler (hello, then a signed login) and checks that the
// scheduler is the config's (its certificate names the node with the scheduler role). The
// session token; throws naming why the scheduler or this side refused.
std::string log_in(caf::actor_system& sys, const actors::scheduler_actor& scheduler,
                   const config::config_t& c, const tls_identity_t& tls);

// Connects to the scheduler of `c` (scheduler.endpoint): probes it, then remote_actor, retried
// every 200 ms for `patience` (a listener that is not a scheduler is reported at once, or after
// 5 s of silence, naming the config key). `still_ok` runs between tries and may throw to give up
// early (zkfleet up: a node process died); `note` hears, once, why the wait (default: stderr).
actors::scheduler_actor connect_scheduler(middleman_system_t& s, const config::config_t& c,
                                          std::chrono::seconds patience,
                                          const std::function<void()>& still_ok = {},
                                          const std::function<void(const std::string&)>& note = {});
// connect_scheduler, log_in as the node, then the scheduler's timeline aggregator (a node's
// reporter joins it). The system must have been made with the node's tls_identity.
scheduler_link_t connect_node(middleman_system_t& s, const config::config_t& c,
                              std::chrono::seconds patience,
                              const std::function<void(const std::string&)>& note = {});

// A client of a running cluster, logged in as `client` (a client certificate of the config's
// certs_dir). Every call throws std::runtime_error with the scheduler's reason (or the timeout)
// when it is refused or unanswered.
// The config's scheduler node: whose certificate the scheduler must show.
std::string scheduler_node_name(const config::config_t& c);

// One request to the scheduler's HTTP endpoint (scheduler.http; docs/api.md) as `tls`'s identity:
// HTTPS with its certificate when the cluster has certificates, the scheduler node's certificate
// required of the server. The answer, or why none came; throws when the config sets no
// scheduler.http.
result_t<net::http_answer_t> call_scheduler_http(const config::config_t& c,
                                                 const tls_identity_t& tls, net::http_call_t call);

// The connection to the scheduler broke while a request waited (the scheduler restarted, or the
// network went): the request may be made again on a new connection.
struct scheduler_lost_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A job awaited ended without all its proofs: it was cancelled, or it failed. Its finished
// proofs are still the scheduler's to give (cluster_client_t::proofs).
struct job_ended_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Connects and logs in: a scheduler that is reached but does not greet within 10 s, or goes away
// before it does, is tried again for max(patience, 30 s), then scheduler_lost_error.
class cluster_client_t {
 public:
  explicit cluster_client_t(const config::config_t& c, const std::string& client = "admin",
                            std::chrono::seconds patience = std::chrono::seconds(5),
                            const std::function<void()>& still_ok = {});
  ~cluster_client_t();
  cluster_client_t(const cluster_client_t&) = delete;
  cluster_client_t& operator=(const cluster_client_t&) = delete;

  std::string submit(const actors::job_request_msg& r);
  actors::job_status_msg status(const std::string& job);
  // The job's proofs once it has finished; nullopt when it has not within `timeout`. Throws
  // scheduler_lost_error when the connection broke meanwhile, job_ended_error (with the
  // scheduler's reason) when the job was cancelled or failed.
  std::optional<actors::job_result_msg> await(const std::string& job, std::chrono::seconds timeout);
  // The proofs the job has now, finished or not (a cancelled job keeps those done before).
  actors::job_result_msg proofs(const std::string& job);
  // The newest `limit` jobs the caller may see (its own; admin: every client's), newest first.
  std::vector<actors::job_status_msg> jobs(uint32_t limit);
  // A failed job's failed partitions queued again; an unfinished job's new priority; a node
  // drained (no new work, it finishes what it holds) or undrained. Each throws with the
  // scheduler's reason when refused.
  actors::job_status_msg retry(const std::string& job);
  actors::job_status_msg set_priority(const std::string& job, node::priority_t priority);
  actors::node_usage_msg drain(const std::string& node, bool draining);
  // True when it cancelled the job, false when the job had already finished.
  bool cancel(const std::string& job);
  // Every node that has joined, as the scheduler accounts it.
  std::vector<actors::node_usage_msg> nodes(
      std::chrono::milliseconds timeout = std::chrono::seconds(10));
  // The merged timeline: every reporter flushed first (a node that does not answer only delays it).
  timeline::aggregator_t timeline();

 private:
  struct impl_t;
  std::unique_ptr<impl_t> impl_;
};

// The running cluster's merged timeline, for `zkfleet timeline --config F`. Throws naming the
// scheduler's endpoint when it cannot be reached.
timeline::aggregator_t fetch_cluster_timeline(const std::string& config_path,
                                              const std::string& client = "admin");

}  // namespace zk::apps
