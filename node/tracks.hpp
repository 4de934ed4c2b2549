#pragma once
// A node's timeline tracks, numbered in one place: the synthesis workers first, then the send
// streams (synth role), then the prover, its receive and its queue tracks, and with an
// accelerator the track of the proof's CPU stages (prover role).
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace zk::node {

struct node_tracks_t {
  unsigned workers = 0;  // synth role: one track per worker (0: no synth role)
  unsigned streams = 0;  // synth role: one track per send stream
  bool prover = false;
  // The prover has an accelerator: the proof's stages that run on the CPU (those it has no
  // kernel for) go on a track of their own, so the timeline shows per stage which backend ran it.
  bool cpu_stages_apart = false;

  uint16_t worker(unsigned i) const { return uint16_t(i); }
  uint16_t send(unsigned k) const { return uint16_t(workers + k); }
  uint16_t prove() const { return uint16_t(workers + streams); }
  uint16_t receive() const { return uint16_t(prove() + 1); }
  uint16_t queue() const { return uint16_t(prove() + 2); }
  uint16_t prove_cpu() const { return cpu_stages_apart ? uint16_t(prove() + 3) : prove(); }

  // Every track with its name; `backend` names the prover's ("cpu", "cuda (<device>)").
  std::vector<std::pair<uint16_t, std::string>> names(const std::string& backend) const {
    std::vector<std::pair<uint16_t, std::string>> out;
    for (unsigned i = 0; i < workers; ++i)
      out.push_back({worker(i), "synth worker " + std::to_string(i)});
    for (unsigned k = 0; k < streams; ++k)
      out.push_back({send(k), streams == 1 ? std::string("send") : "send " + std::to_string(k)});
    if (prover) {
      out.push_back({prove(), "prover (" + backend + ")"});
      out.push_back({receive(), "receive"});
      out.push_back({queue(), "queue"});
      if (cpu_stages_apart) out.push_back({prove_cpu(), "prover (cpu stages)"});
    }
    return out;
  }
};

}  // namespace zk::node
