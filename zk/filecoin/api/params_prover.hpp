#pragma once
// What proving a partition of any Filecoin circuit with a bellperson `.params` file takes, written
// once for PoRep's C2 (zk/filecoin/api/c2.hpp) and the SnapDeals update (prove_update.hpp):
//
//   params_prover_t     the .params of one circuit decoded for its R1CS (bellperson::params_key_t:
//                       its densities, bellperson's coset) and the one prover of the project
//                       (zk/groth16/prover.hpp) with its work arrays, reused across proofs
//   synthesize_checked  a prove-mode synthesis straight into a witness (inputs ‖ aux) and the
//                       prover's own a, b, c (abc_for_loading), every constraint checked, the
//                       witness left canonical (what the prover and a synth buffer read)
//   prove_witness       the synthesized public inputs compared with the verifier's, then
//                       groth16::prove_verified with the params' verifying key: the proof and its
//                       192 bytes (bellperson's encoding)
//
// Refusals (an unsatisfied constraint, public inputs other than the verifier's, a proof that does
// not verify) are values: result_t's reason names the constraint and its region, or the check.
#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "zk/base/result.hpp"
#include "zk/bellperson/groth16/files.hpp"
#include "zk/bellperson/groth16/key.hpp"
#include "zk/filecoin/core/circuit_parts.hpp"
#include "zk/groth16/prove_verified.hpp"

namespace zk::filecoin {

using curve_t = bellperson::curve_t;

class params_prover_t {
 public:
  // Decodes the file for the circuit whose R1CS is `shape` (the file must be for it:
  // std::invalid_argument naming the section otherwise); the file may be closed afterwards.
  params_prover_t(const bellperson::params_file_t& params, const bellperson::r1cs_shape_t& shape);

  const bellperson::params_key_t& key() const { return key_; }
  groth16::prover_t<curve_t>& prover() { return prover_; }
  // The decoded key and the prover's work arrays.
  uint64_t resident_bytes() const;

 private:
  bellperson::params_key_t key_;
  groth16::prover_t<curve_t> prover_;
};

struct synthesis_report_t {
  double synthesis_seconds = 0, satisfied_seconds = 0;
  uint64_t constraints = 0;  // the circuit's own (input constraints not included)
};

// One partition's proof.
struct partition_proof_t {
  bellperson::proof_t proof;
  std::array<uint8_t, bellperson::proof_size> bytes{};  // bellperson's encoding
  synthesis_report_t synthesis;
  double prove_seconds = 0, verify_seconds = 0;
};

// `synthesize` fills the view (sized by `layout`: witness = inputs ‖ aux, a, b, c the prover's);
// `first_unsatisfied` names the first constraint with a·b ≠ c, which is the refusal
// ("constraint N (<region>) is not satisfied"). Exceptions of `synthesize` pass through.
using synthesize_fn_t = std::function<void(const bellperson::assignment_view_t&)>;
using unsatisfied_fn_t =
    std::function<std::optional<unsatisfied_t>(const bellperson::assignment_view_t&)>;
result_t<synthesis_report_t> synthesize_checked(params_prover_t& prover,
                                                const circuit_layout_t& layout,
                                                const synthesize_fn_t& synthesize,
                                                const unsatisfied_fn_t& first_unsatisfied,
                                                std::vector<fr_t>& witness);

// The witness synthesize_checked left (canonical) proved with the prover's loaded a, b, c:
// refused when its public inputs are not `inputs` (those the verifier derives) or when the proof
// does not verify with the params' verifying key. `call` says what the proof is of (call.what),
// its observer, fixed r, s and stop; its abc source is set here.
result_t<partition_proof_t> prove_witness(params_prover_t& prover, const std::vector<fr_t>& witness,
                                          const std::vector<fr_t>& inputs,
                                          groth16::prove_call_t call);

}  // namespace zk::filecoin
