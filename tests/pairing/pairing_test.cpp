// Fq6/Fq12 tower arithmetic and the optimal ate pairing on BN254 and BLS12-381:
// field axioms on random elements, Frobenius against a^q, cyclotomic squaring, bilinearity,
// order r, multi-pairing products, and known answers from snarkjs (ffjavascript/wasmcurves).
#include "zk/pairing/pairing.hpp"

#include <doctest/doctest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "tests/test_util.hpp"
#include "zk/ec/curves.hpp"

namespace {

namespace zp = zk::pairing;

template <class F>
F random_fp() {
  return zk::test::random_field<F>();
}
template <class P>
typename P::fq2_t random_fq2() {
  return zk::test::random_fq2<typename P::fq2_t>();
}
template <class P>
zp::fp6_t<P> random_fq6() {
  return {random_fq2<P>(), random_fq2<P>(), random_fq2<P>()};
}
template <class P>
zp::fp12_t<P> random_fq12() {
  return {random_fq6<P>(), random_fq6<P>()};
}

template <class F6, class Big>
F6 pow6(const F6& a, const Big& e) {
  F6 r = F6::one();
  for (int i = (int)e.num_bits() - 1; i >= 0; --i) {
    r = r.sqr();
    if (e.bit(i)) r = r * a;
  }
  return r;
}

// Per-curve bundle: point types and generators from zk/ec, pairing parameters.
template <class Curve>
struct suite_t {
  using curve_t = Curve;
  using params_t = typename zp::params_for_t<typename Curve::fq_t>::type;
  using tower_t = typename params_t::tower_t;
  using fq_t = typename Curve::fq_t;
  using fq2_t = typename Curve::fq2_t;
  using fr_t = typename Curve::fr_t;
  using fq6_t = zp::fp6_t<tower_t>;
  using fq12_t = zp::fp12_t<tower_t>;
  using g1 = typename Curve::g1_affine;
  using g2 = typename Curve::g2_affine;

  static g1 mul(const g1& p, const fr_t& k) {
    return Curve::g1_jacobian::from_affine(p).mul(k.to_canonical()).to_affine();
  }
  static g2 mul(const g2& p, const fr_t& k) {
    return Curve::g2_jacobian::from_affine(p).mul(k.to_canonical()).to_affine();
  }
  static fr_t random_fr() { return random_fp<fr_t>(); }
  static fq12_t easy_part(const fq12_t& f) {
    fq12_t t = f.conjugate() * f.inverse();
    return t.template frobenius_map<2>() * t;
  }
};
using bn254_suite_t = suite_t<zk::curves::bn254>;
using bls12_381_suite_t = suite_t<zk::curves::bls12_381>;

// Fq12 from snarkjs's nested decimal form [[[c0,c1] × 3] × 2] (vk_alphabeta_12).
template <class S>
typename S::fq12_t fq12_from_json(const nlohmann::json& j) {
  using fq_t = typename S::fq_t;
  typename S::fq12_t r{};
  typename S::fq6_t* halves[2] = {&r.c0, &r.c1};
  for (int i = 0; i < 2; ++i) {
    typename S::fq2_t* c[3] = {&halves[i]->c0, &halves[i]->c1, &halves[i]->c2};
    for (int k = 0; k < 3; ++k) {
      REQUIRE(fq_t::from_string(j.at(i).at(k).at(0).template get<std::string>(), c[k]->c0));
      REQUIRE(fq_t::from_string(j.at(i).at(k).at(1).template get<std::string>(), c[k]->c1));
    }
  }
  return r;
}

template <class S>
typename S::g1 g1_from_json(const nlohmann::json& j) {
  typename S::g1 p{};
  REQUIRE(S::fq_t::from_string(j.at(0).template get<std::string>(), p.x));
  REQUIRE(S::fq_t::from_string(j.at(1).template get<std::string>(), p.y));
  return p;
}
template <class S>
typename S::g2 g2_from_json(const nlohmann::json& j) {
  typename S::g2 p{};
  REQUIRE(S::fq_t::from_string(j.at(0).at(0).template get<std::string>(), p.x.c0));
  REQUIRE(S::fq_t::from_string(j.at(0).at(1).template get<std::string>(), p.x.c1));
  REQUIRE(S::fq_t::from_string(j.at(1).at(0).template get<std::string>(), p.y.c0));
  REQUIRE(S::fq_t::from_string(j.at(1).at(1).template get<std::string>(), p.y.c1));
  return p;
}

// e(G1, G2) as computed by snarkjs 0.7.6's ffjavascript 0.3.1 / wasmcurves 0.2.2:
//   const curve = await buildBn128();
//   curve.Gt.toObject(await curve.pairing(curve.G1.g, curve.G2.g))
// (and buildBls12381), printed with utils.stringifyBigInts. Generators as in docs/formats.md §5.
const char* const snarkjs_gen_pairing_bn254 = R"([
 [["17264119758069723980713015158403419364912226240334615592005620718956030922389",
   "1300711225518851207585954685848229181392358478699795190245709208408267917898"],
  ["8894217292938489450175280157304813535227569267786222825147475294561798790624",
   "1829859855596098509359522796979920150769875799037311140071969971193843357227"],
  ["4968700049505451466697923764727215585075098085662966862137174841375779106779",
   "12814315002058128940449527172080950701976819591738376253772993495204862218736"]],
 [["4233474252585134102088637248223601499779641130562251948384759786370563844606",
   "9420544134055737381096389798327244442442230840902787283326002357297404128074"],
  ["13457906610892676317612909831857663099224588803620954529514857102808143524905",
   "5122435115068592725432309312491733755581898052459744089947319066829791570839"],
  ["8891987925005301465158626530377582234132838601606565363865129986128301774627",
   "440796048150724096437130979851431985500142692666486515369083499585648077975"]]])";

