#include "zk/filecoin/core/gadgets.hpp"

#include <stdexcept>
#include <string>

namespace zk::filecoin {

namespace {

// log_base(n) when n is an exact power of base (base ≥ 2), else -1.
int exact_log(uint64_t n, uint64_t base) {
  int k = 0;
  while (n > 1) {
    if (n % base) return -1;
    n /= base;
    ++k;
  }
  return n == 1 ? k : -1;
}

}  // namespace

std::vector<uint32_t> path_arities(uint64_t leaves, const tree_shape_t& shape) {
  uint64_t base_leaves = leaves;
  if (shape.top_arity) {
    if (!shape.sub_arity) throw std::invalid_argument("tree shape: a top tree needs a sub-tree");
    base_leaves = leaves / shape.top_arity / shape.sub_arity;
  } else if (shape.sub_arity) {
    base_leaves = leaves / shape.sub_arity;
  }
  const int levels = exact_log(base_leaves, shape.base_arity);
  if (levels < 1 || base_leaves * (shape.sub_arity ? shape.sub_arity : 1) *
                            (shape.top_arity ? shape.top_arity : 1) !=
                        leaves)
    throw std::invalid_argument("tree shape " + tree_shape_name(shape) + " does not fit " +
                                std::to_string(leaves) + " leaves");
  std::vector<uint32_t> a(size_t(levels), shape.base_arity);
  if (shape.sub_arity) a.push_back(shape.sub_arity);
  if (shape.top_arity) a.push_back(shape.top_arity);
  return a;
}

}  // namespace zk::filecoin
