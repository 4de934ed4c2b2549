// zk/bellperson: the constraint systems' bookkeeping and every gadget against known values — the
// native SHA-256 and Poseidon (zk/filecoin), bellperson's and storage-proofs' own constraint
// counts, SDR labels of zk/filecoin/porep/vanilla/labels — in prove mode (values, every constraint
// satisfied), shape mode (terms) and count mode.
#include "zk/filecoin/porep/circuit/gadgets.hpp"

#include <doctest/doctest.h>

#include <cstring>
#include <random>
#include <vector>

#include "zk/base/hex.hpp"
#include "zk/base/sha256.hpp"
#include "zk/bellperson/cs.hpp"
#include "zk/bellperson/gadgets/sha256.hpp"
#include "zk/filecoin/porep/circuit/public_inputs.hpp"
#include "zk/filecoin/porep/vanilla/labels.hpp"
#include "zk/neptune/circuit.hpp"
#include "zk/neptune/poseidon.hpp"

using namespace zk::bellperson;
using zk::bytes32_t;

namespace {

std::mt19937_64& rng() {
  static std::mt19937_64 g(20240531);
  return g;
}

fr_t random_fr() {
  for (;;) {
    fr_t::big_t v{};
    for (int i = 0; i < 4; ++i) v.l[i] = rng()();
    v.l[3] &= (uint64_t(1) << 63) - 1;
    if (zk::ff::big_lt(v, fr_t::modulus)) return fr_t::from_canonical(v);
  }
}

// A prove-mode system over its own arrays (ONE allocated), with a satisfaction check.
struct prover_t {
  std::vector<fr_t> inputs, aux, a, b, c;
  prove_cs_t cs;
  explicit prover_t(counts_t cap = {64, 1 << 14, 1 << 14})
      : inputs(cap.inputs),
        aux(cap.aux),
        a(cap.constraints),
        b(cap.constraints),
        c(cap.constraints),
        cs(view(cap), counts_t{}, cap) {
    cs.alloc_input(fr_t::one());
  }
  assignment_view_t view(counts_t cap) {
    return assignment_view_t{inputs.data(), aux.data(), a.data(), b.data(), c.data(), cap};
  }
  // -1 when every constraint holds, else the first that does not.
  int64_t first_unsatisfied() const {
    for (uint32_t i = 0; i < cs.counts().constraints; ++i)
      if (a[i] * b[i] != c[i]) return i;
    return -1;
  }
};

bool bits_of(const boolean_t* bits, const bytes32_t& d) {
  for (unsigned i = 0; i < 256; ++i)
    if (bits[i].value != bool((d[i / 8] >> (7 - i % 8)) & 1)) return false;
  return true;
}

}  // namespace

TEST_CASE("bellperson cs: linear combinations keep bellpepper's order and cancelled terms") {
  term_lc_t lc;
  lc.add_var(var_t::aux(5), fr_t{}).add_var(var_t::input(2), fr_t{}).add_bit(var_t::aux(1), true);
  lc.sub_var(var_t::aux(5), fr_t{}).add_one(fr_t::from_u64(7));
  const auto& t = lc.terms();
  REQUIRE(t.size() == 4);
  CHECK(t[0].var == one_var);  // inputs first, by index
  CHECK(t[0].coeff == fr_t::from_u64(7));
  CHECK(t[1].var == var_t::input(2));
  CHECK(t[2].var == var_t::aux(1));
  CHECK(t[3].var == var_t::aux(5));
  CHECK(t[3].coeff.is_zero());  // cancelled, kept (bellpepper's Indexer never removes a term)
  term_lc_t scaled;
  scaled.add_lc(fr_t::from_u64(3), lc);
  CHECK(scaled.terms()[1].coeff == fr_t::from_u64(3));
  CHECK(scaled.terms()[3].coeff.is_zero());

  // A variable whose only B term cancelled is outside the B density; the A density ignores inputs.
  shape_cs_t cs;
  const var_t x = cs.alloc(fr_t{}), y = cs.alloc(fr_t{});
  const var_t in = cs.alloc_input(fr_t{});
  term_lc_t a, b, c;
  a.add_var(in, fr_t{}).add_var(x, fr_t{});
  b.add_var(y, fr_t{}).sub_var(y, fr_t{}).add_var(in, fr_t{});
  cs.enforce(a, b, c);
  const r1cs_shape_t s = cs.finish();
  CHECK(s.counts == counts_t{2, 2, 1});
  CHECK(s.a_aux.test(x.index()));
  CHECK(!s.a_aux.test(y.index()));
  CHECK(!s.b_aux.test(y.index()));
  CHECK(s.b_input.test(in.index()));
  CHECK(s.b_input.count() == 1);
  CHECK(s.terms == 4);
  CHECK(s.a.row_ptr == std::vector<uint64_t>{0, 2});
  CHECK(s.b.var == std::vector<uint32_t>{in.raw, y.raw});
}

