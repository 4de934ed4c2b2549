#include "zk/filecoin/porep/vanilla/proof.hpp"

#include <stdexcept>
#include <string>

#include "zk/base/hex.hpp"
#include "zk/filecoin/porep/vanilla/challenges.hpp"
#include "zk/filecoin/porep/vanilla/labels.hpp"
#include "zk/neptune/poseidon.hpp"

namespace zk::filecoin {

namespace {

fr_t fr_or_throw(const bytes32_t& b, const std::string& what) {
  const std::optional<fr_t> x = fr_from_bytes(b);
  if (!x) throw std::invalid_argument(what + " " + to_hex(b) + " is not a field element");
  return *x;
}

check_t check_column(const porep_config_t& c, const column_proof_t& cp, uint64_t node,
                     const bytes32_t& comm_c, const merkle_shape_t& shape,
                     const std::string& name) {
  if (cp.column.rows.size() != c.layers)
    return name + ": the column has " + std::to_string(cp.column.rows.size()) + " rows, expected " +
           std::to_string(c.layers);
  if (cp.column.index != node)
    return name + ": the column's index is " + std::to_string(cp.column.index) + ", expected " +
           std::to_string(node);
  bytes32_t hash;
  try {
    hash = fr_to_bytes(column_hash(cp.column.rows));
  } catch (const std::invalid_argument& e) {
    return name + ": " + e.what();
  }
  if (cp.inclusion_proof.leaf != hash)
    return name + ": the tree_c leaf " + to_hex(cp.inclusion_proof.leaf) +
           " is not the column's hash " + to_hex(hash);
  if (check_t e =
          merkle_proof_check(cp.inclusion_proof, merkle_hasher_t::poseidon, shape, node, &comm_c);
      !e)
    return name + ": tree_c path: " + e.reason();
  return {};
}

// Parent `slot` of graph_t::parents' order (0–5 DRG, 6–13 expander) among the column proofs.
const column_proof_t& parent_column(const replica_column_proof_t& rc, unsigned slot) {
  return slot < drg_degree ? rc.drg_parents[slot] : rc.exp_parents[slot - drg_degree];
}

}  // namespace

fr_t column_hash(const std::vector<bytes32_t>& rows) {
  if (rows.size() != 2 && rows.size() != 11)
    throw std::invalid_argument("a column of " + std::to_string(rows.size()) +
                                " rows (hash_single_column supports 2 and 11)");
  std::vector<fr_t> in;
  in.reserve(rows.size());
  for (size_t i = 0; i < rows.size(); ++i)
    in.push_back(fr_or_throw(rows[i], "row " + std::to_string(i + 1)));
  return neptune::poseidon_hash(unsigned(rows.size()), in.data());
}

vanilla_proof_t make_vanilla_proof(const porep_config_t& c, const graph_t& g,
                                   const sector_openings_t& s, uint64_t challenge) {
  auto column = [&](uint64_t node) {
    column_proof_t cp;
    cp.column.index = uint32_t(node);
    for (uint32_t l = 1; l <= c.layers; ++l) cp.column.rows.push_back(s.label(l, node));
    cp.inclusion_proof = s.comm_c(node);
    return cp;
  };
  vanilla_proof_t p;
  p.comm_d_proofs = s.comm_d(challenge);
  p.comm_r_last_proof = s.comm_r_last(challenge);
  replica_column_proof_t& rc = p.replica_column_proofs;
  rc.c_x = column(challenge);
  uint32_t ps[graph_degree];
  g.parents(challenge, ps);
  for (unsigned i = 0; i < graph_degree; ++i)
    (i < drg_degree ? rc.drg_parents : rc.exp_parents).push_back(column(ps[i]));
  for (uint32_t l = 1; l <= c.layers; ++l) {
    labeling_proof_t lp;
    lp.layer_index = l;
    lp.node = challenge;
    for (unsigned i = 0; i < label_parents; ++i) {
      const label_parent_t from = label_parent(l, i);
      lp.parents.push_back(parent_column(rc, from.slot).column.rows[from.layer - 1]);
    }
    p.labeling_proofs.push_back(std::move(lp));
  }
  p.encoding_proof = p.labeling_proofs.back();
  return p;
}

check_t check_vanilla_proof(const porep_config_t& c, const graph_t& g, const vanilla_public_t& pub,
                            uint64_t challenge, const bytes32_t& comm_c,
                            const bytes32_t& comm_r_last, const vanilla_proof_t& p) {
  if (challenge == 0 || challenge >= c.nodes)
    return "challenge " + std::to_string(challenge) + " outside [1, " + std::to_string(c.nodes) +
           ")";
  // tree_d.
  const merkle_shape_t d_shape = merkle_shape(merkle_hasher_t::sha256, c.shape, c.nodes);
  if (check_t e = merkle_proof_check(p.comm_d_proofs, merkle_hasher_t::sha256, d_shape, challenge,
                                     &pub.comm_d);
      !e)
    return "comm_d proof: " + e.reason();
  // tree_r_last.
  const merkle_shape_t r_shape = merkle_shape(merkle_hasher_t::poseidon, c.shape, c.nodes);
  if (check_t e = merkle_proof_check(p.comm_r_last_proof, merkle_hasher_t::poseidon, r_shape,
                                     challenge, &comm_r_last);
      !e)
    return "comm_r_last proof: " + e.reason();
  // Columns.
  const replica_column_proof_t& rc = p.replica_column_proofs;
  if (check_t e = check_column(c, rc.c_x, challenge, comm_c, r_shape, "column c_x"); !e) return e;
  if (rc.drg_parents.size() != drg_degree || rc.exp_parents.size() != exp_degree)
    return "replica column proofs: " + std::to_string(rc.drg_parents.size()) + " DRG and " +
           std::to_string(rc.exp_parents.size()) + " expander parent columns, expected " +
           std::to_string(drg_degree) + " and " + std::to_string(exp_degree);
  uint32_t parents[graph_degree];
  g.parents(challenge, parents);
  for (unsigned i = 0; i < drg_degree; ++i)
    if (check_t e = check_column(c, rc.drg_parents[i], parents[i], comm_c, r_shape,
                                 "DRG parent column " + std::to_string(i));
        !e)
      return e;
  for (unsigned i = 0; i < exp_degree; ++i)
    if (check_t e = check_column(c, rc.exp_parents[i], parents[drg_degree + i], comm_c, r_shape,
                                 "expander parent column " + std::to_string(i));
        !e)
      return e;
  // Labels.
  if (p.labeling_proofs.size() != c.layers)
    return std::to_string(p.labeling_proofs.size()) + " labeling proofs, expected " +
           std::to_string(c.layers);
  for (uint32_t layer = 1; layer <= c.layers; ++layer) {
    const labeling_proof_t& lp = p.labeling_proofs[layer - 1];
    const std::string name = "labeling proof of layer " + std::to_string(layer);
    if (lp.layer_index != layer || lp.node != challenge)
      return name + ": it is for layer " + std::to_string(lp.layer_index) + ", node " +
             std::to_string(lp.node);
    if (lp.parents.size() != label_parents)
      return name + ": " + std::to_string(lp.parents.size()) + " parents, expected " +
             std::to_string(label_parents);
    const bytes32_t label =
        sdr_label_from_parents(pub.replica_id, layer, challenge, lp.parents.data(), label_parents);
    if (label != rc.c_x.column.rows[layer - 1])
      return name + ": the label recomputed from its parents " + to_hex(label) +
             " is not c_x's row " + to_hex(rc.c_x.column.rows[layer - 1]);
    // The circuit labels from the columns: layer 1 the DRG parents' layer-1 rows, then the DRG
    // parents' layer-L rows and the expander parents' layer-(L−1) rows, cycled to 37.
    for (unsigned i = 0; i < label_parents; ++i) {
      const label_parent_t from = label_parent(layer, i);
      const bytes32_t& want = parent_column(rc, from.slot).column.rows[from.layer - 1];
      if (lp.parents[i] != want)
        return name + ": parent " + std::to_string(i) + " " + to_hex(lp.parents[i]) +
               " is not the label in its column " + to_hex(want);
    }
  }
  // Encoding.
  const labeling_proof_t& ep = p.encoding_proof;
  const labeling_proof_t& lastp = p.labeling_proofs.back();
  if (ep.layer_index != lastp.layer_index || ep.node != lastp.node || ep.parents != lastp.parents)
    return "encoding proof: not the last layer's labeling data (layer " +
           std::to_string(ep.layer_index) + ", node " + std::to_string(ep.node) + ")";
  try {
    const bytes32_t key = sdr_label_from_parents(pub.replica_id, ep.layer_index, ep.node,
                                                 ep.parents.data(), ep.parents.size());
    const fr_t data = fr_or_throw(p.comm_d_proofs.leaf, "comm_d's leaf");
    const bytes32_t encoded = fr_to_bytes(fr_or_throw(key, "the key") + data);
    if (encoded != p.comm_r_last_proof.leaf)
      return "encoding proof: key + data = " + to_hex(encoded) + " is not comm_r_last's leaf " +
             to_hex(p.comm_r_last_proof.leaf);
  } catch (const std::invalid_argument& e) {
    return std::string("encoding proof: ") + e.what();
  }
  return {};
}

check_t check_vanilla_proofs(const porep_config_t& c, const graph_t& g, const vanilla_public_t& pub,
                             const vanilla_partitions_t& partitions) {
  if (partitions.size() != c.partitions)
    return std::to_string(partitions.size()) + " partitions, expected " +
           std::to_string(c.partitions);
  const std::optional<fr_t> comm_r = fr_from_bytes(pub.comm_r);
  if (!comm_r) return "comm_r " + to_hex(pub.comm_r) + " is not a field element";
  for (uint32_t k = 0; k < partitions.size(); ++k) {
    const std::string where = "partition " + std::to_string(k);
    const std::vector<vanilla_proof_t>& proofs = partitions[k];
    const std::vector<uint64_t> challenges =
        porep_challenges(c, pub.replica_id, pub.seed, pub.comm_r, k);
    if (proofs.empty() || proofs.size() != challenges.size())
      return where + ": " + std::to_string(proofs.size()) + " proofs for " +
             std::to_string(challenges.size()) + " challenges";
    const bytes32_t comm_c = proofs[0].replica_column_proofs.c_x.inclusion_proof.root;
    const bytes32_t comm_r_last = proofs[0].comm_r_last_proof.root;
    const std::optional<fr_t> c_fr = fr_from_bytes(comm_c), r_fr = fr_from_bytes(comm_r_last);
    if (!c_fr || !r_fr) return where + ": comm_c or comm_r_last is not a field element";
    if (neptune::poseidon2(*c_fr, *r_fr) != *comm_r)
      return where + ": comm_r " + to_hex(pub.comm_r) + " is not Poseidon2(comm_c " +
             to_hex(comm_c) + ", comm_r_last " + to_hex(comm_r_last) + ")";
    for (size_t i = 0; i < proofs.size(); ++i) {
      const std::string at = where + ", challenge " + std::to_string(i) + " (node " +
                             std::to_string(challenges[i]) + "): ";
      const vanilla_proof_t& p = proofs[i];
      if (p.replica_column_proofs.c_x.inclusion_proof.root != comm_c)
        return at + "comm_c differs from the partition's first proof";
      if (p.comm_r_last_proof.root != comm_r_last)
        return at + "comm_r_last differs from the partition's first proof";
      if (check_t e = check_vanilla_proof(c, g, pub, challenges[i], comm_c, comm_r_last, p); !e)
        return at + e.reason();
    }
  }
  return {};
}

}  // namespace zk::filecoin
