#pragma once
// A Filecoin circuit made of a shared part and n challenges of identical structure (storage-proofs-
// porep's StackedCircuit, zk/filecoin/porep/circuit/circuit.hpp; storage-proofs-update's
// EmptySectorUpdateCircuit, zk/filecoin/update/circuit.hpp): after the shared part, challenge j
// occupies a fixed range of inputs, aux variables and constraints, so the challenges synthesize in
// parallel, each in its own prove_cs_t over its range of the caller's arrays. What both circuits
// do with that, written once:
//   circuit_layout_t    where the parts sit
//   circuit_parts_t     the layout and the parts' named regions (count mode; kept per circuit)
//   synthesize_parts    prove mode: the shared part, the challenges (in parallel), the input
//                       constraints, each part checked to end where the layout says
//   cached_shape        a circuit's R1CS, made once per circuit and kept
//   first_failing_row   the first constraint with a_i·b_i ≠ c_i
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "zk/base/stop.hpp"
#include "zk/base/thread_pool.hpp"
#include "zk/bellperson/cs.hpp"

namespace zk::filecoin {

using fr_t = bellperson::fr_t;

// Where each part of the circuit sits (count mode over a blank witness; cached per config).
struct circuit_layout_t {
  bellperson::counts_t prefix;         // after the shared part (ONE included)
  bellperson::counts_t per_challenge;  // what one challenge adds
  bellperson::counts_t total;
  uint32_t challenges = 0;
  // Aux variables allocated as field elements rather than bits, in all (count_cs_t::field_aux):
  // with the inputs, the most values a packed witness of the partition carries in full.
  uint64_t field_aux = 0;
  bellperson::counts_t challenge_start(uint32_t j) const;
};

// "challenge j: ", how the regions of challenge j are named.
std::string challenge_region_prefix(uint32_t j);

// The layout and the regions of the shared part (absolute) and of a challenge (relative to its
// start, names without "challenge 0: ").
struct circuit_parts_t {
  circuit_layout_t layout;
  std::vector<bellperson::region_t> prefix_regions, challenge_regions;
  // Where constraint i is ("challenge 3: labeling layer 2", "input constraint 1").
  std::string where(uint64_t i) const;
};

// Counts the shared part (prefix(cs) returns what the challenges share) and challenge 0
// (challenge(cs, shared, 0)) in count mode: the layout of n challenges, with the regions.
template <class Prefix, class Challenge>
circuit_parts_t count_parts(const Prefix& prefix, const Challenge& challenge, uint32_t n);
// make() once per key for the process (thread-safe; keys name the circuit, e.g. its config).
const circuit_parts_t& cached_parts(const std::string& key,
                                    const std::function<circuit_parts_t()>& make);
// make(matrices) once per key and `matrices` (a shape with matrices serves a request without).
std::shared_ptr<const bellperson::r1cs_shape_t> cached_shape(
    const std::string& key, bool matrices,
    const std::function<bellperson::r1cs_shape_t(bool matrices)>& make);

// A partition's assignment, as bellperson's prover holds it after synthesis (Montgomery form):
// inputs (ONE first), aux, and a, b, c of every constraint with the input constraints appended
// (total.constraints + total.inputs values each).
struct partition_assignment_t {
  bellperson::counts_t counts;
  std::vector<fr_t> inputs, aux, a, b, c;
  // Arrays sized for a circuit of that layout.
  explicit partition_assignment_t(const circuit_layout_t& L);
  partition_assignment_t() = default;
  bellperson::assignment_view_t view();
};

// Prove mode into caller-owned arrays sized by L.total: prefix(cs) (ONE allocated first) returns
// what the challenges share, then challenge(cs, shared, j) for every j in parallel on the compute
// pool (`parallel` false: one after another, same result), then the input constraints. Each part
// must end where the layout says (std::logic_error naming `what` otherwise). `stop` is polled
// before the shared part and before each challenge: once it answers true the challenges not yet
// begun are skipped and zk::cancelled_error is thrown (the arrays are then partly written).
template <class Prefix, class Challenge>
void synthesize_parts(const circuit_layout_t& L, const bellperson::assignment_view_t& out,
                      const Prefix& prefix, const Challenge& challenge, bool parallel,
                      const stop_t& stop, const std::string& what);

// The first i < n with a_i·b_i ≠ c_i.
std::optional<uint64_t> first_failing_row(const fr_t* a, const fr_t* b, const fr_t* c, uint64_t n);

// The first constraint with a_i·b_i ≠ c_i (circuit constraints and input constraints), where it
// is (the parts' region names), or nullopt.
struct unsatisfied_t {
  uint64_t constraint = 0;
  std::string where;
};
std::optional<unsatisfied_t> first_unsatisfied(const circuit_parts_t& parts,
                                               const bellperson::assignment_view_t& v);

// ---- templates ---------------------------------------------------------------------------------

template <class Prefix, class Challenge>
circuit_parts_t count_parts(const Prefix& prefix, const Challenge& challenge, uint32_t n) {
  circuit_parts_t e;
  bellperson::count_cs_t cs(&e.prefix_regions);
  const auto shared = prefix(cs);
  e.layout.prefix = cs.counts();
  std::vector<bellperson::region_t> ch;
  bellperson::count_cs_t one(&ch);
  challenge(one, shared, 0u);
  const bellperson::counts_t after = one.counts();
  // `one` started with ONE allocated: a challenge adds what it counted beyond that.
  e.layout.per_challenge = bellperson::counts_t{after.inputs - 1, after.aux, after.constraints};
  e.layout.challenges = n;
  e.layout.total = e.layout.challenge_start(n);
  e.layout.field_aux = cs.field_aux() + uint64_t(n) * one.field_aux();
  const std::string prefix0 = challenge_region_prefix(0);
  for (auto& r : ch) {
    r.start.inputs -= 1;
    if (r.name.compare(0, prefix0.size(), prefix0) == 0) r.name = r.name.substr(prefix0.size());
    e.challenge_regions.push_back(r);
  }
  return e;
}

template <class Prefix, class Challenge>
void synthesize_parts(const circuit_layout_t& L, const bellperson::assignment_view_t& out,
                      const Prefix& prefix, const Challenge& challenge, bool parallel,
                      const stop_t& stop, const std::string& what) {
  using bellperson::counts_t;
  throw_if_stopped(stop, "the partition's synthesis");
  const counts_t cap = out.capacity;
  if (cap.inputs < L.total.inputs || cap.aux < L.total.aux || cap.constraints < L.total.constraints)
    throw std::length_error(what + ": arrays for " + bellperson::to_string(cap) +
                            ", the circuit needs " + bellperson::to_string(L.total));
  bellperson::prove_cs_t main(out, counts_t{}, L.prefix);
  main.alloc_input(fr_t::one());
  const auto shared = prefix(main);
  if (main.counts() != L.prefix)
    throw std::logic_error(what + ": the shared part ended at " +
                           bellperson::to_string(main.counts()) + ", the layout says " +
                           bellperson::to_string(L.prefix));
  std::atomic<bool> stopped{false};
  auto one = [&](size_t j) {
    if (stopped.load(std::memory_order_relaxed) || stop_requested(stop)) {
      stopped.store(true, std::memory_order_relaxed);
      return;  // skipped: thrown below
    }
    const uint32_t k = uint32_t(j);
    bellperson::prove_cs_t cs(out, L.challenge_start(k), L.challenge_start(k + 1));
    challenge(cs, shared, k);
    if (cs.counts() != L.challenge_start(k + 1))
      throw std::logic_error(what + ": challenge " + std::to_string(j) + " ended at " +
                             bellperson::to_string(cs.counts()) + ", the layout says " +
                             bellperson::to_string(L.challenge_start(k + 1)));
  };
  if (parallel)
    run_parallel(one, L.challenges);
  else
    for (size_t j = 0; j < L.challenges; ++j) one(j);
  if (stopped) throw cancelled_error("the partition's synthesis: stopped (cancelled)");
  bellperson::append_input_constraints(out, L.total);
}

}  // namespace zk::filecoin
