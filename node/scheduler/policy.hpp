#pragma once
// The scheduler's policy as plain state (no CAF here: the scheduler actor owns one and turns
// messages into calls; the simulated workload, simulation.hpp, drives the very same object).
//
// A partition's life:
//
//   queued ──dispatch──▶ synthesizing ──synth_done──▶ transferring ──transfer_done──▶ waiting
//      ▲                    (synth node,                 (buffer moving      (on the prover's
//      │                     prover chosen)               to the prover)      queue)
//      │                                                                          │
//      └── retry (node lost / failure, < max_attempts) ◀── any ── prove_started ──▶ proving
//                                                                                  │
//                                                            prove_done ──▶ done ◀─┘
//
// Admission (docs/design.md "Scheduler policy"): a partition is dispatched only when
//   - its synthesis node has a free core (synthesis concurrency ≤ cores) and room in its memory
//     budget for the partition's buffer, and
//   - its prover has room in its budget for every buffer assigned to it plus the largest
//     proving work area among them (one proof runs at a time: buffers are held for the whole
//     pipeline, the work area only while proving), and the prover's lookahead is not full:
//     partitions assigned to it and not yet proving ≤ lookahead (one more when nothing is
//     proving there, so lookahead 0 still makes progress).
// Every byte is reserved at dispatch and released only when the next holder has acknowledged:
// the synthesis node's share when the prover has the buffer, the prover's when the proof is done.
// Order: priority (CRITICAL > HIGH > NORMAL > LOW), then oldest job, then partition index; the
// first partition that cannot be placed stops the round (no lower-priority work overtakes it).
// Provers with the circuit's key resident are preferred, then the shortest pipeline.
#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "common/config/config.hpp"
#include "node/scheduler/wire_choice.hpp"
#include "zk/base/result.hpp"

namespace zk::node {

using node_id_t = uint32_t;
using job_id_t = uint64_t;

using config::priority_t;  // critical, high, normal, low (common/config)

struct node_spec_t {
  std::string name;
  bool synth = false;              // runs synthesis
  bool prover = false;             // runs the prover
  unsigned cores = 1;              // synthesis concurrency bound
  uint64_t memory_budget = 0;      // bytes this node may hold for buffers and proving
  std::set<std::string> hot_keys;  // circuits whose proving key is resident (provers)
};

struct circuit_spec_t {
  std::string id;
  uint64_t buffer_bytes = 0;       // one partition's synth buffer (held by synth node, then prover)
  uint64_t prover_work_bytes = 0;  // the prover's working memory for one proof beyond the buffer
  // Proven only by provers that have its key resident (hot_keys): a Filecoin circuit, whose
  // parameters each prover node maps from its own filecoin_params.
  bool resident_only = false;
  // `wire: auto` (a Filecoin PoRep circuit): each partition's wire is chosen at dispatch
  // (wire_choice.hpp) and everything it reserves is that wire's: `packed` or `full` here, not
  // buffer_bytes and prover_work_bytes (the packed wire's). rebuild_prior_s: the prover's rebuild
  // of a packed partition before one is measured (rebuild_prior_seconds of its rows).
  bool wire_auto = false;
  wire_size_t packed{}, full{};
  double rebuild_prior_s = 0;
  double link_prior_per_s = prior_link_bytes_per_s;  // before a transfer is measured
};

using config::lookahead_t;  // fixed or auto (common/config)

enum class part_state_t {
  queued,
  synthesizing,
  transferring,
  waiting,
  proving,
  done,
  failed,
  cancelled
};
const char* part_state_name(part_state_t s);

// Why a job failed, as one of a fixed few categories (/metrics' reason label: bounded, never the
// error's free text, which job_status_t::error keeps).
enum class failure_t : uint8_t {
  none,
  bad_input,          // an input no attempt can prove (a witness that does not satisfy the r1cs)
  synth_failed,       // synthesis failed on its node, max_attempts times
  prove_failed,       // the prover failed, max_attempts times
  proof_refused,      // a proof that did not pass the pairing check, max_attempts times
  deadline,           // a stage past its deadline, max_attempts times
  node_lost,          // max_losses nodes lost under a partition
  send_failed,        // its buffer could not be delivered, max_losses times
  placement_timeout,  // no live node could take it within scheduler.placement_timeout
  internal,           // the scheduler's own failure (its journal, its checker)
};
const char* failure_name(failure_t f);  // "bad_input", …; "" for none

// What the scheduler asks the cluster to do.
struct dispatch_t {
  job_id_t job;
  uint32_t partition;
  node_id_t synth;
  node_id_t prover;
  // A circuit on `wire: auto`: the wire this partition crosses on, and why (a few words); nullopt
  // for a circuit of one wire.
  std::optional<wire_t> wire = std::nullopt;
  std::string wire_reason = "";
};

struct job_status_t {
  job_id_t id = 0;
  std::string circuit;
  priority_t priority = priority_t::normal;
  uint32_t partitions = 0, done = 0, failed = 0;
  bool cancelled = false;
  std::string error;                    // why the job failed, when it did
  failure_t failure = failure_t::none;  // and that as a category
  bool finished() const { return cancelled || failed > 0 || done == partitions; }
};

class scheduler_policy_t {
 public:
  explicit scheduler_policy_t(lookahead_t lookahead = {}, unsigned max_attempts = 3);

