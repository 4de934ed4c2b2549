#include "zk/filecoin/porep/circuit/circuit.hpp"

#include <atomic>
#include <map>
#include <mutex>
#include <stdexcept>

#include "zk/base/hex.hpp"
#include "zk/base/thread_pool.hpp"
#include "zk/filecoin/porep/circuit/public_inputs.hpp"
#include "zk/neptune/circuit.hpp"

namespace zk::filecoin {

using bellperson::counts_t;

namespace {

bool is_tree_arity(uint32_t a) { return a == 2 || a == 4 || a == 8; }

std::string challenge_prefix(uint32_t j) { return challenge_region_prefix(j); }

}  // namespace

// ---- configuration ---------------------------------------------------------------------------

std::string circuit_config_t::key() const {
  return "nodes=" + std::to_string(nodes) + ",layers=" + std::to_string(layers) +
         ",challenges=" + std::to_string(challenges) + ",tree=" + tree_shape_name(shape);
}

void check_config(const circuit_config_t& c) {
  if (c.nodes < 2 || (c.nodes & (c.nodes - 1)) != 0)
    throw std::invalid_argument("circuit: nodes " + std::to_string(c.nodes) +
                                " is not a power of two ≥ 2");
  if (c.layers != 2 && c.layers != 11)
    throw std::invalid_argument("circuit: " + std::to_string(c.layers) +
                                " layers (the column hash takes 2 or 11)");
  if (c.challenges == 0) throw std::invalid_argument("circuit: no challenges");
  if (!is_tree_arity(c.shape.base_arity) ||
      (c.shape.sub_arity && !is_tree_arity(c.shape.sub_arity)) ||
      (c.shape.top_arity && !is_tree_arity(c.shape.top_arity)))
    throw std::invalid_argument("circuit: tree shape " + tree_shape_name(c.shape) +
                                " (arities 2, 4 or 8)");
  path_arities(c.nodes, c.shape);  // throws when the shape does not divide the nodes
}

circuit_config_t circuit_config(const porep_config_t& p) {
  if (p.challenge_kind == challenge_kind_t::non_interactive)
    throw std::invalid_argument(
        "circuit: NonInteractivePoRep proofs are aggregated (SnarkPack); not supported");
  circuit_config_t c;
  c.nodes = p.nodes;
  c.layers = p.layers;
  c.challenges = p.challenges_per_partition;
  c.shape = p.shape;
  check_config(c);
  return c;
}

circuit_config_t test_circuit_config(const tree_shape_t& shape) {
  circuit_config_t c;
  const uint64_t base_trees =
      (shape.sub_arity ? shape.sub_arity : 1) * (shape.top_arity ? shape.top_arity : 1);
  c.nodes = 8 * base_trees;
  c.layers = 2;
  c.challenges = 1;
  c.shape = shape;
  check_config(c);
  return c;
}

// ---- witness -----------------------------------------------------------------------------------

namespace {

circuit_path_t blank_path(const std::vector<uint32_t>& arities) {
  circuit_path_t p(arities.size());
  for (size_t e = 0; e < arities.size(); ++e) p[e].siblings.assign(arities[e] - 1, fr_t{});
  return p;
}

void check_path(const circuit_path_t& p, const std::vector<uint32_t>& arities,
                const std::string& where) {
  if (p.size() != arities.size())
    throw std::invalid_argument(where + ": " + std::to_string(p.size()) +
                                " path elements, the tree has " + std::to_string(arities.size()) +
                                " levels");
  for (size_t e = 0; e < p.size(); ++e) {
    if (p[e].siblings.size() != arities[e] - 1)
      throw std::invalid_argument(where + ": path element " + std::to_string(e) + " has " +
                                  std::to_string(p[e].siblings.size()) + " siblings, arity " +
                                  std::to_string(arities[e]) + " needs " +
                                  std::to_string(arities[e] - 1));
    if (p[e].index >= arities[e])
      throw std::invalid_argument(where + ": path element " + std::to_string(e) + " has index " +
                                  std::to_string(p[e].index) + " ≥ arity " +
                                  std::to_string(arities[e]));
  }
}

void check_columns(const std::vector<column_opening_t>& cols, size_t expected, uint32_t layers,
                   const std::vector<uint32_t>& arities, const std::string& where) {
  if (cols.size() != expected)
    throw std::invalid_argument(where + ": " + std::to_string(cols.size()) +
                                " column openings, expected " + std::to_string(expected));
  for (size_t i = 0; i < cols.size(); ++i) {
    const std::string w = where + " " + std::to_string(i);
    if (cols[i].rows.size() != layers)
      throw std::invalid_argument(w + ": column of " + std::to_string(cols[i].rows.size()) +
                                  " rows, expected " + std::to_string(layers) + " (the layers)");
    check_path(cols[i].path, arities, w + " inclusion path");
  }
}

}  // namespace

namespace {

fr_t to_fr(const bytes32_t& b, const std::string& what) {
  const auto v = fr_from_bytes(b);
  if (!v)
    throw std::invalid_argument(what + " is not a canonical field element (" + to_hex(b) + ")");
  return *v;
}

circuit_path_t to_path(const merkle_proof_t& p, const std::string& what) {
  circuit_path_t out;
  for (const auto* part : {&p.base, &p.sub, &p.top})
    for (const auto& e : *part) {
      circuit_path_element_t pe;
      if (e.index > UINT32_MAX)
        throw std::invalid_argument(what + " path element " + std::to_string(out.size()) +
                                    ": index " + std::to_string(e.index));
      pe.index = uint32_t(e.index);
      for (size_t k = 0; k < e.hashes.size(); ++k)
        pe.siblings.push_back(to_fr(e.hashes[k], what + " path element " +
                                                     std::to_string(out.size()) + " sibling " +
                                                     std::to_string(k)));
      out.push_back(std::move(pe));
    }
  return out;
}

std::vector<column_opening_t> to_columns(const std::vector<column_proof_t>& cols,
                                         const std::string& what) {
  std::vector<column_opening_t> out;
  for (size_t i = 0; i < cols.size(); ++i) {
    const std::string w = what + " " + std::to_string(i);
    column_opening_t o;
    for (size_t l = 0; l < cols[i].column.rows.size(); ++l)
      o.rows.push_back(to_fr(cols[i].column.rows[l], w + " row " + std::to_string(l)));
    o.path = to_path(cols[i].inclusion_proof, w + " inclusion");
    out.push_back(std::move(o));
  }
  return out;
}

}  // namespace

partition_witness_t witness_from_vanilla(const vanilla_public_t& pub,
                                         const std::vector<vanilla_proof_t>& partition) {
  if (partition.empty()) throw std::invalid_argument("witness: a partition without vanilla proofs");
  partition_witness_t w;
  w.replica_id = to_fr(pub.replica_id, "replica_id");
  w.comm_d = to_fr(pub.comm_d, "comm_d");
  w.comm_r = to_fr(pub.comm_r, "comm_r");
  const bytes32_t comm_r_last = partition[0].comm_r_last_proof.root;
  const bytes32_t comm_c = partition[0].replica_column_proofs.c_x.inclusion_proof.root;
  w.comm_r_last = to_fr(comm_r_last, "comm_r_last");
  w.comm_c = to_fr(comm_c, "comm_c");
  for (size_t j = 0; j < partition.size(); ++j) {
    const vanilla_proof_t& v = partition[j];
    const std::string where = "witness: challenge " + std::to_string(j);
    if (v.comm_r_last_proof.root != comm_r_last)
      throw std::invalid_argument(where + ": comm_r_last differs from the first proof's");
    if (v.replica_column_proofs.c_x.inclusion_proof.root != comm_c)
      throw std::invalid_argument(where + ": comm_c differs from the first proof's");
    if (v.labeling_proofs.empty()) throw std::invalid_argument(where + ": no labeling proofs");
    challenge_proof_t p;
    p.challenge = v.labeling_proofs[0].node;
    p.data_leaf = to_fr(v.comm_d_proofs.leaf, where + ": data leaf");
    p.comm_d_path = to_path(v.comm_d_proofs, where + ": tree D");
    p.comm_r_last_path = to_path(v.comm_r_last_proof, where + ": tree R");
    p.comm_c_path = to_path(v.replica_column_proofs.c_x.inclusion_proof, where + ": tree C");
    p.drg_parents = to_columns(v.replica_column_proofs.drg_parents, where + ": DRG parent");
    p.exp_parents = to_columns(v.replica_column_proofs.exp_parents, where + ": expander parent");
    w.challenges.push_back(std::move(p));
  }
  return w;
}

partition_witness_t blank_witness(const circuit_config_t& c) {
  check_config(c);
  const auto d = path_arities(c.nodes, tree_shape_t{2, 0, 0});
  const auto rc = path_arities(c.nodes, c.shape);
  partition_witness_t w;
  w.challenges.resize(c.challenges);
  for (auto& p : w.challenges) {
    p.comm_d_path = blank_path(d);
    p.comm_r_last_path = blank_path(rc);
    p.comm_c_path = blank_path(rc);
    p.drg_parents.assign(drg_degree, column_opening_t{std::vector<fr_t>(c.layers), blank_path(rc)});
    p.exp_parents.assign(exp_degree, column_opening_t{std::vector<fr_t>(c.layers), blank_path(rc)});
  }
  return w;
}

void check_witness(const circuit_config_t& c, const partition_witness_t& w) {
  check_config(c);
  if (w.challenges.size() != c.challenges)
    throw std::invalid_argument("witness: " + std::to_string(w.challenges.size()) +
                                " challenges, the circuit takes " + std::to_string(c.challenges));
  const auto d = path_arities(c.nodes, tree_shape_t{2, 0, 0});
  const auto rc = path_arities(c.nodes, c.shape);
  for (uint32_t j = 0; j < c.challenges; ++j) {
    const auto& p = w.challenges[j];
    const std::string where =
        "witness: " + challenge_prefix(j).substr(0, challenge_prefix(j).size() - 2);
    if (p.challenge >= c.nodes)
      throw std::invalid_argument(where + ": node " + std::to_string(p.challenge) + " ≥ " +
                                  std::to_string(c.nodes) + " nodes");
    check_path(p.comm_d_path, d, where + ": tree D path");
    check_path(p.comm_r_last_path, rc, where + ": tree R path");
    check_path(p.comm_c_path, rc, where + ": tree C path");
    check_columns(p.drg_parents, drg_degree, c.layers, rc, where + ": DRG parent");
    check_columns(p.exp_parents, exp_degree, c.layers, rc, where + ": expander parent");
  }
}

// ---- the circuit -------------------------------------------------------------------------------

namespace {

using namespace circuit_detail;

}  // namespace

template <class CS>
circuit_shared_t synthesize_prefix(CS& cs, const circuit_config_t&, const partition_witness_t& w) {
  using bellperson::alloc_num;
  circuit_shared_t s;
  cs.region([] { return "replica_id, comm_d, comm_r, comm_r = H(comm_c, comm_r_last)"; });
  const num_t replica_id = alloc_num(cs, w.replica_id);
  bellperson::inputize(cs, replica_id);
  num_to_reversed_bits(cs, replica_id, s.replica_id_bits);
  s.comm_d = alloc_num(cs, w.comm_d);
  bellperson::inputize(cs, s.comm_d);
  const num_t comm_r = alloc_num(cs, w.comm_r);
  bellperson::inputize(cs, comm_r);
  s.comm_r_last = alloc_num(cs, w.comm_r_last);
  s.comm_c = alloc_num(cs, w.comm_c);
  const num_t pre[2] = {s.comm_c, s.comm_r_last};
  const num_t h = neptune::poseidon_hash(cs, pre, neptune::poseidon_constants(2));
  enforce_equal(cs, comm_r, h);
  return s;
}

template <class CS>
void synthesize_challenge(CS& cs, const circuit_config_t& c, const challenge_proof_t& p,
                          const circuit_shared_t& s, uint32_t j) {
  using bellperson::alloc_num;
  const auto d_arities = path_arities(c.nodes, tree_shape_t{2, 0, 0});
  const auto rc_arities = path_arities(c.nodes, c.shape);
  auto named = [j](std::string what) { return [j, what] { return challenge_prefix(j) + what; }; };

  cs.region(named("data leaf, inclusion in tree D"));
  const num_t data_leaf = alloc_num(cs, p.data_leaf);
  enforce_inclusion(cs, hasher_t::sha256, d_arities, p.comm_d_path, s.comm_d, data_leaf);

  // Columns of the parents: allocated, hashed, included in tree C.
  auto columns = [&](const std::vector<column_opening_t>& cols, const char* kind) {
    std::vector<std::vector<num_t>> out(cols.size());
    for (size_t i = 0; i < cols.size(); ++i) {
      cs.region(named(std::string(kind) + " parent " + std::to_string(i) +
                      ": column, hash, inclusion in tree C"));
      out[i].reserve(c.layers);
      for (uint32_t l = 0; l < c.layers; ++l) out[i].push_back(alloc_num(cs, cols[i].rows[l]));
      const num_t hash = hash_column(cs, out[i]);
      enforce_inclusion(cs, hasher_t::poseidon, rc_arities, cols[i].path, s.comm_c, hash);
    }
    return out;
  };
  const auto drg = columns(p.drg_parents, "DRG");
  const auto exp = columns(p.exp_parents, "expander");

  // The challenge as a UInt64 (64 AllocatedBits), packed into a public input.
  cs.region(named("challenge bits (public input)"));
  boolean_t node[64];
  for (unsigned i = 0; i < 64; ++i)
    node[i] = boolean_t::is(bellperson::alloc_bit(cs, (p.challenge >> i) & 1));
  bellperson::pack_into_inputs(cs, node, 64);

  std::vector<num_t> labels;
  std::vector<std::array<boolean_t, 256>> parents;
  parents.reserve(drg_degree + exp_degree);
  for (uint32_t layer = 1; layer <= c.layers; ++layer) {
    cs.region(named("labeling layer " + std::to_string(layer)));
    parents.clear();
    for (const auto& col : drg) {
      parents.emplace_back();
      num_to_reversed_bits(cs, col[layer - 1], parents.back().data());
    }
    if (layer > 1)
      for (const auto& col : exp) {
        parents.emplace_back();
        num_to_reversed_bits(cs, col[layer - 2], parents.back().data());
      }
    // 37 slots: layer 1 repeats its 6 DRG parents six times and the first once more; later
    // layers their 14 parents twice and the first 9 once more.
    const boolean_t* slots[label_parents];
    for (uint32_t k = 0; k < label_parents; ++k) slots[k] = parents[k % parents.size()].data();
    labels.push_back(create_label(cs, s.replica_id_bits, slots, label_parents, layer, node));
  }

  cs.region(named("encoding, inclusion in tree R"));
  const num_t encoded = add_nums(cs, labels.back(), data_leaf);
  enforce_inclusion(cs, hasher_t::poseidon, rc_arities, p.comm_r_last_path, s.comm_r_last, encoded);

  cs.region(named("column hash of the labels, inclusion in tree C"));
  const num_t column_hash = hash_column(cs, labels);
  enforce_inclusion(cs, hasher_t::poseidon, rc_arities, p.comm_c_path, s.comm_c, column_hash);
}

template <class CS>
void synthesize_circuit(CS& cs, const circuit_config_t& c, const partition_witness_t& w) {
  const circuit_shared_t s = synthesize_prefix(cs, c, w);
  for (uint32_t j = 0; j < c.challenges; ++j) synthesize_challenge(cs, c, w.challenges[j], s, j);
}

#define ZK_FILECOIN_CIRCUIT_INSTANTIATE(CS)                                                      \
  template circuit_shared_t synthesize_prefix<CS>(CS&, const circuit_config_t&,                  \
                                                  const partition_witness_t&);                   \
  template void synthesize_challenge<CS>(CS&, const circuit_config_t&, const challenge_proof_t&, \
                                         const circuit_shared_t&, uint32_t);                     \
  template void synthesize_circuit<CS>(CS&, const circuit_config_t&, const partition_witness_t&);
ZK_FILECOIN_CIRCUIT_INSTANTIATE(bellperson::shape_cs_t)
ZK_FILECOIN_CIRCUIT_INSTANTIATE(bellperson::prove_cs_t)
ZK_FILECOIN_CIRCUIT_INSTANTIATE(bellperson::count_cs_t)
#undef ZK_FILECOIN_CIRCUIT_INSTANTIATE

// ---- layout and shape (cached) ---------------------------------------------------------------

namespace {

const circuit_parts_t& parts_of(const circuit_config_t& c) {
  return cached_parts("porep " + c.key(), [&c] {
    check_config(c);
    const partition_witness_t w = blank_witness(c);
    return count_parts([&](auto& cs) { return synthesize_prefix(cs, c, w); },
                       [&](auto& cs, const circuit_shared_t& s, uint32_t j) {
                         synthesize_challenge(cs, c, w.challenges[j], s, j);
                       },
                       c.challenges);
  });
}

}  // namespace

const circuit_layout_t& circuit_layout(const circuit_config_t& c) { return parts_of(c).layout; }

bellperson::r1cs_shape_t synthesize_shape(const circuit_config_t& c, bool matrices) {
  check_config(c);
  // The shared part, challenge 0, then challenge 0 repeated with its own variables moved (the
  // challenges are identical in structure; tests/filecoin/circuit_test.cpp checks the result
  // against a full synthesis).
  bellperson::shape_cs_t cs(matrices);
  const partition_witness_t w = blank_witness(c);
  const circuit_shared_t s = synthesize_prefix(cs, c, w);
  cs.start_part();
  synthesize_challenge(cs, c, w.challenges[0], s, 0);
  const std::string prefix0 = challenge_prefix(0);
  cs.repeat_part(c.challenges - 1, [&prefix0](const std::string& name, uint32_t k) {
    return name.compare(0, prefix0.size(), prefix0) == 0
               ? challenge_prefix(k) + name.substr(prefix0.size())
               : name;
  });
  return cs.finish();
}

std::shared_ptr<const bellperson::r1cs_shape_t> circuit_shape(const circuit_config_t& c,
                                                              bool matrices) {
  return cached_shape("porep " + c.key(), matrices,
                      [&c](bool m) { return synthesize_shape(c, m); });
}

std::shared_ptr<const bellperson::abc_program_t> circuit_program(const circuit_config_t& c) {
  static std::map<std::string, std::shared_ptr<const bellperson::abc_program_t>> cache;
  static std::mutex mu;
  std::lock_guard<std::mutex> lk(mu);
  auto& slot = cache[c.key()];
  if (slot) return slot;
  check_config(c);
  bellperson::shape_cs_t cs(true);
  const partition_witness_t w = blank_witness(c);
  const circuit_shared_t s = synthesize_prefix(cs, c, w);
  const counts_t prefix = cs.counts();
  synthesize_challenge(cs, c, w.challenges[0], s, 0);
  const bellperson::r1cs_shape_t shape = cs.finish();
  slot = std::make_shared<const bellperson::abc_program_t>(shape, prefix, c.challenges);
  if (slot->total() != circuit_layout(c).total)
    throw std::logic_error("circuit_program: the program's circuit (" +
                           bellperson::to_string(slot->total()) + ") is not the layout's (" +
                           bellperson::to_string(circuit_layout(c).total) + ")");
  return slot;
}

// ---- prove mode ----------------------------------------------------------------------------

void synthesize_partition(const circuit_config_t& c, const partition_witness_t& w,
                          const bellperson::assignment_view_t& out, bool parallel,
                          const stop_t& stop) {
  check_witness(c, w);
  synthesize_parts(
      circuit_layout(c), out, [&](auto& cs) { return synthesize_prefix(cs, c, w); },
      [&](auto& cs, const circuit_shared_t& s, uint32_t j) {
        synthesize_challenge(cs, c, w.challenges[j], s, j);
      },
      parallel, stop, "synthesize_partition (" + c.key() + ")");
}

partition_assignment_t synthesize_partition(const circuit_config_t& c, const partition_witness_t& w,
                                            bool parallel) {
  partition_assignment_t a(circuit_layout(c));
  synthesize_partition(c, w, a.view(), parallel);
  return a;
}

std::optional<unsatisfied_t> first_unsatisfied(const circuit_config_t& c,
                                               const bellperson::assignment_view_t& v) {
  return first_unsatisfied(parts_of(c), v);
}

std::optional<unsatisfied_t> synthesize_partition_streamed(const circuit_config_t& c,
                                                           const partition_witness_t& w,
                                                           fr_t* inputs, bool check,
                                                           const aux_window_fn_t& window,
                                                           const stop_t& stop) {
  check_witness(c, w);
  throw_if_stopped(stop, "the partition's synthesis");
  const circuit_parts_t& e = parts_of(c);
  const circuit_layout_t& L = e.layout;
  auto ended = [&](const char* part, counts_t got, counts_t want) {
    if (got != want)
      throw std::logic_error(std::string("synthesize_partition_streamed: ") + part + " ended at " +
                             bellperson::to_string(got) + ", the layout says " +
                             bellperson::to_string(want));
  };
  // A part's view: every input (there are few), its own aux variables in `aux`, no a, b, c (the
  // constraints are checked as they are made, or not at all).
  auto part_view = [&](std::vector<fr_t>& aux, uint32_t first_aux) {
    bellperson::assignment_view_t v;
    v.inputs = inputs;
    v.aux = aux.data();
    v.aux_first = first_aux;
    v.capacity = L.total;
    return v;
  };
  std::optional<uint64_t> bad;
  std::vector<fr_t> prefix_aux(L.prefix.aux);
  bellperson::prove_cs_t cs(part_view(prefix_aux, 0), counts_t{}, L.prefix);
  cs.set_check(check);
  cs.alloc_input(fr_t::one());
  const circuit_shared_t s = synthesize_prefix(cs, c, w);
  ended("the shared part", cs.counts(), L.prefix);
  bad = cs.first_unsatisfied();
  window(0, prefix_aux.data(), L.prefix.aux);
  prefix_aux = {};

  // One window of a challenge's aux variables per compute thread, the challenges in batches.
  std::vector<std::vector<fr_t>> wins(
      std::max<size_t>(1, std::min<size_t>(compute_threads(), c.challenges)));
  std::vector<std::optional<uint32_t>> bads(c.challenges);
  std::atomic<bool> stopped{false};
  for (uint32_t first = 0; first < c.challenges; first += uint32_t(wins.size())) {
    const size_t n = std::min<size_t>(wins.size(), c.challenges - first);
    run_parallel(
        [&](size_t t) {
          if (stopped.load(std::memory_order_relaxed) || stop_requested(stop)) {
            stopped.store(true, std::memory_order_relaxed);
            return;
          }
          const uint32_t k = first + uint32_t(t);
          const counts_t start = L.challenge_start(k), end = L.challenge_start(k + 1);
          std::vector<fr_t>& aux = wins[t];
          aux.resize(L.per_challenge.aux);
          bellperson::prove_cs_t ccs(part_view(aux, start.aux), start, end);
          ccs.set_check(check);
          synthesize_challenge(ccs, c, w.challenges[k], s, k);
          ended("a challenge", ccs.counts(), end);
          bads[k] = ccs.first_unsatisfied();
          window(start.aux, aux.data(), L.per_challenge.aux);
        },
        n);
    if (stopped) throw cancelled_error("the partition's synthesis: stopped (cancelled)");
  }
  for (const auto& b : bads)
    if (!bad && b) bad = b;
  if (!bad) return std::nullopt;
  return unsatisfied_t{*bad, e.where(*bad)};
}

std::optional<unsatisfied_t> synthesize_partition_witness(const circuit_config_t& c,
                                                          const partition_witness_t& w,
                                                          fr_t* inputs, fr_t* aux, bool check) {
  return synthesize_partition_streamed(
      c, w, inputs, check,
      [aux](uint32_t first, const fr_t* v, uint32_t n) { std::copy(v, v + n, aux + first); });
}

}  // namespace zk::filecoin
