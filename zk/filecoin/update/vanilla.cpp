#include "zk/filecoin/update/vanilla.hpp"

#include <algorithm>
#include <stdexcept>

#include "zk/base/hex.hpp"
#include "zk/filecoin/core/hashers.hpp"

namespace zk::filecoin {

namespace {

fr_t hash_rand(const fr_t& a, const fr_t& b) {
  const fr_t in[2] = {a, b};
  return neptune::poseidon_hash(update_randomness_constants(), in);
}

// PoseidonHasher::hash2 (the Merkle tree's arity-2 constants, tag 3).
fr_t hash2(const fr_t& a, const fr_t& b) {
  const fr_t in[2] = {a, b};
  return neptune::poseidon_hash(neptune::poseidon_constants(2), in);
}

}  // namespace

const neptune::poseidon_constants_t& update_randomness_constants() {
  static const neptune::poseidon_constants_t c = [] {
    neptune::poseidon_constants_t k = neptune::poseidon_constants(2);
    k.domain_tag = fr_t::from_u64(uint64_t(1) << 40);  // HashType::Custom(Arbitrary(1)): 1 · 2^40
    return k;
  }();
  return c;
}

fr_t update_phi(const fr_t& comm_d_new, const fr_t& comm_r_old) {
  return hash_rand(comm_d_new, comm_r_old);
}

fr_t update_rho(const fr_t& phi, uint64_t high) { return hash_rand(phi, fr_t::from_u64(high)); }

uint64_t update_challenge_high(const update_config_t& c, uint64_t node) {
  return node >> (c.node_bits - c.h);
}

std::vector<uint64_t> update_challenges(const update_config_t& c, const fr_t& comm_r_new,
                                        uint32_t k) {
  if (k >= c.partitions)
    throw std::invalid_argument("partition " + std::to_string(k) + " of a sector with " +
                                std::to_string(c.partitions) + " partition(s)");
  const uint32_t bits = c.node_bits - c.partition_bits;  // random bits a challenge
  const uint32_t per_digest = 254 / bits;                // Fr::CAPACITY / bits
  const uint32_t digests = (c.challenges + per_digest - 1) / per_digest;
  std::vector<uint64_t> out;
  out.reserve(c.challenges);
  for (uint32_t j = 0; out.size() < c.challenges; ++j) {
    const fr_t d = hash_rand(comm_r_new, fr_t::from_u64(uint64_t(k) * digests + j));
    const bytes32_t le = fr_to_bytes(d);
    for (uint32_t i = 0; i < per_digest && out.size() < c.challenges; ++i) {
      uint64_t v = 0;
      for (uint32_t b = 0; b < bits; ++b) {
        const uint32_t at = i * bits + b;
        if ((le[at / 8] >> (at % 8)) & 1) v |= uint64_t(1) << b;
      }
      out.push_back(v | (uint64_t(k) << bits));
    }
  }
  return out;
}

check_t verify_update_partition(const update_config_t& c, uint32_t k,
                                const update_commitments_t& comms,
                                const update_partition_proof_t& proof) {
  if (k >= c.partitions)
    return "partition " + std::to_string(k) + " of a sector with " + std::to_string(c.partitions) +
           " partition(s)";
  if (proof.apex_leafs.size() != c.apex_leaves)
    return std::to_string(proof.apex_leafs.size()) + " apex leaves, expected " +
           std::to_string(c.apex_leaves);
  if (proof.challenge_proofs.size() != c.challenges)
    return std::to_string(proof.challenge_proofs.size()) + " challenge proofs, expected " +
           std::to_string(c.challenges);
  const std::optional<fr_t> r_old = fr_from_bytes(comms.comm_r_old),
                            d_new = fr_from_bytes(comms.comm_d_new),
                            r_new = fr_from_bytes(comms.comm_r_new);
  if (!r_old) return "comm_r_old is not a field element";
  if (!d_new) return "comm_d_new is not a field element";
  if (!r_new) return "comm_r_new is not a field element";

  // The apex tree: its rows from the leaves up (SHA-256 hash2, truncated).
  std::vector<std::vector<domain_t>> apex{proof.apex_leafs};
  for (uint32_t r = 0; r < c.apex_leaf_bits; ++r) {
    const std::vector<domain_t>& below = apex.back();
    std::vector<domain_t> row(below.size() / 2);
    for (size_t i = 0; i < row.size(); ++i) row[i] = sha256_trunc2(below[2 * i], below[2 * i + 1]);
    apex.push_back(std::move(row));
  }
  const uint32_t apex_height = c.node_bits - c.partition_bits - c.apex_leaf_bits;

  // comm_r_old and comm_r_new from comm_c and the roots of challenge 0's openings.
  const std::optional<fr_t> comm_c = fr_from_bytes(proof.comm_c);
  if (!comm_c) return "comm_c is not a field element";
  const domain_t& root_r_old = proof.challenge_proofs[0].proof_r_old.root;
  const domain_t& root_r_new = proof.challenge_proofs[0].proof_r_new.root;
  const std::optional<fr_t> root_old = fr_from_bytes(root_r_old),
                            root_new = fr_from_bytes(root_r_new);
  if (!root_old || !root_new) return "a TreeR root is not a field element";
  if (hash2(*comm_c, *root_old) != *r_old)
    return "H(comm_c, root of TreeR old) is not comm_r_old " + to_hex(comms.comm_r_old);
  if (hash2(*comm_c, *root_new) != *r_new)
    return "H(comm_c, root of TreeR new) is not comm_r_new " + to_hex(comms.comm_r_new);

  const fr_t phi = update_phi(*d_new, *r_old);
  const std::vector<uint64_t> challenges = update_challenges(c, *r_new, k);
  const merkle_shape_t sr = update_tree_r_shape(c), sd = update_tree_d_shape(c);
  for (uint32_t i = 0; i < c.challenges; ++i) {
    const uint64_t node = challenges[i];
    const update_challenge_proof_t& q = proof.challenge_proofs[i];
    const std::string at =
        "challenge " + std::to_string(i) + " (node " + std::to_string(node) + ")";
    const std::pair<const char*, check_t> openings[] = {
        {"proof_r_old",
         merkle_proof_check(q.proof_r_old, merkle_hasher_t::poseidon, sr, node, &root_r_old)},
        {"proof_d_new",
         merkle_proof_check(q.proof_d_new, merkle_hasher_t::sha256, sd, node, &comms.comm_d_new)},
        {"proof_r_new",
         merkle_proof_check(q.proof_r_new, merkle_hasher_t::poseidon, sr, node, &root_r_new)}};
    for (const auto& [name, check] : openings)
      if (!check) return at + ": " + name + ": " + check.reason();
    // The encoding: label_r_new = label_r_old + label_d_new · rho(phi, high).
    const std::optional<fr_t> l_old = fr_from_bytes(q.proof_r_old.leaf),
                              l_d = fr_from_bytes(q.proof_d_new.leaf),
                              l_new = fr_from_bytes(q.proof_r_new.leaf);
    if (!l_old || !l_d || !l_new) return at + ": a leaf is not a field element";
    const fr_t rho = update_rho(phi, update_challenge_high(c, node));
    if (*l_old + *l_d * rho != *l_new)
      return at + ": the encoding: label_r_old + label_d_new · rho is not label_r_new";
    // The apex: each TreeD sibling at the apex heights is a node of that apex row.
    for (uint32_t r = 0; r < c.apex_leaf_bits; ++r) {
      const domain_t& sibling = q.proof_d_new.base[apex_height + r].hashes[0];
      if (std::find(apex[r].begin(), apex[r].end(), sibling) == apex[r].end())
        return at + ": proof_d_new's sibling at height " + std::to_string(apex_height + r) +
               " is not in row " + std::to_string(r) + " of the apex tree";
    }
  }
  return {};
}

check_t verify_update_partitions(const update_config_t& c, const update_commitments_t& comms,
                                 const std::vector<update_partition_proof_t>& proofs) {
  if (proofs.size() != c.partitions)
    return std::to_string(proofs.size()) + " partition proofs, the sector has " +
           std::to_string(c.partitions);
  for (uint32_t k = 0; k < c.partitions; ++k)
    if (const check_t e = verify_update_partition(c, k, comms, proofs[k]); !e)
      return "partition " + std::to_string(k) + ": " + e.reason();
  return {};
}

}  // namespace zk::filecoin