  // A node joins. One that comes back under the name of a node that left (a restart, a rejoin
  // after a pause) is that node again: its id, its place in nodes() and its drain are kept, its
  // counters start afresh. (A second live node of the same name is the caller's to refuse.)
  node_id_t add_node(const node_spec_t& spec);
  // A node left (down message, or silent past the node timeout): its in-flight partitions go back
  // to the queue without spending an attempt (the node failed, not the partition) — unless the
  // partition has lost max_losses nodes already (a partition that takes every node down with it
  // fails, with `reason`, default "node <name> left the cluster"); everything reserved on it is
  // released.
  void remove_node(node_id_t n, const std::string& reason = "");
  static constexpr unsigned max_losses = 20;
  void add_circuit(const circuit_spec_t& c);

  // The new job's id, or why it is refused: an unknown circuit, a zero partition count, or why
  // the circuit's partitions fit no node that has ever joined (check_fits(circuit, false)).
  result_t<job_id_t> submit(const std::string& circuit, priority_t prio, uint32_t partitions);
  // Why no partition of `circuit` could be placed even on idle nodes: no synthesis node's budget
  // holds its buffer, or no prover's holds buffer + work area. Among the live nodes (live_only:
  // what schedule() skips, to wait for a big node's return) or every node that ever joined (what
  // submit refuses: a big node restarting does not turn jobs away). Passes when both fit
  // somewhere, or while no node of a role is counted (one may still come); else refuses, saying
  // which does not fit.
  check_t check_fits(const std::string& circuit, bool live_only) const;
  // Frees everything the job holds; returns false for an unknown or finished job. The
  // returned dispatch list of schedule() never again mentions it.
  bool cancel(job_id_t job);
  // A job replayed from the journal (node/scheduler/journal.hpp), under its own id: partitions
  // in `done` are done, the others queued with the attempts they had spent; `state` "done",
  // "failed" or "cancelled" restores a finished job (with `error`). Later submits take ids past
  // every restored one. False when the circuit is unknown or the id is taken.
  bool restore(job_id_t id, const std::string& circuit, priority_t prio, uint32_t partitions,
               const std::vector<bool>& done, const std::vector<uint32_t>& attempts,
               const std::string& state, const std::string& error);
  // Held buffers: a synthesis node that still holds a partition's finished buffer (its send to a
  // prover failed, or the node kept it across a scheduler restart) keeps it for that partition,
  // which then goes to that node again and is not synthesized twice. hold: the partition is
  // queued and `n` a live synthesis node; its buffer's bytes are reserved on `n` until the
  // partition is dispatched there (the reservation carries over) or unhold. False (nothing
  // reserved) otherwise: the node should free the buffer.
  // `payload_bytes`: the held buffer's size, which tells a `wire: auto` circuit's wires apart (the
  // partition then goes on the held buffer's wire).
  bool hold(job_id_t job, uint32_t part, node_id_t n, uint64_t payload_bytes = 0);
  // Releases a held buffer's reservation (the job finished, was cancelled, or the node freed it);
  // false when the partition held nothing.
  bool unhold(job_id_t job, uint32_t part);
  node_id_t held_on(job_id_t job, uint32_t part) const;  // 0: none
  // A partition whose buffer could not be delivered to its prover: back to the queue without
  // spending an attempt (the prover failed it, not the partition; one loss is counted: a partition
  // that loses max_losses nodes fails with `reason`). `kept`: its synthesis node still holds the
  // buffer, which stays reserved there as a held buffer (hold()); else the reservation goes.
  // False when the partition was not between dispatch and the prover's acknowledgement.
  bool send_failed(job_id_t job, uint32_t part, const std::string& reason, bool kept);
  // A paused node is given no new work (a prover a buffer could not be sent to, for a while); what
  // it has keeps going.
  void pause(node_id_t n, bool paused);
  // Ids of new jobs start here at least (the journal's next number: ids never repeat).
  void reserve_ids(job_id_t next) { next_job_ = std::max(next_job_, next); }
  // Fails every queued partition of an unfinished job with `reason` (a job that could not be
  // placed within the placement timeout); false when there was none.
  bool fail_queued(job_id_t job, const std::string& reason);
  // Why the job's queued partitions cannot be placed even once the live nodes are idle: no live
  // synthesis node, no live prover, or none big enough (check_fits); nullopt when they can (or
  // none is queued).
  std::optional<std::string> waiting_reason(job_id_t job) const;
  // Drops a finished job that holds nothing any more (retention); false while it is unfinished
  // or a partition of it still holds memory on a node (ask again later).
  bool forget(job_id_t job);

