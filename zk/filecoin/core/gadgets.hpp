#pragma once
// storage-proofs-core 19.1.0's gadgets (src/gadgets/: constraint.rs, encode.rs, uint64.rs,
// insertion.rs, por.rs; src/util.rs reverse_bit_numbering) and filecoin-hashers 14.1.0's circuit
// hashes (src/sha256.rs, src/poseidon.rs), over the bellperson-faithful constraint systems of
// zk/bellperson/cs.hpp, in the Rust code's allocation order.
//
//   equal(a, b)                 a·1 = b                                          1
//   add(a, b) (encode)          s = a + b, (a + b)·1 = s                         1
//   pick(cond, a, b)            c = cond ? a : b, (b − a)·cond = b − c           1
//   insert(x, bits, elements)   x placed among arity − 1 siblings at the index the bits give:
//                               arity 2: 2 picks; 4: 8 picks; 8: nor + and + 20 picks (22)
//   uint64 alloc                64 AllocatedBits, least significant first        64
//   sha256 leaf hash            bits of each leaf (255 + 1 for the sum), each leaf's bytes
//                               bit-reversed, SHA-256, the digest's first 254 bits (bytes
//                               bit-reversed) packed into a number
//   poseidon leaf hash          neptune's circuit over the leaves (zk/neptune/circuit.hpp)
//   inclusion (PoR, private)    per path element: log2(arity) index bits, the arity − 1 siblings
//                               allocated, insert, hash; then the index bits of the whole path
//                               packed into one public input, and computed root·1 = root
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "zk/bellperson/gadgets/num.hpp"
#include "zk/bellperson/gadgets/sha256.hpp"
#include "zk/filecoin/core/merkle.hpp"
#include "zk/neptune/circuit.hpp"

