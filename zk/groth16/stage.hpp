#pragma once
// The prover's named stages (prover.hpp has what each does), in the order a proof runs them, and
// the observer that hears each one's span. The one list of them: the timeline's children of a
// proof (common/timeline/event.hpp) are these, in this order.
#include <cstdint>
#include <functional>

namespace zk::groth16 {

enum class prover_stage_t : uint8_t {
  build_ab,
  compute_h,
  msm_a,
  msm_b1,
  msm_b2,
  msm_c,
  msm_h,
  assemble,
  verify
};
const char* stage_name(prover_stage_t s);
inline constexpr prover_stage_t all_prover_stages[] = {
    prover_stage_t::build_ab, prover_stage_t::compute_h, prover_stage_t::msm_a,
    prover_stage_t::msm_b1,   prover_stage_t::msm_b2,    prover_stage_t::msm_c,
    prover_stage_t::msm_h,    prover_stage_t::assemble};

// Where a stage ran: the CPU, or the prover's accelerator (its hooks, zk/groth16/prover.hpp).
enum class stage_backend_t : uint8_t { cpu, accelerator };
const char* backend_name(stage_backend_t b);  // "cpu", "accelerator"

// One stage's span: steady-clock nanoseconds (now_ns), and where it ran.
struct stage_span_t {
  prover_stage_t stage = prover_stage_t::build_ab;
  uint64_t begin_ns = 0, end_ns = 0;
  stage_backend_t backend = stage_backend_t::cpu;
};

// Called at the end of each stage; the timeline and `--timings` hook in here.
using stage_observer_t = std::function<void(const stage_span_t&)>;

}  // namespace zk::groth16
