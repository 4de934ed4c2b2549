#pragma once
// Every message of the control plane (docs/design.md "Control plane and data plane"): the one CAF
// type-id block, the atoms, each message struct with its `inspect`, and the error enum that
// crosses actor boundaries as a value. Messages stay small (ids, sizes, digests, events); synth
// buffers never travel here: in one process the prover pins them in the synthesizer's buffer
// store by id (no copy), across processes they move over the data plane (common/net).
//
// Who sends what (client = submit/status/await/cancel caller, S = scheduler, Y = synthesizer,
// P = prover, T = timeline aggregator, R = a node's timeline reporter):
//
//   any    → S   hello_atom nonce → hello_msg (a challenge, signed by the scheduler)
//                login_atom login_msg → session token (the identity its certificate proves)
//   client → S   submit_atom token job_request_msg → job id  status_atom token id → job_status_msg
//                await_atom token id → job_result_msg    cancel_atom token id → bool
//                proofs_atom token id → job_result_msg (the proofs so far, finished or not)
//                jobs_atom token limit → the newest jobs' job_status_msg (the caller's; admin: all)
//                retry_atom token id → job_status_msg (a failed job's failed partitions queued)
//                priority_atom token id priority_t → job_status_msg (an unfinished job's)
//                drain_atom token node bool → node_usage_msg (admin: drain or undrain a node)
//                params_atom token circuit bool → every configured prover's key_outcome_msg
//                (true: load the circuit's parameters, false: release them; PreloadSRS / EvictSRS)
//   node   → S   join_atom token node_join_msg → node id
//                circuits_atom token → every circuit (a prover loads its hot ones before it joins)
//   (circuits come only from the scheduler's config: nothing registers one over the network)
//   S → Y        dispatch_msg (attempt, transfer ticket) Y → S   buffer_ready_msg | failure_msg
//                                                        (another process's prover: first one
//                                                         in_transit, then one moved | failure)
//   S → P        prove_request_msg                           P → S   ack_atom job part attempt secs
//                                                                (buffer held), started_atom job
//                                                                part attempt, proof_msg |
//                                                                failure_msg
//   Every reply names the attempt it answers; the scheduler takes it only from the actor that
//   attempt was dispatched to, and a proof only once it passes the pairing check.
//   S → Y        release_atom buffer id (the prover holds it; free it)
//   S → P        release_atom buffer id (a moved buffer nobody will prove: cancelled job)
//   S → Y, P     cancel_atom job id (drop what the job holds)
//   S → P        params_atom circuit bool → key_outcome_msg (its parameters loaded or released)
//   R → T        join_atom timeline_join_msg, event_batch_msg
//   T → R        ping_atom t_send → the reporter's clock (int64 ns); flush_atom → ok (batch sent)
//   any → T      snapshot_atom → timeline_snapshot_msg; metrics_atom → Prometheus text;
//                job_events_atom job → timeline_snapshot_msg (that job's events only)
//   any → S      stats_atom token → std::vector<node_usage_msg>; timeline_atom token → the
//   aggregator; metrics_atom token → Prometheus text (failed, cancelled and refused jobs)
//   node → Y, P, R  rebind_atom: take the scheduler now in the node's scheduler_slot_t (the node
//                rejoined); the synthesizer keeps its finished buffers for it
//                (node_join_msg::held), everything else held for the old one is dropped
//   S → Y        release_atom buffer id also frees a kept buffer nobody wants (a held_buffer_msg
//                of a job that finished, or one this scheduler does not know)
#include <caf/all.hpp>
#include <cstdint>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "common/timeline/event.hpp"
#include "node/circuit.hpp"
#include "node/job_spec.hpp"
#include "node/scheduler/policy.hpp"
#include "node/scheduler/requests.hpp"

