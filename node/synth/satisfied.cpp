#include "node/synth/satisfied.hpp"

namespace zk::node {

std::string unsatisfied_reason(const std::string& input, const std::string& circuit,
                               const std::string& r1cs, uint64_t constraint, uint64_t constraints) {
  return input + ": the witness does not satisfy the circuit (constraint " +
         std::to_string(constraint) + " of " + std::to_string(constraints) +
         ", numbered from 0, of circuit '" + circuit + "' in " + r1cs +
         ": A·w × B·w ≠ C·w); no proof can be made of it, so it is not retried";
}

}  // namespace zk::node
