#include "zk/filecoin/api/seal.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <stdexcept>
#include <string>

#include "zk/base/thread_pool.hpp"
#include "zk/filecoin/core/fr32.hpp"
#include "zk/filecoin/core/merkle.hpp"
#include "zk/filecoin/porep/circuit/public_inputs.hpp"
#include "zk/filecoin/porep/vanilla/labels.hpp"
#include "zk/neptune/poseidon.hpp"

namespace zk::filecoin {

namespace {

using steady_clock_t = std::chrono::steady_clock;

double since(steady_clock_t::time_point t) {
  return std::chrono::duration<double>(steady_clock_t::now() - t).count();
}

// Levels of tree_d not kept: a path rehashes 2^4 = 16 leaves; the kept levels are 1/16 of the
// sector.
constexpr unsigned tree_d_discarded_levels = 4;
constexpr uint32_t max_layers = 11;

}  // namespace

std::vector<uint8_t> random_piece(uint64_t seed, size_t len) {
  std::vector<uint8_t> out;
  out.reserve(len + 32);
  for (uint64_t i = 0; out.size() < len; ++i) {
    uint8_t msg[16];
    for (int b = 0; b < 8; ++b) {
      msg[b] = uint8_t(seed >> (8 * b));
      msg[8 + b] = uint8_t(i >> (8 * b));
    }
    const bytes32_t h = sha256(msg, sizeof msg);
    out.insert(out.end(), h.begin(), h.end());
  }
  out.resize(len);
  return out;
}

namespace {

// owned: the piece when the caller gave it away (freed once padded), else null.
seal_result_t seal_impl(const seal_request_t& req, std::vector<uint8_t>* owned,
                        const std::function<void(const std::string&)>& progress) {
  const std::vector<uint8_t>& piece = owned ? *owned : req.piece;
  const porep_config_t& c = req.config;
  auto stage = [&](const std::string& s) {
    if (progress) progress(s);
  };
  const uint64_t unpadded = fr32_unpadded_size(c.sector_size);
  if (piece.size() != unpadded)
    throw std::invalid_argument("the piece must be exactly " + std::to_string(unpadded) +
                                " bytes (sector size " + std::to_string(c.sector_size) +
                                " × 127/128), got " + std::to_string(piece.size()));
  if (c.layers > max_layers)
    throw std::invalid_argument(std::to_string(c.layers) + " layers (at most " +
                                std::to_string(max_layers) + ")");
  const uint64_t n = c.nodes;
  seal_result_t r;
  const auto t_total = steady_clock_t::now();

  // PC1: pad, tree_d (its lowest levels rehashed from the data when a path needs them),
  // replica_id.
  stage("fr32 padding and tree_d");
  auto t = steady_clock_t::now();
  std::vector<bytes32_t> data(n);
  fr32_pad(piece.data(), piece.size(), data[0].data());
  if (owned) std::vector<uint8_t>().swap(*owned);
  const sha256_tree_t tree_d(data.data(), n, tree_d_discarded_levels);
  r.comm_d = tree_d.root();
  r.replica_id = replica_id(req.prover_id, req.sector, req.ticket, r.comm_d, c.porep_id);
  r.seconds.pad_and_tree_d = since(t);

  // PC1: labels.
  stage("parent table");
  t = steady_clock_t::now();
  const graph_t g(c);
  std::vector<std::vector<bytes32_t>> layers(c.layers);
  {
    const parent_table_t parents =
        req.parent_cache.empty()
            ? parent_table_t(g)
            : parent_table_t::cached(g, req.parent_cache, &r.parent_table_loaded);
    r.parent_table_bytes = parents.bytes();
    r.seconds.parents = since(t);
    t = steady_clock_t::now();
    for (uint32_t l = 1; l <= c.layers; ++l) {
      stage("labels of layer " + std::to_string(l));
      layers[l - 1].resize(n);
      sdr_label_layer(parents, r.replica_id, l, l > 1 ? layers[l - 2].data() : nullptr,
                      layers[l - 1].data());
    }
    r.seconds.labels = since(t);
  }

  // PC2: tree_c over the column hashes, which are recomputed from the layers for the paths.
  stage("tree_c");
  t = steady_clock_t::now();
  const neptune::poseidon_constants_t& column_constants = neptune::poseidon_constants(c.layers);
  const poseidon_tree_t::leaf_fn_t column_leaves = [&](uint64_t first, uint64_t count, fr_t* out) {
    // Eight columns at a time (poseidon_hash_x8), the rest one by one.
    fr_t cols[8 * max_layers];
    for (uint64_t i = 0; i < count;) {
      const uint64_t m = std::min<uint64_t>(8, count - i);
      for (uint64_t k = 0; k < m; ++k)
        for (uint32_t l = 0; l < c.layers; ++l)
          cols[k * c.layers + l] = *fr_from_bytes(layers[l][first + i + k]);
      if (m == 8) {
        neptune::poseidon_hash_x8(column_constants, cols, out + i);
      } else {
        for (uint64_t k = 0; k < m; ++k)
          out[i + k] = neptune::poseidon_hash(column_constants, &cols[k * c.layers]);
      }
      i += m;
    }
  };
  const poseidon_tree_t tree_c(c.shape, n, column_leaves);
  r.comm_c = fr_to_bytes(tree_c.root());
  r.seconds.tree_c = since(t);

  // PC2: the replica (encode.rs: label + data in the field) and tree_r_last over it.
  stage("replica and tree_r_last");
  t = steady_clock_t::now();
  const std::vector<bytes32_t>& last = layers.back();
  const poseidon_tree_t::leaf_fn_t replica_leaves = [&](uint64_t first, uint64_t count, fr_t* out) {
    for (uint64_t i = 0; i < count; ++i)
      out[i] = *fr_from_bytes(last[first + i]) + *fr_from_bytes(data[first + i]);
  };
  const poseidon_tree_t tree_r(c.shape, n, replica_leaves);
  r.comm_r_last = fr_to_bytes(tree_r.root());
  r.comm_r = fr_to_bytes(neptune::poseidon2(tree_c.root(), tree_r.root()));
  r.seconds.tree_r_last = since(t);
  r.tree_bytes = tree_d.bytes() + tree_c.bytes() + tree_r.bytes();

  // C1: the vanilla proofs of every partition's challenges.
  stage("vanilla proofs");
  t = steady_clock_t::now();
  sector_openings_t open;
  open.comm_d = [&](uint64_t node) { return tree_d.prove(node, data.data()); };
  open.comm_r_last = [&](uint64_t node) { return tree_r.prove(node, replica_leaves); };
  open.comm_c = [&](uint64_t node) { return tree_c.prove(node, column_leaves); };
  open.label = [&](uint32_t layer, uint64_t node) { return layers[layer - 1][node]; };
  for (uint32_t k = 0; k < c.partitions; ++k) {
    r.challenges.push_back(porep_challenges(c, r.replica_id, req.seed, r.comm_r, k));
    std::vector<vanilla_proof_t> part;
    for (uint64_t ch : r.challenges.back()) part.push_back(make_vanilla_proof(c, g, open, ch));
    r.vanilla_proofs.push_back(std::move(part));
  }
  r.seconds.proofs = since(t);

  if (req.keep_replica) {
    r.replica.resize(n);
    parallel_for(n, [&](size_t b, size_t e) {
      fr_t x;
      for (size_t i = b; i < e; ++i) {
        replica_leaves(i, 1, &x);
        r.replica[i] = fr_to_bytes(x);
      }
    });
  }
  if (req.keep_layers) r.layers = std::move(layers);
  r.seconds.total = since(t_total);
  return r;
}

}  // namespace

seal_result_t seal_sector(const seal_request_t& req,
                          const std::function<void(const std::string&)>& progress) {
  return seal_impl(req, nullptr, progress);
}

seal_result_t seal_sector(seal_request_t&& req,
                          const std::function<void(const std::string&)>& progress) {
  std::vector<uint8_t> piece = std::move(req.piece);
  req.piece.clear();
  return seal_impl(req, &piece, progress);
}

c1_output_t c1_of(const seal_request_t& req, const seal_result_t& r) { return c1_of_seal(req, r); }

}  // namespace zk::filecoin