TEST_CASE("bellperson cs: the digest names every term, with or without the matrices") {
  auto build = [](bool matrices, const fr_t& k) {
    shape_cs_t cs(matrices);
    const var_t x = cs.alloc(fr_t{});
    term_lc_t a, b, c;
    a.add_var(k, x, fr_t{});
    b.add_one();
    c.add_var(x, fr_t{});
    cs.enforce(a, b, c);
    return cs.finish();
  };
  const auto s1 = build(true, fr_t::from_u64(2)), s2 = build(false, fr_t::from_u64(2));
  const auto s3 = build(true, fr_t::from_u64(3));
  CHECK(s1.digest == s2.digest);
  CHECK(s1.digest != s3.digest);
  CHECK(!s2.has_matrices);
  CHECK(s2.a.var.empty());
}

TEST_CASE("bellperson cs: prove mode refuses to leave its range") {
  std::vector<fr_t> in(2), aux(3), a(2), b(2), c(2);
  const counts_t cap{2, 3, 2};
  prove_cs_t cs(assignment_view_t{in.data(), aux.data(), a.data(), b.data(), c.data(), cap},
                counts_t{}, cap);
  cs.alloc_input(fr_t::one());
  for (int i = 0; i < 3; ++i) cs.alloc(fr_t::from_u64(uint64_t(i)));
  CHECK_THROWS_AS(cs.alloc(fr_t{}), std::length_error);
  value_lc_t l;
  l.add_one();
  cs.enforce(l, l, l);
  cs.enforce(l, l, l);
  CHECK_THROWS_AS(cs.enforce(l, l, l), std::length_error);
  CHECK(a[0] == fr_t::one());
  // value_lc_t: the integer part and the field part add up.
  value_lc_t v;
  v.add_bit(var_t::aux(0), true).add_bit_pow2(45, var_t::aux(1), true).sub_one(fr_t::from_u64(3));
  CHECK(v.value() == zk::bellperson::pow2_fr(45) - fr_t::from_u64(2));
  CHECK(fr_from_i64(-1000) == -fr_t::from_u64(1000));
}

