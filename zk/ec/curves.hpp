#pragma once
// The two curves as bundles of types and constants: fields, G1/G2 point types, generators.
// Everything above zk/ec (MSM, prover, verifier) is a template over such a bundle and is
// instantiated explicitly for both curves (docs/design.md "Conventions").
#include <string_view>

#include "zk/ec/point.hpp"
#include "zk/ff/bls12_381.hpp"
#include "zk/ff/bn254.hpp"

namespace zk::curves {

namespace detail {
template <class F>
constexpr F fe(std::string_view dec) {
  typename F::big_t v{};
  parse_bigint(dec, v);
  return F::from_canonical(v);
}
}  // namespace detail

struct bn254 {
  using fr_t = zk::bn254::fr_t;
  using fq_t = zk::bn254::fq_t;
  using fq2_t = zk::bn254::fq2_t;
  static constexpr std::string_view snarkjs_name = "bn128";

  struct g1 {
    using field_t = fq_t;
    static constexpr fq_t b_ = fq_t::from_u64(3);  // y² = x³ + 3
    ZK_HD static constexpr fq_t b() { return b_; }
  };
  struct g2 {
    using field_t = fq2_t;
    // D-type sextic twist: y² = x³ + 3/ξ with ξ = 9 + u (3/ξ checked in tests/ec)
    static constexpr fq2_t b_{
        detail::fe<fq_t>(
            "19485874751759354771024239261021720505790618469301721065564631296452457478373"),
        detail::fe<fq_t>(
            "266929791119991161246907387137283842545076965332900288569378510910307636690")};
    ZK_HD static constexpr fq2_t b() { return b_; }
  };
  using g1_affine = ec::affine_t<g1>;
  using g1_jacobian = ec::jacobian_t<g1>;
  using g1_xyzz = ec::xyzz_t<g1>;
  using g2_affine = ec::affine_t<g2>;
  using g2_jacobian = ec::jacobian_t<g2>;
  using g2_xyzz = ec::xyzz_t<g2>;

  static constexpr g1_affine g1_generator{fq_t::from_u64(1), fq_t::from_u64(2)};
  static constexpr g2_affine g2_generator{
      {detail::fe<fq_t>(
           "10857046999023057135944570762232829481370756359578518086990519993285655852781"),
       detail::fe<fq_t>(
           "11559732032986387107991004021392285783925812861821192530917403151452391805634")},
      {detail::fe<fq_t>(
           "8495653923123431417604973247489272438418190587263600148770280649306958101930"),
       detail::fe<fq_t>(
           "4082367875863433681332203403145435568316851327593401208105741076214120093531")}};
};

struct bls12_381 {
  using fr_t = zk::bls12_381::fr_t;
  using fq_t = zk::bls12_381::fq_t;
  using fq2_t = zk::bls12_381::fq2_t;
  static constexpr std::string_view snarkjs_name = "bls12381";

  struct g1 {
    using field_t = fq_t;
    static constexpr fq_t b_ = fq_t::from_u64(4);  // y² = x³ + 4
    ZK_HD static constexpr fq_t b() { return b_; }
  };
  struct g2 {
    using field_t = fq2_t;
    // M-type sextic twist: y² = x³ + 4(1 + u)
    static constexpr fq2_t b_ = fq2_t{fq_t::from_u64(4), fq_t::from_u64(4)};
    ZK_HD static constexpr fq2_t b() { return b_; }
  };
  using g1_affine = ec::affine_t<g1>;
  using g1_jacobian = ec::jacobian_t<g1>;
  using g1_xyzz = ec::xyzz_t<g1>;
  using g2_affine = ec::affine_t<g2>;
  using g2_jacobian = ec::jacobian_t<g2>;
  using g2_xyzz = ec::xyzz_t<g2>;

  static constexpr g1_affine g1_generator{
      detail::fe<fq_t>("0x17f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff"
                       "97a1aeffb3af00adb22c6bb"),
      detail::fe<fq_t>("0x08b3f481e3aaa0f1a09e30ed741d8ae4fcf5e095d5d00af600db18cb2c04b3edd03cc744a"
                       "2888ae40caa232946c5e7e1")};
  static constexpr g2_affine g2_generator{
      {detail::fe<fq_t>("0x024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac0326"
                        "a805bbefd48056c8c121bdb8"),
       detail::fe<fq_t>("0x13e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf112"
                        "13945d57e5ac7d055d042b7e")},
      {detail::fe<fq_t>("0x0ce5d527727d6e118cc9cdc6da2e351aadfd9baa8cbdd3a76d429a695160d12c923ac9cc"
                        "3baca289e193548608b82801"),
       detail::fe<fq_t>("0x0606c4a02ea734cc32acd2b02bc28b99cb3e287e85a763af267492ab572e99ab3f370d27"
                        "5cec1da1aaa9075ff05f79be")}};
};

}  // namespace zk::curves
