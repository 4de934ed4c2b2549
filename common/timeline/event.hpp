#pragma once
// Timeline events (docs/design.md "Timeline"): every stage of every job on every node, as begin/end
// pairs or instants in the recording node's monotonic nanoseconds. The aggregator moves them to
// one time base; the renderers draw the waterfall, the Chrome trace and the stats from them.
#include <cstdint>
#include <string>
#include <string_view>

#include "zk/groth16/stage.hpp"

namespace zk::timeline {

// Top-level stages of a partition's life, then the prover's own stages (children of gpu): those
// of groth16::prover_stage_t, in its order (prover_stage below).
enum class stage_t : uint8_t {
  queued,      // waiting at the scheduler
  synth,       // witness + constraint evaluation on a synthesis node
  chan_send,   // buffer handed to the data plane
  xfer,        // buffer moving synth node → prover node
  gpu_pickup,  // buffer waiting in the prover's queue
  gpu,         // the prover working on it (CPU or CUDA backend)
  build_ab,
  compute_h,
  msm_a,
  msm_b1,
  msm_b2,
  msm_c,
  msm_h,
  assemble,
  verify,  // the prover's self-check
  done,    // instant: proof returned
  // Children of synth for a Filecoin PoRep partition (node/synth/filecoin_synth.hpp), after done
  // so that the numbers above stay what they were:
  porep_witness,     // the C1 read, the partition's witness taken from its vanilla proofs
  porep_synthesize,  // the StackedDrg circuit in prove mode into the synth buffer
  porep_check,       // every constraint checked on the assignment
  cancelled,  // instant: the job was cancelled and the work on this partition stopped here (on
              // the track of the stage it stopped, just before that stage's end)
  // Children of synth for a SnapDeals update partition (node/synth/filecoin_synth.hpp
  // synthesize_snap), after cancelled for the same reason:
  snap_witness,     // the partition's input read, the circuit's witness from its vanilla proof
  snap_synthesize,  // the update circuit in prove mode into the synth buffer
  snap_check,       // every constraint checked, the public inputs the derived ones
  // Instants at dispatch, on the scheduler's track, for a circuit on `wire: auto`
  // (node/scheduler/wire_choice.hpp): the wire the scheduler chose for the partition (bytes: the
  // most that wire ships; the reason is in the scheduler's log):
  wire_packed,  // the witness packed, a, b, c rebuilt by the prover
  wire_full,    // a, b, c and the witness
};
inline constexpr int stage_count = int(stage_t::wire_full) + 1;

// The timeline's stage of one of the prover's own stages.
constexpr stage_t prover_stage(groth16::prover_stage_t s) {
  return stage_t(uint8_t(stage_t::build_ab) + uint8_t(s));
}
static_assert(prover_stage(groth16::prover_stage_t::build_ab) == stage_t::build_ab &&
                  prover_stage(groth16::prover_stage_t::compute_h) == stage_t::compute_h &&
                  prover_stage(groth16::prover_stage_t::msm_a) == stage_t::msm_a &&
                  prover_stage(groth16::prover_stage_t::msm_b1) == stage_t::msm_b1 &&
                  prover_stage(groth16::prover_stage_t::msm_b2) == stage_t::msm_b2 &&
                  prover_stage(groth16::prover_stage_t::msm_c) == stage_t::msm_c &&
                  prover_stage(groth16::prover_stage_t::msm_h) == stage_t::msm_h &&
                  prover_stage(groth16::prover_stage_t::assemble) == stage_t::assemble &&
                  prover_stage(groth16::prover_stage_t::verify) == stage_t::verify,
              "the timeline's children of a proof are the prover's stages, in order");

enum class phase_t : uint8_t { begin, end, instant };

struct event_t {
  uint64_t job = 0;
  uint32_t partition = 0;
  stage_t st = stage_t::queued;
  phase_t ph = phase_t::instant;
  uint16_t node = 0;   // recording node (index into the aggregator's node names)
  uint16_t actor = 0;  // actor or resource on that node (index into its track names)
  int64_t t_ns = 0;    // recording node's monotonic clock; after aggregation: the common base
  uint64_t bytes = 0;  // payload size where it applies (xfer, chan_send), else 0
};

const char* stage_name(stage_t s);
bool parse_stage(std::string_view name, stage_t& out);
// One glyph per top-level stage in the ASCII waterfall.
char stage_glyph(stage_t s);
// Prover stages nest inside gpu.
inline bool is_prover_child(stage_t s) { return s >= stage_t::build_ab && s <= stage_t::verify; }
// Synthesis stages nest inside synth.
inline bool is_synth_child(stage_t s) {
  return (s >= stage_t::porep_witness && s <= stage_t::porep_check) ||
         (s >= stage_t::snap_witness && s <= stage_t::snap_check);
}
inline bool is_child(stage_t s) { return is_prover_child(s) || is_synth_child(s); }

// Monotonic nanoseconds (steady_clock), the clock every recorder uses.
int64_t monotonic_ns();

}  // namespace zk::timeline
