#pragma once
// The prover actor of a prover node: receives prove requests, takes hold of the buffer (in one
// process: a pin in the synthesizer's store, no copy), acknowledges it to the scheduler (which
// lets the synthesizer free its id), queues it, and feeds its worker one proof at a time. The
// worker (a detached actor: a proof blocks its thread) proves with the CPU backend, verifies the
// proof with the key and reports the stages to the node's timeline recorder.
//
//   prove_request_msg ─▶ pin (XFER on the receive track) ─▶ ack → scheduler ─▶ queue (GPU_PICKUP)
//   queue ─▶ worker idle? ─▶ started → scheduler ─▶ worker: GPU { build_ab … msm_h assemble
//            verify } ─▶ proof_msg → scheduler (or failure_msg) ─▶ next
//   cancel job ─▶ queued proofs of the job dropped (their pins with them); the job's proof the
//                worker is running stops at its next safe point (between MSM tasks, transforms,
//                stages: zk/base/stop.hpp), a CANCELLED mark on the prove track, its memory freed,
//                and the next proof starts
//   A buffer that came over the data plane is in this node's own store: its id is released as
//   soon as it is pinned (the pin keeps the memory until the proof is done).
//   rebind (the node rejoined a restarted scheduler, scheduler_slot.hpp) ─▶ queued proofs dropped
//   (their pins with them); a proof of the old epoch still running is not reported.
//   params circuit load (the scheduler: PreloadSRS / EvictSRS) ─▶ the worker maps the circuit's
//   parameters, or drops them and gives their memory back to the system; a release is refused
//   while a partition of the circuit proves or waits here (it would map them again at once).
#include <deque>
#include <functional>
#include <memory>
#include <set>
#include <string>

#include "actors/messages.hpp"
#include "actors/scheduler_slot.hpp"
#include "common/timeline/recorder.hpp"
#include "node/buffer_directory.hpp"
#include "node/cancelled_jobs.hpp"
#include "node/prover/prover_engine.hpp"
#include "node/tracks.hpp"

namespace zk::actors {

// A prover's queued proof with the buffer pinned (the pin keeps the memory alive after the
// synthesizer releases its id). Between a prover and its own worker in one process: it never
// crosses a process boundary, so it has no type id and no inspect.
struct prove_work_msg {
  prove_request_msg request;
  buffer::buffer_ref_t pin;
};

struct prover_config_t {
  std::shared_ptr<node::buffer_directory_t> directory;  // the process's buffer stores by endpoint
  std::string endpoint;  // this node's data endpoint (its own store, if any)
  scheduler_actor scheduler;
  std::shared_ptr<timeline::recorder_t> recorder;  // may be null
  node::node_tracks_t tracks;                      // its prove(), receive() and queue() tracks
  node::accelerators_t accelerators;               // the node's backend (null: the CPU)
  std::vector<circuit_def_t> hot;  // circuits whose keys the worker maps at start-up
  // Data plane: claims a received buffer for a prove request (net::data_server_t::claim);
  // false when the server no longer holds it. Empty: buffers are pinned in place (one process).
  std::function<bool(uint64_t)> claim;
  // Where a rejoining node puts its new scheduler (null: the scheduler above, for good).
  std::shared_ptr<scheduler_slot_t> slot;
  // Each filecoin-porep circuit's .params on this host (node_role_config_t::filecoin_params).
  std::vector<std::pair<std::string, std::string>> filecoin_params;
};

struct prover_state {
  static inline const char* name = "zkfleet.prover";

  prover_actor::pointer self = nullptr;
  prover_config_t cfg;
  caf::actor worker;
  bool busy = false;
  std::string running;  // the circuit of the proof the worker runs (busy)
  std::deque<prove_work_msg> queue;
  // Jobs cancelled here; the worker polls it while it proves.
  std::shared_ptr<node::cancelled_jobs_t> cancelled = std::make_shared<node::cancelled_jobs_t>();
  uint64_t epoch = 0;  // the slot's epoch of cfg.scheduler; proofs of another are not reported

  void init(prover_actor::pointer s, prover_config_t c);
  void rebind();
  void receive(const prove_request_msg& r);
  void cancel(uint64_t job);
  void release(uint64_t buffer_id);
  void proved(const proof_msg& m, uint64_t of_epoch);
  void failed(const prove_request_msg& r, const caf::error& e, uint64_t of_epoch);
  // The circuit's parameters loaded (load) or released, by the worker; what happened.
  caf::result<key_outcome_msg> params(const std::string& circuit, bool load);

 private:
  void pump();
};

using prover_impl_t = prover_actor::stateful_pointer<prover_state>;
prover_actor::behavior_type prover(prover_impl_t self, prover_config_t cfg);

// The worker owns the prover engine (keys mapped once per circuit, work arrays reused).
struct prover_worker_state {
  static inline const char* name = "zkfleet.prover.worker";
  node::prover_engine_t engine;
};
using prover_worker_actor = caf::stateful_actor<prover_worker_state>;
// It maps the keys of `hot` first (a key that cannot be read is logged and left to fail its
// proofs), then answers loaded_atom with the circuits mapped. filecoin_params: each
// filecoin-porep circuit's .params on this host (prover_engine_t::set_filecoin_params).
// cancelled: the jobs cancelled on this node; a proof of one stops (a job_cancelled error).
caf::behavior prover_worker(prover_worker_actor* self,
                            std::shared_ptr<timeline::recorder_t> recorder, uint16_t track,
                            uint16_t cpu_track, node::accelerators_t accelerators,
                            std::vector<circuit_def_t> hot,
                            std::vector<std::pair<std::string, std::string>> filecoin_params,
                            std::shared_ptr<const node::cancelled_jobs_t> cancelled);

}  // namespace zk::actors

CAF_ALLOW_UNSAFE_MESSAGE_TYPE(zk::actors::prove_work_msg)
