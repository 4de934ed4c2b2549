// Boolean and field gadgets: right values and satisfied on honest witnesses, unsatisfied when an
// output (or input bit) is tampered with.
#include <doctest/doctest.h>

#include "tests/circuit/circuit_util.hpp"
#include "zk/circuit/gadgets_bits.hpp"

using namespace zk;
using namespace zk::circuit;

TEST_CASE_TEMPLATE("boolean gadgets on every input", Fr, ZK_CIRCUIT_FIELDS) {
  for (unsigned v = 0; v < 8; ++v) {
    const bool a = v & 1, b = v & 2, c = v & 4;
    shape_cs_t<Fr> cs;
    auto wa = alloc_bit(cs, a), wb = alloc_bit(cs, b), wc = alloc_bit(cs, c);
    const uint32_t first = cs.n_wires();
    auto x = xor2(cs, wa, wb);
    auto n = and2(cs, wa, wb);
    auto h = ch(cs, wa, wb, wc);
    auto m = maj(cs, wa, wb, wc);
    CHECK(x.value == (a != b ? Fr::one() : Fr::zero()));
    CHECK(n.value == (a && b ? Fr::one() : Fr::zero()));
    CHECK(h.value == ((a ? b : c) ? Fr::one() : Fr::zero()));
    CHECK(m.value == ((int(a) + int(b) + int(c) >= 2) ? Fr::one() : Fr::zero()));
    CHECK(cs.n_constraints() == 3 + 1 + 1 + 1 + 2);
    // Every wire made by the gadgets (outputs and maj's inner product) is pinned.
    std::vector<uint32_t> wires;
    for (uint32_t i = first; i < cs.n_wires(); ++i) wires.push_back(i);
    auto w = cs.witness();
    auto shape = cs.take_shape();
    CHECK(first_unsatisfied(shape, w) == -1);
    for (uint32_t i : wires) {
      auto bad = w;
      bad[i] = Fr::one() - bad[i];  // flip a boolean output
      CHECK_MESSAGE(first_unsatisfied(shape, bad) >= 0, "inputs " << v << ", wire " << i);
    }
    // A non-boolean input is caught by booleanity.
    auto bad = w;
    bad[1] = Fr::from_u64(2);
    CHECK(first_unsatisfied(shape, bad) >= 0);
  }
}

TEST_CASE_TEMPLATE("bit decomposition", Fr, ZK_CIRCUIT_FIELDS) {
  shape_cs_t<Fr> cs;
  const uint64_t v = 0xdeadbeefcafe1234ULL;
  auto x = cs.alloc(Fr::from_u64(v));
  std::vector<lc_of_t<shape_cs_t<Fr>>> bits(64);
  to_bits(cs, x, 64, bits.data());
  CHECK(cs.n_constraints() == 65);
  for (unsigned i = 0; i < 64; ++i)
    CHECK(bits[i].value == (((v >> i) & 1) ? Fr::one() : Fr::zero()));
  CHECK(pack_bits<shape_cs_t<Fr>>(bits.data(), 64).value == x.value);
  auto w = cs.witness();
  auto shape = cs.take_shape();
  CHECK(first_unsatisfied(shape, w) == -1);
  auto bad = w;
  bad[2] = Fr::one() - bad[2];                 // flip bit 0
  CHECK(first_unsatisfied(shape, bad) == 64);  // the recomposition row
  bad = w;
  bad[1] += Fr::one();  // x itself
  CHECK(first_unsatisfied(shape, bad) == 64);
  // Two bits traded for a non-boolean value with the same sum: booleanity catches it.
  bad = w;
  REQUIRE(((v >> 2) & 3) == 1);  // bits 2, 3 = 1, 0
  bad[2 + 2] = -Fr::one();       // 2^2·(−1) + 2^3·1 = 2^2·1 + 2^3·0
  bad[2 + 3] = Fr::one();
  CHECK(first_unsatisfied(shape, bad) >= 0);
  CHECK(first_unsatisfied(shape, bad) < 64);

  shape_cs_t<Fr> big;
  auto y = big.alloc(Fr::from_u64(1) + Fr::from_u64(~0ULL));  // 2^64
  CHECK_THROWS_AS(to_bits(big, y, 64, bits.data()), std::invalid_argument);
  CHECK_THROWS_AS(to_bits(big, y, 254, bits.data()), std::invalid_argument);
}

TEST_CASE_TEMPLATE("mul and enforce_equal", Fr, ZK_CIRCUIT_FIELDS) {
  shape_cs_t<Fr> cs;
  auto a = cs.alloc(Fr::from_u64(6)), b = cs.alloc(Fr::from_u64(7));
  auto p = mul(cs, a + cs.one(), b);  // (6 + 1)·7
  CHECK(p.value == Fr::from_u64(49));
  auto q = cs.alloc(Fr::from_u64(49));
  enforce_equal(cs, p, q);
  test::check_shape(cs, {3, 4});
}

// The pattern that GCC 12 miscompiled while common/ff's asm typed its "m" operands as an
// unrelated struct (fixed in 40ee971): a product assigned over one of its own operands, in
// native mode where nothing else keeps the operand in memory.
TEST_CASE_TEMPLATE("native mode: a product assigned over its operand", Fr, ZK_CIRCUIT_FIELDS) {
  native_cs_t<Fr> cs;
  value_lc_t<Fr> x{Fr::from_u64(3)};
  auto x2 = mul(cs, x, x);
  auto x4 = mul(cs, x2, x2);
  x = mul(cs, x4, x);
  CHECK(x.value == Fr::from_u64(243));
}