const char* const snarkjs_gen_pairing_bls12_381 = R"([
 [["2819105605953691245277803056322684086884703000473961065716485506033588504203831029066448642358042597501014294104502",
   "1323968232986996742571315206151405965104242542339680722164220900812303524334628370163366153839984196298685227734799"],
  ["2987335049721312504428602988447616328830341722376962214011674875969052835043875658579425548512925634040144704192135",
   "3879723582452552452538684314479081967502111497413076598816163759028842927668327542875108457755966417881797966271311"],
  ["261508182517997003171385743374653339186059518494239543139839025878870012614975302676296704930880982238308326681253",
   "231488992246460459663813598342448669854473942105054381511346786719005883340876032043606739070883099647773793170614"]],
 [["3993582095516422658773669068931361134188738159766715576187490305611759126554796569868053818105850661142222948198557",
   "1074773511698422344502264006159859710502164045911412750831641680783012525555872467108249271286757399121183508900634"],
  ["2727588299083545686739024317998512740561167011046940249988557419323068809019137624943703910267790601287073339193943",
   "493643299814437640914745677854369670041080344349607504656543355799077485536288866009245028091988146107059514546594"],
  ["734401332196641441839439105942623141234148957972407782257355060229193854324927417865401895596108124443575283868655",
   "2348330098288556420918672502923664952620152483128593484301759394583320358354186482723629999370241674973832318248497"]]])";

template <class S>
const char* snarkjs_gen_pairing();
template <>
const char* snarkjs_gen_pairing<bn254_suite_t>() {
  return snarkjs_gen_pairing_bn254;
}
template <>
const char* snarkjs_gen_pairing<bls12_381_suite_t>() {
  return snarkjs_gen_pairing_bls12_381;
}
template <class S>
const char* fixture_dir();
template <>
const char* fixture_dir<bn254_suite_t>() {
  return "bn254";
}
template <>
const char* fixture_dir<bls12_381_suite_t>() {
  return "bls12_381";
}

}  // namespace

#define ZK_PAIRING_SUITES bn254_suite_t, bls12_381_suite_t

