#include "node/filecoin_memory.hpp"

#include <stdexcept>

#include "common/buffer/buffer_store.hpp"
#include "common/buffer/synth_buffer.hpp"
#include "zk/bellperson/groth16/key.hpp"
#include "zk/formats/packed_witness.hpp"

namespace zk::node {

uint64_t filecoin_payload_bytes(uint64_t n_vars, uint64_t domain_rows, uint64_t field_values,
                                config::wire_t wire) {
  if (wire == config::wire_t::automatic)
    throw std::invalid_argument(
        "a partition's payload is of the packed or the full wire, not auto");
  if (wire == config::wire_t::packed) return formats::packed_witness_bytes(n_vars, field_values);
  return buffer::payload_bytes_for(n_vars, domain_rows, buffer::synth_shape_t::abc_witness);
}

partition_memory_t filecoin_partition_memory(const bellperson::counts_t& total, uint64_t field_aux,
                                             config::wire_t wire) {
  if (wire == config::wire_t::automatic)  // each partition's own wire is packed or full
    throw std::invalid_argument("a partition's memory is of the packed or the full wire, not auto");
  partition_memory_t m;
  m.n_vars = uint64_t(total.inputs) + total.aux;
  m.domain_rows = uint64_t(total.constraints) + total.inputs;
  m.domain_size = 1;
  while (m.domain_size < m.domain_rows) m.domain_size <<= 1;
  m.payload_bytes =
      filecoin_payload_bytes(m.n_vars, m.domain_rows, uint64_t(total.inputs) + field_aux, wire);
  m.buffer_bytes = buffer::size_class(m.payload_bytes);
  m.wire_bytes = m.payload_bytes + buffer::synth_header_size;
  m.prover_work_bytes = (3 * m.domain_size + m.n_vars) * buffer::fr_bytes;
  if (wire == config::wire_t::packed) m.prover_work_bytes += m.n_vars * buffer::fr_bytes;
  return m;
}

uint64_t filecoin_params_bytes(const bellperson::r1cs_shape_t& shape) {
  return bellperson::params_key_t::bytes_for(shape);
}

}  // namespace zk::node
