// MSM entry points for BN254 (one translation unit per curve: nvcc builds them in parallel).
#include "cuda/msm_impl.cuh"

namespace zk::cuda {

status_t msm_g1_bn254(const curves::bn254::g1_affine* b, const uint8_t* s, size_t n,
                      curves::bn254::g1_jacobian* out) {
  return msm_detail::msm_impl<curves::bn254::g1>(b, s, n, bn254::fr_t::bits, out, "msm_g1_bn254");
}
status_t msm_g2_bn254(const curves::bn254::g2_affine* b, const uint8_t* s, size_t n,
                      curves::bn254::g2_jacobian* out) {
  return msm_detail::msm_impl<curves::bn254::g2>(b, s, n, bn254::fr_t::bits, out, "msm_g2_bn254");
}

}  // namespace zk::cuda