TEST_CASE_TEMPLATE("tower helpers and constants", S, ZK_PAIRING_SUITES) {
  using tower_t = typename S::tower_t;
  using fq2_t = typename S::fq2_t;
  const fq2_t xi = zp::tower_xi<tower_t>();
  for (int it = 0; it < 20; ++it) {
    auto a = random_fp<typename S::fq_t>();
    CHECK(zp::halve(a).dbl() == a);
    CHECK(zp::mul_small<9>(a) == a * S::fq_t::from_u64(9));
    auto b = random_fq2<tower_t>();
    CHECK(zp::mul_by_xi<tower_t>(b) == b * xi);
  }
  // ξ is neither a square nor a cube in Fq2 (so v³ − ξ and w² − v are irreducible):
  // ξ^((q²−1)/2) = g[1][3] = −1 and ξ^((q²−1)/3) = g[1][2] ≠ 1.
  const auto& g = zp::frobenius_table<tower_t>.g;
  CHECK(g[1][3] == -fq2_t::one());
  CHECK(!g[1][2].is_one());
  CHECK(g[0][1].pow(zk::ff::bigint_t<1>{{6}}) == xi.pow(S::fq_t::modulus) * xi.inverse());
  CHECK(g[0][0].is_one());
  // Elements of g[1] lie in Fq (norms).
  for (int j = 0; j < 6; ++j) CHECK(g[1][j].c1.is_zero());
}

TEST_CASE("signed digits reconstruct the loop counts") {
  const unsigned __int128 ns[] = {zp::bn254_params_t::ate_loop_abs,
                                  zp::bn254_params_t::x_abs,
                                  zp::bls12_381_params_t::x_abs,
                                  1,
                                  3,
                                  0x7fff};
  for (auto n : ns)
    for (unsigned w = 1; w <= 5; ++w) {
      auto s = zp::signed_digits(n, w);
      __int128 v = 0;
      for (int i = s.len - 1; i >= 0; --i) {
        v = 2 * v + s.d[i];
        if (s.d[i] != 0 && w >= 2) CHECK((s.d[i] & 1) != 0);
        CHECK(s.d[i] < (w == 1 ? 2 : 1 << (w - 1)));
        CHECK(s.d[i] > (w == 1 ? -1 : -(1 << (w - 1))));
      }
      CHECK(v == (__int128)n);
      CHECK(s.d[s.len - 1] > 0);
      if (w <= 2) CHECK(s.d[s.len - 1] == 1);
    }
  // 6x + 2 = 29793968203157093288 (wasmcurves ateLoopCount)
  CHECK(zp::bn254_params_t::ate_loop_abs == (unsigned __int128)2979396820315709328ULL * 10 + 8);
}

TEST_CASE_TEMPLATE("fq6 field axioms", S, ZK_PAIRING_SUITES) {
  using fq6_t = typename S::fq6_t;
  for (int it = 0; it < 20; ++it) {
    fq6_t a = random_fq6<typename S::tower_t>(), b = random_fq6<typename S::tower_t>(),
          c = random_fq6<typename S::tower_t>();
    CHECK((a * a.inverse()).is_one());
    CHECK(a * (b + c) == a * b + a * c);
    CHECK(a * b == b * a);
    CHECK((a * b) * c == a * (b * c));
    CHECK(a.sqr() == a * a);
    CHECK(a - a == fq6_t::zero());
    CHECK(a.mul_by_v() == a * fq6_t{S::fq2_t::zero(), S::fq2_t::one(), S::fq2_t::zero()});
    auto d0 = random_fq2<typename S::tower_t>(), d1 = random_fq2<typename S::tower_t>();
    CHECK(a.mul_by_01(d0, d1) == a * fq6_t{d0, d1, S::fq2_t::zero()});
    CHECK(a.mul_by_1(d1) == a * fq6_t{S::fq2_t::zero(), d1, S::fq2_t::zero()});
    CHECK((a * b).template frobenius_map<1>() ==
          a.template frobenius_map<1>() * b.template frobenius_map<1>());
    CHECK(a.template frobenius_map<2>() ==
          a.template frobenius_map<1>().template frobenius_map<1>());
    CHECK(a.template frobenius_map<3>() ==
          a.template frobenius_map<2>().template frobenius_map<1>());
  }
  CHECK(fq6_t::zero().inverse().is_zero());
  fq6_t a = random_fq6<typename S::tower_t>();
  CHECK(a.template frobenius_map<1>() == pow6(a, S::fq_t::modulus));
  fq6_t f = a;
  for (int i = 0; i < 6; ++i) f = f.template frobenius_map<1>();
  CHECK(f == a);  // a^(q⁶) = a on Fq6
}

