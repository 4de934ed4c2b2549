#include "zk/filecoin/core/merkle.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>

#include "zk/base/hex.hpp"
#include "zk/base/thread_pool.hpp"
#include "zk/filecoin/core/fr32.hpp"
#include "zk/filecoin/core/hashers.hpp"
#include "zk/neptune/poseidon.hpp"

namespace zk::filecoin {

namespace {

const char* merkle_kind_name(merkle_kind_t k) {
  return k == merkle_kind_t::single ? "Single" : k == merkle_kind_t::sub ? "Sub" : "Top";
}

bool is_pow2(uint64_t v) { return v != 0 && (v & (v - 1)) == 0; }

bool poseidon_arity_supported(size_t a) { return a == 2 || a == 4 || a == 8 || a == 11 || a == 16; }

// out[g] = Poseidon of in[a·g .. a·g + a) for g < groups, eight at a time.
void hash_groups(const neptune::poseidon_constants_t& c, const fr_t* in, size_t groups, fr_t* out) {
  size_t g = 0;
  for (; g + 8 <= groups; g += 8) neptune::poseidon_hash_x8(c, in + c.arity * g, out + g);
  for (; g < groups; ++g) out[g] = neptune::poseidon_hash(c, in + c.arity * g);
}

fr_t checked_fr(const bytes32_t& b, const char* what, size_t level) {
  const std::optional<fr_t> x = fr_from_bytes(b);
  if (!x)
    throw std::invalid_argument(std::string(what) + " at level " + std::to_string(level) +
                                " is not a canonical field element (" + to_hex(b) + ")");
  return *x;
}

// One part of a path (InclusionPath::root): fold the elements from `h` upwards.
bytes32_t fold(const std::vector<path_element_t>& path, bytes32_t h, merkle_hasher_t kind,
               size_t& level) {
  for (const path_element_t& e : path) {
    const size_t arity = e.hashes.size() + 1;
    if (e.index >= arity)
      throw std::invalid_argument("path level " + std::to_string(level) + ": index " +
                                  std::to_string(e.index) + " outside a group of " +
                                  std::to_string(arity));
    if (kind == merkle_hasher_t::sha256) {
      if (arity != 2)
        throw std::invalid_argument("path level " + std::to_string(level) + ": " +
                                    std::to_string(e.hashes.size()) +
                                    " siblings in a binary SHA-256 tree");
      h = e.index == 0 ? sha256_trunc2(h, e.hashes[0]) : sha256_trunc2(e.hashes[0], h);
    } else {
      if (!poseidon_arity_supported(arity))
        throw std::invalid_argument(
            "path level " + std::to_string(level) + ": " + std::to_string(e.hashes.size()) +
            " siblings (a Poseidon arity of " + std::to_string(arity) + " is not supported)");
      std::vector<fr_t> in(arity);
      size_t s = 0;
      for (size_t i = 0; i < arity; ++i)
        in[i] = i == e.index ? checked_fr(h, "node", level)
                             : checked_fr(e.hashes[s++], "sibling", level);
      h = fr_to_bytes(neptune::poseidon_hash(unsigned(arity), in.data()));
    }
    ++level;
  }
  return h;
}

// Digits read base-first: Σ index_l · Π_{m<l} arity_m.
uint64_t digits(const std::vector<path_element_t>& path, uint64_t& weight) {
  uint64_t v = 0;
  for (const path_element_t& e : path) {
    v += weight * e.index;
    weight *= e.hashes.size() + 1;
  }
  return v;
}

}  // namespace

bytes32_t merkle_path_root(const merkle_proof_t& p, merkle_hasher_t h) {
  size_t level = 0;
  bytes32_t x = fold(p.base, p.leaf, h, level);
  x = fold(p.sub, x, h, level);
  return fold(p.top, x, h, level);
}

uint64_t merkle_path_index(const merkle_proof_t& p) {
  // SubProof/TopProof::path_index: sub·base_leaves + top·(base_leaves·sub_arity) + base.
  uint64_t weight = 1;
  uint64_t v = digits(p.base, weight);
  v += digits(p.sub, weight);
  v += digits(p.top, weight);
  return v;
}

merkle_shape_t merkle_shape(merkle_hasher_t h, const tree_shape_t& shape, uint64_t leaves) {
  merkle_shape_t s;
  if (h == merkle_hasher_t::sha256) {
    s.base_arity = 2;
  } else {
    s.base_arity = shape.base_arity;
    s.sub_arity = shape.sub_arity;
    s.top_arity = shape.top_arity;
  }
  uint64_t base_leaves =
      leaves / std::max<uint64_t>(s.sub_arity, 1) / std::max<uint64_t>(s.top_arity, 1);
  while (base_leaves > 1) {
    base_leaves /= s.base_arity;
    ++s.base_levels;
  }
  return s;
}

check_t merkle_proof_check(const merkle_proof_t& p, merkle_hasher_t h, const merkle_shape_t& shape,
                           uint64_t index, const bytes32_t* expected_root) {
  if (p.base.size() != shape.base_levels)
    return "the path has " + std::to_string(p.base.size()) + " base levels, expected " +
           std::to_string(shape.base_levels);
  for (size_t l = 0; l < p.base.size(); ++l)
    if (p.base[l].hashes.size() + 1 != shape.base_arity)
      return "base level " + std::to_string(l) + " has " + std::to_string(p.base[l].hashes.size()) +
             " siblings, expected " + std::to_string(shape.base_arity - 1);
  auto check_part = [&](const std::vector<path_element_t>& part, uint32_t arity,
                        const char* name) -> check_t {
    const size_t want = arity ? 1 : 0;
    if (part.size() != want)
      return std::string("the ") + name + " path has " + std::to_string(part.size()) +
             " elements, expected " + std::to_string(want);
    if (arity && part[0].hashes.size() + 1 != arity)
      return std::string("the ") + name + " level has " + std::to_string(part[0].hashes.size()) +
             " siblings, expected " + std::to_string(arity - 1);
    return {};
  };
  const merkle_kind_t want_kind = shape.top_arity   ? merkle_kind_t::top
                                  : shape.sub_arity ? merkle_kind_t::sub
                                                    : merkle_kind_t::single;
  if (p.kind != want_kind)
    return std::string("a ") + merkle_kind_name(p.kind) + " proof where the tree needs " +
           merkle_kind_name(want_kind);
  if (check_t e = check_part(p.sub, shape.sub_arity, "sub"); !e) return e;
  if (check_t e = check_part(p.top, shape.top_arity, "top"); !e) return e;
  if (expected_root && p.root != *expected_root)
    return "its root " + to_hex(p.root) + " is not the expected " + to_hex(*expected_root);
  bytes32_t computed;
  try {
    computed = merkle_path_root(p, h);
  } catch (const std::invalid_argument& e) {
    return std::string(e.what());
  }
  if (computed != p.root)
    return "the path from leaf " + to_hex(p.leaf) + " computes root " + to_hex(computed) +
           ", not " + to_hex(p.root);
  const uint64_t at = merkle_path_index(p);
  if (at != index) return "it proves leaf " + std::to_string(at) + ", not " + std::to_string(index);
  return {};
}

// --- tree_d --------------------------------------------------------------------------------

namespace {

std::vector<bytes32_t> hash_pairs(const bytes32_t* below, uint64_t count) {
  std::vector<bytes32_t> up(count / 2);
  parallel_for(up.size(), [&](size_t b, size_t e) {
    for (size_t i = b; i < e; ++i) up[i] = sha256_trunc2(below[2 * i], below[2 * i + 1]);
  });
  return up;
}

void check_binary_leaves(uint64_t n) {
  if (n < 2 || !is_pow2(n))
    throw std::invalid_argument("sha256 tree: " + std::to_string(n) +
                                " leaves is not a power of two of at least 2");
}

}  // namespace

sha256_tree_t::sha256_tree_t(std::vector<bytes32_t> leaves) : n_(leaves.size()) {
  check_binary_leaves(n_);
  levels_.push_back(std::move(leaves));
  while (levels_.back().size() > 1) {
    std::vector<bytes32_t> up = hash_pairs(levels_.back().data(), levels_.back().size());
    levels_.push_back(std::move(up));
  }
}

sha256_tree_t::sha256_tree_t(const bytes32_t* leaves, uint64_t n, unsigned discard) : n_(n) {
  check_binary_leaves(n_);
  unsigned height = 0;
  while ((uint64_t(1) << height) < n) ++height;
  first_ = std::max(1u, std::min(discard, height));
  levels_.emplace_back();  // the leaves: not kept
  std::vector<bytes32_t> cur = hash_pairs(leaves, n);
  for (unsigned l = 1; l < first_; ++l) cur = hash_pairs(cur.data(), cur.size());
  levels_.push_back(std::move(cur));
  while (levels_.back().size() > 1) {
    std::vector<bytes32_t> up = hash_pairs(levels_.back().data(), levels_.back().size());
    levels_.push_back(std::move(up));
  }
}

const std::vector<bytes32_t>& sha256_tree_t::level(unsigned l) const {
  // levels_[0] is level 0 when kept; otherwise levels_[k], k ≥ 1, is level first_ + k − 1.
  const size_t k = first_ == 0 ? l : l < first_ ? 0 : l - first_ + 1;
  if (k >= levels_.size())
    throw std::out_of_range("sha256 tree: no level " + std::to_string(l) + " (" +
                            std::to_string(levels_.size() - 1 + (first_ == 0 ? 0 : first_ - 1)) +
                            " is the root)");
  if (first_ > 0 && l < first_)
    throw std::logic_error("sha256 tree: level " + std::to_string(l) + " was not kept");
  return levels_[k];
}

size_t sha256_tree_t::bytes() const {
  size_t b = 0;
  for (const auto& l : levels_) b += l.size() * sizeof(bytes32_t);
  return b;
}

merkle_proof_t sha256_tree_t::prove(uint64_t i) const {
  if (first_ > 0) throw std::logic_error("sha256 tree: the leaves were not kept");
  return prove(i, levels_[0].data());
}

merkle_proof_t sha256_tree_t::prove(uint64_t i, const bytes32_t* leaves) const {
  if (i >= n_) throw std::out_of_range("sha256 tree: leaf " + std::to_string(i) + " out of range");
  merkle_proof_t p;
  p.leaf = leaves[i];
  p.root = root();
  // The discarded levels: rehash the block of 2^first_ leaves under the path.
  const uint64_t block = uint64_t(1) << first_, start = i & ~(block - 1);
  std::vector<bytes32_t> sub(leaves + start, leaves + start + block);
  uint64_t j = i - start;
  for (unsigned l = 0; l < first_; ++l) {
    path_element_t e;
    e.index = j & 1;
    e.hashes.push_back(sub[j ^ 1]);
    p.base.push_back(std::move(e));
    sub = hash_pairs(sub.data(), sub.size());
    j >>= 1;
  }
  i >>= first_;
  // levels_[0] is level 0 when kept; otherwise levels_[1] is level first_.
  for (size_t k = first_ == 0 ? 0 : 1; k + 1 < levels_.size(); ++k) {
    path_element_t e;
    e.index = i & 1;
    e.hashes.push_back(levels_[k][i ^ 1]);
    p.base.push_back(std::move(e));
    i >>= 1;
  }
  return p;
}

bytes32_t sha256_tree_root(const uint8_t* padded, uint64_t bytes) {
  if (bytes % 32 != 0 || !is_pow2(bytes / 32) || bytes < 64)
    throw std::invalid_argument("comm_d: " + std::to_string(bytes) +
                                " bytes are not a power of two of 32-byte leaves (at least 2)");
  const uint64_t n = bytes / 32;
  std::vector<bytes32_t> level(n / 2);
  parallel_for(level.size(), [&](size_t b, size_t e) {
    for (size_t i = b; i < e; ++i) {
      bytes32_t l, r;
      std::memcpy(l.data(), padded + 64 * i, 32);
      std::memcpy(r.data(), padded + 64 * i + 32, 32);
      level[i] = sha256_trunc2(l, r);
    }
  });
  while (level.size() > 1) {
    std::vector<bytes32_t> up(level.size() / 2);
    parallel_for(up.size(), [&](size_t b, size_t e) {
      for (size_t i = b; i < e; ++i) up[i] = sha256_trunc2(level[2 * i], level[2 * i + 1]);
    });
    level = std::move(up);
  }
  return level[0];
}

// --- tree_c / tree_r_last ------------------------------------------------------------------

std::vector<unsigned> poseidon_tree_arities(const tree_shape_t& shape, uint64_t n) {
  const uint64_t trees =
      uint64_t(std::max<uint32_t>(shape.sub_arity, 1)) * std::max<uint32_t>(shape.top_arity, 1);
  uint64_t base = trees ? n / trees : 0;
  auto bad = [&] {
    throw std::invalid_argument("poseidon tree: " + std::to_string(n) + " leaves do not fill " +
                                std::to_string(trees) + " full base trees of arity " +
                                std::to_string(shape.base_arity) + " (shape " +
                                tree_shape_name(shape) + ")");
  };
  if (n == 0 || base * trees != n || base < shape.base_arity) bad();
  std::vector<unsigned> arities;
  while (base > 1) {
    if (base % shape.base_arity != 0) bad();
    base /= shape.base_arity;
    arities.push_back(shape.base_arity);
  }
  if (shape.sub_arity) arities.push_back(shape.sub_arity);
  if (shape.top_arity) arities.push_back(shape.top_arity);
  for (unsigned a : arities)
    if (!poseidon_arity_supported(a)) bad();
  return arities;
}

merkle_proof_t poseidon_tree_proof(const tree_shape_t& shape, const std::vector<unsigned>& arities,
                                   uint64_t i, const fr_t& root, const tree_group_fn_t& group) {
  merkle_proof_t p;
  p.kind = shape.top_arity   ? merkle_kind_t::top
           : shape.sub_arity ? merkle_kind_t::sub
                             : merkle_kind_t::single;
  p.root = fr_to_bytes(root);
  const size_t base_levels = arities.size() - (shape.sub_arity ? 1 : 0) - (shape.top_arity ? 1 : 0);
  fr_t g[16];
  for (size_t l = 0; l < arities.size(); ++l) {
    const unsigned a = arities[l];
    path_element_t e;
    e.index = i % a;
    group(l, i - e.index, a, g);
    if (l == 0) p.leaf = fr_to_bytes(g[e.index]);
    for (unsigned k = 0; k < a; ++k)
      if (k != e.index) e.hashes.push_back(fr_to_bytes(g[k]));
    std::vector<path_element_t>& part =
        l < base_levels ? p.base : (l == base_levels && shape.sub_arity ? p.sub : p.top);
    part.push_back(std::move(e));
    i /= a;
  }
  return p;
}

void poseidon_tree_t::build_up() {
  for (size_t l = levels_.size() - 1; l < arities_.size(); ++l) {
    const unsigned a = arities_[l];
    const std::vector<fr_t>& below = levels_.back();
    std::vector<fr_t> up(below.size() / a);
    const neptune::poseidon_constants_t& c = neptune::poseidon_constants(a);
    parallel_for(up.size(),
                 [&](size_t b, size_t e) { hash_groups(c, &below[a * b], e - b, &up[b]); });
    levels_.push_back(std::move(up));
  }
}

poseidon_tree_t::poseidon_tree_t(const tree_shape_t& shape, std::vector<fr_t> leaves)
    : n_(leaves.size()), shape_(shape), arities_(poseidon_tree_arities(shape, leaves.size())) {
  levels_.push_back(std::move(leaves));
  build_up();
}

poseidon_tree_t::poseidon_tree_t(const tree_shape_t& shape, uint64_t n, const leaf_fn_t& leaf)
    : n_(n), shape_(shape), arities_(poseidon_tree_arities(shape, n)) {
  const unsigned a = arities_[0];
  const neptune::poseidon_constants_t& c = neptune::poseidon_constants(a);
  levels_.emplace_back();  // the leaves: not kept
  std::vector<fr_t> first(n / a);
  parallel_for(first.size(), [&](size_t b, size_t e) {
    std::vector<fr_t> buf(size_t(a) * 256);
    for (size_t i = b; i < e;) {
      const size_t m = std::min<size_t>(256, e - i);
      leaf(uint64_t(i) * a, uint64_t(m) * a, buf.data());
      hash_groups(c, buf.data(), m, &first[i]);
      i += m;
    }
  });
  levels_.push_back(std::move(first));
  build_up();
}

size_t poseidon_tree_t::bytes() const {
  size_t b = 0;
  for (const auto& l : levels_) b += l.size() * sizeof(fr_t);
  return b;
}

merkle_proof_t poseidon_tree_t::prove(uint64_t i, const leaf_fn_t& leaf) const {
  if (i >= leaf_count())
    throw std::out_of_range("poseidon tree: leaf " + std::to_string(i) + " out of range");
  const bool kept = !levels_[0].empty();
  if (!kept && !leaf) throw std::logic_error("poseidon tree: the leaves were not kept");
  return poseidon_tree_proof(shape_, arities_, i, root(),
                             [&](size_t l, uint64_t first, unsigned a, fr_t* out) {
                               if (l == 0 && !kept)
                                 leaf(first, a, out);
                               else
                                 std::copy_n(&levels_[l][first], a, out);
                             });
}

// --- sparse trees --------------------------------------------------------------------------

periodic_sha256_tree_t::periodic_sha256_tree_t(std::vector<bytes32_t> block, uint64_t n)
    : block_(std::move(block)), n_(n) {
  check_binary_leaves(n);
  const uint64_t m = block_.leaf_count();
  if (m > n || n % m != 0)
    throw std::invalid_argument("periodic sha256 tree: a block of " + std::to_string(m) +
                                " leaves does not divide " + std::to_string(n));
  above_.push_back(block_.root());
  for (uint64_t w = m; w < n; w *= 2) above_.push_back(sha256_trunc2(above_.back(), above_.back()));
}

const bytes32_t& periodic_sha256_tree_t::leaf(uint64_t i) const {
  return block_.leaves()[i % block_.leaf_count()];
}

merkle_proof_t periodic_sha256_tree_t::prove(uint64_t i) const {
  if (i >= n_)
    throw std::out_of_range("periodic sha256 tree: leaf " + std::to_string(i) + " out of range");
  const uint64_t m = block_.leaf_count();
  merkle_proof_t p = block_.prove(i % m);  // the levels inside the block
  p.root = root();
  uint64_t j = i / m;
  for (size_t k = 0; k + 1 < above_.size(); ++k) {
    path_element_t e;
    e.index = j & 1;
    e.hashes.push_back(above_[k]);  // the sibling block's node: the same
    p.base.push_back(std::move(e));
    j >>= 1;
  }
  return p;
}

sparse_poseidon_tree_t::sparse_poseidon_tree_t(const tree_shape_t& shape, uint64_t n,
                                               std::vector<std::pair<uint64_t, fr_t>> known,
                                               filler_fn_t filler)
    : shape_(shape),
      n_(n),
      arities_(poseidon_tree_arities(shape, n)),
      filler_(std::move(filler)),
      levels_(arities_.size() + 1) {
  if (known.empty()) throw std::invalid_argument("sparse poseidon tree: no known leaf");
  for (const auto& [i, v] : known) {
    if (i >= n)
      throw std::invalid_argument("sparse poseidon tree: leaf " + std::to_string(i) + " outside " +
                                  std::to_string(n));
    if (!levels_[0].emplace(i, v).second)
      throw std::invalid_argument("sparse poseidon tree: leaf " + std::to_string(i) +
                                  " given twice");
  }
  // Level by level: every group that holds a computed node is hashed (its other members are
  // fillers or computed nodes), eight groups at a time.
  for (size_t l = 0; l < arities_.size(); ++l) {
    const unsigned a = arities_[l];
    std::vector<uint64_t> groups;
    for (const auto& kv : levels_[l])
      if (groups.empty() || groups.back() != kv.first / a) groups.push_back(kv.first / a);
    std::vector<fr_t> in(groups.size() * a), out(groups.size());
    parallel_for(groups.size(), [&](size_t b, size_t e) {
      for (size_t g = b; g < e; ++g)
        for (unsigned k = 0; k < a; ++k) in[g * a + k] = node(l, groups[g] * a + k);
    });
    const neptune::poseidon_constants_t& c = neptune::poseidon_constants(a);
    parallel_for(groups.size(),
                 [&](size_t b, size_t e) { hash_groups(c, &in[a * b], e - b, &out[b]); });
    for (size_t g = 0; g < groups.size(); ++g) levels_[l + 1].emplace(groups[g], out[g]);
  }
}

fr_t sparse_poseidon_tree_t::node(size_t level, uint64_t index) const {
  const auto it = levels_[level].find(index);
  return it != levels_[level].end() ? it->second : filler_(level, index);
}

uint64_t sparse_poseidon_tree_t::computed_nodes() const {
  uint64_t c = 0;
  for (const auto& l : levels_) c += l.size();
  return c;
}

merkle_proof_t sparse_poseidon_tree_t::prove(uint64_t i) const {
  if (levels_[0].count(i) == 0)
    throw std::out_of_range("sparse poseidon tree: leaf " + std::to_string(i) + " is not known");
  return poseidon_tree_proof(shape_, arities_, i, root(),
                             [&](size_t l, uint64_t first, unsigned a, fr_t* out) {
                               for (unsigned k = 0; k < a; ++k) out[k] = node(l, first + k);
                             });
}

std::string tree_shape_name(const tree_shape_t& s) {
  std::string out = std::to_string(s.base_arity);
  if (s.sub_arity != 0 || s.top_arity != 0) out += "-" + std::to_string(s.sub_arity);
  if (s.top_arity != 0) out += "-" + std::to_string(s.top_arity);
  return out;
}

}  // namespace zk::filecoin
