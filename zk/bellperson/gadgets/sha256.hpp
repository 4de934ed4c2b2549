#pragma once
// SHA-256 over Booleans: bellperson 0.27.0 src/gadgets/sha256.rs (sha256,
// sha256_compression_function), in its allocation order.
//
// Message and digest bits in stream order (byte 0 first, most significant bit of each byte
// first). Padding (FIPS 180-4 §5.1.1) is Boolean constants. Per compression, with one MultiEq
// for the whole block:
//   w[16..64)  s0 = rotr7 ⊕ rotr18 ⊕ shr3 of w[i−15] (two xors), s1 likewise of w[i−2],
//              w[i] = addmany(w[i−16], s0, w[i−7], s1)
//   64 rounds  a and e are kept as lists of words to add ("deferred"), summed at the start of the
//              round that needs them: new_e = addmany(e's list); S1 = rotr6 ⊕ rotr11 ⊕ rotr25
//              of new_e; ch(new_e, f, g); new_a = addmany(a's list); S0 = rotr2 ⊕ rotr13 ⊕ rotr22
//              of new_a; maj(new_a, b, c); then e's list = [h, S1, ch, K_i, w_i, d] and a's list =
//              [h, S1, ch, K_i, w_i, S0, maj]
//   output     h0 = addmany(a's list, H0), h4 = addmany(e's list, H4), the other six
//              addmany(H_k, working word k); then the MultiEq's last accumulation.
#include <array>
#include <cstdint>
#include <vector>

#include "zk/base/sha256.hpp"
#include "zk/bellperson/gadgets/uint32.hpp"

namespace zk::bellperson {

// One compression: state ← compress(state, block), block = 512 Booleans in stream order.
template <class CS>
void sha256_compression(CS& cs, const boolean_t* block, std::array<uint32_g, 8>& state) {
  multieq_t<CS> meq(cs);
  std::array<uint32_g, 64> w;
  for (unsigned i = 0; i < 16; ++i) w[i] = uint32_g::from_bits_be(block + 32 * i);
  for (unsigned i = 16; i < 64; ++i) {
    uint32_g s0 = w[i - 15].rotr(7);
    s0 = uint32_xor(cs, s0, w[i - 15].rotr(18));
    s0 = uint32_xor(cs, s0, w[i - 15].shr(3));
    uint32_g s1 = w[i - 2].rotr(17);
    s1 = uint32_xor(cs, s1, w[i - 2].rotr(19));
    s1 = uint32_xor(cs, s1, w[i - 2].shr(10));
    const uint32_g* ops[4] = {&w[i - 16], &s0, &w[i - 7], &s1};
    w[i] = uint32_addmany(meq, ops, 4);
  }

  // Deferred sums: e = [h, S1, ch, K, w, d], a = [h, S1, ch, K, w, S0, maj] (7 words at most,
  // 8 with the final H word).
  struct deferred_t {
    std::array<uint32_g, 8> ops;
    unsigned n = 0;  // 0: the word is concrete (`word`)
    uint32_g word;
  };
  auto compute = [&](deferred_t& d) -> uint32_g {
    if (d.n == 0) return d.word;
    const uint32_g* ops[8];
    for (unsigned j = 0; j < d.n; ++j) ops[j] = &d.ops[j];
    return uint32_addmany(meq, ops, d.n);
  };

  deferred_t a, e;
  a.word = state[0];
  e.word = state[4];
  uint32_g b = state[1], c = state[2], d = state[3], f = state[5], g = state[6], h = state[7];
  for (unsigned i = 0; i < 64; ++i) {
    const uint32_g new_e = compute(e);
    uint32_g s1 = new_e.rotr(6);
    s1 = uint32_xor(cs, s1, new_e.rotr(11));
    s1 = uint32_xor(cs, s1, new_e.rotr(25));
    const uint32_g ch = uint32_sha256_ch(cs, new_e, f, g);
    const uint32_g kw = uint32_g::constant(sha256_k[i]);

    const uint32_g new_a = compute(a);
    uint32_g s0 = new_a.rotr(2);
    s0 = uint32_xor(cs, s0, new_a.rotr(13));
    s0 = uint32_xor(cs, s0, new_a.rotr(22));
    const uint32_g maj = uint32_sha256_maj(cs, new_a, b, c);

    deferred_t ne;
    ne.ops = {h, s1, ch, kw, w[i], d};
    ne.n = 6;
    deferred_t na;
    na.ops = {h, s1, ch, kw, w[i], s0, maj};
    na.n = 7;
    h = g;
    g = f;
    f = new_e;
    e = ne;
    d = c;
    c = b;
    b = new_a;
    a = na;
  }

  auto add2 = [&](const uint32_g& x, const uint32_g& y) {
    const uint32_g* ops[2] = {&x, &y};
    return uint32_addmany(meq, ops, 2);
  };
  std::array<uint32_g, 8> out;
  a.ops[a.n++] = state[0];
  out[0] = compute(a);
  out[1] = add2(state[1], b);
  out[2] = add2(state[2], c);
  out[3] = add2(state[3], d);
  e.ops[e.n++] = state[4];
  out[4] = compute(e);
  out[5] = add2(state[5], f);
  out[6] = add2(state[6], g);
  out[7] = add2(state[7], h);
  meq.finish();
  state = out;
}

// sha256(input): n_bits a multiple of 8; digest[0..256) in stream order.
template <class CS>
void sha256_bits(CS& cs, const boolean_t* input, size_t n_bits, boolean_t* digest) {
  const size_t padded = (n_bits + 1 + 64 + 511) / 512 * 512;
  std::vector<boolean_t> msg(padded, boolean_t::constant(false));
  for (size_t i = 0; i < n_bits; ++i) msg[i] = input[i];
  msg[n_bits] = boolean_t::constant(true);
  const uint64_t len = n_bits;
  for (unsigned i = 0; i < 64; ++i)
    msg[padded - 64 + i] = boolean_t::constant((len >> (63 - i)) & 1);
  std::array<uint32_g, 8> state;
  for (unsigned j = 0; j < 8; ++j) state[j] = uint32_g::constant(sha256_iv[j]);
  for (size_t off = 0; off < padded; off += 512) sha256_compression(cs, msg.data() + off, state);
  for (unsigned j = 0; j < 8; ++j) state[j].into_bits_be(digest + 32 * j);
}

}  // namespace zk::bellperson
