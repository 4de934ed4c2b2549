#pragma once
// SHA-256 (FIPS 180-4), natively and as constraints over bits.
//
// Native: zk/base/sha256.hpp (the reference for the gadget, and its constants).
//
// Gadget: bits are wires (or constants), messages and digests in stream order (byte 0 first,
// most significant bit of each byte first); inside the compression a 32-bit word is 32 bits,
// least significant first, so that rotations and shifts are re-indexings (free) and
// Σ 2^i x_i is the word's value. Per compression (FIPS 180-4 §6.2.2):
//   message schedule, t = 16..63   W_t = σ1(W_{t−2}) + W_{t−7} + σ0(W_{t−15}) + W_{t−16}
//   64 rounds                       T1 = h + Σ1(e) + Ch(e,f,g) + K_t + W_t,  T2 = Σ0(a) +
//   Maj(a,b,c)
//                                   e' = d + T1,  a' = T1 + T2
//   output                          H_k + working word k
// with σ/Σ as XORs of rotations/shifts (three-input XOR: 2 constraints a bit, 1 where a shift
// brings in a zero), Ch 1 and Maj 2 constraints a bit (gadgets_bits.hpp), and each modular sum
// done as one linear combination of its words' bits, decomposed into 32 + ⌈log2 terms⌉ bits of
// which the low 32 are the result (n + 1 constraints, gadgets_bits.hpp to_bits).
// The count per compression is porep_sha256_block_constraints (porep.hpp; checked by
// tests/circuit).
#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "zk/base/sha256.hpp"
#include "zk/circuit/gadgets_bits.hpp"

namespace zk::circuit {

template <class CS>
using sha_word_t = std::array<lc_of_t<CS>, 32>;  // least significant bit first

namespace detail {

template <class CS>
sha_word_t<CS> constant_word(const CS& cs, uint32_t v) {
  sha_word_t<CS> w;
  for (unsigned i = 0; i < 32; ++i) w[i] = constant_bit(cs, (v >> i) & 1);
  return w;
}

// r[i] = x[(i+r1)%32] ⊕ x[(i+r2)%32] ⊕ (third), third = x[(i+r3)%32] (rotation) or, when
// shift is true, x[i+r3] for i + r3 < 32 and nothing above.
template <class CS>
sha_word_t<CS> sigma(CS& cs, const sha_word_t<CS>& x, unsigned r1, unsigned r2, unsigned r3,
                     bool shift) {
  sha_word_t<CS> r;
  for (unsigned i = 0; i < 32; ++i) {
    auto t = xor2(cs, x[(i + r1) % 32], x[(i + r2) % 32]);
    if (!shift)
      r[i] = xor2(cs, t, x[(i + r3) % 32]);
    else if (i + r3 < 32)
      r[i] = xor2(cs, t, x[i + r3]);
    else
      r[i] = t;
  }
  return r;
}

// (Σ words[j] + k) mod 2^32.
template <class CS>
sha_word_t<CS> add_words(CS& cs, std::initializer_list<const sha_word_t<CS>*> words, uint32_t k) {
  using Fr = typename CS::fr_t;
  lc_of_t<CS> sum = cs.constant(Fr::from_u64(k));
  for (const auto* w : words) sum += pack_bits<CS>(w->data(), 32);
  const uint64_t max = uint64_t(words.size()) * 0xffffffffULL + k;
  const unsigned n = 64 - __builtin_clzll(max);
  std::array<lc_of_t<CS>, 40> bits;
  to_bits(cs, sum, n, bits.data());
  sha_word_t<CS> r;
  for (unsigned i = 0; i < 32; ++i) r[i] = std::move(bits[i]);
  return r;
}

}  // namespace detail

// One compression: state (8 words) ← compress(state, block), block = 512 bits in stream order.
template <class CS>
void sha256_compress(CS& cs, std::array<sha_word_t<CS>, 8>& state, const lc_of_t<CS>* block) {
  std::vector<sha_word_t<CS>> w(64);
  for (unsigned t = 0; t < 16; ++t)
    for (unsigned i = 0; i < 32; ++i) w[t][i] = block[32 * t + 31 - i];
  for (unsigned t = 16; t < 64; ++t) {
    auto s0 = detail::sigma(cs, w[t - 15], 7, 18, 3, true);
    auto s1 = detail::sigma(cs, w[t - 2], 17, 19, 10, true);
    w[t] = detail::add_words(cs, {&s1, &w[t - 7], &s0, &w[t - 16]}, 0);
  }
  // Working variables as pointers into `made` (no copies of words per round).
  std::vector<sha_word_t<CS>> made;
  made.reserve(2 * 64);
  const sha_word_t<CS>* v[8];
  for (unsigned j = 0; j < 8; ++j) v[j] = &state[j];
  for (unsigned t = 0; t < 64; ++t) {
    const auto &a = *v[0], &b = *v[1], &c = *v[2], &d = *v[3], &e = *v[4], &f = *v[5], &g = *v[6],
               &h = *v[7];
    auto S1 = detail::sigma(cs, e, 6, 11, 25, false);
    sha_word_t<CS> chv;
    for (unsigned i = 0; i < 32; ++i) chv[i] = ch(cs, e[i], f[i], g[i]);
    auto S0 = detail::sigma(cs, a, 2, 13, 22, false);
    sha_word_t<CS> mj;
    for (unsigned i = 0; i < 32; ++i) mj[i] = maj(cs, a[i], b[i], c[i]);
    made.push_back(detail::add_words(cs, {&d, &h, &S1, &chv, &w[t]}, sha256_k[t]));        // e'
    made.push_back(detail::add_words(cs, {&h, &S1, &chv, &w[t], &S0, &mj}, sha256_k[t]));  // a'
    const sha_word_t<CS>* ne = &made[made.size() - 2];
    const sha_word_t<CS>* na = &made[made.size() - 1];
    v[7] = v[6];
    v[6] = v[5];
    v[5] = v[4];
    v[4] = ne;
    v[3] = v[2];
    v[2] = v[1];
    v[1] = v[0];
    v[0] = na;
  }
  std::array<sha_word_t<CS>, 8> out;
  for (unsigned j = 0; j < 8; ++j) out[j] = detail::add_words(cs, {&state[j], v[j]}, 0);
  state = std::move(out);
}

// SHA-256 of an n_bits-bit message (stream order bits) into digest[0..256) (stream order).
// Padding (FIPS 180-4 §5.1.1) is constants; the block count is fixed by n_bits.
template <class CS>
void sha256_bits(CS& cs, const lc_of_t<CS>* msg, uint64_t n_bits, lc_of_t<CS>* digest) {
  const uint64_t padded = (n_bits + 1 + 64 + 511) / 512 * 512;
  std::vector<lc_of_t<CS>> block(padded);
  for (uint64_t i = 0; i < n_bits; ++i) block[i] = msg[i];
  block[n_bits] = cs.one();
  for (uint64_t i = n_bits + 1; i < padded - 64; ++i) block[i] = lc_of_t<CS>{};
  for (unsigned i = 0; i < 64; ++i) block[padded - 1 - i] = constant_bit(cs, (n_bits >> i) & 1);
  std::array<sha_word_t<CS>, 8> state;
  for (unsigned j = 0; j < 8; ++j) state[j] = detail::constant_word(cs, sha256_iv[j]);
  for (uint64_t off = 0; off < padded; off += 512) sha256_compress(cs, state, block.data() + off);
  for (unsigned j = 0; j < 8; ++j)
    for (unsigned i = 0; i < 32; ++i) digest[32 * j + 31 - i] = state[j][i];
}

}  // namespace zk::circuit
