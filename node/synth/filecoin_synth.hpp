#pragma once
// One partition of a Filecoin C2 job synthesized into a synth buffer (node/filecoin_job.hpp):
//
//   porep_witness     the partition's input read (zk/filecoin/api/partition_input.hpp: made at
//                     intake from the C1, fetched here by its digest): its witness and the public
//                     inputs derived for the sector (check_witness)
//   porep_synthesize  the StackedDrg circuit in prove mode, challenges in parallel, straight into
//                     the buffer reserved in the node's store (nothing copied)
//   porep_check       every constraint a_i·b_i = c_i checked (first_unsatisfied), and the
//                     circuit's input assignment the derived public inputs
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
#include "node/synth/synthesize.hpp"
#include "zk/base/stop.hpp"

namespace zk::node {

// Synthesizes partition `part` from its input, the local file `file` (`name`: what errors call
// it), into `store`. Throws bad_input_error for an input the circuit does not accept (another
// partition's, malformed — naming the byte offset —, a constraint unsatisfied, a public input not
// the derived one), std::runtime_error for anything else (the store's budget),
// zk::cancelled_error when `stop` answers true (polled between stages and challenges: the
// reserved buffer is freed, nothing committed).
synth_result_t synthesize_filecoin(const circuit_def_t& c, const std::string& file,
                                   const std::string& name, uint64_t job, uint32_t part,
                                   buffer::buffer_store_t& store,
                                   const synth_stage_observer_t& observe = {},
                                   const stop_t& stop = {});

}  // namespace zk::node
