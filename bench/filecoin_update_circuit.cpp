// Synthesis of the SnapDeals update's circuit (zk/filecoin/update/circuit.hpp), not a test: one
// partition in every mode, median of `repeats` runs.
//
//   build/bench_filecoin_update_circuit [update proof = StackedDrg2KiBV1] [repeats = 5]
//       [--vanilla FILE --partition K --comm-r-old HEX --comm-d-new HEX --comm-r-new HEX]
//
// With --vanilla, partition K of those proofs (snap-vproof.json, the partitions' raw bytes, or
// one partition's) with its commitments — e.g. tests/fixtures/filecoin/snap-2k/vanilla-0.bin or
// snap-8m/vanilla-1.bin and their golden.txt — and the assignment is checked once (every
// constraint); without, the blank witness (zeros), which synthesizes the same constraints.
//
//   shape          once per circuit: counts, densities, digest (+ the matrices); as
//                  update_circuit_shape makes it (one challenge synthesized, the others copied with
//                  their own digest bits) and with every challenge synthesized
//   count          count mode over a blank witness
//   prove, 1 core  the challenges one after another on the calling thread
//   prove, pool    the challenges in parallel on the compute pool (ZK_THREADS threads)
#include <cstdio>
#include <cstdlib>
#include <string>

#include "bench/bench_util.hpp"
#include "zk/base/files.hpp"
#include "zk/base/hex.hpp"
#include "zk/base/thread_pool.hpp"
#include "zk/filecoin/api/registry.hpp"
#include "zk/filecoin/update/circuit.hpp"

using namespace zk;
using namespace zk::filecoin;

namespace {

update_partition_witness_t witness_of(const update_config_t& c, int argc, char** argv, bool& real) {
  std::string vanilla, r_old, d_new, r_new;
  uint32_t k = 0;
  for (int i = 3; i + 1 < argc; i += 2) {
    const std::string key = argv[i], v = argv[i + 1];
    if (key == "--vanilla")
      vanilla = v;
    else if (key == "--partition")
      k = uint32_t(std::stoul(v));
    else if (key == "--comm-r-old")
      r_old = v;
    else if (key == "--comm-d-new")
      d_new = v;
    else if (key == "--comm-r-new")
      r_new = v;
    else
      throw std::invalid_argument("unknown argument " + key);
  }
  real = !vanilla.empty();
  if (!real) return update_blank_witness(c);
  update_commitments_t comms;
  comms.comm_r_old = parse_hex32(r_old, "--comm-r-old");
  comms.comm_d_new = parse_hex32(d_new, "--comm-d-new");
  comms.comm_r_new = parse_hex32(r_new, "--comm-r-new");
  const std::string bytes = read_text(vanilla);
  const update_partition_proof_t proof =
      bytes.size() == update_partition_proof_size(c)
          ? decode_update_partition_proof(reinterpret_cast<const uint8_t*>(bytes.data()),
                                          bytes.size(), c, vanilla, k)
          : read_update_vanilla_file(vanilla, c).at(k);
  return update_witness_from_vanilla(c, k, comms, proof);
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const std::string name = argc > 1 ? argv[1] : "StackedDrg2KiBV1";
    const int repeats = argc > 2 ? std::atoi(argv[2]) : 5;
    const update_config_t c = update_config(registered_update_proof(name));
    bool real = false;
    const update_partition_witness_t w = witness_of(c, argc, argv, real);

    const auto& L = update_circuit_layout(c);
    const uint64_t n = L.total.constraints;
    std::printf(
        "%s: %u constraints, %u aux, %u inputs; %u shared, %u per challenge; %u threads; "
        "%s witness\n",
        name.c_str(), L.total.constraints, L.total.aux, L.total.inputs, L.prefix.constraints,
        L.per_challenge.constraints, compute_threads(), real ? "the partition's" : "a blank");

    const update_partition_witness_t blank = update_blank_witness(c);
    partition_assignment_t arr(L);
    const bench::synthesis_times_t t = bench::time_synthesis(
        repeats,
        [&] {
          bellperson::shape_cs_t cs(true);
          synthesize_update_circuit(cs, c, blank);
          cs.finish();
        },
        [&](bool matrices) { synthesize_update_shape(c, matrices); },
        [&] {
          bellperson::count_cs_t cs;
          synthesize_update_circuit(cs, c, blank);
        },
        [&](bool parallel) { synthesize_update_partition(c, w, arr.view(), parallel); });
    if (real) {
      const auto bad = first_unsatisfied_update(c, arr.view());
      std::printf("  every constraint holds: %s\n", bad ? bad->where.c_str() : "yes");
    }
    bench::print_synthesis(t, n);
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_filecoin_update_circuit: %s\n", e.what());
    return 2;
  }
}
