#pragma once
// A job's inputs checked against its circuit before the job is accepted.
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "node/circuit.hpp"

namespace zk::node {

// A job's input that no retry can prove: a witness that does not satisfy the circuit's
// constraints (node/synth/synthesize.hpp checks it against the r1cs before any proving). The
// synthesizer reports it as zk_errc::bad_input, and the scheduler fails the job at once.
struct bad_input_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// An input path that names an input.json (for the circuit's witness generator), not a .wtns.
bool is_input_json(const std::string& path);

// circom takes one .wtns path (every partition) or one per partition, each an existing file; a
// path ending in ".json" is an input.json, accepted only when the circuit has a witness
// generator; porep-lite takes none or one "seed=N" (the synthetic replica); filecoin-porep one C1
// with prover_id=HEX and sector=N, checked as node/filecoin_job.hpp says. The reason when they do
// not fit, nullopt when they do.
std::optional<std::string> check_job_inputs(const circuit_def_t& c,
                                            const std::vector<std::string>& inputs,
                                            uint32_t partitions);

// circom inputs are paths read on the scheduler's and the synthesis nodes' disks: each must
// resolve (symlinks followed) to a file under one of `roots` (already absolute). The reason when
// one does not (naming the path, never its content), nullopt when all do. porep-lite inputs are
// not paths; a filecoin-porep job's C1 is (its prover_id= and sector= are not). Does file-system
// calls: not on an actor that must stay responsive.
std::optional<std::string> check_input_roots(const circuit_def_t& c,
                                             const std::vector<std::string>& inputs,
                                             const std::vector<std::string>& roots);

}  // namespace zk::node
