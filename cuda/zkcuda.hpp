#pragma once
// The CUDA backend's entry points: plain functions per (algorithm, curve) that return a status
// (STYLE.md §3). No CUDA type crosses this header: common/ and actors/ never see a kernel.
//
// Every entry point takes host memory and returns host memory; device buffers are allocated,
// filled, used and freed inside (RAII). Proving-key residency and streamed chunks are the next
// step of cuda/ (see cuda/README.md).
#include <cstddef>
#include <cstdint>
#include <string>

#include "common/ec/curves.hpp"
#include "common/groth16/prover.hpp"

namespace zk::cuda {

struct status_t {
  int code = 0;         // 0: success; otherwise the cudaError_t (or -1 for an argument error)
  std::string message;  // what failed and where
  explicit operator bool() const { return code == 0; }
};

// True when a CUDA device can run our kernels (sm_90 code); otherwise false with the reason
// (e.g. "cudaGetDeviceCount: CUDA driver version is insufficient (cudaErrorInsufficientDriver)").
bool device_available(std::string* why = nullptr);
std::string device_name();

// Evaluations on the n-domain → evaluations on the odd coset (compute_h's transform), in place;
// Montgomery form, snarkjs roots (same result as ntt::domain_t::to_odd_coset).
status_t ntt_to_odd_coset_bn254(bn254::fr_t* data, unsigned log_n);
status_t ntt_to_odd_coset_bls12_381(bls12_381::fr_t* data, unsigned log_n);

// Σ k_i·P_i; scalars are canonical little-endian 32-byte integers (as in .wtns); (0,0) bases
// are the identity. Same result as msm::msm.
status_t msm_g1_bn254(const curves::bn254::g1_affine* bases, const uint8_t* scalars, size_t n,
                      curves::bn254::g1_jacobian* out);
status_t msm_g2_bn254(const curves::bn254::g2_affine* bases, const uint8_t* scalars, size_t n,
                      curves::bn254::g2_jacobian* out);
status_t msm_g1_bls12_381(const curves::bls12_381::g1_affine* bases, const uint8_t* scalars, size_t n,
                          curves::bls12_381::g1_jacobian* out);
status_t msm_g2_bls12_381(const curves::bls12_381::g2_affine* bases, const uint8_t* scalars, size_t n,
                          curves::bls12_381::g2_jacobian* out);

// The prover's accelerator hooks backed by the entry points above (MSMs and compute_h's NTTs).
groth16::accelerator_t<curves::bn254> accelerator_bn254();
groth16::accelerator_t<curves::bls12_381> accelerator_bls12_381();

}  // namespace zk::cuda
