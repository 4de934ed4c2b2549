#pragma once
// BN254 ("bn128" in snarkjs) base and scalar fields (docs/formats.md §5.1, §5.3).
#include "zk/ff/fp2.hpp"

namespace zk::bn254 {

struct fr_params_t {
  static constexpr int N = 4;
  // r = 21888242871839275222246405745257275088548364400416034343698204186575808495617
  static constexpr ff::bigint_t<4> modulus{
      {0x43e1f593f0000001ULL, 0x2833e84879b97091ULL, 0xb85045b68181585dULL, 0x30644e72e131a029ULL}};
  static constexpr unsigned two_adicity = 28;
  static constexpr uint64_t nqr = 5;  // smallest quadratic non-residue: snarkjs's root generator
};
struct fq_params_t {
  static constexpr int N = 4;
  // q = 21888242871839275222246405745257275088696311157297823662689037894645226208583
  static constexpr ff::bigint_t<4> modulus{
      {0x3c208c16d87cfd47ULL, 0x97816a916871ca8dULL, 0xb85045b68181585dULL, 0x30644e72e131a029ULL}};
};

using fr_t = ff::fp_t<fr_params_t>;
using fq_t = ff::fp_t<fq_params_t>;
using fq2_t = ff::fp2_t<fq_t>;

}  // namespace zk::bn254
