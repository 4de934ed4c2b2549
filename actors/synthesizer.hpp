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
//   rebind (the node rejoined a restarted scheduler, scheduler_slot.hpp) ─▶ queued dispatches
//   dropped, buffers pinned by a prover of this process released, the kept buffers answered (the
//   node's join names them); work of the old epoch still running is never reported: a buffer it
//   finishes, or one whose send it could not finish, is kept
//
// Kept buffers: a finished buffer that no live attempt holds — its send to the prover failed
// (failure_msg send_failed, kept), or its scheduler went away — stays in the store for
// kept_for, keyed by (job, partition, job key). A dispatch of that partition sends it as it is
// instead of synthesizing again (the scheduler sends the partition back to this node: policy
// hold()); release_atom of its id, a cancel of its job, or kept_for passing frees it.
#include <chrono>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "actors/messages.hpp"
#include "actors/scheduler_slot.hpp"
#include "common/buffer/buffer_store.hpp"
#include "common/net/data_client.hpp"
#include "common/net/endpoint.hpp"
#include "common/timeline/recorder.hpp"
#include "node/cancelled_jobs.hpp"
#include "node/scheduler/uploads.hpp"
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
  // Inputs uploaded through the scheduler's HTTP API (node/scheduler/uploads.hpp): the node's
  // copies, and how to fetch one (the input, the dispatch's ticket "job.partition.attempt.mac",
  // the file to write) — passes when fetched, else refuses with why not. Empty: this node cannot
  // take uploads.
  std::shared_ptr<node::fetch_cache_t> uploads;
  std::function<check_t(const std::string& input, const std::string& ticket,
                        const std::string& path)>
      fetch;
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
  // Where a rejoining node puts its new scheduler (null: the scheduler above, for good).
  std::shared_ptr<scheduler_slot_t> slot;
  // The scheduler's store when the scheduler runs in this process (the embedded cluster, a node
  // with both roles): the objects dispatches name are read from it directly, not fetched over
  // HTTP. Null: fetched (synth_local_t).
  std::shared_ptr<const node::upload_store_t> scheduler_store;
};

struct synthesizer_state {
  static inline const char* name = "zkfleet.synthesizer";

  synthesizer_actor::pointer self = nullptr;
  synthesizer_config_t cfg;
  std::vector<caf::actor> idle;
  // The node's data-plane senders, one per prover endpoint (spawned as provers appear): a prover's
  // buffers go one after another, and a slow or silent prover holds back no other's. Sender k
  // draws on the timeline track tracks.send(k % tracks.streams).
  std::vector<caf::actor> senders;
  std::map<std::string, size_t> sender_of;
  // Kept buffers (above), by (job, partition).
  static constexpr std::chrono::seconds kept_for{120};
  struct kept_t {
    std::string job_key;
    buffer_ready_msg ready;  // as synthesis reported it (attempt and token of that attempt)
    std::chrono::steady_clock::time_point until;
  };
  std::map<std::pair<uint64_t, uint32_t>, kept_t> kept;
  bool sweep_armed = false;
  std::deque<dispatch_msg> queue;
  std::map<uint64_t, std::set<uint64_t>> buffers;  // job → buffer ids held in the store
  // Jobs cancelled while work was out; the workers read it too.
  std::shared_ptr<cancelled_jobs_t> cancelled = std::make_shared<cancelled_jobs_t>();
  uint64_t epoch = 0;  // the slot's epoch of cfg.scheduler; work of another is not reported

  void init(synthesizer_actor::pointer s, synthesizer_config_t c);
  std::vector<held_buffer_msg> rebind();
  void dispatch(const dispatch_msg& d);
  void sweep();  // frees kept buffers past kept_for
  void release(uint64_t buffer_id);
  void cancel(uint64_t job);
  void done(const caf::actor& worker, const dispatch_msg& d, const buffer_ready_msg& m,
            uint64_t of_epoch);
  void fail(const caf::actor& worker, const dispatch_msg& d, const caf::error& e,
            uint64_t of_epoch);

 private:
  void pump();
  // A finished buffer of dispatch d: to the scheduler and, for another process's prover, to the
  // partition's sender.
  void deliver(const dispatch_msg& d, const buffer_ready_msg& m);
  void keep(const std::string& job_key, const buffer_ready_msg& m);
  std::vector<held_buffer_msg> held() const;
};

using synthesizer_impl_t = synthesizer_actor::stateful_pointer<synthesizer_state>;
synthesizer_actor::behavior_type synthesizer(synthesizer_impl_t self, synthesizer_config_t cfg);

// One worker: dispatch_msg → buffer_ready_msg (the buffer in the node's store) or a
// synth_failed error, blocking its thread.
struct synth_worker_state {
  static inline const char* name = "zkfleet.synthesizer.worker";
  std::shared_ptr<node::csr_cache_t>
      cache;  // the node's circom CSR matrices, shared by its workers
  std::shared_ptr<const cancelled_jobs_t> cancelled;
  std::optional<synth_local_t> local;                           // synthesizer_config_t::local
  std::shared_ptr<const node::upload_store_t> scheduler_store;  // synthesizer_config_t's
};
using synth_worker_actor = caf::stateful_actor<synth_worker_state>;
caf::behavior synth_worker(synth_worker_actor* self, std::string endpoint,
                           std::shared_ptr<buffer::buffer_store_t> store,
                           std::shared_ptr<timeline::recorder_t> recorder, uint16_t track,
                           std::shared_ptr<node::csr_cache_t> cache,
                           std::shared_ptr<const cancelled_jobs_t> cancelled,
                           std::optional<synth_local_t> local,
                           std::shared_ptr<const node::upload_store_t> scheduler_store);

// One prover's sender: (dispatch_msg, buffer_ready_msg of a local buffer) → the buffer sent to
// the dispatch's prover endpoint and freed here once acknowledged → buffer_ready_msg moved
// (naming the buffer in the prover's store), or a send_failed error (the buffer is left in the
// store: the synthesizer keeps it). One at a time,
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