TEST_CASE("bellperson boolean: every operation on every kind of operand") {
  // Boolean kinds: constant false/true, Is(bit), Not(bit), with both values of the bit.
  struct operand_t {
    int kind;  // 0 constant, 1 is, 2 not
    bool value;
  };
  std::vector<operand_t> ops;
  for (int k = 0; k < 3; ++k)
    for (bool v : {false, true}) ops.push_back({k, v});
  auto make = [](prover_t& p, const operand_t& o) {
    if (o.kind == 0) return boolean_t::constant(o.value);
    const bit_t b = alloc_bit(p.cs, o.kind == 1 ? o.value : !o.value);
    return o.kind == 1 ? boolean_t::is(b) : boolean_t::is(b).negate();
  };
  for (const auto& x : ops)
    for (const auto& y : ops) {
      prover_t p;
      const boolean_t a = make(p, x), b = make(p, y);
      CHECK(a.value == x.value);
      const uint32_t before = p.cs.counts().constraints;
      const boolean_t r_xor = boolean_xor(p.cs, a, b);
      const boolean_t r_and = boolean_and(p.cs, a, b);
      CHECK(r_xor.value == (x.value != y.value));
      CHECK(r_and.value == (x.value && y.value));
      // A constant operand costs nothing; two allocated ones one constraint each.
      const uint32_t expected = (x.kind && y.kind) ? 2 : 0;
      CHECK(p.cs.counts().constraints - before == expected);
      for (const auto& z : ops) {
        const boolean_t c = make(p, z);
        const boolean_t ch = sha256_ch(p.cs, a, b, c);
        const boolean_t maj = sha256_maj(p.cs, a, b, c);
        CHECK(ch.value == ((x.value && y.value) != (!x.value && z.value)));
        CHECK(maj.value == (int(x.value) + int(y.value) + int(z.value) >= 2));
      }
      CHECK(p.first_unsatisfied() == -1);
    }
  // The terms, as boolean.rs writes them: xor (a + a)·b = a + b − r; maj: b ∧ c first, then
  // (bc + bc − b − c)·a = bc − maj.
  shape_cs_t cs;
  const bit_t a = alloc_bit(cs, false), b = alloc_bit(cs, false), c = alloc_bit(cs, false);
  bit_xor(cs, a, b);
  sha256_maj(cs, boolean_t::is(a), boolean_t::is(b).negate(), boolean_t::is(c));
  const r1cs_shape_t s = cs.finish();
  REQUIRE(s.counts == counts_t{1, 6, 6});
  auto row = [&](const r1cs_matrix_t& m, uint64_t i) {
    std::vector<std::pair<uint32_t, fr_t>> t;
    for (uint64_t k = m.row_ptr[i]; k < m.row_ptr[i + 1]; ++k)
      t.push_back({m.var[k], s.coeffs[m.coeff[k]]});
    return t;
  };
  using terms = std::vector<std::pair<uint32_t, fr_t>>;
  const fr_t one = fr_t::one(), two = fr_t::from_u64(2);
  CHECK(row(s.a, 0) == terms{{one_var.raw, one}, {a.var.raw, -one}});  // (1 − a)·a = 0
  CHECK(row(s.b, 0) == terms{{a.var.raw, one}});
  CHECK(row(s.c, 0).empty());
  CHECK(row(s.a, 3) == terms{{a.var.raw, two}});
  CHECK(row(s.b, 3) == terms{{b.var.raw, one}});
  CHECK(row(s.c, 3) == terms{{a.var.raw, one}, {b.var.raw, one}, {var_t::aux(3).raw, -one}});
  // maj (aux 4), then ¬b ∧ c = and_not(c, b) (aux 5), then the maj constraint.
  CHECK(row(s.a, 4) == terms{{c.var.raw, one}});
  CHECK(row(s.b, 4) == terms{{one_var.raw, one}, {b.var.raw, -one}});
  CHECK(row(s.c, 4) == terms{{var_t::aux(5).raw, one}});
  // bc + bc − (1 − b) − c: ONE −1, b +1, c −1, bc +2.
  CHECK(row(s.a, 5) ==
        terms{{one_var.raw, -one}, {b.var.raw, one}, {c.var.raw, -one}, {var_t::aux(5).raw, two}});
  CHECK(row(s.b, 5) == terms{{a.var.raw, one}});
  CHECK(row(s.c, 5) == terms{{var_t::aux(4).raw, -one}, {var_t::aux(5).raw, one}});
}

TEST_CASE("bellperson sha256: the gadget computes SHA-256, with bellperson's constraint counts") {
  for (size_t len : {0, 1, 31, 55, 56, 63, 64, 65, 119, 128, 200}) {
    std::vector<uint8_t> msg(len);
    for (auto& x : msg) x = uint8_t(rng()());
    prover_t p({64, 1 << 17, 1 << 17});
    std::vector<boolean_t> bits(8 * len);
    for (size_t i = 0; i < 8 * len; ++i)
      bits[i] = boolean_t::is(alloc_bit(p.cs, (msg[i / 8] >> (7 - i % 8)) & 1));
    boolean_t digest[256];
    sha256_bits(p.cs, bits.data(), bits.size(), digest);
    INFO("length " << len);
    CHECK(bits_of(digest, zk::sha256(msg.data(), msg.size())));
    CHECK(p.first_unsatisfied() == -1);
  }
  // bellperson gadgets/sha256.rs tests: a compression of an allocated block 25,840 constraints,
  // SHA-256 of 512 allocated bits 44,874, the empty message's block (all constants) none.
  count_cs_t cs;
  std::vector<boolean_t> bits(512);
  for (auto& b : bits) b = boolean_t::is(alloc_bit(cs, false));
  const uint32_t after_bits = cs.counts().constraints;
  std::array<uint32_g, 8> state;
  for (unsigned j = 0; j < 8; ++j) state[j] = uint32_g::constant(zk::sha256_iv[j]);
  sha256_compression(cs, bits.data(), state);
  CHECK(cs.counts().constraints - after_bits == 25840);
  count_cs_t cs2;
  for (auto& b : bits) b = boolean_t::is(alloc_bit(cs2, true));
  boolean_t digest[256];
  sha256_bits(cs2, bits.data(), 512, digest);
  CHECK(cs2.counts().constraints - 512 == 44874);
  count_cs_t cs3;
  sha256_bits(cs3, bits.data(), 0, digest);
  CHECK(cs3.counts().constraints == 0);
  CHECK(bits_of(digest, zk::sha256(nullptr, 0)));
}

