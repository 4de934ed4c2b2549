#include "node/cuzk/answer.hpp"

#include <algorithm>
#include <limits>

#include "common/timeline/render.hpp"
#include "node/filecoin_job.hpp"

namespace zk::node::cuzk {

timings_t job_timings(const std::vector<timeline::event_t>& events, uint64_t job) {
  std::vector<timeline::event_t> mine;
  for (const auto& e : events)
    if (e.job == job) mine.push_back(e);
  constexpr int64_t none = std::numeric_limits<int64_t>::max();
  int64_t submitted = none, dispatched = none, done = std::numeric_limits<int64_t>::min();
  int64_t synth = 0, gpu = 0;
  for (const auto& i : timeline::pair_intervals(mine)) {
    switch (i.st) {
      case timeline::stage_t::queued:
        submitted = std::min(submitted, i.t0);
        dispatched = std::min(dispatched, i.t1);
        break;
      case timeline::stage_t::synth:
        synth += i.t1 - i.t0;
        break;
      case timeline::stage_t::gpu:
        gpu += i.t1 - i.t0;
        break;
      default:
        break;
    }
    done = std::max(done, i.t1);
  }
  for (const auto& e : mine)
    if (e.st == timeline::stage_t::done) done = std::max(done, e.t_ns);
  auto ms = [](int64_t ns) { return ns > 0 ? uint64_t(ns / 1000000) : uint64_t(0); };
  timings_t t;
  if (submitted != none) {
    t.queue_wait_ms = ms(dispatched - submitted);
    t.total_ms = ms(done - submitted);
  }
  t.synthesis_ms = ms(synth);
  t.gpu_compute_ms = ms(gpu);
  return t;  // srs_load_ms: 0 (see the header)
}

await_answer_t finished_answer(const std::string& job_id, const job_result_msg& r,
                               const timings_t& timings) {
  await_answer_t a;
  a.job_id = job_id;
  const job_status_msg& s = r.status;
  if (s.cancelled) {
    a.status = await_status_t::cancelled;
    a.error = "job " + job_id + " was cancelled";
    return a;
  }
  if (s.failed > 0 || !s.finished) {
    a.status = await_status_t::failed;
    a.error = s.finished ? s.error : "job " + job_id + " has not finished";
    return a;
  }
  if (!config::uses_filecoin_params(s.kind)) {  // PoRep C2 and SnapDeals: 192 bytes a partition
    a.status = await_status_t::failed;
    a.error = "job " + job_id + " is a " + config::circuit_kind_name(s.kind) +
              " job: its proofs are snarkjs proofs (GET /v1/jobs/" + s.id + "/proofs)";
    return a;
  }
  std::vector<std::pair<uint32_t, std::string>> parts;
  for (const auto& p : r.proofs) parts.emplace_back(p.partition, p.proof_json);
  auto proof = assemble_sector_proof(s.partitions, parts);
  if (!proof) {
    a.status = await_status_t::failed;
    a.error = "job " + job_id + ": its sector proof cannot be assembled: " + proof.error();
    return a;
  }
  a.status = await_status_t::completed;
  a.proof = std::move(proof.value());
  a.timings = timings;
  return a;
}

}  // namespace zk::node::cuzk
