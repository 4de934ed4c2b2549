// Synthesis of Filecoin's PoRep circuit (zk/filecoin/porep/circuit/circuit.hpp), not a test: one
// partition of a sector sealed here (zk/filecoin/api/seal.hpp), in every mode, median of `repeats`
// runs.
//
//   build/bench_filecoin_circuit [registered proof = StackedDrg2KiBV1_1] [repeats = 5]
//
//   shape          once per circuit: counts, densities, digest (+ the matrices); as circuit_shape
//                  makes it (one challenge synthesized, the others copied) and with every
//                  challenge synthesized
//   count          count mode over a blank witness
//   prove, 1 core  the challenges one after another on the calling thread: constraints/s per core
//   prove, pool    the challenges in parallel on the compute pool (ZK_THREADS threads)
//   label, Poseidon  one SDR label (SHA-256, 20 blocks) and one Poseidon-8, prove mode alone
// Arrays are allocated once and reused (as a synthesis node's buffers are); their first touch is
// outside the timing.
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "bench/bench_util.hpp"
#include "zk/base/thread_pool.hpp"
#include "zk/filecoin/api/seal.hpp"
#include "zk/filecoin/core/fr32.hpp"
#include "zk/filecoin/porep/circuit/circuit.hpp"

using namespace zk;
using namespace zk::filecoin;
using namespace zk::bellperson;
using namespace zk::neptune;
using bellperson::counts_t;

namespace {

struct arrays_t {
  std::vector<fr_t> inputs, aux, a, b, c;
  counts_t cap;
  explicit arrays_t(counts_t n)
      : inputs(n.inputs),
        aux(n.aux),
        a(size_t(n.constraints) + n.inputs),
        b(size_t(n.constraints) + n.inputs),
        c(size_t(n.constraints) + n.inputs),
        cap(n) {}
  bellperson::assignment_view_t view() {
    return {inputs.data(), aux.data(), a.data(), b.data(), c.data(), cap};
  }
};

}  // namespace

int main(int argc, char** argv) {
  const std::string name = argc > 1 ? argv[1] : "StackedDrg2KiBV1_1";
  const int repeats = argc > 2 ? std::atoi(argv[2]) : 5;

  seal_request_t req;
  req.config = porep_config(registered_proof(name));
  req.prover_id.fill(1);
  req.sector = 1;
  req.ticket.fill(2);
  req.seed.fill(3);
  req.piece = random_piece(1, fr32_unpadded_size(req.config.sector_size));
  const seal_result_t sealed = seal_sector(req);
  const circuit_config_t c = circuit_config(req.config);
  const partition_witness_t w = witness_from_vanilla(
      {sealed.replica_id, sealed.comm_d, sealed.comm_r, req.seed}, sealed.vanilla_proofs[0]);

  const auto& L = circuit_layout(c);
  const uint64_t n = L.total.constraints;
  std::printf("%s (%s): %u constraints, %u aux, %u inputs; %u per challenge; %u threads\n",
              name.c_str(), c.key().c_str(), L.total.constraints, L.total.aux, L.total.inputs,
              L.per_challenge.constraints, compute_threads());

  const partition_witness_t blank = blank_witness(c);
  arrays_t arr(L.total);
  const bench::synthesis_times_t t = bench::time_synthesis(
      repeats,
      [&] {
        bellperson::shape_cs_t cs(true);
        synthesize_circuit(cs, c, blank);
        cs.finish();
      },
      [&](bool matrices) { synthesize_shape(c, matrices); },
      [&] {
        bellperson::count_cs_t cs;
        synthesize_circuit(cs, c, blank);
      },
      [&](bool parallel) { synthesize_partition(c, w, arr.view(), parallel); });

  // One label alone: the replica id's bits, 37 parents, layer 2 (as in the circuit).
  arrays_t small(counts_t{64, 600000, 600000});
  const double label_ms = bench::median_ms(repeats, [&] {
    bellperson::prove_cs_t cs(small.view(), counts_t{}, small.cap);
    cs.alloc_input(fr_t::one());
    boolean_t bits[256];
    for (auto& b : bits) b = boolean_t::is(bellperson::alloc_bit(cs, true));
    const boolean_t* slots[label_parents];
    for (auto& s : slots) s = bits;
    circuit_detail::create_label(cs, bits, slots, label_parents, 2, bits);
  });
  uint32_t label_constraints = 0;
  {
    bellperson::count_cs_t cs;
    boolean_t bits[256];
    for (auto& b : bits) b = boolean_t::is(bellperson::alloc_bit(cs, true));
    const boolean_t* slots[label_parents];
    for (auto& s : slots) s = bits;
    circuit_detail::create_label(cs, bits, slots, label_parents, 2, bits);
    label_constraints = cs.counts().constraints;
  }
  const double pos_ms = bench::median_ms(repeats, [&] {
    for (int k = 0; k < 100; ++k) {
      bellperson::prove_cs_t cs(small.view(), counts_t{}, small.cap);
      cs.alloc_input(fr_t::one());
      num_t in[8];
      for (unsigned i = 0; i < 8; ++i) in[i] = bellperson::alloc_num(cs, fr_t::from_u64(i + 7));
      neptune::poseidon_hash(cs, in, poseidon_constants(8));
    }
  });

  bench::print_synthesis(t, n);
  bench::print_row("  one label (prove, 1 core)", label_ms, label_constraints);
  bench::print_row("  Poseidon-8 (prove, 1 core)", pos_ms / 100, 505);
  return 0;
}
