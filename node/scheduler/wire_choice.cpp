#include "node/scheduler/wire_choice.hpp"

#include <algorithm>
#include <cstdio>

namespace zk::node {

double rebuild_prior_seconds(uint64_t domain_rows) {
  return double(domain_rows) * rebuild_ns_per_row * 1e-9;
}

wire_inputs_t wire_inputs(const wire_figures_t& f, const wire_size_t& packed,
                          const wire_size_t& full, uint32_t prover, double rebuild_prior,
                          bool full_fits, double link_prior) {
  wire_inputs_t in;
  in.link_bytes_per_s = link_prior;
  in.packed = packed;
  in.full = full;
  in.full_fits = full_fits;
  in.last = f.last;
  in.streak = f.streak;
  if (f.crossed_s.sum > 0 && f.crossed_bytes.sum > 0) {
    in.link_bytes_per_s = f.crossed_bytes.sum / f.crossed_s.sum;
    in.link_measured = true;
  }
  auto own = f.rebuild_on.find(prover);
  const mean_t& r = own != f.rebuild_on.end() && own->second.n ? own->second : f.rebuild_s;
  in.rebuild_s = r.get(rebuild_prior);
  in.rebuild_measured = r.n > 0;
  const auto& s = f.synth_s;
  in.synth_packed_s = s[int(wire_t::packed)].get(s[int(wire_t::full)].get(0));
  in.synth_full_s = s[int(wire_t::full)].get(s[int(wire_t::packed)].get(0));
  return in;
}

wire_choice_t choose_wire(const wire_inputs_t& in) {
  // Full is not an option where no synthesis node's budget, or the prover's, holds its buffer
  // (16.7 GB at 32 GiB): packed, always, whatever the figures say.
  if (!in.full_fits) return {wire_t::packed, "packed: a full buffer fits no budget", false};
  // The seconds until the partition is ready to prove on its prover, on each wire.
  const double link = std::max(in.link_bytes_per_s, 1.0);
  const double full_s = in.synth_full_s + double(in.full.wire_bytes) / link;
  const double packed_s = in.synth_packed_s + double(in.packed.wire_bytes) / link + in.rebuild_s;
  const auto secs = [&](wire_t w) { return w == wire_t::full ? full_s : packed_s; };
  const auto other = [](wire_t w) { return w == wire_t::full ? wire_t::packed : wire_t::full; };
  // Hysteresis: the wire of the last choice stays unless the other is sooner by a margin, a
  // fraction of what the current wire adds after synthesis (its transfer and rebuild: synthesis
  // itself, minutes at 32 GiB, would hide any difference in a fraction of the whole).
  const double synth_last = in.last == wire_t::full ? in.synth_full_s : in.synth_packed_s;
  const double margin = wire_hysteresis * (secs(in.last) - synth_last);
  wire_choice_t c;
  c.wire = secs(other(in.last)) + margin < secs(in.last) ? other(in.last) : in.last;
  // Exploration: a long run on one wire lets one partition take the other, unless the other is
  // far slower, so that its figures (the rebuild's seconds, a full synthesis) are measured again.
  const wire_t kept = c.wire;
  if (c.wire == in.last && in.streak >= explore_every &&
      secs(other(kept)) <= explore_slowdown * secs(kept)) {
    c.wire = other(kept);
    c.explored = true;
  }
  const bool held_back = !c.explored && kept == in.last && secs(kept) > secs(other(kept));
  char why[240];
  std::snprintf(why, sizeof why,
                "%s%s: full %.3g s, packed %.3g s (link %.3g GB/s %s, rebuild %.3g s %s)",
                config::wire_name(c.wire),
                c.explored  ? " to measure it"
                : held_back ? " kept (the other is sooner by less than the hysteresis)"
                            : " sooner",
                full_s, packed_s, link / 1e9, in.link_measured ? "measured" : "prior", in.rebuild_s,
                in.rebuild_measured ? "measured" : "estimated");
  c.reason = why;
  return c;
}

void note_choice(wire_figures_t& f, wire_t w) {
  if (w == f.last) {
    ++f.streak;
  } else {
    f.last = w;
    f.streak = 1;
  }
}

}  // namespace zk::node
