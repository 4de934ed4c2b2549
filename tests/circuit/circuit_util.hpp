#pragma once
// Helpers for the circuit tests: both scalar fields, and the satisfaction check of a shape.
#include <doctest/doctest.h>

#include "zk/circuit/cs.hpp"
#include "zk/ec/curves.hpp"

namespace zk::test {

#define ZK_CIRCUIT_FIELDS zk::bn254::fr_t, zk::bls12_381::fr_t

// The shape recorded so far is satisfied by its own witness; changing wire `tamper` (when
// given) breaks some constraint.
template <class Fr>
void check_shape(circuit::shape_cs_t<Fr>& cs, std::initializer_list<uint32_t> tamper = {}) {
  auto w = cs.witness();
  auto shape = cs.take_shape();
  CHECK(circuit::first_unsatisfied(shape, w) == -1);
  for (uint32_t wire : tamper) {
    REQUIRE(wire < w.size());
    auto bad = w;
    bad[wire] += Fr::one();
    CHECK_MESSAGE(circuit::first_unsatisfied(shape, bad) >= 0,
                  "tampered wire " << wire << " still satisfies");
  }
}

}  // namespace zk::test
