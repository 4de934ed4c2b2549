#include "zk/filecoin/api/sparse_seal.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cstring>
#include <map>
#include <stdexcept>
#include <string>
#include <unordered_map>

#include "zk/base/sha256.hpp"
#include "zk/base/thread_pool.hpp"
#include "zk/filecoin/api/seal.hpp"
#include "zk/filecoin/core/fr32.hpp"
#include "zk/filecoin/core/hashers.hpp"
#include "zk/filecoin/core/merkle.hpp"
#include "zk/filecoin/porep/vanilla/challenges.hpp"
#include "zk/filecoin/porep/vanilla/labels.hpp"
#include "zk/neptune/poseidon.hpp"

namespace zk::filecoin {

namespace {

using steady_clock_t = std::chrono::steady_clock;

double since(steady_clock_t::time_point t) {
  return std::chrono::duration<double>(steady_clock_t::now() - t).count();
}

constexpr uint64_t max_block_nodes = uint64_t(1) << 18;  // 8 MiB of padded data

enum class value_kind_t : uint32_t { label = 1, tree_c = 2, tree_r_last = 3 };

// The pseudo-random values (sparse_seal.hpp): one per (kind, a, b), from the seed's key.
class values_t {
 public:
  explicit values_t(uint64_t random) {
    static constexpr char tag[] = "zkfleet sparse seal v1";
    uint8_t msg[sizeof tag - 1 + 8];
    std::memcpy(msg, tag, sizeof tag - 1);
    for (int i = 0; i < 8; ++i) msg[sizeof tag - 1 + i] = uint8_t(random >> (8 * i));
    key_ = sha256(msg, sizeof msg);
  }
  bytes32_t bytes(value_kind_t kind, uint32_t a, uint64_t b) const {
    uint8_t msg[32 + 4 + 4 + 8];
    std::memcpy(msg, key_.data(), 32);
    for (int i = 0; i < 4; ++i) msg[32 + i] = uint8_t(uint32_t(kind) >> (8 * i));
    for (int i = 0; i < 4; ++i) msg[36 + i] = uint8_t(a >> (8 * i));
    for (int i = 0; i < 8; ++i) msg[40 + i] = uint8_t(b >> (8 * i));
    return sha256_trunc(msg, sizeof msg);  // 254 bits: a field element
  }
  fr_t fr(value_kind_t kind, uint32_t a, uint64_t b) const {
    return *fr_from_bytes(bytes(kind, a, b));
  }

