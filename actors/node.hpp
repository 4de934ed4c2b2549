#pragma once
// Node wiring by role: a node is the set of actors one host runs for the cluster — a
// synthesizer (synth role), a prover (prover role), and always a timeline reporter — joined to
// the scheduler with the node's resources. The embedded cluster puts a scheduler, the timeline
// aggregator and such nodes in one actor_system (`zkfleet demo`, the tests).
#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "actors/messages.hpp"
#include "actors/prover.hpp"
#include "actors/scheduler.hpp"
#include "actors/synthesizer.hpp"
#include "actors/timeline.hpp"
#include "common/net/data_server.hpp"

namespace zk::actors {

struct node_role_config_t {
  std::string name;
  uint16_t timeline_node = 0;  // this node's index in the timeline
  bool synth = false, prover = false;
  unsigned cores = 1;          // synthesis workers
  uint64_t memory_budget = 0;  // the buffer store's budget (synth) and the scheduler's account
  // Prover role: circuits whose keys are mapped at start-up (from the scheduler's definitions)
  // and named in the join once they are.
  std::vector<std::string> hot_keys;
  // Prover role: each filecoin-porep circuit's bellperson .params on this host (circuit id →
  // path). They are mapped at start-up and stay resident: the node's budget for buffers and work
  // is memory_budget less their size, and a node whose budget does not hold them and one
  // partition refuses to start. Such a prover is the only kind that proves those circuits.
  std::vector<std::pair<std::string, std::string>> filecoin_params;
  // Prover role: its backend's name ("cpu", "cuda (<device>)") and hooks (null: the CPU),
  // owned by the caller while the node runs.
  std::string backend = "cpu";
  node::accelerators_t accelerators;
  std::chrono::milliseconds report_period{200};
  // Data plane (another process's nodes reach this one): "host:port" to listen on. The prover
  // role then receives buffers there into its own store; empty: one process, buffers pinned in
  // place ("local:<name>").
  std::string data_listen;
  net::server_options_t data_options;  // address and port are taken from data_listen
  net::send_options_t send_options;    // the synth role's sends to other processes' provers
  unsigned send_streams = 1;           // the synth role's buffers in flight, each to its own prover
  std::optional<synth_local_t> local;  // synthesizer_config_t::local
  // The scheduler's store when it runs in this process (synthesizer_config_t::scheduler_store).
  std::shared_ptr<const node::upload_store_t> scheduler_store;
  // A node of its own process that rejoins its scheduler when the connection comes back: its
  // actors take the scheduler from here on rebind_atom (null: the scheduler given, for good).
  std::shared_ptr<scheduler_slot_t> slot;
};

struct node_handles_t {
  std::string name;
  synthesizer_actor synthesizer;
  prover_actor prover;
  reporter_actor reporter;
  std::shared_ptr<buffer::buffer_store_t> store;  // synth role: where its buffers live
  std::shared_ptr<timeline::recorder_t> recorder;
  std::shared_ptr<buffer::buffer_store_t> prover_store;  // prover role on the data plane
  std::shared_ptr<net::data_server_t> data_server;       // receives into prover_store
  uint32_t id = 0;                                       // the scheduler's node id
  node_join_msg join;  // what it joined with (a rejoin sends it again)
};

// Spawns the node's actors and joins the scheduler under `token` (a node session of this node's
// name; waits up to `timeout` for each answer). Throws std::runtime_error when the scheduler
// does not take the node.
node_handles_t spawn_node(caf::actor_system& sys, const node_role_config_t& cfg,
                          const scheduler_actor& scheduler, const timeline_actor& aggregator,
                          const std::shared_ptr<node::buffer_directory_t>& directory,
                          const std::string& token,
                          std::chrono::milliseconds timeout = std::chrono::seconds(10));

struct cluster_config_t {
  unsigned synth_nodes = 2;
  unsigned synth_cores = 1;
  uint64_t synth_budget = uint64_t(1) << 30;
  uint64_t prover_budget = uint64_t(2) << 30;
  lookahead_t lookahead;
  unsigned max_attempts = 3;
  std::chrono::milliseconds report_period{100};
  // Non-empty ("127.0.0.1:0"): the prover receives buffers over the data plane on loopback, as
  // it would from another process, instead of pinning them in the synthesizers' stores.
  std::string prover_data_listen;
  std::vector<circuit_def_t> circuits;  // what the scheduler proves (checked: check_circuit)
  // In one process the caller is the only client: file inputs from anywhere it can read.
  scheduler_limits_t limits{1024, 1000, std::chrono::hours(1), {"/"}};
  scheduler_timing_t timing;
  std::shared_ptr<node::journal_t> journal;  // the scheduler's (null: none)
  // The scheduler's store (node/scheduler/uploads.hpp), read in-process by the synthesis nodes;
  // required when a filecoin-porep circuit is configured (its partitions' inputs go there).
  std::shared_ptr<node::upload_store_t> store;
  // The prover's filecoin_params (circuit id → .params): without them no Filecoin job is proven.
  std::vector<std::pair<std::string, std::string>> prover_filecoin_params;
};

// A whole cluster in one actor_system: scheduler (timeline node 0), synthesis nodes synth-0…
// (nodes 1…), one prover node prover-0, the timeline aggregator. Nothing outside the process
// reaches it: its sessions are insecure, and `admin` is the session of the process itself.
// stop() (or the destructor) ends every actor, so the actor_system can shut down.
class embedded_cluster_t {
 public:
  embedded_cluster_t(caf::actor_system& sys, const cluster_config_t& cfg);
  ~embedded_cluster_t();
  embedded_cluster_t(const embedded_cluster_t&) = delete;
  embedded_cluster_t& operator=(const embedded_cluster_t&) = delete;
  void stop();

