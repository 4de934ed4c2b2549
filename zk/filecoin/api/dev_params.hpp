#pragma once
// Development parameters for a Filecoin circuit (`zkfleet filecoin setup`): a bellperson
// `.params` + `.vk` pair made from secrets derived from a seed in this process — NOT a ceremony:
// anyone who knows the seed can forge proofs. The circuit is a registered proof's PoRep circuit
// (zk/filecoin/porep/circuit/circuit.hpp) or a registered update proof's SnapDeals circuit
// (zk/filecoin/update/circuit.hpp), its parameters what bellperson 0.27's
// generate_parameters computes for it (zk/bellperson/groth16/generator.hpp has the formulas and
// the derivation of the secrets). The files depend on the circuit and the seed only, so the
// command line caches them by the circuit's hash (r1cs_shape_t::digest) and the seed.
#include <cstdint>
#include <string>

#include "zk/filecoin/porep/circuit/circuit.hpp"
#include "zk/filecoin/update/config.hpp"

namespace zk::filecoin {

struct dev_params_report_t {
  std::string params_path, vk_path;  // params_path empty with vk_only
  std::string digest;                // the circuit's hash (hex)
  uint64_t domain = 0, points = 0;
  double seconds = 0;
};

// Writes <dir>/<name>.params (unless vk_only) and <dir>/<name>.vk for the circuit. Throws
// std::runtime_error naming the file when it cannot be written.
dev_params_report_t make_dev_params(const circuit_config_t& c, uint64_t seed,
                                    const std::string& dir, const std::string& name,
                                    bool vk_only = false);
// The same for the update's circuit of a sector size.
dev_params_report_t make_dev_params(const update_config_t& c, uint64_t seed, const std::string& dir,
                                    const std::string& name, bool vk_only = false);

}  // namespace zk::filecoin
