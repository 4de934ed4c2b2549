#pragma once
// GetStatus, PreloadSRS and EvictSRS of Curio's cuzk API in plain C++: the cluster's provers, the
// parameters they hold and the queues, as cuzk's GetStatusResponse carries them, from what the
// scheduler answers (its nodes, its jobs, its circuits); what a Preload or Evict did.
//
//   gpus        one per live prover node, ordinal in the scheduler's node order; name
//               "<node>: <backend>" ("gpu-1: cuda (NVIDIA H100 80GB HBM3)", "prover-1: cpu": CPU
//               provers are listed too, named so); vram 0 (the scheduler does not know it); the
//               job proving there now (its request_id, else its id; another client's job is not
//               named) and its kind ("porep-c2" for a Filecoin C2, else the circuit kind's name)
//   loaded_srs  one per circuit id (below) whose parameters a live prover holds resident: tier
//               HOT, size_bytes 0 (the files are on the provers), ref_count the partitions
//               proving with it now
//   queues      "porep-c2" always (Curio's backpressure sums pending + in_progress over the
//               entries), and each other kind with unfinished jobs: pending = jobs nothing of which
//               was dispatched yet, in_progress = the others
//   totals      the retained (scheduler.retention) Filecoin C2 jobs done, and failed
//   memory      pinned_memory_bytes / _limit_bytes: what the scheduler holds reserved on the
//               provers, and their budgets
//
// Circuit ids: cuzk names a PoRep circuit "porep-<size>" ("porep-32g", "porep-64g"); zkfleet
// names the smaller sizes the same way ("porep-2k", "porep-8m", "porep-512m"), and every
// configured filecoin-porep circuit of a sector size answers to its size's id (the same
// parameters whatever the proof's version) and to its own circuit id.
#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "node/circuit.hpp"
#include "node/cuzk/request.hpp"
#include "node/scheduler/requests.hpp"

namespace zk::node::cuzk {

struct gpu_status_t {
  uint32_t ordinal = 0;
  std::string name;
  uint64_t vram_total_bytes = 0, vram_free_bytes = 0;
  std::string current_job_id, current_proof_kind;
};
struct srs_status_t {
  std::string circuit_id;
  uint32_t tier = 0;  // SRSStatus.Tier: HOT
  uint64_t size_bytes = 0;
  uint32_t ref_count = 0;
};
struct queue_status_t {
  std::string proof_kind;
  uint32_t pending = 0, in_progress = 0;
};
struct status_t {
  std::vector<gpu_status_t> gpus;
  std::vector<srs_status_t> loaded_srs;
  std::vector<queue_status_t> queues;
  uint64_t total_proofs_completed = 0, total_proofs_failed = 0;
  uint64_t uptime_seconds = 0;
  uint64_t pinned_memory_bytes = 0, pinned_memory_limit_bytes = 0;
};

// "porep-32g" for a registered proof of 32 GiB sectors, "porep-2k" for 2 KiB, ...
std::string circuit_id_of(const filecoin::registered_proof_t& proof);
// "porep-c2" for a Filecoin C2 job, "snap-update" for a SnapDeals update (cuzk's names of the
// kinds), else the kind's config name.
std::string proof_kind_label(circuit_kind_t kind);

// The status (see the top). `jobs`: every job the scheduler retains (admin's list); `caller`:
// the identity asking, whose own jobs alone are named in current_job_id.
status_t cluster_status(const std::vector<node_usage_msg>& nodes,
                        const std::vector<job_status_msg>& jobs,
                        const std::vector<circuit_def_t>& circuits, const std::string& caller,
                        std::chrono::seconds uptime);

// PreloadSRS / EvictSRS: the filecoin-porep circuits a circuit id names (its size's id or its own
// id), or the refusal naming the ids this cluster knows (NOT_FOUND, as cuzk: "unknown circuit
// ID").
answer_t<std::vector<circuit_def_t>> circuits_named(const std::vector<circuit_def_t>& circuits,
                                                    const std::string& circuit_id);
// What PreloadSRS / EvictSRS answer, from what each prover did (the scheduler's key_outcome_msg,
// over the circuits the id named). Refused (FAILED_PRECONDITION, the summary its reason) when a
// prover refused, or when no prover has filecoin_params for the circuit.
struct srs_moved_t {
  bool already_loaded = false;  // Preload: no prover had to load them (each held them)
  uint64_t load_time_ms = 0;    // Preload: the longest load
  bool was_loaded = false;      // Evict: a prover released them
  uint64_t freed_bytes = 0;     // Evict: the parameters' bytes released, over the provers
  // Per prover, what happened: "prover-1 fc2k: evicted (2.1 MiB); prover-2 fc2k: refused: ...".
  std::string summary;
};
answer_t<srs_moved_t> srs_moved(const std::vector<key_outcome_msg>& outcomes, bool load,
                                const std::string& circuit_id);

}  // namespace zk::node::cuzk
