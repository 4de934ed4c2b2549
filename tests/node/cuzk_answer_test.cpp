// node/cuzk: what AwaitProof, GetStatus, PreloadSRS and EvictSRS answer, without gRPC — a job's
// timings read from its timeline events, a finished job's answer (the sector's proof in partition
// order; failed, cancelled, a job of another kind), the cluster's status from the scheduler's
// nodes and jobs (provers named with their backend, the parameters resident by cuzk's circuit
// ids, queues, totals, memory), and circuit ids resolved.
#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

#include "node/cuzk/answer.hpp"
#include "node/cuzk/status.hpp"
#include "node/filecoin_job.hpp"
#include "tests/test_util.hpp"

namespace cz = zk::node::cuzk;
using zk::node::circuit_def_t;
using zk::node::job_status_msg;
using zk::node::node_usage_msg;
using zk::test::contains;
namespace tl = zk::timeline;

namespace {

constexpr int64_t ms = 1000000;  // ns

tl::event_t ev(uint64_t job, uint32_t part, tl::stage_t st, tl::phase_t ph, int64_t t_ms,
               uint16_t node = 0) {
  tl::event_t e;
  e.job = job;
  e.partition = part;
  e.st = st;
  e.ph = ph;
  e.node = node;
  e.t_ns = t_ms * ms;
  return e;
}

job_status_msg job(uint64_t seq, const std::string& owner, zk::node::circuit_kind_t kind,
                   std::vector<std::string> states, std::vector<std::string> nodes = {}) {
  job_status_msg j;
  j.id = std::string(32, char('0' + seq % 10));
  j.seq = seq;
  j.owner = owner;
  j.circuit = kind == zk::node::circuit_kind_t::filecoin_porep ? "fc2k" : "mulchain";
  j.kind = kind;
  j.partitions = uint32_t(states.size());
  j.part_states = std::move(states);
  j.part_nodes = nodes.empty() ? std::vector<std::string>(j.partitions) : std::move(nodes);
  for (const auto& s : j.part_states) j.done += s == "done";
  j.finished = j.done == j.partitions;
  return j;
}

node_usage_msg prover(const std::string& name, const std::string& backend,
                      std::vector<std::string> hot, bool alive = true) {
  node_usage_msg n;
  n.name = name;
  n.prover = true;
  n.alive = alive;
  n.backend = backend;
  n.reserved = 100;
  n.budget = 1000;
  n.hot_circuits = std::move(hot);
  return n;
}

}  // namespace

TEST_CASE("cuzk: a job's timings from its timeline events") {
  using tl::phase_t;
  using tl::stage_t;
  // Two partitions: submitted at 1000 ms, dispatched at 1250 and 1300, synthesized 400 and 500
  // ms, proved 700 and 900 ms, the last DONE at 3500; another job's events count for nothing.
  const std::vector<tl::event_t> events = {
      ev(7, 0, stage_t::queued, phase_t::begin, 1000),
      ev(7, 1, stage_t::queued, phase_t::begin, 1000),
      ev(7, 0, stage_t::queued, phase_t::end, 1250),
      ev(7, 1, stage_t::queued, phase_t::end, 1300),
      ev(7, 0, stage_t::synth, phase_t::begin, 1260, 1),
      ev(7, 1, stage_t::synth, phase_t::begin, 1300, 2),
      ev(7, 0, stage_t::synth, phase_t::end, 1660, 1),
      ev(7, 1, stage_t::synth, phase_t::end, 1800, 2),
      ev(7, 0, stage_t::gpu, phase_t::begin, 1700, 3),
      ev(7, 0, stage_t::gpu, phase_t::end, 2400, 3),
      ev(7, 1, stage_t::gpu, phase_t::begin, 2500, 3),
      ev(7, 1, stage_t::gpu, phase_t::end, 3400, 3),
      ev(7, 0, stage_t::done, phase_t::instant, 2450),
      ev(7, 1, stage_t::done, phase_t::instant, 3500),
      ev(8, 0, stage_t::queued, phase_t::begin, 0),
      ev(8, 0, stage_t::gpu, phase_t::begin, 100, 3),
      ev(8, 0, stage_t::gpu, phase_t::end, 90000, 3),
  };
  const cz::timings_t t = cz::job_timings(events, 7);
  CHECK(t.queue_wait_ms == 250);
  CHECK(t.synthesis_ms == 900);
  CHECK(t.gpu_compute_ms == 1600);
  CHECK(t.srs_load_ms == 0);
  CHECK(t.total_ms == 2500);
  // No events (the aggregator lost them): zeros, never garbage.
  const cz::timings_t none = cz::job_timings(events, 99);
  CHECK(none.total_ms == 0);
  CHECK(none.queue_wait_ms == 0);
  CHECK(none.gpu_compute_ms == 0);
}

