#include "zk/filecoin/update/circuit.hpp"

#include <stdexcept>

#include "zk/base/hex.hpp"
#include "zk/neptune/circuit.hpp"

namespace zk::filecoin {

using bellperson::counts_t;

namespace {

// TreeR's level arities, leaf level first.
std::vector<uint32_t> tree_r_arities(const update_config_t& c) {
  return path_arities(c.nodes, c.shape);
}

// The tree-D levels below the apex leaves (apex_leafs_height).
uint32_t apex_height(const update_config_t& c) {
  return c.node_bits - c.partition_bits - c.apex_leaf_bits;
}

fr_t to_fr(const bytes32_t& b, const std::string& what) {
  const auto v = fr_from_bytes(b);
  if (!v)
    throw std::invalid_argument(what + " is not a canonical field element (" + to_hex(b) + ")");
  return *v;
}

// MerkleProof::path(): base, sub and top elements' siblings, leaf level first.
std::vector<std::vector<fr_t>> to_siblings(const merkle_proof_t& p, const std::string& what) {
  std::vector<std::vector<fr_t>> out;
  for (const auto* part : {&p.base, &p.sub, &p.top})
    for (const auto& e : *part) {
      std::vector<fr_t> level;
      for (size_t k = 0; k < e.hashes.size(); ++k)
        level.push_back(to_fr(e.hashes[k], what + " path element " + std::to_string(out.size()) +
                                               " sibling " + std::to_string(k)));
      out.push_back(std::move(level));
    }
  return out;
}

}  // namespace

// ---- witness -----------------------------------------------------------------------------------

update_partition_witness_t update_witness_from_vanilla(const update_config_t& c, uint32_t k,
                                                       const update_commitments_t& comms,
                                                       const update_partition_proof_t& proof) {
  update_partition_witness_t w;
  w.k = k;
  w.k_and_h_select = update_k_and_h_select(c, k);  // throws for k ≥ partitions
  w.comm_r_old = to_fr(comms.comm_r_old, "comm_r_old");
  w.comm_d_new = to_fr(comms.comm_d_new, "comm_d_new");
  w.comm_r_new = to_fr(comms.comm_r_new, "comm_r_new");
  w.comm_c = to_fr(proof.comm_c, "comm_c");
  if (proof.challenge_proofs.empty())
    throw std::invalid_argument("witness: a partition proof without challenge proofs");
  w.root_r_old = to_fr(proof.challenge_proofs[0].proof_r_old.root, "challenge 0: proof_r_old root");
  w.root_r_new = to_fr(proof.challenge_proofs[0].proof_r_new.root, "challenge 0: proof_r_new root");
  for (size_t i = 0; i < proof.apex_leafs.size(); ++i)
    w.apex_leafs.push_back(to_fr(proof.apex_leafs[i], "apex leaf " + std::to_string(i)));
  for (size_t j = 0; j < proof.challenge_proofs.size(); ++j) {
    const update_challenge_proof_t& q = proof.challenge_proofs[j];
    const std::string where = "challenge " + std::to_string(j) + ": ";
    update_challenge_witness_t p;
    p.leaf_r_old = to_fr(q.proof_r_old.leaf, where + "proof_r_old leaf");
    p.leaf_d_new = to_fr(q.proof_d_new.leaf, where + "proof_d_new leaf");
    p.leaf_r_new = to_fr(q.proof_r_new.leaf, where + "proof_r_new leaf");
    p.path_r_old = to_siblings(q.proof_r_old, where + "proof_r_old");
    p.path_r_new = to_siblings(q.proof_r_new, where + "proof_r_new");
    for (const auto& level : to_siblings(q.proof_d_new, where + "proof_d_new")) {
      if (level.size() != 1)
        throw std::invalid_argument(where + "proof_d_new: a level with " +
                                    std::to_string(level.size()) + " siblings (tree D is binary)");
      p.path_d_new.push_back(level[0]);
    }
    w.challenges.push_back(std::move(p));
  }
  return w;
}

update_partition_witness_t update_blank_witness(const update_config_t& c) {
  update_partition_witness_t w;
  w.k = 0;
  w.k_and_h_select = update_k_and_h_select(c, 0);
  w.apex_leafs.assign(c.apex_leaves, fr_t{});
  update_challenge_witness_t p;
  for (const uint32_t a : tree_r_arities(c)) p.path_r_old.emplace_back(a - 1, fr_t{});
  p.path_r_new = p.path_r_old;
  p.path_d_new.assign(c.node_bits, fr_t{});
  w.challenges.assign(c.challenges, p);
  return w;
}

void check_update_witness(const update_config_t& c, const update_partition_witness_t& w) {
  if (w.k >= c.partitions)
    throw std::invalid_argument("witness: partition " + std::to_string(w.k) + " of a sector with " +
                                std::to_string(c.partitions) + " partition(s)");
  if (w.k_and_h_select != update_k_and_h_select(c, w.k))
    throw std::invalid_argument("witness: k_and_h_select " + std::to_string(w.k_and_h_select) +
                                " is not partition " + std::to_string(w.k) + " | h_select " +
                                std::to_string(c.h_select) + " << " +
                                std::to_string(c.partition_bits));
  if (w.apex_leafs.size() != c.apex_leaves)
    throw std::invalid_argument("witness: " + std::to_string(w.apex_leafs.size()) +
                                " apex leaves, expected " + std::to_string(c.apex_leaves));
  if (w.challenges.size() != c.challenges)
    throw std::invalid_argument("witness: " + std::to_string(w.challenges.size()) +
                                " challenges, the circuit takes " + std::to_string(c.challenges));
  const auto r = tree_r_arities(c);
  for (uint32_t j = 0; j < c.challenges; ++j) {
    const update_challenge_witness_t& p = w.challenges[j];
    const std::string where = "witness: challenge " + std::to_string(j) + ": ";
    for (const auto* path : {&p.path_r_old, &p.path_r_new}) {
      const char* name = path == &p.path_r_old ? "path_r_old" : "path_r_new";
      if (path->size() != r.size())
        throw std::invalid_argument(where + name + " has " + std::to_string(path->size()) +
                                    " levels, tree R has " + std::to_string(r.size()));
      for (size_t e = 0; e < r.size(); ++e)
        if ((*path)[e].size() != r[e] - 1)
          throw std::invalid_argument(where + name + " level " + std::to_string(e) + " has " +
                                      std::to_string((*path)[e].size()) + " siblings, arity " +
                                      std::to_string(r[e]) + " needs " + std::to_string(r[e] - 1));
    }
    if (p.path_d_new.size() != c.node_bits)
      throw std::invalid_argument(where + "path_d_new has " + std::to_string(p.path_d_new.size()) +
                                  " levels, tree D has " + std::to_string(c.node_bits));
    // circuit.rs: every challenge's tree-D path ends in challenge 0's partition path.
    for (uint32_t e = c.node_bits - c.partition_bits; e < c.node_bits; ++e)
      if (p.path_d_new[e] != w.challenges[0].path_d_new[e])
        throw std::invalid_argument(where + "path_d_new level " + std::to_string(e) +
                                    " differs from challenge 0's (the partition path)");
  }
}

// ---- the circuit -------------------------------------------------------------------------------

namespace {

using namespace update_circuit_detail;

template <class CS>
num_t alloc_public(CS& cs, const fr_t& v) {
  const num_t x = bellperson::alloc_num(cs, v);
  bellperson::inputize(cs, x);
  return x;
}

template <class CS>
std::vector<num_t> alloc_nums(CS& cs, const std::vector<fr_t>& v) {
  std::vector<num_t> out;
  out.reserve(v.size());
  for (const fr_t& x : v) out.push_back(bellperson::alloc_num(cs, x));
  return out;
}

template <class CS>
num_t hash_rand(CS& cs, const num_t& a, const num_t& b) {
  const num_t in[2] = {a, b};
  return neptune::poseidon_hash(cs, in, update_randomness_constants());
}

std::vector<boolean_t> booleans(const bit_t* bits, size_t n) {
  std::vector<boolean_t> out(n);
  for (size_t i = 0; i < n; ++i) out[i] = boolean_t::is(bits[i]);
  return out;
}

}  // namespace

template <class CS>
update_circuit_shared_t synthesize_update_prefix(CS& cs, const update_config_t& c,
                                                 const update_partition_witness_t& w,
                                                 bool parallel) {
  using bellperson::alloc_num;
  update_circuit_shared_t s;
  cs.region([] { return "k_and_h_select, its bits, the partition"; });
  const num_t k_and_h = alloc_public(cs, fr_t::from_u64(w.k_and_h_select));
  std::vector<bit_t> bits;
  for (uint32_t i = 0; i < c.partition_bits + c.hs.size(); ++i)
    bits.push_back(bellperson::alloc_bit(cs, (w.k_and_h_select >> i) & 1));
  bits_packed_eq(cs, bits.data(), bits.size(), k_and_h);
  s.partition_bits.assign(bits.begin(), bits.begin() + c.partition_bits);
  s.h_select_bits.assign(bits.begin() + c.partition_bits, bits.end());
  const auto pbits = booleans(s.partition_bits.data(), s.partition_bits.size());
  const num_t partition = bellperson::pack_bits(cs, pbits.data(), pbits.size());

  cs.region([] { return "comm_r_old, comm_d_new, comm_r_new, phi"; });
  const num_t comm_r_old = alloc_public(cs, w.comm_r_old);
  const num_t comm_d_new = alloc_public(cs, w.comm_d_new);
  const num_t comm_r_new = alloc_public(cs, w.comm_r_new);
  s.phi = hash_rand(cs, comm_d_new, comm_r_old);

  cs.region([] { return "comm_c, roots, apex leaves; comm_r = H(comm_c, root_r)"; });
  const num_t comm_c = alloc_num(cs, w.comm_c);
  s.root_r_old = alloc_num(cs, w.root_r_old);
  s.root_r_new = alloc_num(cs, w.root_r_new);
  s.apex_leafs = alloc_nums(cs, w.apex_leafs);
  std::vector<std::vector<num_t>> partition_path;
  const auto& d0 = w.challenges[0].path_d_new;
  for (uint32_t e = c.node_bits - c.partition_bits; e < c.node_bits; ++e)
    partition_path.push_back({alloc_num(cs, d0[e])});
  const num_t old_in[2] = {comm_c, s.root_r_old};
  enforce_equal(cs, neptune::poseidon_hash(cs, old_in, neptune::poseidon_constants(2)), comm_r_old);
  const num_t new_in[2] = {comm_c, s.root_r_new};
  enforce_equal(cs, neptune::poseidon_hash(cs, new_in, neptune::poseidon_constants(2)), comm_r_new);

  cs.region([] { return "apex tree, its root in tree D"; });
  apex_por(cs, s.apex_leafs, pbits.data(), pbits.size(), partition_path, comm_d_new, parallel);

  cs.region([] { return "the challenges' random bits"; });
  s.random_bits =
      challenge_bits(cs, comm_r_new, partition, c.challenges, c.node_bits - c.partition_bits);
  return s;
}

template <class CS>
void synthesize_update_challenge(CS& cs, const update_config_t& c,
                                 const update_challenge_witness_t& p,
                                 const update_circuit_shared_t& s, uint32_t j) {
  using bellperson::alloc_num;
  auto named = [j](const char* what) {
    return [j, what] { return challenge_region_prefix(j) + what; };
  };

  cs.region(named("rho, the leaves, leaf_r_new"));
  std::vector<boolean_t> c_bits = booleans(s.random_bits[j].data(), s.random_bits[j].size());
  for (const bit_t& b : s.partition_bits) c_bits.push_back(boolean_t::is(b));
  const num_t high = challenge_high(cs, c_bits.data(), c_bits.size(), s.h_select_bits.data(), c.hs);
  const num_t rho = hash_rand(cs, s.phi, high);
  const num_t leaf_r_old = alloc_num(cs, p.leaf_r_old);
  const num_t leaf_d_new = alloc_num(cs, p.leaf_d_new);
  const num_t leaf_r_new = label_r_new(cs, leaf_r_old, leaf_d_new, rho);
  if constexpr (CS::evaluates)
    if (leaf_r_new.value != p.leaf_r_new)
      throw std::invalid_argument(
          "witness: " + challenge_region_prefix(j) +
          "leaf_r_old + leaf_d_new · rho is not proof_r_new's leaf (the encoding does not hold)");

  const auto r = tree_r_arities(c);
  auto tree_r = [&](const char* what, const std::vector<std::vector<fr_t>>& path, const num_t& leaf,
                    const num_t& root) {
    cs.region(named(what));
    std::vector<std::vector<num_t>> siblings;
    siblings.reserve(path.size());
    for (const auto& level : path) siblings.push_back(alloc_nums(cs, level));
    por(cs, hasher_t::poseidon, r, c_bits.data(), c_bits.size(), leaf, siblings, root);
  };
  tree_r("leaf_r_old in tree R old", p.path_r_old, leaf_r_old, s.root_r_old);
  tree_r("leaf_r_new in tree R new", p.path_r_new, leaf_r_new, s.root_r_new);

  cs.region(named("the apex leaf, leaf_d_new under it in tree D"));
  const uint32_t below = apex_height(c);
  const num_t apex_leaf = select_by_bits(cs, s.apex_leafs, c_bits.data() + below, c.apex_leaf_bits);
  std::vector<std::vector<num_t>> siblings;
  for (uint32_t e = 0; e < below; ++e) siblings.push_back({alloc_num(cs, p.path_d_new[e])});
  por(cs, hasher_t::sha256, std::vector<uint32_t>(below, 2), c_bits.data(), below, leaf_d_new,
      siblings, apex_leaf);
}

template <class CS>
void synthesize_update_circuit(CS& cs, const update_config_t& c,
                               const update_partition_witness_t& w) {
  const update_circuit_shared_t s = synthesize_update_prefix(cs, c, w);
  for (uint32_t j = 0; j < c.challenges; ++j)
    synthesize_update_challenge(cs, c, w.challenges[j], s, j);
}

#define ZK_UPDATE_CIRCUIT_INSTANTIATE(CS)                                                  \
  template update_circuit_shared_t synthesize_update_prefix<CS>(                           \
      CS&, const update_config_t&, const update_partition_witness_t&, bool);               \
  template void synthesize_update_challenge<CS>(CS&, const update_config_t&,               \
                                                const update_challenge_witness_t&,         \
                                                const update_circuit_shared_t&, uint32_t); \
  template void synthesize_update_circuit<CS>(CS&, const update_config_t&,                 \
                                              const update_partition_witness_t&);
ZK_UPDATE_CIRCUIT_INSTANTIATE(bellperson::shape_cs_t)
ZK_UPDATE_CIRCUIT_INSTANTIATE(bellperson::prove_cs_t)
ZK_UPDATE_CIRCUIT_INSTANTIATE(bellperson::count_cs_t)
#undef ZK_UPDATE_CIRCUIT_INSTANTIATE

// ---- layout and shape (cached) ---------------------------------------------------------------

namespace {

std::string circuit_key(const update_config_t& c) {
  return "update " + std::to_string(c.sector_size);
}

const circuit_parts_t& parts_of(const update_config_t& c) {
  return cached_parts(circuit_key(c), [&c] {
    const update_partition_witness_t w = update_blank_witness(c);
    return count_parts([&](auto& cs) { return synthesize_update_prefix(cs, c, w); },
                       [&](auto& cs, const update_circuit_shared_t& s, uint32_t j) {
                         synthesize_update_challenge(cs, c, w.challenges[j], s, j);
                       },
                       c.challenges);
  });
}

}  // namespace

const circuit_layout_t& update_circuit_layout(const update_config_t& c) {
  return parts_of(c).layout;
}

bellperson::r1cs_shape_t synthesize_update_shape(const update_config_t& c, bool matrices) {
  // The shared part, challenge 0, then challenge 0 repeated with its own variables moved and its
  // random bits (one run of aux variables, as every challenge's) replaced by challenge k's
  // (tests/filecoin/update_circuit_test.cpp checks the result against a full synthesis).
  bellperson::shape_cs_t cs(matrices);
  const update_partition_witness_t w = update_blank_witness(c);
  const update_circuit_shared_t s = synthesize_update_prefix(cs, c, w);
  for (const auto& bits : s.random_bits)
    for (size_t i = 0; i < bits.size(); ++i)
      if (bits[i].var.index() != bits[0].var.index() + i)
        throw std::logic_error(
            "synthesize_update_shape: a challenge's random bits are not one run");
  cs.start_part();
  synthesize_update_challenge(cs, c, w.challenges[0], s, 0);
  const std::string prefix0 = challenge_region_prefix(0);
  const uint32_t first = s.random_bits[0][0].var.index(), n = uint32_t(s.random_bits[0].size());
  cs.repeat_part(
      c.challenges - 1,
      [&prefix0](const std::string& name, uint32_t k) {
        return name.compare(0, prefix0.size(), prefix0) == 0
                   ? challenge_region_prefix(k) + name.substr(prefix0.size())
                   : name;
      },
      [&s, first, n](var_t x, uint32_t k) {
        if (x.is_input() || x.index() < first || x.index() >= first + n) return x;
        return s.random_bits[k][x.index() - first].var;
      });
  return cs.finish();
}

std::shared_ptr<const bellperson::r1cs_shape_t> update_circuit_shape(const update_config_t& c,
                                                                     bool matrices) {
  return cached_shape(circuit_key(c), matrices,
                      [&c](bool m) { return synthesize_update_shape(c, m); });
}

// ---- prove mode ----------------------------------------------------------------------------

void synthesize_update_partition(const update_config_t& c, const update_partition_witness_t& w,
                                 const bellperson::assignment_view_t& out, bool parallel,
                                 const stop_t& stop) {
  check_update_witness(c, w);
  synthesize_parts(
      update_circuit_layout(c), out,
      [&](auto& cs) { return synthesize_update_prefix(cs, c, w, parallel); },
      [&](auto& cs, const update_circuit_shared_t& s, uint32_t j) {
        synthesize_update_challenge(cs, c, w.challenges[j], s, j);
      },
      parallel, stop, "synthesize_update_partition (" + std::to_string(c.sector_size) + " bytes)");
}

partition_assignment_t synthesize_update_partition(const update_config_t& c,
                                                   const update_partition_witness_t& w,
                                                   bool parallel) {
  partition_assignment_t a(update_circuit_layout(c));
  synthesize_update_partition(c, w, a.view(), parallel);
  return a;
}

std::optional<unsatisfied_t> first_unsatisfied_update(const update_config_t& c,
                                                      const bellperson::assignment_view_t& v) {
  return first_unsatisfied(parts_of(c), v);
}

}  // namespace zk::filecoin