namespace zk::actors {

// The node layer's types that messages carry (node/: plain C++, no CAF).
using node::circuit_def_t;
using node::circuit_kind_t;
using node::job_id_t;
using node::lookahead_t;
using node::node_id_t;
using node::priority_t;
// A job's typed spec and what one partition's synthesis gets of it (node/job_spec.hpp).
using node::job_spec_t;
using node::partition_spec_t;
// What clients ask and the scheduler answers (node/scheduler/requests.hpp).
using node::job_request_msg;
using node::job_result_msg;
using node::job_status_msg;
using node::key_outcome_msg;
using node::node_usage_msg;
using node::proof_msg;

// --- atoms (CAF 0.17: at most 10 characters, no type ids of their own) ------------------------

using submit_atom = caf::atom_constant<caf::atom("submit")>;
using status_atom = caf::atom_constant<caf::atom("status")>;
using await_atom = caf::atom_constant<caf::atom("await")>;
using cancel_atom = caf::atom_constant<caf::atom("cancel")>;
using join_atom = caf::atom_constant<caf::atom("join")>;
using hello_atom = caf::atom_constant<caf::atom("hello")>;
using login_atom = caf::atom_constant<caf::atom("login")>;
using release_atom = caf::atom_constant<caf::atom("release")>;
using ack_atom = caf::atom_constant<caf::atom("buf_ack")>;
using started_atom = caf::atom_constant<caf::atom("prove_beg")>;
using ping_atom = caf::atom_constant<caf::atom("clk_ping")>;
using flush_atom = caf::atom_constant<caf::atom("flush")>;
using snapshot_atom = caf::atom_constant<caf::atom("snapshot")>;
using tick_atom = caf::atom_constant<caf::atom("tick")>;
using rebind_atom = caf::atom_constant<caf::atom("rebind")>;
using stats_atom = caf::atom_constant<caf::atom("stats")>;
using timeline_atom = caf::atom_constant<caf::atom("timeline")>;
using metrics_atom = caf::atom_constant<caf::atom("metrics")>;
using circuits_atom = caf::atom_constant<caf::atom("circuits")>;
using loaded_atom = caf::atom_constant<caf::atom("loaded")>;
using proofs_atom = caf::atom_constant<caf::atom("proofs")>;
using jobs_atom = caf::atom_constant<caf::atom("jobs")>;
using retry_atom = caf::atom_constant<caf::atom("retry")>;
using priority_atom = caf::atom_constant<caf::atom("priority")>;
using drain_atom = caf::atom_constant<caf::atom("drain")>;
using job_events_atom = caf::atom_constant<caf::atom("job_events")>;
using params_atom = caf::atom_constant<caf::atom("params")>;

// --- errors ----------------------------------------------------------------------------------

// Errors between actors: caf::make_error(zk_errc::bad_request, "why") makes a caf::error of
// category "zkfleet" (CAF_ERROR_CODE_ENUM below) whose context message carries the reason text.
enum class zk_errc : uint8_t {
  bad_message = 1,  // a message no handler of the receiver takes
  bad_request,      // well-typed but invalid: unknown circuit, zero partitions, bad input
  unknown_job,
  job_failed,  // a partition failed max_attempts times; the reason names why
  job_cancelled,
  synth_failed,
  prove_failed,
  node_lost,
  unavailable,      // a peer that did not answer in time, or is gone
  unauthenticated,  // no valid session (or its certificate was refused)
  forbidden,        // authenticated, but this identity may not do that
  send_failed,      // a synthesized buffer could not be delivered to its prover
  internal,         // the receiver failed (an exception in its handler), not the request
  bad_input,  // a job's input no attempt can prove (a witness that does not satisfy the circuit)
  conflict,   // the request_id names another request's unfinished job
};
std::string to_string(zk_errc e);
// "bad_request: unknown circuit 'x'" for an error of this category; CAF's rendering otherwise.
std::string describe(const caf::error& e);
// The reason text alone ("unknown circuit 'x'"); CAF's rendering for its own errors.
std::string reason_of(const caf::error& e);

// --- identities (node/scheduler/sessions.hpp) -------------------------------------------------

// The scheduler's answer to hello_atom: a fresh challenge to sign, and (with certificates) its
// own certificate with its signature over the caller's nonce and the challenge, so that a node
// or client knows it reached the cluster's scheduler.
struct hello_msg {
  std::string challenge;
  bool secure = false;         // certificates in use: login must sign the challenge
  std::string scheduler_cert;  // PEM (secure)
  std::string signature;       // over node::hello_text(nonce, challenge) (secure)
};

// A login: the certificate and its key's signature over node::login_text (the challenge, the
// name, the role and the caller's CAF node), or, on an insecure cluster, only the name it claims.
struct login_msg {
  std::string name;
  bool node = false;  // a node's login (else a client's); the certificate must say the same
  std::string cert_pem;
  std::string challenge;
  std::string signature;
};

// --- nodes -----------------------------------------------------------------------------------

struct node_resources_msg {
  std::string name;
  uint32_t cores = 1;                 // synthesis concurrency bound
  uint64_t memory_budget = 0;         // bytes for buffers (and, on a prover, proving work)
  std::string backend = "cpu";        // prover backend: "cpu" or "cuda (<device>)"
  std::vector<std::string> hot_keys;  // circuits whose proving key is resident
  std::string data_endpoint;          // where buffers are fetched ("local:<name>" in one process)
  std::string transfer_key;           // prover: the 32-byte key its data server checks tickets with
  // A prover's filecoin_params: the circuits it can load parameters for, and their sizes (what
  // they take of memory_budget + those sizes while resident), index for index.
  std::vector<std::string> param_circuits;
  std::vector<uint64_t> param_bytes;
};

// --- work ------------------------------------------------------------------------------------

struct dispatch_msg {
  uint64_t job = 0;
  uint32_t partition = 0, partitions = 0;
  uint32_t attempt = 0;  // every reply about this partition names it
  circuit_def_t circuit;
  partition_spec_t input;  // this partition's input only (node/job_spec.hpp partition_spec)
  // The chosen prover's data endpoint: "tcp:host:port" (another process: the synthesizer sends
  // the buffer there over the data plane) or "local:<node>" (same process: it stays put).
  std::string prover_endpoint;
  std::string prover_name;  // the prover node (its data-plane certificate must name it)
  std::string ticket_mac;   // 32 bytes: net::ticket_mac with the prover's transfer key
  // The job's public id: with `job` and `partition` it names a finished buffer a synthesizer kept
  // (a job number alone may name another job after a restart without a journal).
  std::string job_key;
  // When the input is an object of the scheduler's store (node/scheduler/uploads.hpp): the ticket
  // the synthesis node shows to fetch it from the scheduler's HTTP endpoint; "" otherwise.
  std::string input_ticket;
  // 128 random bits only this attempt's synthesizer and prover learn: their buffer, proof and
  // failure reports must carry it (CAF takes a remote message's sender on the peer's word).
  std::string report_token;
};

struct buffer_ready_msg {
  uint64_t job = 0;
  uint32_t partition = 0;
  uint32_t attempt = 0;
  uint64_t buffer_id = 0;  // in the synthesizer's store
  uint64_t size = 0;       // payload bytes
  uint64_t checksum = 0;   // payload XXH64
  std::string endpoint;    // the store holding it: the synthesizer's, or the prover's when moved
  double synth_seconds = 0;
  bool moved = false;  // sent over the data plane and acknowledged: the synthesizer holds nothing
  // Synthesis is done and the buffer is on its way to another process's prover: the scheduler
  // frees the synthesis slot now; a second buffer_ready (moved, or a failure) follows.
  bool in_transit = false;
  // node::public_digest of the witness's public signals: the proof must be of these.
  std::string public_digest;
  std::string report_token;  // dispatch_msg::report_token of this attempt
};

struct prove_request_msg {
  buffer_ready_msg buffer;
  circuit_def_t circuit;
};

struct failure_msg {
  uint64_t job = 0;
  uint32_t partition = 0;
  uint32_t attempt = 0;
  zk_errc code = zk_errc::synth_failed;
  std::string reason;
  std::string report_token;  // dispatch_msg::report_token of this attempt
  // send_failed: the synthesizer still holds the finished buffer; a dispatch of the same partition
  // to it sends that one instead of synthesizing again.
  bool kept = false;
};

// A finished buffer a synthesizer holds for no live attempt (it outlived its scheduler, or its
// send failed), named in its (re)join: the scheduler keeps it for the partition, or has it freed.
struct held_buffer_msg {
  uint64_t job = 0;
  std::string job_key;  // dispatch_msg::job_key
  uint32_t partition = 0;
  uint64_t buffer_id = 0;
  uint64_t size = 0;  // payload bytes
};

// --- timeline --------------------------------------------------------------------------------

struct event_batch_msg {
  uint16_t node = 0;
  std::vector<timeline::event_t> events;  // in the node's clock
};

struct track_name_msg {
  uint16_t actor = 0;
  std::string name;
};

// --- actor handles: what each actor takes (a wrong message is a compile error) ---------------

// A node's timeline reporter: its monotonic clock for a ping, a flush on request; tick_atom is
// its own timer.
using reporter_actor =
    caf::typed_actor<caf::reacts_to<tick_atom>, caf::replies_to<ping_atom, int64_t>::with<int64_t>,
                     caf::replies_to<flush_atom>::with<caf::ok_atom>, caf::reacts_to<rebind_atom>>;

struct timeline_join_msg {
  uint16_t node = 0;
  std::string name;
  std::vector<track_name_msg> tracks;
  reporter_actor reporter;
};

struct timeline_snapshot_msg {
  std::vector<timeline::event_t> events;              // in the aggregator's time base, sorted
  std::vector<timeline_join_msg> nodes;               // names (reporter handles left empty)
  std::vector<std::pair<uint16_t, int64_t>> offsets;  // node → estimated clock offset (ns)
};

// The timeline aggregator.
using timeline_actor =
    caf::typed_actor<caf::reacts_to<join_atom, timeline_join_msg>, caf::reacts_to<event_batch_msg>,
                     caf::replies_to<flush_atom>::with<caf::ok_atom>,
                     caf::replies_to<snapshot_atom>::with<timeline_snapshot_msg>,
                     caf::replies_to<snapshot_atom, int64_t>::with<timeline_snapshot_msg>,
                     caf::replies_to<job_events_atom, uint64_t>::with<timeline_snapshot_msg>,
                     caf::replies_to<metrics_atom>::with<std::string>>;

// A synthesis node's synthesizer; rebind_atom answers the buffers it keeps (node_join_msg::held);
// tick_atom is its own timer (kept buffers expire).
using synthesizer_actor =
    caf::typed_actor<caf::reacts_to<dispatch_msg>, caf::reacts_to<release_atom, uint64_t>,
                     caf::reacts_to<cancel_atom, uint64_t>,
                     caf::replies_to<rebind_atom>::with<std::vector<held_buffer_msg>>,
                     caf::reacts_to<tick_atom>>;

// A prover node's prover; loaded_atom: the circuits whose keys it has mapped (its hot circuits,
// loaded at start-up, answered once they are).
using prover_actor =
    caf::typed_actor<caf::reacts_to<prove_request_msg>, caf::reacts_to<release_atom, uint64_t>,
                     caf::reacts_to<cancel_atom, uint64_t>, caf::reacts_to<rebind_atom>,
                     caf::replies_to<loaded_atom>::with<std::vector<std::string>>,
                     caf::replies_to<params_atom, std::string, bool>::with<key_outcome_msg>>;

struct node_join_msg {
  node_resources_msg resources;
  synthesizer_actor synthesizer;      // invalid when the node does not synthesize
  prover_actor prover;                // invalid when the node does not prove
  std::vector<held_buffer_msg> held;  // a rejoin: the synthesizer's kept buffers
};

// The scheduler: clients' requests, nodes' joins, and the workers' reports.
// The scheduler: sessions, clients' requests, nodes' joins, and the workers' reports. The first
// std::string of a request is the caller's session token (login_atom); job ids are strings.
using scheduler_actor = caf::typed_actor<
    caf::replies_to<hello_atom, std::string>::with<hello_msg>,
    caf::replies_to<login_atom, login_msg>::with<std::string>,
    caf::replies_to<join_atom, std::string, node_join_msg>::with<node_id_t>,
    caf::replies_to<circuits_atom, std::string>::with<std::vector<circuit_def_t>>,
    caf::replies_to<submit_atom, std::string, job_request_msg>::with<std::string>,
    caf::replies_to<status_atom, std::string, std::string>::with<job_status_msg>,
    caf::replies_to<await_atom, std::string, std::string>::with<job_result_msg>,
    caf::replies_to<proofs_atom, std::string, std::string>::with<job_result_msg>,
    caf::replies_to<jobs_atom, std::string, uint32_t>::with<std::vector<job_status_msg>>,
    caf::replies_to<cancel_atom, std::string, std::string>::with<bool>,
    caf::replies_to<retry_atom, std::string, std::string>::with<job_status_msg>,
    caf::replies_to<priority_atom, std::string, std::string, priority_t>::with<job_status_msg>,
    caf::replies_to<drain_atom, std::string, std::string, bool>::with<node_usage_msg>,
    caf::replies_to<params_atom, std::string, std::string,
                    bool>::with<std::vector<key_outcome_msg>>,
    caf::replies_to<stats_atom, std::string>::with<std::vector<node_usage_msg>>,
    caf::replies_to<metrics_atom, std::string>::with<std::string>,
    caf::replies_to<timeline_atom, std::string>::with<timeline_actor>,
    caf::reacts_to<buffer_ready_msg>,
    caf::reacts_to<ack_atom, uint64_t, uint32_t, uint32_t, double>,
    caf::reacts_to<started_atom, uint64_t, uint32_t, uint32_t>, caf::reacts_to<proof_msg>,
    caf::reacts_to<failure_msg>, caf::reacts_to<tick_atom>>;

// --- inspect ---------------------------------------------------------------------------------

// A std::variant on the wire (CAF 0.17 inspects caf::variant, not std::variant): one byte, the
// alternative's index, then that alternative; a deserializer builds the alternative the index
// names (an index past the alternatives is an error, never a guess). Modelled on caf/variant.hpp.
template <class V>
struct variant_io_t {
  uint8_t& tag;
  V& x;
};
namespace detail {
template <class V, size_t... I>
bool emplace_index(V& x, size_t tag, std::index_sequence<I...>) {
  return ((tag == I ? (x.template emplace<I>(), true) : false) || ...);
}
}  // namespace detail
template <class Inspector, class V>
typename Inspector::result_type inspect(Inspector& f, variant_io_t<V>& io) {
  if constexpr (Inspector::writes_state) {  // deserializing: the tag was read just before
    if (!detail::emplace_index(io.x, io.tag, std::make_index_sequence<std::variant_size_v<V>>{}))
      return caf::make_error(caf::sec::invalid_argument,
                             "variant alternative " + std::to_string(io.tag) + " of " +
                                 std::to_string(std::variant_size_v<V>));
  }
  return std::visit([&](auto& a) { return f(a); }, io.x);
}
template <class Inspector, class... Ts>
typename Inspector::result_type inspect_variant(Inspector& f, std::variant<Ts...>& x,
                                                const char* name) {
  uint8_t tag = uint8_t(x.index());
  variant_io_t<std::variant<Ts...>> io{tag, x};
  return f(caf::meta::type_name(name), tag, io);
}

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, hello_msg& x) {
  return f(caf::meta::type_name("hello_msg"), x.challenge, x.secure, x.scheduler_cert, x.signature);
}
template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, login_msg& x) {
  return f(caf::meta::type_name("login_msg"), x.name, x.node, x.cert_pem, x.challenge, x.signature);
}
template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, node_resources_msg& x) {
  return f(caf::meta::type_name("node_resources"), x.name, x.cores, x.memory_budget, x.backend,
           x.hot_keys, x.data_endpoint, x.transfer_key, x.param_circuits, x.param_bytes);
}
template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, node_join_msg& x) {
  return f(caf::meta::type_name("node_join_msg"), x.resources, x.synthesizer, x.prover, x.held);
}
template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, dispatch_msg& x) {
  return f(caf::meta::type_name("dispatch_msg"), x.job, x.partition, x.partitions, x.attempt,
           x.circuit, x.input, x.prover_endpoint, x.prover_name, x.ticket_mac, x.job_key,
           x.input_ticket, x.report_token);
}
template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, buffer_ready_msg& x) {
  return f(caf::meta::type_name("buffer_ready_msg"), x.job, x.partition, x.attempt, x.buffer_id,
           x.size, x.checksum, x.endpoint, x.synth_seconds, x.moved, x.in_transit, x.public_digest,
           x.report_token);
}
template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, prove_request_msg& x) {
  return f(caf::meta::type_name("prove_request"), x.buffer, x.circuit);
}
template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, failure_msg& x) {
  return f(caf::meta::type_name("failure_msg"), x.job, x.partition, x.attempt, x.code, x.reason,
           x.report_token, x.kept);
}
template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, held_buffer_msg& x) {
  return f(caf::meta::type_name("held_buffer_msg"), x.job, x.job_key, x.partition, x.buffer_id,
           x.size);
}
template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, event_batch_msg& x) {
  return f(caf::meta::type_name("event_batch_msg"), x.node, x.events);
}
template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, track_name_msg& x) {
  return f(caf::meta::type_name("track_name_msg"), x.actor, x.name);
}
template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, timeline_join_msg& x) {
  return f(caf::meta::type_name("timeline_join_msg"), x.node, x.name, x.tracks, x.reporter);
}
template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, timeline_snapshot_msg& x) {
  return f(caf::meta::type_name("timeline_snapshot_msg"), x.events, x.nodes, x.offsets);
}

