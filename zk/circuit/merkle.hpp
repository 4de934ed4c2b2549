#pragma once
// Merkle-path verification over a binary Poseidon tree: node = Poseidon(left, right)
// (Poseidon(2), t = 3, poseidon.hpp). Leaf index bits are least significant first: bit k says
// whether the level-k node on the path is a right child (1) or a left child (0).
//
// Per level: left = cur + b·(sib − cur) (1 constraint: b·(sib − cur) = left − cur),
// right = cur + sib − left (linear), cur = Poseidon(left, right) (243 constraints):
// depth·244 constraints for a path, plus whatever the caller does with the root.
#include "zk/circuit/poseidon.hpp"

namespace zk::circuit {

// The root implied by leaf, index bits bits[0..depth) (boolean wires, checked by the caller)
// and siblings sib[0..depth) (bottom-up).
template <class CS>
lc_of_t<CS> merkle_root(CS& cs, const lc_of_t<CS>& leaf, const lc_of_t<CS>* bits,
                        const lc_of_t<CS>* sib, unsigned depth) {
  lc_of_t<CS> cur = leaf;
  for (unsigned k = 0; k < depth; ++k) {
    auto diff = sib[k] - cur;
    auto left = cs.alloc(cur.value + bits[k].value * diff.value);
    cs.enforce(bits[k], diff, left - cur);
    auto right = cur + sib[k] - left;
    cur = poseidon2(cs, left, right);
  }
  return cur;
}

// merkle_root(…) = root: depth·244 + 1 constraints.
template <class CS>
void merkle_verify(CS& cs, const lc_of_t<CS>& root, const lc_of_t<CS>& leaf,
                   const lc_of_t<CS>* bits, const lc_of_t<CS>* sib, unsigned depth) {
  enforce_equal(cs, merkle_root(cs, leaf, bits, sib, depth), root);
}

}  // namespace zk::circuit