  // Progress reports (seconds feed `auto` lookahead). Reports for cancelled or unknown
  // partitions are ignored (a late message after a cancel is not an error).
  // On `wire: auto` they also feed the wire's choice (wire_choice.hpp): the synthesis seconds of
  // the partition's wire, the bytes that crossed (`bytes`; 0: the wire's size) in `seconds`, and
  // a packed partition's rebuild on its prover (`rebuild_seconds`, its build_ab; < 0: unknown).
  void synth_done(job_id_t job, uint32_t part, double seconds);
  void transfer_done(job_id_t job, uint32_t part, double seconds, uint64_t bytes = 0);
  void prove_started(job_id_t job, uint32_t part);
  void prove_done(job_id_t job, uint32_t part, double seconds, double rebuild_seconds = -1);
  // A partition failed on its node. retry_t::allowed: back to the queue until max_attempts;
  // retry_t::never: an input no attempt can fix (a witness that does not satisfy the circuit):
  // failed for good at once, failing its job with `reason` (and `why`, its category).
  enum class retry_t { allowed, never };
  void failed(job_id_t job, uint32_t part, const std::string& reason, failure_t why,
              retry_t retry = retry_t::allowed);

  // --- what an operator asks (node/scheduler/policy_operator.cpp) -----------------------------
  // A draining node finishes what it holds and is given no new work (a held buffer still goes out
  // from it: that is its work); undrain gives it work again. The drain outlives a rejoin under the
  // same name. False for an unknown node.
  bool drain(node_id_t n, bool draining);
  bool draining(node_id_t n) const;
  // Draining and holding nothing: nothing synthesizing, in its pipeline, proving or reserved.
  bool drained(node_id_t n) const;
  // A prover's key of `circuit` resident (true) or released: the circuit's partitions go to it
  // only while resident (circuit_spec_t::resident_only). False for an unknown node.
  bool set_resident(node_id_t n, const std::string& circuit, bool resident);
  // A prover's budget for buffers and work grows by `bytes` (a key released) or shrinks by them
  // (a key loaded; never below 0). False for an unknown node.
  bool resize_budget(node_id_t n, uint64_t bytes, bool grow);
  // A partition of `circuit` placed on prover `n` and not done (synthesizing for it, moving to
  // it, waiting or proving there): its job and index, or nullopt.
  std::optional<std::pair<job_id_t, uint32_t>> placed_on(node_id_t n,
                                                         const std::string& circuit) const;
  // Circuits with queued partitions of unfinished jobs.
  std::set<std::string> queued_circuits() const;
  // The job's failed partitions queued again with their attempts spent reset; its error cleared.
  // Why not, when the job is unknown, was cancelled, or did not fail.
  result_t<job_id_t> retry(job_id_t job);
  // A new priority for an unfinished job (its queued partitions are ordered by it from the next
  // schedule(); those already placed keep going). Why not, when it is unknown or finished.
  result_t<job_id_t> set_priority(job_id_t job, priority_t prio);

  // Dispatches every partition that admission allows now, in priority order.
  std::vector<dispatch_t> schedule();