// Whether the message being handled came from the worker's scheduler (only it hands out,
// releases and cancels work): `self` is a synthesizer's or a prover's.
template <class Self>
bool from_scheduler(Self* self) {
  return self->current_sender() && self->current_sender() == caf::actor_cast<caf::strong_actor_ptr>(
                                                                 self->state.cfg.scheduler);
}

// Registers the block and the error category with an actor system's config.
void add_message_types(caf::actor_system_config& cfg);

}  // namespace zk::actors

namespace zk::node {
template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, stored_object_t& x) {
  return f(caf::meta::type_name("stored_object"), x.sha256, x.type);
}
template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, input_file_t& x) {
  return f(caf::meta::type_name("input_file"), x.path, x.object);
}
template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, circom_input_t& x) {
  return f(caf::meta::type_name("circom_input"), x.form, x.file);
}
template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, circom_spec_t& x) {
  return f(caf::meta::type_name("circom_spec"), x.inputs);
}
template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, porep_lite_spec_t& x) {
  return f(caf::meta::type_name("porep_lite_spec"), x.seed);
}
template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, filecoin_porep_spec_t::partition_t& x) {
  return f(caf::meta::type_name("filecoin_porep_part"), x.input, x.public_digest);
}
template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, filecoin_porep_spec_t& x) {
  return f(caf::meta::type_name("filecoin_porep_spec"), x.prover_id, x.sector, x.c1, x.partitions);
}
template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, filecoin_porep_partition_t& x) {
  return f(caf::meta::type_name("filecoin_porep_partition"), x.input);
}
template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, filecoin_snap_spec_t& x) {
  return f(caf::meta::type_name("filecoin_snap_spec"), x.comms.comm_r_old, x.comms.comm_d_new,
           x.comms.comm_r_new, x.sector, x.vanilla, x.partitions);
}
template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, filecoin_snap_partition_t& x) {
  return f(caf::meta::type_name("filecoin_snap_partition"), x.input);
}
template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, job_spec_t& x) {
  return actors::inspect_variant(f, x.v, "job_spec");
}
template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, partition_spec_t& x) {
  return actors::inspect_variant(f, x.v, "partition_spec");
}
template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, job_request_msg& x) {
  return f(caf::meta::type_name("job_request"), x.circuit, x.priority, x.partitions, x.spec,
           x.circuit_priority, x.request_id, x.request_digest);
}
template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, proof_msg& x) {
  return f(caf::meta::type_name("proof_msg"), x.job, x.partition, x.attempt, x.proof_json,
           x.public_signals, x.synth_seconds, x.prove_seconds, x.verify_seconds, x.report_token,
           x.build_ab_seconds);
}
template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, job_status_msg& x) {
  return f(caf::meta::type_name("job_status_msg"), x.id, x.seq, x.request_id, x.owner, x.circuit,
           x.priority, x.partitions, x.done, x.failed, x.cancelled, x.finished, x.error,
           x.part_states, x.waiting, x.part_nodes, x.submitted_ms, x.kind);
}
template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, job_result_msg& x) {
  return f(caf::meta::type_name("job_result_msg"), x.status, x.proofs);
}
template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, node_usage_msg& x) {
  return f(caf::meta::type_name("node_usage_msg"), x.name, x.reserved, x.budget, x.synthesizing,
           x.pipeline, x.peak_reserved, x.synth, x.prover, x.alive, x.backend, x.draining,
           x.drained, x.hot_circuits);
}
template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, key_outcome_msg& x) {
  return f(caf::meta::type_name("key_outcome_msg"), x.node, x.outcome, x.why, x.bytes, x.ms);
}
template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, circuit_def_t& x) {
  return f(caf::meta::type_name("circuit_def"), x.id, x.kind, x.zkey, x.r1cs, x.native_params, x.vk,
           x.shape, x.curve, x.digest, x.n_vars, x.n_public, x.domain_size, x.domain_rows,
           x.buffer_bytes, x.prover_work_bytes, x.witness_generator, x.priority, x.wire_auto,
           x.packed_size.buffer_bytes, x.packed_size.prover_work_bytes, x.packed_size.wire_bytes,
           x.full_size.buffer_bytes, x.full_size.prover_work_bytes, x.full_size.wire_bytes,
           x.link_prior_per_s);
}
}  // namespace zk::node

