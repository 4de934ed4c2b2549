#pragma once
// BLS12-381 base and scalar fields (docs/formats.md §5.2, §5.3).
#include "zk/ff/fp2.hpp"

namespace zk::bls12_381 {

struct fr_params_t {
  static constexpr int N = 4;
  // r = 0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001
  static constexpr ff::bigint_t<4> modulus{
      {0xffffffff00000001ULL, 0x53bda402fffe5bfeULL, 0x3339d80809a1d805ULL, 0x73eda753299d7d48ULL}};
  static constexpr unsigned two_adicity = 32;
  static constexpr uint64_t nqr = 5;  // snarkjs's nqr (blstrs/arkworks use 7: other roots!)
};
struct fq_params_t {
  static constexpr int N = 6;
  static constexpr ff::bigint_t<6> modulus{{0xb9feffffffffaaabULL, 0x1eabfffeb153ffffULL,
                                            0x6730d2a0f6b0f624ULL, 0x64774b84f38512bfULL,
                                            0x4b1ba7b6434bacd7ULL, 0x1a0111ea397fe69aULL}};
};

using fr_t = ff::fp_t<fr_params_t>;
using fq_t = ff::fp_t<fq_params_t>;
using fq2_t = ff::fp2_t<fq_t>;

}  // namespace zk::bls12_381