  // --- queries --------------------------------------------------------------------------------
  job_status_t status(job_id_t job) const;
  part_state_t state(job_id_t job, uint32_t part) const;
  unsigned attempts(job_id_t job, uint32_t part) const;  // failures of its own so far
  node_id_t synth_of(job_id_t job,
                     uint32_t part) const;  // the nodes of its last dispatch (0: none)
  node_id_t prover_of(job_id_t job, uint32_t part) const;
  // The wire of its last dispatch (or of the buffer held for it); packed before any.
  wire_t wire_of(job_id_t job, uint32_t part) const;
  // What the wire's choice has measured of a `wire: auto` circuit (nullptr: none yet).
  const wire_figures_t* wire_figures(const std::string& circuit) const;
  uint64_t reserved(node_id_t n) const;       // buffers held + the running proof's work area
  uint64_t peak_reserved(node_id_t n) const;  // the most reserved() has been since the node joined
  uint64_t budget(node_id_t n) const;
  bool alive(node_id_t n) const;  // joined and not removed since
  const std::string& name(node_id_t n) const;
  unsigned pipeline(node_id_t prover) const;  // assigned, not yet proving
  unsigned synthesizing(node_id_t synth) const;
  unsigned lookahead(node_id_t prover) const;
  const std::vector<node_id_t>& nodes() const { return node_order_; }

 private:
  struct node_t {
    node_spec_t spec;
    uint64_t reserved = 0;          // buffers held (synthesis side and prover side)
    std::multiset<uint64_t> works;  // work areas of the partitions assigned to this prover
    uint64_t working = 0;           // the work area of the proof running now
    uint64_t peak = 0;              // max of reserved + working so far
    void note_peak() { peak = std::max(peak, reserved + working); }
    uint64_t max_work() const { return works.empty() ? 0 : *works.rbegin(); }
    unsigned synthesizing = 0;
    unsigned pipeline = 0;  // prover: assigned and not yet proving
    unsigned proving = 0;
    bool alive = true;
    bool paused = false;    // pause()
    bool draining = false;  // drain()
  };
  struct part_t {
    part_state_t st = part_state_t::queued;
    node_id_t synth = 0, prover = 0;
    bool synth_reserved = false, prover_reserved = false;
    unsigned attempts = 0;  // its own failures (count against max_attempts)
    unsigned losses = 0;    // requeued because a node it was on was lost
    node_id_t held = 0;     // a synthesis node holding its finished buffer (queued; reserved)
    // What its dispatch (or held buffer) reserves: its wire's buffer and work area.
    wire_t wire = wire_t::packed;
    uint64_t buffer = 0, work = 0;
  };
  struct job_t {
    job_status_t status;
    uint64_t seq = 0;
    std::vector<part_t> parts;
  };

  // check_fits' facts: the largest synthesis and prover budgets counted, and whether each role
  // holds the circuit somewhere. Hopeless: both roles counted, and one holds it nowhere.
  struct fit_t {
    const node_t *big_synth = nullptr, *big_prover = nullptr;
    bool synth_fits = false, prover_fits = false;
    bool hopeless() const { return big_synth && big_prover && !(synth_fits && prover_fits); }
  };
  fit_t fit_of(const circuit_spec_t& c, bool live_only) const;

  part_t* find(job_id_t job, uint32_t part);
  void release_synth(part_t& p);
  void release_prover(part_t& p);
  void release_held(part_t& p);
  // Back to the queue, or failed for good: an attempt is spent unless `node_lost`.
  // `why`: the category when it fails (node_lost: of a loss, when `why` is not send_failed).
  void requeue_or_fail(job_t& j, part_t& p, const std::string& reason, failure_t why,
                       bool node_lost = false);
  std::optional<node_id_t> pick_synth(uint64_t bytes) const;
  std::optional<node_id_t> pick_prover(const circuit_spec_t& c) const;
  // Room on prover n now for one more buffer and, while it proves, the largest work area.
  bool prover_room(const node_t& n, uint64_t buffer, uint64_t work) const;
  // A `wire: auto` circuit's partition: its wire and nodes (wire_choice.hpp), or nullopt when it
  // cannot be placed now.
  struct placement_t {
    node_id_t synth = 0, prover = 0;
    wire_t wire = wire_t::packed;
    std::string reason;
  };
  std::optional<placement_t> place_auto(const circuit_spec_t& c, const part_t& p);

  lookahead_t lookahead_;
  unsigned max_attempts_;
  std::map<node_id_t, node_t> nodes_;
  std::vector<node_id_t> node_order_;
  std::map<std::string, circuit_spec_t> circuits_;
  std::map<job_id_t, job_t> jobs_;
  job_id_t next_job_ = 1;
  uint64_t next_seq_ = 0;
  // Measured means (seconds) for `auto` lookahead.
  double synth_s_ = 0, transfer_s_ = 0, prove_s_ = 0;
  unsigned synth_n_ = 0, transfer_n_ = 0, prove_n_ = 0;
  // Measured figures for the wire's choice, by `wire: auto` circuit.
  std::map<std::string, wire_figures_t> wire_figures_;
};

}  // namespace zk::node
