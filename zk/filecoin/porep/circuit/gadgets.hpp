#pragma once
// storage-proofs-porep 19.1.0's own circuit gadgets (src/stacked/circuit/hash.rs,
// create_label.rs), on top of storage-proofs-core's (zk/filecoin/core/gadgets.hpp):
//
//   hash_column(rows)           Poseidon of arity = the column's length (2 or 11)     311 / 598
//   create_label(...)           SHA-256 of replica_id ‖ layer ‖ node ‖ zeros ‖ 37 parents,
//                               the digest's first 254 bits packed                   532,025
#include <cstddef>
#include <cstdint>
#include <vector>

#include "zk/filecoin/core/gadgets.hpp"

namespace zk::filecoin {

namespace circuit_detail {

// stacked/circuit/hash.rs hash_single_column: Poseidon of arity = the column's length (2 or 11).
template <class CS>
num_t hash_column(CS& cs, const std::vector<num_t>& rows) {
  return neptune::poseidon_hash(cs, rows.data(),
                                neptune::poseidon_constants(unsigned(rows.size())));
}

// stacked/circuit/create_label.rs create_label_circuit: SHA-256 of replica_id (256 bits) ‖ layer
// (u32 BE) ‖ node (u64 BE, from its 64 Booleans least significant first) ‖ zeros to 64 bytes ‖
// the parents (256 bits each; Filecoin passes 37), the digest's bytes bit-reversed, its first
// 254 bits packed into a number.
template <class CS>
num_t create_label(CS& cs, const boolean_t* replica_id, const boolean_t* const* parents,
                   size_t parents_n, uint32_t layer, const boolean_t* node_le) {
  std::vector<boolean_t> msg;
  msg.reserve((2 + parents_n) * 256);
  msg.insert(msg.end(), replica_id, replica_id + 256);
  boolean_t layer_be[32];
  bellperson::uint32_g::constant(layer).into_bits_be(layer_be);
  msg.insert(msg.end(), layer_be, layer_be + 32);
  for (unsigned i = 0; i < 64; ++i) msg.push_back(node_le[63 - i]);
  msg.resize(512, boolean_t::constant(false));
  for (uint32_t k = 0; k < parents_n; ++k) msg.insert(msg.end(), parents[k], parents[k] + 256);
  boolean_t digest[256];
  bellperson::sha256_bits(cs, msg.data(), msg.size(), digest);
  boolean_t le[256];
  reverse_bit_numbering(digest, 256, le);
  return bellperson::pack_bits(cs, le, bellperson::fr_capacity);
}

}  // namespace circuit_detail

}  // namespace zk::filecoin
