#pragma once
// Montgomery elements → canonical little-endian integers of sizeof(Fr::big_t) bytes each: a
// witness as a .wtns's values section holds it, as a synth buffer carries it and as the prover's
// MSMs read it. `out` may be `in` itself (each element is read whole before its own bytes are
// written; the pieces of the parallel loop are disjoint). On the compute pool: a 32 GiB
// partition's witness is 130 M elements.
#include <cstddef>
#include <cstdint>

#include "zk/base/le_bytes.hpp"
#include "zk/base/thread_pool.hpp"

namespace zk::ff {

template <class Fr>
void write_canonical_le(const Fr* in, size_t n, uint8_t* out) {
  constexpr size_t n8 = sizeof(typename Fr::big_t);
  static_assert(sizeof(Fr) == n8, "in place needs an element the size of its integer");
  parallel_for(n, [&](size_t b, size_t e) {
    for (size_t i = b; i < e; ++i) {
      const auto v = in[i].to_canonical();
      for (int k = 0; k < Fr::N; ++k) le_put(out, i * n8 + 8 * size_t(k), v.l[k]);
    }
  });
}

}  // namespace zk::ff
