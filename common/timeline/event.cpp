#include "common/timeline/event.hpp"

#include <chrono>

namespace zk::timeline {

namespace {
constexpr const char* kNames[stage_count] = {"QUEUED",        "SYNTH",
                                             "CHAN_SEND",     "XFER",
                                             "GPU_PICKUP",    "GPU",
                                             "build_ab",      "compute_h",
                                             "msm_a",         "msm_b1",
                                             "msm_b2",        "msm_c",
                                             "msm_h",         "assemble",
                                             "VERIFY",        "DONE",
                                             "porep_witness", "porep_synthesize",
                                             "porep_check",   "CANCELLED",
                                             "snap_witness",  "snap_synthesize",
                                             "snap_check",    "WIRE_PACKED",
                                             "WIRE_FULL"};
constexpr char kGlyphs[stage_count] = {'.', 'S', 'c', 'x', 'p', 'G', 'b', 'h', 'a',
                                       '1', '2', 'C', 'H', 'z', 'v', '|', 'w', 'y',
                                       'k', 'X', 'W', 'Y', 'K', 'n', 'f'};
}  // namespace

const char* stage_name(stage_t s) { return kNames[int(s)]; }
char stage_glyph(stage_t s) { return kGlyphs[int(s)]; }

bool parse_stage(std::string_view name, stage_t& out) {
  for (int i = 0; i < stage_count; ++i)
    if (name == kNames[i]) {
      out = stage_t(i);
      return true;
    }
  return false;
}

int64_t monotonic_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

}  // namespace zk::timeline
