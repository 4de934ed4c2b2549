// Device discovery and the prover's accelerator hooks.
#include <cuda_runtime.h>

#include <stdexcept>

#include "cuda/cuda_util.cuh"

namespace zk::cuda {

bool device_available(std::string* why) {
  int count = 0;
  cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess) {
    if (why)
      *why = std::string("cudaGetDeviceCount: ") + cudaGetErrorString(e) + " (" + cudaGetErrorName(e) + ")";
    cudaGetLastError();  // clear the sticky error
    return false;
  }
  if (count == 0) {
    if (why) *why = "no CUDA device";
    return false;
  }
  cudaDeviceProp prop{};
  e = cudaGetDeviceProperties(&prop, 0);
  if (e != cudaSuccess) {
    if (why) *why = std::string("cudaGetDeviceProperties: ") + cudaGetErrorString(e);
    return false;
  }
  if (prop.major < 9) {
    if (why)
      *why = std::string(prop.name) + " is sm_" + std::to_string(prop.major) + std::to_string(prop.minor) +
             "; the kernels are built for sm_90";
    return false;
  }
  return true;
}

std::string device_name() {
  cudaDeviceProp prop{};
  if (cudaGetDeviceProperties(&prop, 0) != cudaSuccess) return "unknown device";
  return prop.name;
}

namespace {
template <class S>
void check(const S& s) {
  if (!s) throw std::runtime_error(s.message);
}
}  // namespace

groth16::accelerator_t<curves::bn254> accelerator_bn254() {
  groth16::accelerator_t<curves::bn254> a;
  a.name = "cuda (" + device_name() + ")";
  a.msm_g1 = [](const curves::bn254::g1_affine* b, const uint8_t* s, size_t n, curves::bn254::g1_jacobian& r) {
    check(msm_g1_bn254(b, s, n, &r));
  };
  a.msm_g2 = [](const curves::bn254::g2_affine* b, const uint8_t* s, size_t n, curves::bn254::g2_jacobian& r) {
    check(msm_g2_bn254(b, s, n, &r));
  };
  a.odd_coset = [](bn254::fr_t* d, unsigned log_n) { check(ntt_to_odd_coset_bn254(d, log_n)); };
  return a;
}

groth16::accelerator_t<curves::bls12_381> accelerator_bls12_381() {
  groth16::accelerator_t<curves::bls12_381> a;
  a.name = "cuda (" + device_name() + ")";
  a.msm_g1 = [](const curves::bls12_381::g1_affine* b, const uint8_t* s, size_t n,
                curves::bls12_381::g1_jacobian& r) { check(msm_g1_bls12_381(b, s, n, &r)); };
  a.msm_g2 = [](const curves::bls12_381::g2_affine* b, const uint8_t* s, size_t n,
                curves::bls12_381::g2_jacobian& r) { check(msm_g2_bls12_381(b, s, n, &r)); };
  a.odd_coset = [](bls12_381::fr_t* d, unsigned log_n) { check(ntt_to_odd_coset_bls12_381(d, log_n)); };
  return a;
}

}  // namespace zk::cuda
