#include "zk/filecoin/api/params_prover.hpp"

#include <stdexcept>
#include <string>

#include "zk/base/stop.hpp"
#include "zk/ff/canonical.hpp"

namespace zk::filecoin {

namespace {

double seconds_since(uint64_t t0) { return double(groth16::now_ns() - t0) * 1e-9; }

}  // namespace

params_prover_t::params_prover_t(const bellperson::params_file_t& params,
                                 const bellperson::r1cs_shape_t& shape)
    : key_(params, shape), prover_(key_.view()) {}

uint64_t params_prover_t::resident_bytes() const {
  return key_.bytes() + 3 * uint64_t(key_.view().domain_size) * sizeof(fr_t);
}

result_t<synthesis_report_t> synthesize_checked(params_prover_t& prover,
                                                const circuit_layout_t& layout,
                                                const synthesize_fn_t& synthesize,
                                                const unsatisfied_fn_t& first_unsatisfied,
                                                std::vector<fr_t>& witness) {
  synthesis_report_t r;
  r.constraints = layout.total.constraints;
  uint64_t t = groth16::now_ns();
  witness.resize(uint64_t(layout.total.inputs) + layout.total.aux);
  const auto abc =
      prover.prover().abc_for_loading(uint64_t(layout.total.constraints) + layout.total.inputs);
  bellperson::assignment_view_t view;
  view.inputs = witness.data();
  view.aux = witness.data() + layout.total.inputs;
  view.a = abc.a;
  view.b = abc.b;
  view.c = abc.c;
  view.capacity = layout.total;
  synthesize(view);
  r.synthesis_seconds = seconds_since(t);
  t = groth16::now_ns();
  if (auto u = first_unsatisfied(view))
    return std::string("constraint " + std::to_string(u->constraint) + " (" + u->where +
                       ") is not satisfied");
  r.satisfied_seconds = seconds_since(t);
  // The witness as the prover reads it: canonical little-endian, in place.
  ff::write_canonical_le(witness.data(), witness.size(),
                         reinterpret_cast<uint8_t*>(witness.data()));
  return r;
}

result_t<partition_proof_t> prove_witness(params_prover_t& prover, const std::vector<fr_t>& witness,
                                          const std::vector<fr_t>& inputs,
                                          groth16::prove_call_t call) {
  const auto* w = reinterpret_cast<const uint8_t*>(witness.data());
  const auto synthesized = groth16::public_inputs<curve_t>(w, prover.key().view().n_public);
  if (synthesized.size() != inputs.size())
    return "the circuit has " + std::to_string(synthesized.size()) +
           " public inputs, the verifier derives " + std::to_string(inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i)
    if (!(inputs[i] == synthesized[i]))
      return "public input " + std::to_string(i) +
             " of the synthesized circuit is not the one the verifier derives";
  call.abc = groth16::abc_source_t::loaded;
  partition_proof_t out;
  try {
    const auto p = groth16::prove_verified(prover.prover(), prover.key().verifying_key(), w, call);
    out.proof = p.proof;
    out.prove_seconds = p.prove_seconds;
    out.verify_seconds = p.verify_seconds;
  } catch (const std::runtime_error& e) {
    if (dynamic_cast<const cancelled_error*>(&e)) throw;
    return std::string(e.what()) + " with the parameters' verifying key";
  }
  bellperson::encode_proof(out.proof, out.bytes.data());
  return out;
}

}  // namespace zk::filecoin
