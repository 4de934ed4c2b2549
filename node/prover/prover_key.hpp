#pragma once
// A key the prover engine holds per circuit (node/prover/prover_engine.hpp): what was mapped, and
// how it proves a buffer. One implementation per kind: zkey-shaped keys (prover_engine.cpp) and
// Filecoin's bellperson parameters (filecoin_key.hpp).
#include "node/prover/key_file.hpp"
#include "node/prover/prover_engine.hpp"

namespace zk::node {

struct prover_engine_t::key_t {
  file_id_t loaded;          // the key file as it was when mapped
  uint64_t sample = 0;       // sampled_fingerprint of its bytes when mapped
  uint64_t table_bytes = 0;  // its precomputed tables (0: none)
  virtual ~key_t() = default;
  virtual proof_result_t prove(const circuit_def_t& c, const buffer::buffer_ref_t& b,
                               const groth16::stage_observer_t& observe) = 0;
};

}  // namespace zk::node