namespace zk::filecoin {

using bellperson::bit_t;
using bellperson::boolean_t;
using bellperson::num_t;
using bellperson::var_t;

// One element of a Merkle path, bottom-up: the arity − 1 siblings and the position (0 … arity − 1)
// of the node below among its arity children (storage-proofs-core merkle/proof.rs path()).
struct circuit_path_element_t {
  std::vector<fr_t> siblings;
  uint32_t index = 0;
};
using circuit_path_t = std::vector<circuit_path_element_t>;

// The arities of a path's elements, bottom-up: the base arity for every level of the base tree,
// then the sub-tree's, then the top tree's (storage-proofs-core gadgets/por.rs AuthPath).
std::vector<uint32_t> path_arities(uint64_t leaves, const tree_shape_t& shape);

namespace circuit_detail {

template <class CS>
void enforce_equal(CS& cs, const num_t& a, const num_t& b) {
  using lc_t = typename CS::lc_t;
  lc_t la;
  la.add_var(a.var, a.value);
  lc_t lb;
  lb.add_one();
  lc_t lc;
  lc.add_var(b.var, b.value);
  cs.enforce(la, lb, lc);
}

// constraint::add (encode::encode).
template <class CS>
num_t add_nums(CS& cs, const num_t& a, const num_t& b) {
  using lc_t = typename CS::lc_t;
  const num_t s = bellperson::alloc_num(cs, a.value + b.value);
  lc_t la;
  la.add_var(a.var, a.value).add_var(b.var, b.value);
  lc_t lb;
  lb.add_one();
  lc_t lc;
  lc.add_var(s.var, s.value);
  cs.enforce(la, lb, lc);
  return s;
}

// insertion::pick: cond ? a : b.
template <class CS>
num_t pick(CS& cs, const boolean_t& cond, const num_t& a, const num_t& b) {
  using lc_t = typename CS::lc_t;
  const num_t c = bellperson::alloc_num(cs, cond.value ? a.value : b.value);
  lc_t la;
  la.add_var(b.var, b.value).sub_var(a.var, a.value);
  lc_t lb;
  bellperson::add_boolean(lb, cond);
  lc_t lc;
  lc.add_var(b.var, b.value).sub_var(c.var, c.value);
  cs.enforce(la, lb, lc);
  return c;
}

// insertion::insert for arity 2, 4 and 8 (insert_2, insert_4, insert_8; the general select path
// serves arities Filecoin's trees do not have).
template <class CS>
void insert(CS& cs, const num_t& x, const boolean_t* bits, const num_t* el, unsigned arity,
            num_t* out) {
  if (arity == 2) {
    out[0] = pick(cs, bits[0], el[0], x);
    out[1] = pick(cs, bits[0], x, el[0]);
    return;
  }
  if (arity == 4) {
    const boolean_t &b0 = bits[0], &b1 = bits[1];
    const num_t &a = x, &b = el[0], &c = el[1], &d = el[2];
    const num_t p0_x0 = pick(cs, b0, b, a);
    out[0] = pick(cs, b1, b, p0_x0);
    const num_t p1_x0 = pick(cs, b0, a, b);
    out[1] = pick(cs, b1, c, p1_x0);
    const num_t p2_x1 = pick(cs, b0, d, a);
    out[2] = pick(cs, b1, p2_x1, c);
    const num_t p3_x1 = pick(cs, b0, a, d);
    out[3] = pick(cs, b1, p3_x1, d);
    return;
  }
  if (arity == 8) {
    const boolean_t &b0 = bits[0], &b1 = bits[1], &b2 = bits[2];
    if (!b0.is_is() || !b1.is_is())
      throw std::logic_error("insert_8: bits must be allocated and unnegated");
    const num_t &a = x, &b = el[0], &c = el[1], &d = el[2], &e = el[3], &f = el[4], &g = el[5],
                &h = el[6];
    const boolean_t b0_nor_b1 = boolean_t::is(bellperson::bit_nor(cs, b0.bit(), b1.bit()));
    const boolean_t b0_and_b1 = boolean_t::is(bellperson::bit_and(cs, b0.bit(), b1.bit()));
    const num_t p0_xx0 = pick(cs, b0_nor_b1, a, b);
    out[0] = pick(cs, b2, b, p0_xx0);
    const num_t p1_x00 = pick(cs, b0, a, b);
    const num_t p1_xx0 = pick(cs, b1, c, p1_x00);
    out[1] = pick(cs, b2, c, p1_xx0);
    const num_t p2_x10 = pick(cs, b0, d, a);
    const num_t p2_xx0 = pick(cs, b1, p2_x10, c);
    out[2] = pick(cs, b2, d, p2_xx0);
    const num_t p3_xx0 = pick(cs, b0_and_b1, a, d);
    out[3] = pick(cs, b2, e, p3_xx0);
    const num_t p4_xx1 = pick(cs, b0_nor_b1, a, f);
    out[4] = pick(cs, b2, p4_xx1, e);
    const num_t p5_x01 = pick(cs, b0, a, f);
    const num_t p5_xx1 = pick(cs, b1, g, p5_x01);
    out[5] = pick(cs, b2, p5_xx1, f);
    const num_t p6_x11 = pick(cs, b0, h, a);
    const num_t p6_xx1 = pick(cs, b1, p6_x11, g);
    out[6] = pick(cs, b2, p6_xx1, g);
    const num_t p7_xx1 = pick(cs, b0_and_b1, a, h);
    out[7] = pick(cs, b2, p7_xx1, h);
    return;
  }
  throw std::invalid_argument("insert: arity " + std::to_string(arity) +
                              " (Filecoin's trees have arity 2, 4 or 8)");
}

// util::reverse_bit_numbering over bits[0..n) (n a multiple of 8 after padding with
// Constant(false)): each byte's 8 bits reversed; out holds ⌈n/8⌉·8 bits.
inline void reverse_bit_numbering(const boolean_t* bits, size_t n, boolean_t* out) {
  const size_t padded = (n + 7) / 8 * 8;
  for (size_t byte = 0; byte < padded / 8; ++byte)
    for (size_t k = 0; k < 8; ++k) {
      const size_t src = 8 * byte + 7 - k;
      out[8 * byte + k] = src < n ? bits[src] : boolean_t::constant(false);
    }
}

// AllocatedNum::to_bits_le then reverse_bit_numbering: the 256 Booleans of a 32-byte value in
// the byte order SHA-256 reads it (replica id, parent labels, tree-D leaves).
template <class CS>
void num_to_reversed_bits(CS& cs, const num_t& x, boolean_t* out256) {
  bit_t bits[bellperson::fr_num_bits];
  bellperson::num_to_bits_le(cs, x, bits);
  boolean_t b[bellperson::fr_num_bits];
  for (unsigned i = 0; i < bellperson::fr_num_bits; ++i) b[i] = boolean_t::is(bits[i]);
  reverse_bit_numbering(b, bellperson::fr_num_bits, out256);
}

// Sha256Function::hash_multi_leaf_circuit (the binary tree D: two leaves).
template <class CS>
num_t sha256_hash_leaves(CS& cs, const num_t* leaves, unsigned n) {
  std::vector<boolean_t> msg(256 * size_t(n));
  for (unsigned i = 0; i < n; ++i) num_to_reversed_bits(cs, leaves[i], msg.data() + 256 * i);
  boolean_t digest[256];
  bellperson::sha256_bits(cs, msg.data(), msg.size(), digest);
  // hash_circuit: each digest byte's bits reversed (little-endian bit order), the first 254
  // packed.
  boolean_t le[256];
  reverse_bit_numbering(digest, 256, le);
  return bellperson::pack_bits(cs, le, bellperson::fr_capacity);
}

enum class hasher_t { sha256, poseidon };

template <class CS>
num_t hash_leaves(CS& cs, hasher_t h, const num_t* leaves, unsigned arity) {
  if (h == hasher_t::sha256) return sha256_hash_leaves(cs, leaves, arity);
  return neptune::poseidon_hash(cs, leaves, neptune::poseidon_constants(arity));
}

// PoRCircuit::synthesize with private = true (stacked/circuit/proof.rs enforce_inclusion): the
// leaf and the root are already allocated.
template <class CS>
void enforce_inclusion(CS& cs, hasher_t h, const std::vector<uint32_t>& arities,
                       const circuit_path_t& path, const num_t& root, const num_t& leaf) {
  num_t cur = leaf;
  std::vector<boolean_t> path_bits;
  path_bits.reserve(64);
  num_t siblings[16], inserted[16];
  for (size_t e = 0; e < arities.size(); ++e) {
    const unsigned arity = arities[e];
    const unsigned nbits = unsigned(__builtin_ctz(arity));
    boolean_t index_bits[4];
    for (unsigned k = 0; k < nbits; ++k) {
      index_bits[k] = boolean_t::is(bellperson::alloc_bit(cs, (path[e].index >> k) & 1));
      path_bits.push_back(index_bits[k]);
    }
    for (unsigned k = 0; k + 1 < arity; ++k)
      siblings[k] = bellperson::alloc_num(cs, path[e].siblings[k]);
    insert(cs, cur, index_bits, siblings, arity, inserted);
    cur = hash_leaves(cs, h, inserted, arity);
  }
  bellperson::pack_into_inputs(cs, path_bits.data(), path_bits.size());
  enforce_equal(cs, cur, root);
}

}  // namespace circuit_detail

}  // namespace zk::filecoin
