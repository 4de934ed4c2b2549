#pragma once
// One partition of a Filecoin C2 job synthesized into a synth buffer (node/filecoin_job.hpp):
//
//   porep_witness     the C1 read, partition k's witness taken from its vanilla proofs
//                     (zk/filecoin/porep/circuit/circuit.hpp witness_from_vanilla, check_witness)
//   porep_synthesize  the StackedDrg circuit in prove mode, challenges in parallel, straight into
//                     the buffer reserved in the node's store (nothing copied)
//   porep_check       every constraint a_i·b_i = c_i checked (first_unsatisfied)
//
// Buffer (abc+witness): the witness is bellperson's input assignment (ONE first) then its aux
// assignment, canonical little-endian as the synth header says; a, b, c are every constraint then
// the input constraints (A = input i, B = C = 0), Montgomery form.
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/buffer/buffer_store.hpp"
#include "node/circuit.hpp"
#include "node/job_inputs.hpp"
#include "node/synth/synthesize.hpp"

namespace zk::node {

// Synthesizes partition `part` of the job whose inputs are `inputs` (the C1 as a file this node
// reads, prover_id=, sector=) into `store`. Throws bad_input_error (node/job_inputs.hpp) for a C1
// the circuit does not accept (naming the partition, the challenge and the failing check),
// std::runtime_error for anything else (the file, the store's budget).
synth_result_t synthesize_filecoin(const circuit_def_t& c, const std::vector<std::string>& inputs,
                                   uint64_t job, uint32_t part, buffer::buffer_store_t& store,
                                   const synth_stage_observer_t& observe = {});

}  // namespace zk::node
