#include "apps/backend.hpp"

#include <cstdio>
#include <stdexcept>

#include "apps/commands.hpp"
#ifdef ZK_HAVE_CUDA
#include "cuda/zkcuda.hpp"
#endif

namespace zk::apps {

backend_t choose_backend(const std::string& mode, const device_limits_t& limits) {
  if (mode != "cpu" && mode != "cuda" && mode != "auto")
    throw usage_error("--backend takes cpu, cuda or auto, not '" + mode + "'");
  backend_t b;
  b.name = "cpu";
  if (mode == "cpu") return b;
  if (limits.gpus && *limits.gpus == 0) {  // the config refuses gpus: 0 with cuda
    std::fprintf(stderr, "zkfleet: backend auto: using the CPU: resources.gpus is 0\n");
    return b;
  }
#ifdef ZK_HAVE_CUDA
  const cuda::status_t st = cuda::device_status();
  const std::string why = st.message;
  if (st) {
    if (limits.vram) {
      cuda::options_t o = cuda::get_options();
      o.vram_limit = *limits.vram;
      auto set = cuda::set_options(o);
      if (!set) throw std::runtime_error("resources.vram: " + set.message);
    }
    b.bn254 = std::make_unique<groth16::accelerator_t<curves::bn254>>(cuda::accelerator_bn254());
    b.bls12_381 =
        std::make_unique<groth16::accelerator_t<curves::bls12_381>>(cuda::accelerator_bls12_381());
    b.name = b.bn254->name;
    return b;
  }
#else
  const std::string why =
      "this zkfleet was built without the CUDA backend (no nvcc at configure time)";
#endif
  if (mode == "cuda") throw std::runtime_error("--backend cuda: " + why);
  std::fprintf(stderr, "zkfleet: backend auto: using the CPU: %s\n", why.c_str());
  return b;
}

}  // namespace zk::apps
