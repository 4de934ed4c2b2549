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

// Called at the end of each stage with steady-clock nanoseconds; the timeline hooks in here.
using stage_observer_t = std::function<void(prover_stage_t, uint64_t begin_ns, uint64_t end_ns)>;

}  // namespace zk::groth16