TEST_CASE("cuzk: a finished job's answer: its sector proof, or why there is none") {
  uint8_t a[192], b[192];
  for (int i = 0; i < 192; ++i) a[i] = uint8_t(i), b[i] = uint8_t(255 - i);
  zk::node::job_result_msg r;
  r.status = job(7, "curio", zk::node::circuit_kind_t::filecoin_porep, {"done", "done"});
  r.proofs.push_back({7, 1, 0, zk::node::filecoin_proof_text(b), {}, 0, 0, 0, ""});
  r.proofs.push_back({7, 0, 0, zk::node::filecoin_proof_text(a), {}, 0, 0, 0, ""});
  cz::timings_t t;
  t.total_ms = 5;
  const cz::await_answer_t done = cz::finished_answer("porep-1000-42", r, t);
  CHECK(done.status == cz::await_status_t::completed);
  CHECK(done.job_id == "porep-1000-42");
  REQUIRE(done.proof.size() == 384);  // partition 0 first, whatever the order they came in
  CHECK(std::equal(a, a + 192, done.proof.begin()));
  CHECK(std::equal(b, b + 192, done.proof.begin() + 192));
  CHECK(done.timings.total_ms == 5);
  CHECK(done.error.empty());

  zk::node::job_result_msg failed = r;
  failed.status.failed = 1;
  failed.status.error = "partition 1 failed 3 times: prover-1 left";
  const auto f = cz::finished_answer("x", failed, t);
  CHECK(f.status == cz::await_status_t::failed);
  CHECK(f.error == "partition 1 failed 3 times: prover-1 left");
  CHECK(f.proof.empty());

  zk::node::job_result_msg cancelled = r;
  cancelled.status.cancelled = true;
  CHECK(cz::finished_answer("x", cancelled, t).status == cz::await_status_t::cancelled);

  // A proof that does not assemble (a partition missing) fails: never a wrong proof.
  zk::node::job_result_msg partial = r;
  partial.proofs.pop_back();
  const auto p = cz::finished_answer("x", partial, t);
  CHECK(p.status == cz::await_status_t::failed);
  CHECK(contains(p.error, "cannot be assembled"));
  CHECK(p.proof.empty());

  zk::node::job_result_msg circom = r;
  circom.status.kind = zk::node::circuit_kind_t::circom;
  CHECK(contains(cz::finished_answer("x", circom, t).error, "is a circom job"));
}

TEST_CASE("cuzk: GetStatus from the scheduler's nodes, jobs and circuits") {
  const std::vector<circuit_def_t> circuits = {
      zk::node::filecoin_circuit("fc2k", "StackedDrg2KiBV1_1"),
      zk::node::filecoin_circuit("fc8m", "StackedDrg8MiBV1_1")};
  node_usage_msg synth;
  synth.name = "synth-1";
  synth.synth = true;
  synth.reserved = 5;
  synth.budget = 50;
  const std::vector<node_usage_msg> nodes = {
      synth, prover("prover-1", "cpu", {"fc2k"}),
      prover("gpu-1", "cuda (NVIDIA H100 80GB HBM3)", {"fc2k"}),
      prover("gone", "cpu", {"fc8m"}, /*alive=*/false)};
  using zk::node::circuit_kind_t;
  const std::vector<job_status_msg> jobs = {
      job(1, "curio", circuit_kind_t::filecoin_porep, {"queued"}),
      job(2, "curio", circuit_kind_t::filecoin_porep, {"proving"}, {"gpu-1"}),
      job(3, "other", circuit_kind_t::filecoin_porep, {"proving"}, {"prover-1"}),
      job(4, "curio", circuit_kind_t::filecoin_porep, {"done"}),
      job(5, "curio", circuit_kind_t::circom, {"synthesizing", "queued"})};
  std::vector<job_status_msg> all = jobs;
  all[1].request_id = "porep-1000-42";
  job_status_msg failed = job(6, "curio", circuit_kind_t::filecoin_porep, {"failed"});
  failed.failed = 1;
  failed.finished = true;
  all.push_back(failed);

  const cz::status_t st =
      cz::cluster_status(nodes, all, circuits, "curio", std::chrono::seconds(90));
  REQUIRE(st.gpus.size() == 2);  // the live provers, CPU ones too
  CHECK(st.gpus[0].ordinal == 0);
  CHECK(st.gpus[0].name == "prover-1: cpu");
  CHECK(st.gpus[0].current_job_id.empty());  // another client's job: not named
  CHECK(st.gpus[0].current_proof_kind == "porep-c2");
  CHECK(st.gpus[1].ordinal == 1);
  CHECK(st.gpus[1].name == "gpu-1: cuda (NVIDIA H100 80GB HBM3)");
  CHECK(st.gpus[1].current_job_id == "porep-1000-42");  // the caller's, by its request id
  REQUIRE(st.loaded_srs.size() == 1);                   // fc8m's only prover is gone
  CHECK(st.loaded_srs[0].circuit_id == "porep-2k");
  CHECK(st.loaded_srs[0].tier == 0);  // HOT
  CHECK(st.loaded_srs[0].ref_count == 2);
  REQUIRE(st.queues.size() == 2);
  CHECK(st.queues[0].proof_kind == "circom");
  CHECK(st.queues[0].in_progress == 1);
  CHECK(st.queues[1].proof_kind == "porep-c2");
  CHECK(st.queues[1].pending == 1);
  CHECK(st.queues[1].in_progress == 2);
  CHECK(st.total_proofs_completed == 1);
  CHECK(st.total_proofs_failed == 1);
  CHECK(st.uptime_seconds == 90);
  CHECK(st.pinned_memory_bytes == 200);  // the live provers' reservations and budgets
  CHECK(st.pinned_memory_limit_bytes == 2000);
  // admin sees every job's id; an idle cluster still lists porep-c2.
  CHECK(cz::cluster_status(nodes, all, circuits, "admin", {}).gpus[0].current_job_id == all[2].id);
  const cz::status_t idle = cz::cluster_status(nodes, {}, circuits, "curio", {});
  REQUIRE(idle.queues.size() == 1);
  CHECK(idle.queues[0].proof_kind == "porep-c2");
  CHECK(idle.queues[0].pending + idle.queues[0].in_progress == 0);
}