  scheduler_actor scheduler;
  timeline_actor aggregator;
  reporter_actor scheduler_reporter;
  std::vector<node_handles_t> synth_nodes;
  node_handles_t prover_node;
  std::shared_ptr<node::buffer_directory_t> directory;
  std::shared_ptr<timeline::recorder_t> scheduler_recorder;
  std::shared_ptr<node::sessions_t> sessions;
  std::string admin;  // the session token of client admin

 private:
  void start(caf::actor_system& sys, const cluster_config_t& cfg);
};

// A request from outside any actor, its answer given to `done` (once, on a thread of the actor
// system) within `timeout`: the reply, or the error (sec::request_timeout when none came;
// sec::request_receiver_down as soon as `dest` is gone, e.g. its process died or the connection
// to it broke: a remote peer's pending request is never answered then, so waiting out the timeout
// would tell nothing). Returns the helper actor that waits for it: an exit sent to it
// (caf::anon_send_exit) stops the wait, and `done` is then never called.
template <class T, class Handle, class... Ts>
caf::actor ask_async(caf::actor_system& sys, const Handle& dest, std::chrono::milliseconds timeout,
                     std::function<void(caf::expected<T>)> done, Ts&&... xs) {
  if (!dest) {
    done(caf::make_error(caf::sec::invalid_argument, "no actor to ask"));
    return {};
  }
  return sys.spawn([done = std::move(done), dest, timeout,
                    args = std::make_tuple(std::decay_t<Ts>(std::forward<Ts>(xs))...)](
                       caf::event_based_actor* self) {
    self->monitor(dest);
    self->set_down_handler([done, self](caf::down_msg& m) {
      done(caf::make_error(caf::sec::request_receiver_down,
                           "the peer is gone: " + caf::to_string(m.reason)));
      self->quit();
    });
    std::apply(
        [&](const auto&... a) {
          self->request(dest, timeout, a...)
              .then(
                  [done, self](T& v) {
                    done(std::move(v));
                    self->quit();
                  },
                  [done, self](caf::error& e) {
                    done(std::move(e));
                    self->quit();
                  });
        },
        args);
  });
}

// ask_async, waited for on the calling thread.
template <class T, class Handle, class... Ts>
caf::expected<T> ask(caf::actor_system& sys, const Handle& dest, std::chrono::milliseconds timeout,
                     Ts&&... xs) {
  struct answer_t {
    std::mutex mu;
    std::condition_variable cv;
    std::optional<caf::expected<T>> value;
  };
  auto answer = std::make_shared<answer_t>();
  ask_async<T>(
      sys, dest, timeout,
      [answer](caf::expected<T> v) {
        std::lock_guard<std::mutex> lock(answer->mu);
        if (!answer->value) answer->value = std::move(v);
        answer->cv.notify_all();
      },
      std::forward<Ts>(xs)...);
  std::unique_lock<std::mutex> lock(answer->mu);
  // The request's own timeout answers first; the margin only covers a helper that never ran.
  if (!answer->cv.wait_for(lock, timeout + std::chrono::seconds(5),
                           [&] { return answer->value.has_value(); }))
    return caf::make_error(caf::sec::request_timeout);
  return std::move(*answer->value);
}

}  // namespace zk::actors