TEST_CASE_TEMPLATE("fq12 field axioms and Frobenius", S, ZK_PAIRING_SUITES) {
  using fq12_t = typename S::fq12_t;
  using tower_t = typename S::tower_t;
  for (int it = 0; it < 10; ++it) {
    fq12_t a = random_fq12<tower_t>(), b = random_fq12<tower_t>(), c = random_fq12<tower_t>();
    CHECK((a * a.inverse()).is_one());
    CHECK(a * (b + c) == a * b + a * c);
    CHECK(a * b == b * a);
    CHECK((a * b) * c == a * (b * c));
    CHECK(a.sqr() == a * a);
    CHECK(a.conjugate() == a.template frobenius_map<3>().template frobenius_map<3>());
    for (int k = 1; k <= 3; ++k) {
      auto frob = [k](const fq12_t& x) {
        return k == 1   ? x.template frobenius_map<1>()
               : k == 2 ? x.template frobenius_map<2>()
                        : x.template frobenius_map<3>();
      };
      CHECK(frob(a * b) == frob(a) * frob(b));
      CHECK(frob(a + b) == frob(a) + frob(b));
    }
    CHECK(a.template frobenius_map<2>() ==
          a.template frobenius_map<1>().template frobenius_map<1>());
    CHECK(a.template frobenius_map<3>() ==
          a.template frobenius_map<2>().template frobenius_map<1>());
    fq12_t f = a;
    for (int i = 0; i < 12; ++i) f = f.template frobenius_map<1>();
    CHECK(f == a);
    f = a;
    for (int i = 0; i < 4; ++i) f = f.template frobenius_map<3>();
    CHECK(f == a);

    // Sparse line products against full products.
    auto d0 = random_fq2<tower_t>(), d1 = random_fq2<tower_t>(), d2 = random_fq2<tower_t>();
    auto z = S::fq2_t::zero();
    CHECK(a.mul_by_034(d0, d1, d2) == a * fq12_t{{d0, z, z}, {d1, d2, z}});
    CHECK(a.mul_by_014(d0, d1, d2) == a * fq12_t{{d0, d1, z}, {z, d2, z}});
  }
  CHECK(fq12_t::zero().inverse().is_zero());
  fq12_t a = random_fq12<tower_t>();
  CHECK(a.template frobenius_map<1>() == a.pow(S::fq_t::modulus));
}

TEST_CASE_TEMPLATE("cyclotomic squaring and exponentiation by x", S, ZK_PAIRING_SUITES) {
  using params_t = typename S::params_t;
  for (int it = 0; it < 5; ++it) {
    auto f = S::easy_part(random_fq12<typename S::tower_t>());
    // In the cyclotomic subgroup: f^(q⁴ − q² + 1) = 1, i.e. f^(q⁴)·f = f^(q²).
    CHECK(f.template frobenius_map<2>().template frobenius_map<2>() * f ==
          f.template frobenius_map<2>());
    CHECK(f.cyclotomic_sqr() == f.sqr());
    CHECK(f.conjugate() * f == S::fq12_t::one());
    zk::ff::bigint_t<1> x{{params_t::x_abs}};
    auto fx = f.pow(x);
    if (params_t::x_negative) fx = fx.conjugate();
    CHECK(zp::cyclotomic_exp_by_x<params_t>(f) == fx);
  }
}

TEST_CASE_TEMPLATE("final exponentiation lands in GT", S, ZK_PAIRING_SUITES) {
  auto f = zp::final_exponentiation<typename S::params_t>(random_fq12<typename S::tower_t>());
  CHECK(!f.is_one());
  CHECK(f.pow(S::fr_t::modulus).is_one());
}