TEST_CASE("cuzk: circuit ids: cuzk's porep-<size>, zkfleet's own names, refusals") {
  CHECK(cz::circuit_id_of(zk::filecoin::registered_proof("StackedDrg32GiBV1_1")) == "porep-32g");
  CHECK(cz::circuit_id_of(zk::filecoin::registered_proof("StackedDrg64GiBV1")) == "porep-64g");
  CHECK(cz::circuit_id_of(zk::filecoin::registered_proof("StackedDrg512MiBV1_1")) == "porep-512m");
  CHECK(cz::circuit_id_of(zk::filecoin::registered_proof("StackedDrg8MiBV1_1")) == "porep-8m");
  CHECK(cz::circuit_id_of(zk::filecoin::registered_proof("StackedDrg2KiBV1_1")) == "porep-2k");
  const std::vector<circuit_def_t> circuits = {
      zk::node::filecoin_circuit("fc2k", "StackedDrg2KiBV1_1"),
      zk::node::filecoin_circuit("fc2k-v1", "StackedDrg2KiBV1")};
  CHECK(cz::circuits_named(circuits, "porep-2k")->size() == 2);
  CHECK(cz::circuits_named(circuits, "fc2k-v1")->size() == 1);
  auto unknown = cz::circuits_named(circuits, "porep-32g");
  REQUIRE_FALSE(unknown);
  CHECK(unknown.error().code == cz::code_t::not_found);
  CHECK(unknown.error().why ==
        "unknown circuit ID: porep-32g (this cluster's: porep-2k (fc2k), porep-2k (fc2k-v1))");
}

TEST_CASE("cuzk: PreloadSRS / EvictSRS answer what each prover did") {
  using zk::node::key_outcome_msg;
  auto load = cz::srs_moved({{"p1", "loaded", "", 100, 7}, {"p2", "already loaded", "", 100, 0}},
                            true, "porep-2k");
  REQUIRE(load);
  CHECK_FALSE(load->already_loaded);
  CHECK(load->load_time_ms == 7);
  CHECK(load->summary == "p1: loaded in 7 ms; p2: already loaded");
  auto held = cz::srs_moved({{"p1", "already loaded", "", 100, 0}}, true, "porep-2k");
  REQUIRE(held);
  CHECK(held->already_loaded);
  auto evict = cz::srs_moved({{"p1", "evicted", "", 2048, 0}, {"p2", "not loaded", "", 0, 0}},
                             false, "porep-2k");
  REQUIRE(evict);
  CHECK(evict->was_loaded);
  CHECK(evict->freed_bytes == 2048);
  CHECK(evict->summary == "p1: evicted (2.00 KiB); p2: not loaded");
  auto busy = cz::srs_moved({{"p1", "evicted", "", 2048, 0}, {"p2", "refused", "proving", 0, 0}},
                            false, "porep-2k");
  REQUIRE_FALSE(busy);
  CHECK(busy.error().code == cz::code_t::failed_precondition);
  CHECK(busy.error().why == "EvictSRS porep-2k: p1: evicted (2.00 KiB); p2: refused: proving");
  auto none = cz::srs_moved({}, true, "porep-2k");
  REQUIRE_FALSE(none);
  CHECK(none.error().why == "no live prover has filecoin_params for porep-2k: nothing to load");
}