TEST_CASE("bellperson uint32: addmany of allocated and constant words, mod 2^32") {
  for (int round = 0; round < 20; ++round) {
    prover_t p;
    multieq_t<prove_cs_t> meq(p.cs);
    const unsigned n = 2 + unsigned(rng()() % 9);
    std::vector<uint32_g> words(n);
    const uint32_g* ops[10];
    uint32_t expected = 0;
    for (unsigned j = 0; j < n; ++j) {
      const uint32_t v = uint32_t(rng()());
      if (j % 3 == 2) {
        words[j] = uint32_g::constant(v);
      } else {
        for (unsigned i = 0; i < 32; ++i)
          words[j].bits[i] = boolean_t::is(alloc_bit(p.cs, (v >> i) & 1));
        words[j].value = v;
      }
      expected += v;
      ops[j] = &words[j];
    }
    const uint32_g r = uint32_addmany(meq, ops, n);
    meq.finish();
    CHECK(r.value == expected);
    uint32_t from_bits = 0;
    for (unsigned i = 0; i < 32; ++i) from_bits |= uint32_t(r.bits[i].value) << i;
    CHECK(from_bits == expected);
    CHECK(p.first_unsatisfied() == -1);
  }
}

TEST_CASE("bellperson multipack: pack_into_inputs is compute_multipacking, 254 bits an input") {
  for (size_t n : {0, 1, 64, 253, 254, 255, 600}) {
    prover_t p;
    std::vector<boolean_t> bits(n);
    std::vector<bool> v(n);
    for (size_t i = 0; i < n; ++i) {
      v[i] = rng()() & 1;
      bits[i] = i % 5 == 4 ? boolean_t::constant(v[i]) : boolean_t::is(alloc_bit(p.cs, v[i]));
    }
    const uint32_t inputs_before = p.cs.counts().inputs;
    pack_into_inputs(p.cs, bits.data(), n);
    CHECK(p.cs.counts().inputs - inputs_before == (n + 253) / 254);
    for (size_t k = 0; k * 254 < n; ++k) {
      fr_t want{};
      for (size_t i = k * 254; i < std::min(n, (k + 1) * 254); ++i)
        if (v[i]) want += pow2_fr(unsigned(i - k * 254));
      CHECK(p.inputs[inputs_before + k] == want);
    }
    CHECK(p.first_unsatisfied() == -1);
  }
}

TEST_CASE("bellperson num: to_bits_le and inputize") {
  prover_t p;
  const fr_t x = random_fr();
  const num_t n = alloc_num(p.cs, x);
  bit_t bits[255];
  num_to_bits_le(p.cs, n, bits);
  const auto c = x.to_canonical();
  for (unsigned i = 0; i < 255; ++i) CHECK(bits[i].value == c.bit(i));
  inputize(p.cs, n);
  CHECK(p.inputs[1] == x);
  CHECK(p.cs.counts() == counts_t{2, 256, 257});
  CHECK(p.first_unsatisfied() == -1);
}