TEST_CASE_TEMPLATE("pairing: non-degenerate, order r, bilinear", S, ZK_PAIRING_SUITES) {
  const auto g1 = S::curve_t::g1_generator;
  const auto g2 = S::curve_t::g2_generator;
  REQUIRE(g1.is_on_curve());
  REQUIRE(g2.is_on_curve());
  auto e = zp::pairing(g1, g2);
  CHECK(!e.is_one());
  CHECK(e.pow(S::fr_t::modulus).is_one());
  CHECK(zp::pairing(S::g1::infinity(), g2).is_one());
  CHECK(zp::pairing(g1, S::g2::infinity()).is_one());
  CHECK(zp::pairing(-g1, g2) == e.conjugate());  // e(−P, Q) = e(P, Q)⁻¹

  for (int it = 0; it < 3; ++it) {
    auto a = S::random_fr(), b = S::random_fr();
    auto ap = S::mul(g1, a);
    auto bq = S::mul(g2, b);
    auto lhs = zp::pairing(ap, bq);
    CHECK(lhs == e.pow((a * b).to_canonical()));
    CHECK(lhs == zp::pairing(S::mul(g1, a * b), g2));
    CHECK(lhs == zp::pairing(g1, S::mul(g2, a * b)));
  }
}

TEST_CASE_TEMPLATE("pairing_product_is_one", S, ZK_PAIRING_SUITES) {
  const auto g1 = S::curve_t::g1_generator;
  const auto g2 = S::curve_t::g2_generator;
  auto a = S::random_fr(), b = S::random_fr();
  auto ap = S::mul(g1, a), bq = S::mul(g2, b);
  auto neg_abp = -S::mul(g1, a * b);
  CHECK(zp::pairing_product_is_one({std::pair{ap, bq}, std::pair{neg_abp, g2}}));
  // Perturbed: (ab + 1)P instead of abP; and a swapped G2 point.
  auto bad = -S::mul(g1, a * b + S::fr_t::one());
  CHECK(!zp::pairing_product_is_one({std::pair{ap, bq}, std::pair{bad, g2}}));
  CHECK(!zp::pairing_product_is_one({std::pair{ap, g2}, std::pair{neg_abp, g2}}));
  // Pairs with infinity contribute 1; the empty product is 1.
  CHECK(zp::pairing_product_is_one(
      {std::pair{ap, bq}, std::pair{S::g1::infinity(), g2}, std::pair{neg_abp, g2}}));
  CHECK(zp::pairing_product_is_one<typename S::g1, typename S::g2>(nullptr, 0));

  // Groth16 shape with four pairs, and more pairs than one Miller chunk (8).
  std::vector<std::pair<typename S::g1, typename S::g2>> pairs;
  auto sum = S::fr_t::zero();
  for (int i = 0; i < 10; ++i) {
    auto s = S::random_fr(), t = S::random_fr();
    pairs.emplace_back(S::mul(g1, s), S::mul(g2, t));
    sum = sum + s * t;
  }
  auto prod = zp::pairing_product(pairs.data(), pairs.size());
  auto expect = S::fq12_t::one();
  for (auto& pq : pairs) expect = expect * zp::pairing(pq.first, pq.second);
  CHECK(prod == expect);
  pairs.emplace_back(-S::mul(g1, sum), g2);
  CHECK(zp::pairing_product_is_one(pairs.data(), pairs.size()));
  CHECK(zp::pairing_product_is_one(pairs.data() + 6, 5) == false);
}

TEST_CASE_TEMPLATE("known answer: e(G1, G2) as snarkjs computes it", S, ZK_PAIRING_SUITES) {
  auto expect = fq12_from_json<S>(nlohmann::json::parse(snarkjs_gen_pairing<S>()));
  CHECK(zp::pairing(S::curve_t::g1_generator, S::curve_t::g2_generator) == expect);
}

TEST_CASE_TEMPLATE("known answer: vk_alphabeta_12 of the snarkjs fixture", S, ZK_PAIRING_SUITES) {
  std::string path = std::string(ZK_SOURCE_DIR) + "/tests/fixtures/" + fixture_dir<S>() +
                     "/mulchain/verification_key.json";
  std::ifstream in(path);
  if (!in) {
    MESSAGE("skipped: no fixture at " << path);
    return;
  }
  auto vk = nlohmann::json::parse(in);
  auto alpha = g1_from_json<S>(vk.at("vk_alpha_1"));
  auto beta = g2_from_json<S>(vk.at("vk_beta_2"));
  REQUIRE(alpha.is_on_curve());
  REQUIRE(beta.is_on_curve());
  auto expect = fq12_from_json<S>(vk.at("vk_alphabeta_12"));
  CHECK(zp::pairing(alpha, beta) == expect);
}
