#pragma once
// storage-proofs-update 19.1.0's circuit gadgets (src/gadgets.rs) and the two storage-proofs-core
// 19.1.0 gadgets only the update's circuit calls (src/gadgets/por.rs por_no_challenge_input,
// src/gadgets/insertion.rs select), in the Rust code's allocation order, over the constraint
// systems of zk/bellperson/cs.hpp:
//
//   bits_packed_eq(bits, x)       (Σ 2^i·bits_i)·1 = x: A the packed bits, B ONE, C x (not
//                                 AllocatedNum::to_bits_le's 0·0 = Σ − x)                    1
//   num_to_bits(x)                allocated_num_to_allocated_bits: 255 AllocatedBits of x, then
//                                 bits_packed_eq                                           256
//   select_by_bits(from, bits)           from[n], n given by the bits, consumed most significant
//                                 first: 2^bits − 1 picks
//   por(arities, bits, leaf, path, root)   por_no_challenge_input: per path element
//                                 log2(arity) of the given bits (no allocation, no public input),
//                                 insert, hash; computed root·1 = root
//   challenge_high(c_bits, h_select_bits, hs)   get_challenge_high_bits: per h in hs, the top h
//                                 bits packed (pack_bits) and c_high·h_select_bit = or_zero; the
//                                 sum of the or_zeros allocated, (Σ or_zero)·1 = selected    13
//   label_r_new(old, d, rho)      p = d·rho, new, (old + p)·1 = new                          2
//   apex_por(leaves, partition bits, path, comm_d)   the apex tree (SHA-256 hash2 row by row)
//                                 and its root's inclusion in tree D by the partition bits
//   challenge_bits(comm_r_new, partition, n, bits)   gen_challenge_bits: per digest j,
//                                 digest_index (dpp·partition + j·ONE)·1 = index, digest =
//                                 H_rand(comm_r_new, index), its 255 bits (num_to_bits), cut into
//                                 `bits`-bit chunks, n in all
#include <array>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "zk/base/thread_pool.hpp"
#include "zk/filecoin/core/gadgets.hpp"
#include "zk/filecoin/update/vanilla.hpp"

