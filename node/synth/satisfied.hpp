#pragma once
// Does a witness satisfy a circuit's constraints? (A·w) ∘ (B·w) = C·w row by row, over the
// r1cs in CSR form (node/synth/csr_cache.hpp): the first row where it does not, so that a bad
// witness fails before a prover spends a proof on it (docs/formats.md §2.4 gives the rows).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "node/synth/csr_cache.hpp"

namespace zk::node {

// The row of matrix `m` times the witness (Montgomery form).
template <class Fr>
Fr row_times(const csr_t::matrix_t& m, uint64_t row, const Fr* w) {
  Fr acc{};
  for (uint64_t t = m.row_ptr[row]; t < m.row_ptr[row + 1]; ++t)
    acc += reinterpret_cast<const Fr&>(m.coef[t]) * w[m.col[t]];
  return acc;
}

// The first constraint (0-based) whose a·b ≠ c, given its evaluated rows; nullopt when all hold.
template <class Fr>
std::optional<uint64_t> first_unsatisfied(const Fr* a, const Fr* b, const Fr* c, uint64_t rows) {
  for (uint64_t i = 0; i < rows; ++i)
    if (!(a[i] * b[i] == c[i])) return i;
  return std::nullopt;
}

// The same from the matrices and the witness alone (witness-only buffers carry no rows).
template <class Fr>
std::optional<uint64_t> first_unsatisfied(const csr_t& m, const Fr* w) {
  for (uint64_t i = 0; i < m.n_constraints; ++i)
    if (!(row_times(m.a, i, w) * row_times(m.b, i, w) == row_times(m.c, i, w))) return i;
  return std::nullopt;
}

// The reason a job fails with: "<input>: the witness does not satisfy the circuit (constraint 17
// of 1000 of circuit 'mulchain', r1cs <path>: A·w × B·w ≠ C·w)".
std::string unsatisfied_reason(const std::string& input, const std::string& circuit,
                               const std::string& r1cs, uint64_t constraint, uint64_t constraints);

}  // namespace zk::node
