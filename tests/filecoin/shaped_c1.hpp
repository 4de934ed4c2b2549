// A C1 of a registered proof's exact shape (zk/filecoin/api/c1.hpp c1_shape: partitions,
// challenges, layers, tree shapes, path lengths) whose values come from the caller: `dom` gives
// every 32-byte value, `index(bound)` every node index and path position below bound. Not a valid
// proof (no hash holds), only the shape: for the C1 reader's and writer's tests and for the
// reader's benchmark (bench/c1_read.cpp) at sizes no machine here seals.
#pragma once

#include <cstdint>

#include "zk/filecoin/api/c1.hpp"
#include "zk/filecoin/api/registry.hpp"
#include "zk/filecoin/porep/vanilla/graph.hpp"
#include "zk/filecoin/porep/vanilla/labels.hpp"

namespace zk::filecoin::testing {

template <class Dom, class Index>
c1_output_t shaped_c1(const registered_proof_t& p, Dom&& dom, Index&& index) {
  const c1_shape_t s = c1_shape(p);
  const uint64_t nodes = p.sector_size / 32;
  auto path = [&](uint32_t len, uint32_t arity) {
    inclusion_path_t out(len);
    for (auto& e : out) {
      for (uint32_t h = 0; h + 1 < arity; ++h) e.hashes.push_back(dom());
      e.index = uint32_t(index(arity));
    }
    return out;
  };
  auto merkle = [&](const tree_shape_t& t, uint32_t base) {
    merkle_proof_t m;
    m.kind = t.top_arity   ? merkle_kind_t::top
             : t.sub_arity ? merkle_kind_t::sub
                           : merkle_kind_t::single;
    m.root = dom();
    m.leaf = dom();
    m.base = path(base, t.base_arity);
    if (t.sub_arity) m.sub = path(1, t.sub_arity);
    if (t.top_arity) m.top = path(1, t.top_arity);
    return m;
  };
  auto column = [&] {
    column_proof_t c;
    c.column.index = uint32_t(index(nodes));
    for (uint32_t l = 0; l < s.layers; ++l) c.column.rows.push_back(dom());
    c.inclusion_proof = merkle(s.tree, s.base_path);
    return c;
  };
  auto labeling = [&](uint32_t layer) {
    labeling_proof_t l;
    for (unsigned i = 0; i < label_parents; ++i) l.parents.push_back(dom());
    l.layer_index = layer;
    l.node = index(nodes);
    return l;
  };
  c1_output_t c1;
  c1.registered_proof = &p;
  c1.vanilla_proofs.resize(s.partitions);
  for (auto& part : c1.vanilla_proofs) {
    part.resize(s.challenges);
    for (auto& v : part) {
      v.comm_d_proofs = merkle(tree_shape_t{2, 0, 0}, s.comm_d_path);
      v.comm_r_last_proof = merkle(s.tree, s.base_path);
      v.replica_column_proofs.c_x = column();
      for (uint32_t i = 0; i < drg_degree; ++i)
        v.replica_column_proofs.drg_parents.push_back(column());
      for (uint32_t i = 0; i < exp_degree; ++i)
        v.replica_column_proofs.exp_parents.push_back(column());
      for (uint32_t l = 1; l <= s.layers; ++l) v.labeling_proofs.push_back(labeling(l));
      v.encoding_proof = labeling(s.layers);
    }
  }
  c1.comm_r = dom();
  c1.comm_d = dom();
  c1.replica_id = dom();
  c1.seed = dom();
  c1.ticket = dom();
  return c1;
}

}  // namespace zk::filecoin::testing
