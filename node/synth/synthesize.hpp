#pragma once
// One partition of a job synthesized into a synth buffer of the node's buffer store (the
// buffer shapes per circuit kind: node/circuit.hpp).
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/buffer/buffer_store.hpp"
#include "common/timeline/event.hpp"
#include "node/circuit.hpp"
#include "node/job_spec.hpp"
#include "node/synth/csr_cache.hpp"

namespace zk::node {

// A job's input that no retry can prove: a witness that does not satisfy the circuit's
// constraints (checked against the r1cs before any proving), a partition input the circuit does
// not accept. The synthesizer reports it as zk_errc::bad_input, and the scheduler fails the job at
// once.
struct bad_input_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The header parameters of partition `part` of `job` for circuit c in the given shape (the
// domain rows of the key for abc+witness, the header's minimum for witness-only).
buffer::synth_params_t synth_params_for(const circuit_def_t& c, uint64_t job, uint32_t part,
                                        buffer::synth_shape_t shape);

struct synth_result_t {
  uint64_t buffer_id = 0;  // in the store it was committed to
  uint64_t payload_bytes = 0;
  uint64_t checksum = 0;  // payload XXH64, as in the header
  double seconds = 0;
};

// A synthesis stage's span (monotonic ns, timeline::monotonic_ns) as it ends: the children of
// synth (a Filecoin partition's porep_witness, porep_synthesize, porep_check).
using synth_stage_observer_t = std::function<void(timeline::stage_t, int64_t t0, int64_t t1)>;

// Synthesizes partition `part` of job `job` into `store` (reserved before anything is computed:
// over budget is an error, nothing allocated), by the partition's spec (node/job_spec.hpp
// partition_spec; its kind must be the circuit's): `file` is the local path of the file the spec
// names (file_of), `name` what to call it in errors (its input_file_t::name). Throws
// std::runtime_error naming the input, and bad_input_error when the circuit's r1cs is known and
// the witness does not satisfy it (the first failing constraint named): a witness-only buffer is
// checked as well.
//   circom          a .wtns checked and copied in (a = A·w, b = B·w, c = C·w for abc+witness), or
//                   an input.json first turned into a .wtns by the circuit's witness generator
//                   (node/synth/witness_generator.hpp; the .wtns goes to a scratch directory,
//                   removed afterwards); `stop`, when given, is polled while the generator runs:
//                   true kills it (the job was cancelled) and the call throws saying so
//   porep_lite      the circuit in prove mode over the seed's replica
//   filecoin_porep  synthesize_filecoin (node/synth/filecoin_synth.hpp: the partition's input),
//                   reporting its stages to `observe`; `stop` polled between its stages and
//                   challenges (zk::cancelled_error)
//   filecoin_snap   synthesize_snap (the same file: the update partition's input), likewise
synth_result_t synthesize(const circuit_def_t& c, const partition_spec_t& input,
                          const std::string& file, const std::string& name, uint32_t partitions,
                          uint64_t job, uint32_t part, buffer::buffer_store_t& store,
                          csr_cache_t& cache, const std::function<bool()>& stop = {},
                          const synth_stage_observer_t& observe = {});

}  // namespace zk::node