namespace zk::filecoin::update_circuit_detail {

using namespace circuit_detail;

// (Σ 2^i·bits_i)·1 = x.
template <class CS>
void bits_packed_eq(CS& cs, const bit_t* bits, size_t n, const num_t& x) {
  typename CS::lc_t la;
  for (size_t i = 0; i < n; ++i) la.add_bit_pow2(unsigned(i), bits[i].var, bits[i].value);
  bellperson::enforce_lc_is(cs, la, x.var, x.value);
}

// gadgets.rs allocated_num_to_allocated_bits into out[0..255).
template <class CS>
void num_to_bits(CS& cs, const num_t& x, bit_t* out) {
  bellperson::field_into_allocated_bits_le(cs, x.value, out);
  bits_packed_eq(cs, out, bellperson::fr_num_bits, x);
}

// insertion::select: from[Σ 2^i·bits_i], from.size() = 2^n.
template <class CS>
num_t select_by_bits(CS& cs, const std::vector<num_t>& from, const boolean_t* bits, size_t n) {
  if (from.size() != (size_t(1) << n))
    throw std::logic_error("select: " + std::to_string(from.size()) + " elements for " +
                           std::to_string(n) + " bits");
  std::vector<num_t> state = from;
  size_t half = from.size() / 2;
  for (size_t i = 0; i < n; ++i, half /= 2) {
    const boolean_t& bit = bits[n - 1 - i];
    std::vector<num_t> next(half);
    for (size_t j = 0; j < half; ++j) next[j] = pick(cs, bit, state[half + j], state[j]);
    state = std::move(next);
  }
  return state[0];
}

// por::por_no_challenge_input: the path's siblings allocated by the caller (path[e]: arity − 1
// of them), the bits least significant first, exactly Σ log2(arity) of them.
template <class CS>
void por(CS& cs, hasher_t h, const std::vector<uint32_t>& arities, const boolean_t* bits,
         size_t n_bits, const num_t& leaf, const std::vector<std::vector<num_t>>& path,
         const num_t& root) {
  num_t cur = leaf;
  num_t inserted[16];
  size_t used = 0;
  for (size_t e = 0; e < arities.size(); ++e) {
    const unsigned arity = arities[e];
    const unsigned nbits = unsigned(__builtin_ctz(arity));
    if (used + nbits > n_bits || path[e].size() != arity - 1)
      throw std::logic_error("por: the bits or siblings do not fit the tree");
    insert(cs, cur, bits + used, path[e].data(), arity, inserted);
    used += nbits;
    cur = hash_leaves(cs, h, inserted, arity);
  }
  if (used != n_bits) throw std::logic_error("por: challenge bits and tree arity do not agree");
  enforce_equal(cs, cur, root);
}

// gadgets.rs get_challenge_high_bits.
template <class CS>
num_t challenge_high(CS& cs, const boolean_t* c_bits, size_t n, const bit_t* h_select_bits,
                     const std::array<uint32_t, 6>& hs) {
  using lc_t = typename CS::lc_t;
  num_t or_zero[6];
  fr_t sum{};
  for (size_t k = 0; k < hs.size(); ++k) {
    const num_t high = bellperson::pack_bits(cs, c_bits + (n - hs[k]), hs[k]);
    const bit_t& sel = h_select_bits[k];
    or_zero[k] = bellperson::alloc_num(cs, sel.value ? high.value : fr_t{});
    lc_t la;
    la.add_var(high.var, high.value);
    lc_t lb;
    lb.add_bit(sel.var, sel.value);
    lc_t lc;
    lc.add_var(or_zero[k].var, or_zero[k].value);
    cs.enforce(la, lb, lc);
    sum += or_zero[k].value;
  }
  const num_t selected = bellperson::alloc_num(cs, sum);
  lc_t la;
  for (const num_t& z : or_zero) la.add_var(z.var, z.value);
  bellperson::enforce_lc_is(cs, la, selected.var, selected.value);
  return selected;
}

// gadgets.rs label_r_new.
template <class CS>
num_t label_r_new(CS& cs, const num_t& r_old, const num_t& d_new, const num_t& rho) {
  const num_t p = bellperson::num_mul(cs, d_new, rho);
  return add_nums(cs, r_old, p);
}

// What one SHA-256 hash2 of two allocated numbers adds (every apex-tree hash: the same).
inline bellperson::counts_t hash2_counts() {
  static const bellperson::counts_t h = [] {
    bellperson::count_cs_t cs;
    const num_t in[2] = {bellperson::alloc_num(cs, fr_t{}), bellperson::alloc_num(cs, fr_t{})};
    const bellperson::counts_t before = cs.counts();
    sha256_hash_leaves(cs, in, 2);
    const bellperson::counts_t after = cs.counts();
    return bellperson::counts_t{after.inputs - before.inputs, after.aux - before.aux,
                                after.constraints - before.constraints};
  }();
  return h;
}

// One row of the apex tree: the hash2 of each pair. In prove mode with `parallel`, the pairs are
// hashed on the compute pool, each into its own part of the arrays (every hash adds the same
// counts, so hash i's place is known), and the system continues after the row.
template <class CS>
std::vector<num_t> apex_row(CS& cs, const std::vector<num_t>& leaves, bool parallel) {
  std::vector<num_t> row(leaves.size() / 2);
  if constexpr (std::is_same_v<CS, bellperson::prove_cs_t>) {
    if (parallel && row.size() > 1) {
      const bellperson::counts_t h = hash2_counts(), start = cs.counts();
      auto at = [&](size_t i) {
        return bellperson::counts_t{start.inputs + uint32_t(i) * h.inputs,
                                    start.aux + uint32_t(i) * h.aux,
                                    start.constraints + uint32_t(i) * h.constraints};
      };
      std::vector<bellperson::prove_cs_t> parts;
      parts.reserve(row.size());
      for (size_t i = 0; i < row.size(); ++i) parts.push_back(cs.part(at(i), at(i + 1)));
      run_parallel(
          [&](size_t i) {
            row[i] = sha256_hash_leaves(parts[i], &leaves[2 * i], 2);
            if (parts[i].counts() != at(i + 1))
              throw std::logic_error("apex_row: hash " + std::to_string(i) + " ended at " +
                                     bellperson::to_string(parts[i].counts()));
          },
          row.size());
      cs.skip_to(at(row.size()));
      for (const auto& p : parts) cs.joins(p);
      return row;
    }
  }
  for (size_t i = 0; i < row.size(); ++i) row[i] = sha256_hash_leaves(cs, &leaves[2 * i], 2);
  return row;
}

// gadgets.rs apex_por: leaves.size() a power of two; partition_path[e] the one sibling of level e.
// `parallel`: see apex_row.
template <class CS>
void apex_por(CS& cs, std::vector<num_t> leaves, const boolean_t* partition_bits, size_t n_bits,
              const std::vector<std::vector<num_t>>& partition_path, const num_t& comm_d,
              bool parallel) {
  while (leaves.size() > 1) leaves = apex_row(cs, leaves, parallel);
  por(cs, hasher_t::sha256, std::vector<uint32_t>(n_bits, 2), partition_bits, n_bits, leaves[0],
      partition_path, comm_d);
}

// gadgets.rs gen_challenge_bits: `challenges` chunks of `bits` random bits each, least
// significant first.
template <class CS>
std::vector<std::vector<bit_t>> challenge_bits(CS& cs, const num_t& comm_r_new,
                                               const num_t& partition, uint32_t challenges,
                                               uint32_t bits) {
  using lc_t = typename CS::lc_t;
  const uint32_t per_digest = bellperson::fr_capacity / bits;
  const uint32_t digests = (challenges + per_digest - 1) / per_digest;
  const fr_t dpp = fr_t::from_u64(digests);
  std::vector<std::vector<bit_t>> out;
  out.reserve(challenges);
  bit_t digest_bits[bellperson::fr_num_bits];
  for (uint32_t j = 0; j < digests; ++j) {
    const fr_t fj = fr_t::from_u64(j);
    const num_t index = bellperson::alloc_num(cs, partition.value * dpp + fj);
    lc_t la;
    la.add_var(dpp, partition.var, partition.value).add_one(fj);
    bellperson::enforce_lc_is(cs, la, index.var, index.value);
    const num_t in[2] = {comm_r_new, index};
    const num_t digest = neptune::poseidon_hash(cs, in, update_randomness_constants());
    num_to_bits(cs, digest, digest_bits);
    for (uint32_t i = 0; i < per_digest && out.size() < challenges; ++i)
      out.emplace_back(digest_bits + i * bits, digest_bits + (i + 1) * bits);
  }
  return out;
}

}  // namespace zk::filecoin::update_circuit_detail
