#pragma once
// `wire: auto` (docs/filecoin.md "The wire"): the scheduler picks, per partition at dispatch,
// whether a Filecoin PoRep partition crosses the data plane packed (the witness alone; its prover
// rebuilds a, b, c from the circuit's structure: the build_ab stage) or full (a, b, c and the
// witness, 32 bytes each), from what it has measured of the circuit:
//
//   ready(full)   = synth(full)   + full_bytes   / link
//   ready(packed) = synth(packed) + packed_bytes / link + rebuild(prover)
//
// the seconds until the partition can be proven on its prover. choose_wire picks the sooner, with
// hysteresis (the other wire must be sooner by a margin), full only where its buffer fits the
// budgets, and now and then the other wire to measure it (exploration). The figures:
//   link     bytes that crossed / transfer seconds, over every transfer of the circuit's
//            partitions; before any, 10 GbE's line rate (prior_link_bytes_per_s)
//   rebuild  the build_ab seconds of the packed partitions the prover proved (the prover's own
//            mean, else the circuit's over its provers); before any, rebuild_prior_seconds
//   synth    the mean synthesis seconds of each wire's partitions (the other wire's while one has
//            none; 0 while neither has)
#include <cstdint>
#include <map>
#include <string>

#include "common/config/config.hpp"

namespace zk::node {

using config::wire_t;

// What one partition takes on one wire.
struct wire_size_t {
  uint64_t buffer_bytes = 0;       // the synthesis node's buffer, then the prover's (size class)
  uint64_t prover_work_bytes = 0;  // the prover's work arrays
  uint64_t wire_bytes = 0;         // on the data plane: the payload and its header
};

// Before any transfer is measured: 10 GbE at its line rate, 1.25 GB/s. Conservative for a
// datacenter (25–100 GbE is common) and so it leans to the packed wire: a partition that would
// cross faster than that gets full once its transfers are measured.
inline constexpr double prior_link_bytes_per_s = 1.25e9;
// Before any build_ab is measured: the rebuild's CPU seconds per row of a, b, c, as measured at
// 32 GiB (~5 CPU-s for its ~130 M rows, docs/filecoin.md): rows × 40 ns, as if on one core (an
// upper bound: the rebuild runs on the prover host's cores).
inline constexpr double rebuild_ns_per_row = 40;
double rebuild_prior_seconds(uint64_t domain_rows);
// The other wire is taken only when it is sooner than the current one by this fraction of the
// current one's seconds after synthesis (its transfer, and rebuild when packed): hysteresis, so
// that noise in the means does not flip the wire partition by partition.
inline constexpr double wire_hysteresis = 0.2;
// After this many partitions in a row on one wire, one goes on the other (if it fits and is
// predicted at most explore_slowdown times slower), so that its figures keep being measured.
inline constexpr unsigned explore_every = 32;
inline constexpr double explore_slowdown = 4;

// A mean of measured values in which recent ones weigh more: once it holds `window` values its
// history is halved (sum and count, the mean unchanged), so a link or a prover that changes is
// followed within a few dozen partitions.
struct mean_t {
  static constexpr unsigned window = 64;
  double sum = 0;
  unsigned n = 0;
  void add(double v) {
    if (n >= window) sum /= 2, n /= 2;
    sum += v, ++n;
  }
  double get(double otherwise) const { return n ? sum / n : otherwise; }
};

// What the policy measured of one circuit on `wire: auto` (scheduler_policy_t keeps one).
struct wire_figures_t {
  mean_t synth_s[2];  // synthesis seconds, by wire (index: wire_t)
  // The transfers of the circuit's partitions, one value each: the link's rate is the ratio of
  // the two means (both halve their history together, so it stays bytes over seconds).
  mean_t crossed_bytes, crossed_s;
  mean_t rebuild_s;                       // build_ab seconds of packed partitions, every prover
  std::map<uint32_t, mean_t> rebuild_on;  // … and by prover node
  wire_t last = wire_t::packed;           // the last choice (hysteresis)
  unsigned streak = 0;                    // choices of `last` in a row (exploration)
};

// What choose_wire decides from (its figures already resolved: measured, else prior).
struct wire_inputs_t {
  wire_size_t packed, full;
  double link_bytes_per_s = prior_link_bytes_per_s;
  double rebuild_s = 0;  // the prover's rebuild of a packed partition
  double synth_packed_s = 0, synth_full_s = 0;
  bool full_fits = true;         // a synthesis node's and the prover's budgets hold full
  wire_t last = wire_t::packed;  // hysteresis and exploration, as wire_figures_t
  unsigned streak = 0;
  bool link_measured = false, rebuild_measured = false;  // for the reason's words
};

struct wire_choice_t {
  wire_t wire = wire_t::packed;
  std::string reason;     // a few words: "full 0.28 s at 1.2 GB/s < packed 0.00 s + rebuild 0.11 s"
  bool explored = false;  // taken to measure it, not because it is sooner
};

// The figures resolved for a partition of a circuit whose wires are `packed` and `full`, to be
// proven on prover node `prover` (its own rebuild mean when it has one); `rebuild_prior` before
// any rebuild is measured, `link_prior` (bytes/s: the circuit's link_per_s) before any transfer.
wire_inputs_t wire_inputs(const wire_figures_t& f, const wire_size_t& packed,
                          const wire_size_t& full, uint32_t prover, double rebuild_prior,
                          bool full_fits, double link_prior = prior_link_bytes_per_s);

// The rule (see the top). Pure: the same inputs give the same choice.
wire_choice_t choose_wire(const wire_inputs_t& in);

// What a choice changes in the figures (hysteresis and exploration follow the choices made).
void note_choice(wire_figures_t& f, wire_t w);

}  // namespace zk::node
