#pragma once
// What a synthesis node keeps across partitions: each circom circuit's constraint matrices in
// CSR form with Montgomery coefficients, built from its .r1cs on first use.
#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "node/circuit.hpp"

namespace zk::node {

// One circuit's A, B, C, row-compressed; coefficients already in Montgomery form as 32-byte
// elements of the circuit's Fr.
struct csr_t {
  struct matrix_t {
    std::vector<uint64_t> row_ptr;
    std::vector<uint32_t> col;
    std::vector<std::array<uint64_t, 4>> coef;  // Fr in Montgomery form, limbs
  };
  matrix_t a, b, c;
  uint64_t n_constraints = 0;
};

class csr_cache_t {
 public:
  // Thread-safe: a node's workers share one cache (one copy of each circuit's matrices); the
  // first caller builds, the others wait for it. The reference stays valid with the cache.
  // Throws naming the .r1cs when it is not the circuit's constraint system.
  const csr_t& csr(const circuit_def_t& c);

 private:
  std::mutex mu_;
  std::map<std::string, std::unique_ptr<csr_t>> csr_;
};

}  // namespace zk::node
