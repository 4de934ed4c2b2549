#pragma once
// Prover backend selection for the command line: cpu | cuda | auto (docs/design.md "Layers"; issue
// "CUDA prover backend" §3). auto picks CUDA when this build has it and a device is usable, else
// the CPU, and says why in one line on stderr.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "zk/groth16/api.hpp"

namespace zk::apps {

struct backend_t {
  std::string name;  // "cpu" or "cuda (<device>)"
  std::unique_ptr<groth16::accelerator_t<curves::bn254>> bn254;
  std::unique_ptr<groth16::accelerator_t<curves::bls12_381>> bls12_381;
  groth16::accelerators_t accelerators() const { return {bn254.get(), bls12_381.get()}; }
  void apply(groth16::prove_options_t& o) const { o.accelerators = accelerators(); }
};

// What a node's config says of its GPUs (resources.gpus, resources.vram); unset: automatic.
struct device_limits_t {
  std::optional<unsigned> gpus;
  std::optional<uint64_t> vram;  // bytes of the GPU the prover may use
};

// Throws usage_error for an unknown mode, std::runtime_error when `cuda` cannot be had. With
// CUDA, limits.vram bounds what the device context uses (cuda::options_t::vram_limit).
backend_t choose_backend(const std::string& mode, const device_limits_t& limits = {});

}  // namespace zk::apps
