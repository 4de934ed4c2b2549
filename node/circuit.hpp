#pragma once
// A circuit the cluster proves, registered by id from the scheduler's config and described once
// from its key (and r1cs): it travels with every dispatch and prove request, so a worker needs
// nothing else to do its part.
//
//   circuit kind   synthesis (node/synth)                        buffer shape    prover
//   circom         the job's .wtns, checked and copied in         witness-only    a/b from the key
//   circom         the .wtns, then a = A·w, b = B·w, c = C·w      abc+witness     load_abc
//                  from the r1cs in CSR form (node/synth/csr_cache)
//   porep_lite     porep-lite in prove mode: witness and          abc+witness     load_abc
//                  a/b/c in one pass
//   filecoin_porep a partition's input (its vanilla proofs),      abc+witness     the node's
//                  Filecoin's circuit in prove mode                                .params
//                  (node/filecoin_job.hpp)
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/buffer/synth_buffer.hpp"
#include "common/config/config.hpp"
#include "node/scheduler/policy.hpp"
#include "zk/base/curve_id.hpp"

namespace zk::node {

// Decided once, where the config is read (common/config/config.hpp).
using config::circuit_kind_t;

struct circuit_def_t {
  std::string id;
  circuit_kind_t kind = circuit_kind_t::circom;
  std::string zkey;           // proving key path (native: <key_dir>/circuit.zkey)
  std::string r1cs;           // circom abc+witness: the constraint matrices
  std::string native_params;  // porep_lite: what the R1CS depends on (curve, challenges, depth);
                              // filecoin_porep: the registered proof's name
  std::string vk;  // filecoin-porep: the bellperson .vk proofs are checked with (node/filecoin_job)
  buffer::synth_shape_t shape = buffer::synth_shape_t::witness_only;
  curve_id_t curve = curve_id_t::bn254;
  std::string digest;  // hex SHA-256: of the .zkey (circom) or of the .r1cs (native)
  uint64_t n_vars = 0, n_public = 0, domain_size = 0;
  uint64_t domain_rows = 0;        // rows of a/b/c in the buffer (abc+witness)
  uint64_t buffer_bytes = 0;       // one partition's buffer as the store accounts it (size class)
  uint64_t prover_work_bytes = 0;  // the prover's a/b/c work arrays for one proof
  // circom: the operator's command (config `witness_generator`) that turns a job's input.json
  // into a .wtns, run without a shell with "{input}"/"{output}" replaced (never from a job).
  // Empty: jobs of this circuit bring a .wtns.
  std::vector<std::string> witness_generator;
  // Jobs of this circuit that name no priority get this one (config: the circuit's `priority`,
  // else the scheduler's `default_priority`).
  priority_t priority = priority_t::normal;
  // A Filecoin PoRep circuit on `wire: auto` (config::wire_t::automatic): each partition crosses on
  // the wire the scheduler picks at dispatch (node/scheduler/wire_choice.hpp). The circuit as
  // configured has the packed wire's shape and sizes above and both wires' here; a dispatch and
  // its prove request carry it on the chosen wire (on_wire). Its provers keep the circuit's
  // structure (packed partitions) and take both shapes.
  bool wire_auto = false;
  wire_size_t packed_size{}, full_size{};
  uint64_t link_prior_per_s = 0;  // config link_per_s (0: wire_choice.hpp's 10 GbE prior)

  // The digest as the synth header's 32 bytes.
  buffer::digest_t digest_bytes() const;
};

// A circom circuit from its snarkjs .zkey (jobs bring a .wtns per partition or one for all).
// Its buffers are `shape`, by default abc+witness with an .r1cs (the synthesizer evaluates the
// constraints), else witness-only. With an .r1cs, whatever the shape, synthesis checks that the
// witness satisfies every constraint before any prover sees it. Throws naming the file that does
// not fit.
circuit_def_t describe_zkey_circuit(const std::string& id, const std::string& zkey_path,
                                    const std::string& r1cs_path = "",
                                    std::optional<buffer::synth_shape_t> shape = std::nullopt);
// A porep-lite circuit: keyed with a development setup cached in key_dir by r1cs digest
// (circuit::setup_circuit), then described from its key.
circuit_def_t describe_porep_lite_circuit(const std::string& id, const std::string& params,
                                          const std::string& key_dir);
// What the scheduler's policy needs of a circuit.
circuit_spec_t to_spec(const circuit_def_t& c);
// Circuit c as a partition on wire w sees it: on `wire: auto`, w's shape and sizes (w packed or
// full); any other circuit as it is.
circuit_def_t on_wire(circuit_def_t c, config::wire_t w);
// The shapes a buffer of circuit c may have: its own, or on `wire: auto` packed or full.
bool takes_shape(const circuit_def_t& c, buffer::synth_shape_t shape);

}  // namespace zk::node