TEST_CASE("neptune poseidon circuit: equals the native hash, 311 and 598 constraints (hash.rs)") {
  for (unsigned arity : {2u, 4u, 8u, 11u}) {
    const auto& k = zk::neptune::poseidon_constants(arity);
    prover_t p;
    std::vector<fr_t> in(arity);
    std::vector<num_t> nums(arity);
    for (unsigned i = 0; i < arity; ++i) nums[i] = alloc_num(p.cs, in[i] = random_fr());
    const uint32_t before = p.cs.counts().constraints;
    const num_t h = zk::neptune::poseidon_hash(p.cs, nums.data(), k);
    CHECK(h.value == zk::neptune::poseidon_hash(k, in.data()));
    CHECK(p.aux[h.var.index()] == h.value);
    CHECK(p.first_unsatisfied() == -1);
    const uint32_t n = p.cs.counts().constraints - before;
    // 3·arity + 4·t·(R_F − 1) + 4·R_P + 1
    CHECK(n == 3 * arity + 4 * k.width * (k.full_rounds - 1) + 4 * k.partial_rounds + 1);
    if (arity == 2) CHECK(n == 311);
    if (arity == 11) CHECK(n == 598);
  }
}

TEST_CASE("storage-proofs insertion: every position of arity 2, 4 and 8") {
  for (unsigned arity : {2u, 4u, 8u}) {
    for (unsigned index = 0; index < arity; ++index) {
      prover_t p;
      const num_t x = alloc_num(p.cs, fr_t::from_u64(1000));
      std::vector<num_t> el(arity - 1);
      for (unsigned i = 0; i + 1 < arity; ++i) el[i] = alloc_num(p.cs, fr_t::from_u64(i + 1));
      boolean_t bits[3];
      for (unsigned k = 0; (1u << k) < arity; ++k)
        bits[k] = boolean_t::is(alloc_bit(p.cs, (index >> k) & 1));
      const uint32_t before = p.cs.counts().constraints;
      num_t out[8];
      zk::filecoin::circuit_detail::insert(p.cs, x, bits, el.data(), arity, out);
      // insert_2: 2 picks; insert_4: 8; insert_8: nor, and and 20 picks.
      CHECK(p.cs.counts().constraints - before == (arity == 2 ? 2u : arity == 4 ? 8u : 22u));
      for (unsigned pos = 0; pos < arity; ++pos) {
        const uint64_t want = pos == index ? 1000 : (pos < index ? pos + 1 : pos);
        CHECK(out[pos].value == fr_t::from_u64(want));
      }
      CHECK(p.first_unsatisfied() == -1);
    }
  }
}

// storage-proofs-porep stacked/circuit/create_label.rs test_create_label: the label of node 22 in
// layer 3 from a replica id and 37 parent labels allocated as bits (bytes_into_boolean_vec_be),
// 532,025 constraints, equal to the native label (create_label_exp).
TEST_CASE("create_label: 532,025 constraints and the label SDR computes") {
  bytes32_t id = zk::filecoin::fr_to_bytes(random_fr());
  std::vector<bytes32_t> parents(zk::filecoin::label_parents);
  for (auto& q : parents) q = zk::filecoin::fr_to_bytes(random_fr());
  prover_t p({64, 1 << 20, 1 << 20});
  auto alloc_bytes = [&](const bytes32_t& b, boolean_t* out) {
    for (unsigned i = 0; i < 256; ++i)
      out[i] = boolean_t::is(alloc_bit(p.cs, (b[i / 8] >> (7 - i % 8)) & 1));
  };
  std::vector<std::array<boolean_t, 256>> pbits(parents.size());
  const boolean_t* slots[37];
  for (size_t k = 0; k < parents.size(); ++k) {
    alloc_bytes(parents[k], pbits[k].data());
    slots[k] = pbits[k].data();
  }
  boolean_t idbits[256];
  alloc_bytes(id, idbits);
  boolean_t node[64];
  for (unsigned i = 0; i < 64; ++i) node[i] = boolean_t::constant((uint64_t(22) >> i) & 1);
  const num_t label = zk::filecoin::circuit_detail::create_label(p.cs, idbits, slots, 37, 3, node);
  CHECK(p.cs.counts().constraints == 532025);
  CHECK(p.first_unsatisfied() == -1);
  const bytes32_t want =
      zk::filecoin::sdr_label_from_parents(id, 3, 22, parents.data(), parents.size());
  CHECK(zk::to_hex(zk::filecoin::fr_to_bytes(label.value)) == zk::to_hex(want));
}