namespace zk::timeline {
template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, event_t& x) {
  return f(caf::meta::type_name("timeline_event"), x.job, x.partition, x.st, x.ph, x.node, x.actor,
           x.t_ns, x.bytes);
}
}  // namespace zk::timeline

CAF_BEGIN_TYPE_ID_BLOCK(zkfleet, caf::first_custom_type_id)
CAF_ADD_TYPE_ID(zkfleet, (zk::node::circuit_def_t))
CAF_ADD_TYPE_ID(zkfleet, (zk::actors::hello_msg))
CAF_ADD_TYPE_ID(zkfleet, (zk::actors::login_msg))
CAF_ADD_TYPE_ID(zkfleet, (zk::actors::job_request_msg))
CAF_ADD_TYPE_ID(zkfleet, (zk::actors::proof_msg))
CAF_ADD_TYPE_ID(zkfleet, (zk::actors::job_status_msg))
CAF_ADD_TYPE_ID(zkfleet, (zk::actors::job_result_msg))
CAF_ADD_TYPE_ID(zkfleet, (std::vector<zk::actors::job_status_msg>))
CAF_ADD_TYPE_ID(zkfleet, (zk::actors::node_resources_msg))
CAF_ADD_TYPE_ID(zkfleet, (zk::actors::node_usage_msg))
CAF_ADD_TYPE_ID(zkfleet, (std::vector<zk::actors::node_usage_msg>))
CAF_ADD_TYPE_ID(zkfleet, (zk::actors::node_join_msg))
CAF_ADD_TYPE_ID(zkfleet, (zk::actors::dispatch_msg))
CAF_ADD_TYPE_ID(zkfleet, (zk::actors::buffer_ready_msg))
CAF_ADD_TYPE_ID(zkfleet, (zk::actors::prove_request_msg))
CAF_ADD_TYPE_ID(zkfleet, (zk::actors::failure_msg))
CAF_ADD_TYPE_ID(zkfleet, (zk::actors::held_buffer_msg))
CAF_ADD_TYPE_ID(zkfleet, (std::vector<zk::actors::held_buffer_msg>))
CAF_ADD_TYPE_ID(zkfleet, (zk::actors::event_batch_msg))
CAF_ADD_TYPE_ID(zkfleet, (zk::actors::track_name_msg))
CAF_ADD_TYPE_ID(zkfleet, (zk::actors::timeline_join_msg))
CAF_ADD_TYPE_ID(zkfleet, (zk::actors::timeline_snapshot_msg))
CAF_ADD_TYPE_ID(zkfleet, (zk::timeline::event_t))
CAF_ADD_TYPE_ID(zkfleet, (std::vector<std::string>))
CAF_ADD_TYPE_ID(zkfleet, (std::vector<zk::node::circuit_def_t>))
CAF_ADD_TYPE_ID(zkfleet, (std::vector<std::pair<uint16_t, int64_t>>))
CAF_ADD_TYPE_ID(zkfleet, (zk::node::priority_t))
CAF_ADD_TYPE_ID(zkfleet, (zk::actors::zk_errc))
CAF_ADD_TYPE_ID(zkfleet, (zk::actors::timeline_actor))
CAF_ADD_TYPE_ID(zkfleet, (zk::actors::reporter_actor))
CAF_ADD_TYPE_ID(zkfleet, (zk::actors::synthesizer_actor))
CAF_ADD_TYPE_ID(zkfleet, (zk::actors::prover_actor))
CAF_ADD_TYPE_ID(zkfleet, (zk::actors::scheduler_actor))
CAF_ADD_TYPE_ID(zkfleet, (zk::node::job_spec_t))
CAF_ADD_TYPE_ID(zkfleet, (zk::actors::key_outcome_msg))
CAF_ADD_TYPE_ID(zkfleet, (std::vector<zk::actors::key_outcome_msg>))

CAF_END_TYPE_ID_BLOCK(zkfleet)

CAF_ERROR_CODE_ENUM(zk::actors::zk_errc, "zkfleet")
