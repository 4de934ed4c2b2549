#pragma once
// A small circuit of bellperson's gadgets for the tests of bellperson's Groth16 (the generator,
// the key view): a few hundred constraints whose densities leave variables out of the A and B
// queries, three public inputs (ONE, a packed word, x²).
#include <array>
#include <cstdint>

#include "zk/bellperson/cs.hpp"
#include "zk/bellperson/gadgets/num.hpp"
#include "zk/bellperson/gadgets/uint32.hpp"

namespace zk::test {

using namespace zk::bellperson;

struct toy_values_t {
  std::array<uint32_t, 4> words{};
  fr_t x;
};

// A few hundred constraints: four words of 32 allocated bits, the sum of three and a constant
// mod 2^32 (uint32 addmany, MultiEq), xor'd with the fourth and with SHA-256's maj of three,
// whose bits are packed into an input (multipack); x² of a number x made public (inputize); and y =
// x·z in a constraint whose A also holds y with a coefficient that cancels to 0 (kept as a term,
// outside the A density) and whose B holds z, a variable no A holds.
template <class CS>
void toy_circuit(CS& cs, const toy_values_t& v) {
  using lc_t = typename CS::lc_t;
  std::array<uint32_g, 4> words;
  for (size_t j = 0; j < 4; ++j) {
    for (unsigned i = 0; i < 32; ++i)
      words[j].bits[i] = boolean_t::is(alloc_bit(cs, (v.words[j] >> i) & 1));
    words[j].value = v.words[j];
  }
  const uint32_g k = uint32_g::constant(0x6a09e667);
  const uint32_g* ops[4] = {&words[0], &words[1], &words[2], &k};
  uint32_g sum;
  {
    multieq_t<CS> meq(cs);
    sum = uint32_addmany(meq, ops, 4);
    meq.finish();
  }
  const uint32_g maj = uint32_sha256_maj(cs, words[0], words[1], words[3]);
  const uint32_g t = uint32_xor(cs, uint32_xor(cs, sum, words[3]), maj);
  pack_into_inputs(cs, t.bits.data(), 32);
  const num_t x = alloc_num(cs, v.x);
  inputize(cs, num_square(cs, x));
  const fr_t z = v.x + fr_t::from_u64(5), y = v.x * z;
  const var_t zv = cs.alloc(z), yv = cs.alloc(y);
  lc_t la;
  la.add_var(x.var, v.x).add_var(yv, y).sub_var(yv, y);
  lc_t lb;
  lb.add_var(zv, z);
  lc_t lc;
  lc.add_var(yv, y);
  cs.enforce(la, lb, lc);
}

}  // namespace zk::test
