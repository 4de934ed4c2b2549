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
#include <string>
#include <vector>

#include "actors/messages.hpp"
#include "common/config/config.hpp"
#include "common/timeline/aggregator.hpp"

namespace zk::apps {

// An actor system with the middleman (remote actors) and zkfleet's messages.
struct middleman_system_t {
  caf::actor_system_config cfg;
  std::unique_ptr<caf::actor_system> sys;
  middleman_system_t();
  ~middleman_system_t();
};

// What answers at `ep`, asked before CAF's handshake is: a CAF middleman (the scheduler's
// publish) greets first, with a BASP server handshake (operation 0). A listener that stays silent
// (a prover's data port, an HTTP server) or greets otherwise is not a scheduler, and remote_actor
// would wait on it for minutes.
enum class greeting_t { nobody, scheduler, silent, foreign };
greeting_t probe(const config::endpoint_t& ep, std::chrono::milliseconds wait);

// What a node that is not the scheduler reaches: the scheduler and its timeline aggregator.
struct scheduler_link_t {
  actors::scheduler_actor scheduler;
  actors::timeline_actor aggregator;
};

// Connects to the scheduler of `c` (scheduler.endpoint): probes it, then remote_actor, retried
// every 200 ms for `patience` (a listener that is not a scheduler is reported at once, or after
// 5 s of silence, naming the config key). `still_ok` runs between tries and may throw to give up
// early (zkfleet up: a node process died); `note` hears, once, why the wait (default: stderr).
actors::scheduler_actor connect_scheduler(caf::actor_system& sys, const config::config_t& c,
                                          std::chrono::seconds patience,
                                          const std::function<void()>& still_ok = {},
                                          const std::function<void(const std::string&)>& note = {});
// connect_scheduler, then the scheduler's timeline aggregator (a node's reporter joins it).
scheduler_link_t connect_node(caf::actor_system& sys, const config::config_t& c,
                              std::chrono::seconds patience,
                              const std::function<void(const std::string&)>& note = {});

// A client of a running cluster. Every call throws std::runtime_error with the scheduler's reason
// (or the timeout) when it is refused or unanswered.
class cluster_client_t {
 public:
  explicit cluster_client_t(const config::config_t& c,
                            std::chrono::seconds patience = std::chrono::seconds(5),
                            const std::function<void()>& still_ok = {});
  ~cluster_client_t();
  cluster_client_t(const cluster_client_t&) = delete;
  cluster_client_t& operator=(const cluster_client_t&) = delete;

  uint64_t submit(const actors::job_request& r);
  actors::job_status_msg status(uint64_t job);
  // The job's proofs once it has finished; nullopt when it has not within `timeout`.
  std::optional<actors::job_result_msg> await(uint64_t job, std::chrono::seconds timeout);
  // True when it cancelled the job, false when the job had already finished.
  bool cancel(uint64_t job);
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
timeline::aggregator_t fetch_cluster_timeline(const std::string& config_path);

}  // namespace zk::apps
