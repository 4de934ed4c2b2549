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
// Buffer (packed, the circuit's `wire: packed`): that witness alone, packed
// (zk/formats/packed_witness.hpp); the prover rebuilds a, b, c (node/prover/filecoin_key.cpp).
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/buffer/buffer_store.hpp"
#include "node/circuit.hpp"
#include "node/synth/synthesize.hpp"
#include "zk/base/stop.hpp"
#include "zk/filecoin/porep/circuit/circuit.hpp"

namespace zk::node {

// Where a partition's input is: a file (what a synthesis node fetched), or bytes in memory
// (`zkfleet filecoin synthesize`: cut from a C1 as the scheduler's intake cuts it). `name` is what
// errors call it.
struct porep_input_ref_t {
  std::string name;
  std::string file;                             // read when bytes is null
  const std::vector<uint8_t>* bytes = nullptr;  // the input itself
};

// What synthesize_porep_payload leaves.
struct porep_payload_t {
  buffer::synth_header_t header;  // the buffer's, its checksum over the payload
  std::optional<filecoin::unsatisfied_t> unsatisfied;  // `check`: the first failing constraint
};

// The one synthesis of a partition, shared by the synthesis node (synthesize_filecoin) and
// `zkfleet filecoin synthesize`: partition `part`'s input read (porep_witness), the circuit in
// prove mode into `payload` (porep_synthesize: the abc+witness payload of circuit c,
// buffer::payload_bytes_for(c.n_vars, c.domain_rows, abc_witness) bytes), then porep_check: with
// `check` every constraint (first_unsatisfied; a failure returns at once, the payload unfinished),
// always the circuit's input assignment against the public inputs derived for the input, the
// witness made canonical, and the header of job `job` computed (its XXH64 over the payload);
// zk::cancelled_error when `stop` answers true (between stages and challenges).
// Throws bad_input_error for an input the circuit does not accept (another partition's, malformed
// — naming the byte offset —, a public input not the derived one), std::runtime_error when the
// circuit's counts are not c's.
porep_payload_t synthesize_porep_payload(const circuit_def_t& c, const porep_input_ref_t& input,
                                         uint64_t job, uint32_t part, uint8_t* payload, bool check,
                                         const synth_stage_observer_t& observe = {},
                                         const stop_t& stop = {});

// What synthesize_porep_packed leaves.
struct porep_packed_t {
  buffer::synth_header_t header;  // packed_witness, its checksum over `payload`
  std::vector<uint8_t> payload;   // zk/formats/packed_witness.hpp
  std::optional<filecoin::unsatisfied_t> unsatisfied;  // the first failing constraint
};

// The packed wire's synthesis (circuit c's shape packed_witness): the input read (porep_witness),
// then the witness synthesized a challenge at a time into a packed witness, every constraint
// checked as it is made and the input assignment against the derived public inputs
// (porep_synthesize); a, b, c are never held (the prover host rebuilds them: node/prover). Memory:
// one challenge's aux variables per compute thread and the packed witness. Throws as
// synthesize_porep_payload does.
porep_packed_t synthesize_porep_packed(const circuit_def_t& c, const porep_input_ref_t& input,
                                       uint64_t job, uint32_t part,
                                       const synth_stage_observer_t& observe = {},
                                       const stop_t& stop = {});

// Synthesizes partition `part` from its input, the local file `file` (`name`: what errors call
// it), into `store` (synthesize_porep_payload with the check, into a buffer reserved there; or
// synthesize_porep_packed, its payload copied into a buffer of its size). Throws
// bad_input_error for an input the circuit does not accept (another partition's, malformed — naming
// the byte offset —, a constraint unsatisfied, a public input not the derived one),
// std::runtime_error for anything else (the store's budget), zk::cancelled_error when `stop`
// answers true (polled between stages and challenges: the reserved buffer is freed, nothing
// committed).
synth_result_t synthesize_filecoin(const circuit_def_t& c, const std::string& file,
                                   const std::string& name, uint64_t job, uint32_t part,
                                   buffer::buffer_store_t& store,
                                   const synth_stage_observer_t& observe = {},
                                   const stop_t& stop = {});

// One partition of a SnapDeals update job (node/filecoin_snap_job.hpp) into `store`, an
// abc+witness buffer laid out as a PoRep partition's:
//   snap_witness     the partition's input read (zk/filecoin/api/update_input.hpp), the circuit's
//                    witness from its vanilla proof and the commitments
//   snap_synthesize  the update circuit in prove mode, challenges in parallel, straight into the
//                    buffer reserved in the store
//   snap_check       every constraint checked (first_unsatisfied_update), the input assignment
//                    the public inputs the verifier derives from the commitments
// Throws as synthesize_filecoin does.
synth_result_t synthesize_snap(const circuit_def_t& c, const std::string& file,
                               const std::string& name, uint64_t job, uint32_t part,
                               buffer::buffer_store_t& store,
                               const synth_stage_observer_t& observe = {}, const stop_t& stop = {});

}  // namespace zk::node
