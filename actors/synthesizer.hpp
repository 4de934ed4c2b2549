#pragma once
// The synthesizer actor of a synthesis node: takes dispatches from the scheduler, runs each on
// one of its workers (detached actors, one per core: synthesis blocks a thread for seconds),
// and keeps every buffer it made in the node's buffer store until the scheduler says the
// prover holds it (release) or the job is gone (cancel).
//
//   dispatch ─▶ queue ─▶ idle worker: synthesize (SYNTH on the worker's track) ─▶ store
//                                        │ ok: buffer_ready → scheduler (buffer kept)
//                                        └ error: failure_msg → scheduler
//   (prover in another process: buffer_ready in_transit → scheduler at once, so the core takes
//    the next synthesis; the sender of the prover's stream moves the buffer over the data plane
//    (CHAN_SEND while it waits for the channel and the receiver's READY, XFER for the payload,
//    on the stream's send track); once the prover's store acknowledged it, the local copy is
//    freed and a second buffer_ready says moved — or a failure_msg says why not)
//   release id ─▶ store.release(id)      cancel job ─▶ drop its queued dispatches, release its
//                                                       buffers, release late results at once
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "actors/messages.hpp"
#include "common/buffer/buffer_store.hpp"
#include "common/net/data_client.hpp"
#include "common/net/endpoint.hpp"
#include "common/timeline/recorder.hpp"
#include "node/cancelled_jobs.hpp"
#include "node/synth/csr_cache.hpp"
#include "node/tracks.hpp"

namespace zk::actors {

using node::cancelled_jobs_t;

// What a synthesis node takes from its own config file rather than from a dispatch, so that a
// forged or mistaken dispatch can neither run a command nor reach a file: the scheduler's
// input_roots (checked again right before a job's files are opened; a path swapped after submit
// does not escape) and each circuit's witness generator (the dispatch's argv is ignored; a
// circuit this node's file does not have is refused).
struct synth_local_t {
  std::vector<std::string> input_roots;
  std::map<std::string, std::vector<std::string>> witness_generators;  // circuit id → argv
};

struct synthesizer_config_t {
  std::string endpoint;                           // the node's data endpoint ("local:<node>")
  std::shared_ptr<buffer::buffer_store_t> store;  // the node's buffer store
  scheduler_actor scheduler;
  std::shared_ptr<timeline::recorder_t> recorder;  // may be null
  node::node_tracks_t tracks;  // worker i on tracks.worker(i), send stream k on tracks.send(k);
                               // tracks.workers is the number of workers, tracks.streams of senders
  std::string own_prover;  // the data endpoint of a prover in this same node: its buffers stay put
  net::send_options_t send_options;  // timeouts and attempts of the sends to other processes
  // What the node takes from its own config instead of the dispatch (nullopt: the dispatch's
  // word, in one process: the embedded cluster).
  std::optional<synth_local_t> local;
};

struct synthesizer_state {
  static inline const char* name = "zkfleet.synthesizer";

  synthesizer_actor::pointer self = nullptr;
  synthesizer_config_t cfg;
  std::vector<caf::actor> idle;
  // The node's data-plane senders (cfg.send_streams at most, spawned as provers appear): each
  // prover endpoint keeps the stream it was first given, so its buffers go one after another
  // while buffers for different provers move at once.
  std::vector<caf::actor> senders;
  std::map<std::string, size_t> stream_of;
  std::deque<dispatch_msg> queue;
  std::map<uint64_t, std::set<uint64_t>> buffers;  // job → buffer ids held in the store
  // Jobs cancelled while work was out; the workers read it too.
  std::shared_ptr<cancelled_jobs_t> cancelled = std::make_shared<cancelled_jobs_t>();

  void init(synthesizer_actor::pointer s, synthesizer_config_t c);
  void dispatch(const dispatch_msg& d);
  void release(uint64_t buffer_id);
  void cancel(uint64_t job);
  void done(const caf::actor& worker, const dispatch_msg& d, const buffer_ready_msg& m);
  void fail(const caf::actor& worker, const dispatch_msg& d, const caf::error& e);

 private:
  void pump();
};

using synthesizer_impl = synthesizer_actor::stateful_pointer<synthesizer_state>;
synthesizer_actor::behavior_type synthesizer(synthesizer_impl self, synthesizer_config_t cfg);

// One worker: dispatch_msg → buffer_ready_msg (the buffer in the node's store) or a
// synth_failed error, blocking its thread.
struct synth_worker_state {
  static inline const char* name = "zkfleet.synthesizer.worker";
  std::shared_ptr<node::csr_cache_t>
      cache;  // the node's circom CSR matrices, shared by its workers
  std::shared_ptr<const cancelled_jobs_t> cancelled;
  std::optional<synth_local_t> local;  // synthesizer_config_t::local
};
using synth_worker_actor = caf::stateful_actor<synth_worker_state>;
caf::behavior synth_worker(synth_worker_actor* self, std::string endpoint,
                           std::shared_ptr<buffer::buffer_store_t> store,
                           std::shared_ptr<timeline::recorder_t> recorder, uint16_t track,
                           std::shared_ptr<node::csr_cache_t> cache,
                           std::shared_ptr<const cancelled_jobs_t> cancelled,
                           std::optional<synth_local_t> local);

// One send stream of the node: (dispatch_msg, buffer_ready_msg of a local buffer) → the buffer
// sent to the dispatch's prover endpoint and freed here once acknowledged → buffer_ready_msg
// moved (naming the buffer in the prover's store), or a synth_failed error. One at a time,
// blocking its thread (a data-plane thread, never a synthesis worker's). (cancel_atom, job),
// sent with high priority so it overtakes the queued sends: that job's buffers still waiting are
// freed unsent (a job_cancelled error), not moved to a prover that would drop them.
struct synth_sender_state {
  static inline const char* name = "zkfleet.synthesizer.sender";
  std::map<std::string, std::unique_ptr<net::data_client_t>> clients;  // per prover data endpoint
  cancelled_jobs_t cancelled;
};
using synth_sender_actor = caf::stateful_actor<synth_sender_state>;
caf::behavior synth_sender(synth_sender_actor* self, std::shared_ptr<buffer::buffer_store_t> store,
                           std::shared_ptr<timeline::recorder_t> recorder, uint16_t track,
                           net::send_options_t options);

}  // namespace zk::actors