 private:
  bytes32_t key_{};
};

}  // namespace

uint64_t sparse_block_nodes(uint64_t nodes) { return std::min(nodes, max_block_nodes); }

sparse_seal_result_t sparse_seal_sector(const sparse_seal_request_t& req) {
  const porep_config_t& c = req.config;
  if (c.challenge_kind != challenge_kind_t::interactive)
    throw std::invalid_argument(
        std::string(c.proof ? c.proof->name : "this proof") +
        " draws its challenges from comm_r (" + std::string(challenge_kind_name(c.challenge_kind)) +
        " PoRep), which the opened paths themselves determine: a sparse seal needs interactive "
        "challenges (replica_id and the seed)");
  sparse_seal_result_t r;
  const auto t_total = steady_clock_t::now();
  const values_t values(req.random);

  // The data: the reference's random piece of one block, padded, repeated; tree_d over it.
  auto t = steady_clock_t::now();
  r.block_nodes = sparse_block_nodes(c.nodes);
  std::vector<bytes32_t> block(r.block_nodes);
  {
    const std::vector<uint8_t> piece =
        random_piece(req.random, fr32_unpadded_size(r.block_nodes * 32));
    fr32_pad(piece.data(), piece.size(), block[0].data());
  }
  const periodic_sha256_tree_t tree_d(std::move(block), c.nodes);
  r.comm_d = tree_d.root();
  r.replica_id = replica_id(req.prover_id, req.sector, req.ticket, r.comm_d, c.porep_id);
  r.seconds.data_and_tree_d = since(t);

  // The challenges (interactive: replica_id and the seed; comm_r is not read) and their parents.
  t = steady_clock_t::now();
  const graph_t g(c);
  std::map<uint64_t, std::array<uint32_t, graph_degree>> challenged;  // node → parents, ascending
  for (uint32_t k = 0; k < c.partitions; ++k) {
    r.challenges.push_back(porep_challenges(c, r.replica_id, req.seed, bytes32_t{}, k));
    for (uint64_t ch : r.challenges.back())
      if (challenged.count(ch) == 0) g.parents(ch, challenged[ch].data());
  }
  r.challenged_nodes = challenged.size();

  // Labels: the challenged nodes' by SDR from their parents, layer by layer and, within a layer,
  // in node order (a DRG parent precedes its child; an expander parent is in the layer below).
  std::vector<std::unordered_map<uint64_t, bytes32_t>> computed(c.layers + 1);
  auto label = [&](uint32_t layer, uint64_t node) {
    const auto it = computed[layer].find(node);
    return it != computed[layer].end() ? it->second
                                       : values.bytes(value_kind_t::label, layer, node);
  };
  for (uint32_t l = 1; l <= c.layers; ++l)
    for (const auto& [node, ps] : challenged) {
      bytes32_t parents[label_parents];
      for (unsigned i = 0; i < label_parents; ++i) {
        const label_parent_t from = label_parent(l, i);
        parents[i] = label(from.layer, ps[from.slot]);
      }
      computed[l][node] = sdr_label_from_parents(r.replica_id, l, node, parents, label_parents);
      ++r.labels_computed;
    }
  r.seconds.labels = since(t);

  // tree_c over the opened columns' hashes.
  t = steady_clock_t::now();
  std::vector<uint64_t> columns;
  for (const auto& [node, ps] : challenged) {
    columns.push_back(node);
    columns.insert(columns.end(), ps.begin(), ps.end());
  }
  std::sort(columns.begin(), columns.end());
  columns.erase(std::unique(columns.begin(), columns.end()), columns.end());
  r.columns = columns.size();
  std::vector<std::pair<uint64_t, fr_t>> column_leaves(columns.size());
  parallel_for(columns.size(), [&](size_t b, size_t e) {
    std::vector<bytes32_t> rows(c.layers);
    for (size_t i = b; i < e; ++i) {
      for (uint32_t l = 1; l <= c.layers; ++l) rows[l - 1] = label(l, columns[i]);
      column_leaves[i] = {columns[i], column_hash(rows)};
    }
  });
  const sparse_poseidon_tree_t tree_c(
      c.shape, c.nodes, std::move(column_leaves), [&](size_t level, uint64_t index) {
        return values.fr(value_kind_t::tree_c, uint32_t(level), index);
      });
  r.comm_c = fr_to_bytes(tree_c.root());
  r.tree_c_nodes = tree_c.computed_nodes();
  r.seconds.tree_c = since(t);

  // tree_r_last over the challenged nodes' replica values (encode.rs: label + data).
  t = steady_clock_t::now();
  std::vector<std::pair<uint64_t, fr_t>> replica_leaves;
  for (const auto& kv : challenged)
    replica_leaves.emplace_back(kv.first, *fr_from_bytes(label(c.layers, kv.first)) +
                                              *fr_from_bytes(tree_d.leaf(kv.first)));
  const sparse_poseidon_tree_t tree_r(
      c.shape, c.nodes, std::move(replica_leaves), [&](size_t level, uint64_t index) {
        return values.fr(value_kind_t::tree_r_last, uint32_t(level), index);
      });
  r.comm_r_last = fr_to_bytes(tree_r.root());
  r.comm_r = fr_to_bytes(neptune::poseidon2(tree_c.root(), tree_r.root()));
  r.tree_r_last_nodes = tree_r.computed_nodes();
  r.seconds.tree_r_last = since(t);

  // The vanilla proofs, as the full sealer makes them.
  t = steady_clock_t::now();
  sector_openings_t open;
  open.comm_d = [&](uint64_t node) { return tree_d.prove(node); };
  open.comm_r_last = [&](uint64_t node) { return tree_r.prove(node); };
  open.comm_c = [&](uint64_t node) { return tree_c.prove(node); };
  open.label = label;
  for (const auto& part : r.challenges) {
    std::vector<vanilla_proof_t> proofs(part.size());
    parallel_for(part.size(), [&](size_t b, size_t e) {
      for (size_t i = b; i < e; ++i) proofs[i] = make_vanilla_proof(c, g, open, part[i]);
    });
    r.vanilla_proofs.push_back(std::move(proofs));
  }
  r.seconds.proofs = since(t);
  r.seconds.total = since(t_total);
  return r;
}

c1_output_t c1_of(const sparse_seal_request_t& req, const sparse_seal_result_t& r) {
  return c1_of_seal(req, r);
}

}  // namespace zk::filecoin
