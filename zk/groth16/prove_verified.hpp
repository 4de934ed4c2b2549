#pragma once
// The one path from a witness to a proof that leaves the process, for every key (zkey or
// bellperson .params): prove, take the public inputs from the witness, verify the proof with the
// key's own verification key (prover_stage_t::verify on the observer), and refuse a proof that
// fails. `zkfleet prove`, `zkfleet filecoin prove`, native circuits and the cluster's prover engine
// all go through it.
#include <cstring>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "zk/base/bytes.hpp"
#include "zk/formats/json.hpp"
#include "zk/groth16/prover.hpp"
#include "zk/groth16/verifier.hpp"

namespace zk::groth16 {

template <class C>
struct verified_proof_t {
  proof_t<C> proof;
  std::vector<std::string> public_signals;  // decimal, snarkjs public.json order
  double prove_seconds = 0, verify_seconds = 0;
};

// The n_public public inputs of a witness (canonical little-endian 32-byte values, as in a
// .wtns: value 0 is the constant one, the public signals follow).
template <class C>
std::vector<typename C::fr_t> public_inputs(const witness_in_t& witness, uint64_t n_public) {
  std::vector<typename C::fr_t> pub(n_public);
  for (uint64_t i = 0; i < n_public; ++i) {
    uint8_t le[32];
    witness.value(i + 1, le);
    typename C::fr_t::big_t v;
    std::memcpy(v.l, le, 32);
    pub[i] = C::fr_t::from_canonical(v);
  }
  return pub;
}

// How the prover gets a, b, c: from the key's coefficients and the witness (build_ab), or
// already loaded from a synthesis with prover_t::load_abc.
enum class abc_source_t { build, loaded };

struct prove_call_t {
  abc_source_t abc = abc_source_t::build;
  stage_observer_t observe;  // the prover's stages, then prover_stage_t::verify
  std::string what;  // names the input in the error ("w.wtns", "buffer of job 3 partition 1")
  std::string hint;  // appended to the error: what may be wrong
  // false only for `zkfleet prove --no-verify` (timing against provers that do not verify):
  // the proof is returned unchecked.
  bool self_verify = true;
  // Fixed randomizers r and s as canonical little-endian integers below r (tests and the
  // benchmarks' byte-for-byte comparisons); unset: fresh from the OS CSPRNG for every proof.
  std::optional<bytes32_t> r, s;
  // Polled at the proof's safe points (prover_t::set_stop): when it answers true the call throws
  // zk::cancelled_error("<what>: stopped (cancelled)") within one task of the request.
  stop_t stop;
};

// A canonical little-endian 32-byte integer as a field element; std::invalid_argument when it is
// not below the modulus.
template <class Fr>
Fr scalar_from_le(const bytes32_t& le) {
  typename Fr::big_t v{};
  std::memcpy(v.l, le.data(), 32);
  if (!ff::big_lt(v, Fr::modulus)) throw std::invalid_argument("a scalar not below the modulus");
  return Fr::from_canonical(v);
}

// Proves `witness` (n_vars canonical 32-byte values) with `prover`, verifies against `vk`.
// Throws std::runtime_error("<what>: the proof fails verification (<reason>)<hint>") when it does
// not verify.
template <class C>
verified_proof_t<C> prove_verified(prover_t<C>& prover, const verifying_key_t<C>& vk,
                                   const witness_in_t& witness, const prove_call_t& call) {
  using Fr = typename C::fr_t;
  verified_proof_t<C> out;
  const Fr r = call.r ? scalar_from_le<Fr>(*call.r) : random_scalar<Fr>();
  const Fr s = call.s ? scalar_from_le<Fr>(*call.s) : random_scalar<Fr>();
  uint64_t t0 = now_ns();
  struct stop_scope_t {  // the prover polls this call's stop, and no other call's after it
    prover_t<C>& p;
    ~stop_scope_t() { p.set_stop({}); }
  } scope{prover};
  prover.set_stop(call.stop);
  try {
    if (call.abc == abc_source_t::build && !witness.values)
      throw std::logic_error(call.what + ": building a, b, c needs the witness's values");
    out.proof = call.abc == abc_source_t::build ? prover.prove(witness.values, r, s, call.observe)
                                                : prover.prove_loaded(witness, r, s, call.observe);
  } catch (const cancelled_error&) {
    throw cancelled_error(call.what + ": stopped (cancelled)");
  }
  uint64_t t1 = now_ns();
  const auto pub = public_inputs<C>(witness, prover.key().n_public);
  uint64_t t2 = t1;
  if (call.self_verify) {
    const check_t v = verify(vk, pub, out.proof);
    t2 = now_ns();
    if (call.observe) call.observe({prover_stage_t::verify, t1, t2, stage_backend_t::cpu});
    if (!v)
      throw std::runtime_error(call.what + ": the proof fails verification (" + v.reason() + ")" +
                               call.hint);
  }
  out.public_signals.reserve(pub.size());
  for (const Fr& x : pub) out.public_signals.push_back(x.to_string());
  out.prove_seconds = double(t1 - t0) * 1e-9;
  out.verify_seconds = double(t2 - t1) * 1e-9;
  return out;
}

// proof.json and public.json as snarkjs writes them.
template <class C>
void write_proof_files(const verified_proof_t<C>& p, const std::string& proof_path,
                       const std::string& public_path) {
  formats::write_proof_json(proof_path, p.proof.to_json());
  formats::write_public_json(public_path, p.public_signals);
}

}  // namespace zk::groth16
