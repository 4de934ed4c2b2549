#include "zk/filecoin/update/encode.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <limits>
#include <optional>
#include <stdexcept>

#include "zk/base/clock.hpp"
#include "zk/base/hex.hpp"
#include "zk/base/thread_pool.hpp"
#include "zk/filecoin/update/vanilla.hpp"
#include "zk/neptune/poseidon.hpp"

namespace zk::filecoin {

namespace {

using steady_clock_t = std::chrono::steady_clock;

// TreeD_new's levels not kept below the apex row (as the seal's tree_d: a path rehashes 2^4 = 16
// data nodes); fewer when the apex row is lower, since the partitions' apex leaves are read from
// a kept level.
constexpr unsigned tree_d_discarded_levels = 4;

constexpr uint64_t none = std::numeric_limits<uint64_t>::max();

void lower_to(std::atomic<uint64_t>& at, uint64_t i) {
  uint64_t cur = at.load();
  while (i < cur && !at.compare_exchange_weak(cur, i)) {
  }
}

// A TreeR of the sector's shape over 32-byte nodes (the sector key, the new replica), its leaves
// not kept: a path reads its 8 from the nodes again.
// comm_r = Poseidon2(comm_c, root).
struct tree_r_t {
  poseidon_tree_t::leaf_fn_t leaves;
  poseidon_tree_t tree;
  fr_t comm_r;
  tree_r_t(const tree_shape_t& shape, const std::vector<bytes32_t>& nodes, const fr_t& comm_c)
      : leaves([&nodes](uint64_t first, uint64_t count, fr_t* out) {
          for (uint64_t i = 0; i < count; ++i) out[i] = *fr_from_bytes(nodes[first + i]);
        }),
        tree(shape, nodes.size(), leaves),
        comm_r(neptune::poseidon2(comm_c, tree.root())) {}
  merkle_proof_t prove(uint64_t i) const { return tree.prove(i, leaves); }
};

std::string not_fr(const std::string& what, uint64_t i, const bytes32_t& v) {
  return what + " node " + std::to_string(i) + " is not a field element (" + to_hex(v) +
         " read little-endian is ≥ r)";
}

}  // namespace

update_encoding_t encode_update(const update_config_t& c, const domain_t& comm_c,
                                const std::vector<bytes32_t>& sector_key,
                                const std::vector<bytes32_t>& data,
                                const std::function<void(const std::string&)>& progress,
                                const std::optional<domain_t>& comm_r_last_old) {
  // Says the stage to `progress` and returns its start.
  auto stage = [&](const std::string& s) {
    if (progress) progress(s);
    return steady_clock_t::now();
  };
  const uint64_t n = c.nodes;
  for (const auto& [v, what] : {std::pair{&sector_key, "the sector key"}, {&data, "the data"}})
    if (v->size() != n)
      throw std::invalid_argument(std::string(what) + " has " + std::to_string(v->size()) +
                                  " nodes; a " + std::to_string(c.sector_size) +
                                  "-byte sector has " + std::to_string(n));
  const std::optional<fr_t> comm_c_fr = fr_from_bytes(comm_c);
  if (!comm_c_fr)
    throw std::invalid_argument("comm_c " + to_hex(comm_c) + " is not a field element (≥ r)");

  update_encoding_t r;
  r.comm_c = comm_c;
  const auto t_total = steady_clock_t::now();

  // The inputs, every node a field element: the first that is not is named.
  {
    std::atomic<uint64_t> bad_key{none}, bad_data{none};
    parallel_for(n, [&](size_t b, size_t e) {
      for (size_t i = b; i < e; ++i) {
        if (!fr_from_bytes(sector_key[i])) lower_to(bad_key, i);
        if (!fr_from_bytes(data[i])) lower_to(bad_data, i);
      }
    });
    if (bad_key != none)
      throw std::invalid_argument(not_fr("sector key", bad_key, sector_key[bad_key]));
    if (bad_data != none) throw std::invalid_argument(not_fr("data", bad_data, data[bad_data]));
  }

  // TreeR_old over the sector key and comm_r_old, first: a key that is not the sealed sector's
  // is refused before anything else is done.
  auto t = stage("TreeR of the sector key");
  const tree_r_t tree_r_old(c.shape, sector_key, *comm_c_fr);
  r.comm_r_last_old = fr_to_bytes(tree_r_old.tree.root());
  r.comm_r_old = fr_to_bytes(tree_r_old.comm_r);
  if (comm_r_last_old && *comm_r_last_old != r.comm_r_last_old)
    throw std::invalid_argument(
        "the sector key is not the sealed sector's replica: its TreeR root "
        "is " +
        to_hex(r.comm_r_last_old) + ", the seal's comm_r_last " + to_hex(*comm_r_last_old));
  r.seconds.tree_r_old = seconds_since(t);

  // TreeD_new and comm_d_new.
  t = stage("TreeD of the new data");
  const uint32_t apex_height = c.node_bits - c.partition_bits - c.apex_leaf_bits;
  const sha256_tree_t tree_d(data.data(), n, std::min(tree_d_discarded_levels, apex_height));
  r.comm_d_new = tree_d.root();
  r.seconds.tree_d = seconds_since(t);

  // The encoding: new[i] = key[i] + data[i] · rho(high(i)), one rho for each of the 2^h highs.
  t = stage("encoding");
  const fr_t phi = update_phi(*fr_from_bytes(r.comm_d_new), tree_r_old.comm_r);
  std::vector<fr_t> rhos(uint64_t(1) << c.h);
  for (uint64_t high = 0; high < rhos.size(); ++high) rhos[high] = update_rho(phi, high);
  r.replica.resize(n);
  parallel_for(n, [&](size_t b, size_t e) {
    for (size_t i = b; i < e; ++i)
      r.replica[i] = fr_to_bytes(*fr_from_bytes(sector_key[i]) +
                                 *fr_from_bytes(data[i]) * rhos[update_challenge_high(c, i)]);
  });
  r.seconds.encode = seconds_since(t);

  // TreeR_new over the new replica, comm_r_last_new and comm_r_new.
  t = stage("TreeR of the new replica");
  const tree_r_t tree_r_new(c.shape, r.replica, *comm_c_fr);
  r.comm_r_last_new = fr_to_bytes(tree_r_new.tree.root());
  r.comm_r_new = fr_to_bytes(tree_r_new.comm_r);
  r.seconds.tree_r_new = seconds_since(t);

  // The partitions' proofs (prove_inner): the apex leaves, then each challenge's three openings.
  t = stage("vanilla proofs");
  const std::vector<bytes32_t>& apex_row = tree_d.level(apex_height);
  for (uint32_t k = 0; k < c.partitions; ++k) {
    update_partition_proof_t p;
    p.comm_c = comm_c;
    p.apex_leafs.assign(apex_row.begin() + uint64_t(k) * c.apex_leaves,
                        apex_row.begin() + uint64_t(k + 1) * c.apex_leaves);
    const std::vector<uint64_t> challenges = update_challenges(c, tree_r_new.comm_r, k);
    p.challenge_proofs.resize(challenges.size());
    parallel_for(challenges.size(), [&](size_t b, size_t e) {
      for (size_t i = b; i < e; ++i) {
        update_challenge_proof_t& q = p.challenge_proofs[i];
        q.proof_r_old = tree_r_old.prove(challenges[i]);
        q.proof_d_new = tree_d.prove(challenges[i], data.data());
        q.proof_r_new = tree_r_new.prove(challenges[i]);
      }
    });
    r.proofs.push_back(std::move(p));
  }
  r.seconds.proofs = seconds_since(t);
  r.seconds.total = seconds_since(t_total);
  return r;
}

}  // namespace zk::filecoin
