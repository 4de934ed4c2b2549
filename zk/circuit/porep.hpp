#pragma once
// porep-lite: a built-in circuit shaped like a Filecoin PoRep partition (Merkle inclusion of
// challenged nodes plus a SHA-256 labelling check per challenge), small enough to key and prove
// on a laptop, large enough to measure synthesis.
//
// Parameters: curve (bn254 | bls12-381), partitions P, challenges per partition C, tree depth
// D, data seed (--params "curve=bn254,partitions=1,challenges=2,depth=8,seed=0"). Only curve,
// challenges and depth change the R1CS (shape_key()); partitions and seed change the data.
//
// Replica (synthetic, deterministic from the seed; S(x) = native SHA-256, BE = big-endian):
//   replica_id  = BE integer of S("zkfleet/porep-lite/replica" ‖ u64be(seed)) with its first
//                 byte cleared: < 2^248
//   data_i      = first 8 bytes of S("zkfleet/porep-lite/data" ‖ u64be(seed) ‖ u64be(i)), a u64
//   label_i     = BE integer of S(u256be(replica_id) ‖ u64be(i) ‖ u64be(data_i)) mod 2^253
//                 (a 48-byte message: one SHA-256 block)
//   leaf_i      = Poseidon(label_i, data_i)
//   tree        binary Poseidon tree (merkle.hpp) of depth D over the leaves. It is virtual: a
//               subtree that holds no challenged leaf of any partition has as its node value
//               BE(S("zkfleet/porep-lite/node" ‖ u64be(seed) ‖ u32be(level) ‖ u64be(index)))
//               mod 2^253 instead of the hash of 2^level real leaves, so a tree of depth 32
//               costs P·C·D hashes to build. The proof cannot tell the difference.
//   challenge j of partition k: leaf index c_{k,j} = ((k·C + j)·K) mod 2^D, K = 0x9E3779B1
//               (odd, so distinct for the P·C ≤ 2^D values of k·C + j; the golden-ratio
//               constant spreads them over the tree).
//
// Circuit for partition k. Public inputs (wires 1, 2, 3): root, replica_id, k.
//   replica_id  decomposed into 248 bits                                       249
//   per challenge j:
//     (k·C + j)·K decomposed into 64 bits; its low D bits are the path bits        65
//     data (private) decomposed into 64 bits                                      65
//     SHA-256 of replica_id ‖ c ‖ data (bits of the above)                sha256_block
//     leaf = Poseidon(Σ_{i<253} 2^i·digest_i, data)                               243
//     Merkle path: D levels of select + Poseidon, root = public root          244·D + 1
// constraints(C, D) = 249 + C·(sha256_block + 374 + 244·D), sha256_block being the count of one
// compression (porep_sha256_block_constraints, 26 416, checked by tests/circuit).
// Not constrained (a "lite" circuit): k < P.
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "zk/base/curve_id.hpp"
#include "zk/circuit/merkle.hpp"
#include "zk/circuit/sha256.hpp"

namespace zk::circuit {

struct porep_params_t {
  curve_id_t curve = curve_id_t::bn254;
  uint32_t partitions = 1;
  uint32_t challenges = 1;
  uint32_t depth = 8;
  uint64_t seed = 0;

  // "key=value,key=value" with keys curve, partitions, challenges, depth, seed (each optional).
  // Throws std::invalid_argument naming the key (unknown key, bad or out-of-range value).
  static porep_params_t parse(const std::string& text);
  std::string to_string() const;
  // What the R1CS depends on: "porep-lite:curve=bn254,challenges=C,depth=D".
  std::string shape_key() const;
  // Its parameters alone, "curve=bn254,challenges=C,depth=D" (partitions and seed belong to jobs).
  std::string shape_params() const;
  // The formula above (uses the measured SHA-256 block count).
  uint64_t constraints() const;
  uint32_t n_public() const { return 3; }
  uint64_t challenge_leaf(uint32_t partition, uint32_t j) const;
};

inline constexpr uint64_t porep_challenge_mul = 0x9E3779B1;
// One SHA-256 compression with sha256.hpp's gadgets (checked by tests/circuit against a shape).
inline constexpr uint64_t porep_sha256_block_constraints = 26416;

// The synthetic replica: data, labels, the virtual tree's root and the challenged paths.
template <class Fr>
class porep_data_t {
 public:
  explicit porep_data_t(const porep_params_t& p);

  const porep_params_t& params() const { return p_; }
  const Fr& root() const { return root_; }
  const Fr& replica_id() const { return replica_id_; }
  uint64_t data(uint64_t leaf) const;
  Fr label(uint64_t leaf) const;
  Fr leaf(uint64_t leaf) const;
  // Siblings of `leaf`'s path, bottom-up (depth values); the leaf must be challenged.
  std::vector<Fr> path(uint64_t leaf) const;

 private:
  bool challenged_under(unsigned level, uint64_t index) const;
  Fr node(unsigned level, uint64_t index);
  Fr opaque(unsigned level, uint64_t index) const;

  porep_params_t p_;
  std::vector<uint64_t> challenged_;  // sorted leaf indices of every partition's challenges
  std::map<std::pair<unsigned, uint64_t>, Fr> nodes_;
  Fr replica_id_, root_;
};

// The porep-lite circuit for `partition` (public inputs first: root, replica_id, partition).
template <class CS>
void porep_lite(CS& cs, const porep_data_t<typename CS::fr_t>& data, uint32_t partition);

// Constraint mix of one partition, for the benchmark's report.
struct porep_mix_t {
  uint64_t replica_bits, index_and_data_bits, sha256, leaf_poseidon, merkle, total;
};
porep_mix_t porep_constraint_mix(const porep_params_t& p);

}  // namespace zk::circuit
