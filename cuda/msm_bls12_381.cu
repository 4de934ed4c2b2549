// MSM entry points for BLS12-381 (one translation unit per curve: nvcc builds them in parallel).
#include "cuda/msm_impl.cuh"

namespace zk::cuda {

status_t msm_g1_bls12_381(const curves::bls12_381::g1_affine* b, const uint8_t* s, size_t n,
                          curves::bls12_381::g1_jacobian* out) {
  return msm_detail::msm_impl<curves::bls12_381::g1>(b, s, n, bls12_381::fr_t::bits, out,
                                                     "msm_g1_bls12_381");
}
status_t msm_g2_bls12_381(const curves::bls12_381::g2_affine* b, const uint8_t* s, size_t n,
                          curves::bls12_381::g2_jacobian* out) {
  return msm_detail::msm_impl<curves::bls12_381::g2>(b, s, n, bls12_381::fr_t::bits, out,
                                                     "msm_g2_bls12_381");
}

}  // namespace zk::cuda
