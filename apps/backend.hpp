#pragma once
// Prover backend selection for the command line: cpu | cuda | auto (DESIGN.md; issue "CUDA
// prover backend" §3). auto picks CUDA when this build has it and a device is usable, else the
// CPU, and says why in one line on stderr.
#include <memory>
#include <string>

#include "common/groth16/api.hpp"

namespace zk::apps {

struct backend_t {
  std::string name;  // "cpu" or "cuda (<device>)"
  std::unique_ptr<groth16::accelerator_t<curves::bn254>> bn254;
  std::unique_ptr<groth16::accelerator_t<curves::bls12_381>> bls12_381;
  void apply(groth16::prove_options& o) const {
    o.bn254_accelerator = bn254.get();
    o.bls12_381_accelerator = bls12_381.get();
  }
};

// Throws usage_error for an unknown mode, std::runtime_error when `cuda` cannot be had.
backend_t choose_backend(const std::string& mode);

}  // namespace zk::apps
