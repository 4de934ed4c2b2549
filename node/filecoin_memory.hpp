#pragma once
// What one partition of a Filecoin PoRep circuit takes on the cluster's nodes, from the circuit's
// counts alone (docs/filecoin.md "Budgets at 32 GiB"), for a 32 GiB partition as for a 2 KiB one:
//
//   n_vars        = inputs + aux                       the witness (ONE among the inputs)
//   domain_rows   = constraints + inputs               rows of a, b, c (input constraints appended)
//   domain_size   = the power of two ≥ domain_rows     the prover's NTT domain
//   payload       = filecoin_payload_bytes(…, wire)    what a synthesis node makes: on the
//                                                      packed wire (the default) at most the
//                                                      packed witness with every value the
//                                                      circuit allocates as a field element in
//                                                      full: 24 + n_vars/4 + 32·(inputs +
//                                                      field_aux); on the full wire abc+witness,
//                                                      (3·domain_rows + n_vars) × 32
//   buffer        = size_class(payload)                reserved on the synthesis node while it
//                                                      holds the partition, then on its prover
//   wire          = payload + the 128-byte header      what the data plane ships
//   prover work   = (3·domain_size + n_vars) × 32      a, b, c over the domain (the FFTs work in
//                                                      place) and the witness in Montgomery form;
//                                                      packed: + n_vars × 32, the witness unpacked
//                                                      for the MSMs (the circuit's structure the
//                                                      prover rebuilds a, b, c with is resident:
//                                                      prover_resident_bytes, filecoin_job.hpp)
//   parameters    = filecoin_params_bytes(shape)       the prover's decoded .params: h (domain−1),
//                                                      l (aux), a, b_g1 (G1, 96 bytes a point),
//                                                      b_g2 (G2, 192), the IC points, densities
//
// A prover needs parameters + buffer + work for one partition in flight, and one more buffer per
// partition its lookahead holds; a synthesis node one buffer per partition in flight.
#include <cstdint>

#include "common/config/config.hpp"
#include "zk/bellperson/cs.hpp"

namespace zk::node {

struct partition_memory_t {
  uint64_t n_vars = 0, domain_rows = 0, domain_size = 0;
  uint64_t payload_bytes = 0;      // the synthesis node's buffer as made
  uint64_t buffer_bytes = 0;       // its size class: what the scheduler reserves
  uint64_t wire_bytes = 0;         // on the data plane: the payload and its header
  uint64_t prover_work_bytes = 0;  // the prover's work arrays for one proof
};

// The figure that depends on the wire format: the most bytes a synthesis node makes for one
// partition of a circuit with these counts, and ships (`field_values`: the inputs and the aux
// variables allocated as field elements, the most a packed witness carries in full).
uint64_t filecoin_payload_bytes(uint64_t n_vars, uint64_t domain_rows, uint64_t field_values,
                                config::wire_t wire);

// From the circuit's layout (zk/filecoin/porep/circuit/circuit.hpp circuit_layout(c): its total
// counts and field_aux; no synthesis of the whole circuit, under a second at 32 GiB).
partition_memory_t filecoin_partition_memory(const bellperson::counts_t& total, uint64_t field_aux,
                                             config::wire_t wire);

// The prover's decoded parameters for a circuit of this shape (the densities come from it:
// circuit_shape(c, false)), as bellperson::params_key_t holds them.
uint64_t filecoin_params_bytes(const bellperson::r1cs_shape_t& shape);

}  // namespace zk::node
