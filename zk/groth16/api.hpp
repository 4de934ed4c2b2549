#pragma once
// File-level entry points: read the inputs, pick the curve from the key, run the typed code.
// These are what the command line (apps/) and, later, the prover actors call.
#include <string>
#include <type_traits>
#include <vector>

#include "zk/groth16/prover.hpp"
#include "zk/groth16/verifier.hpp"

namespace zk::groth16 {

// One accelerator per curve (null: that curve proves on the CPU), owned by the caller.
struct accelerators_t {
  const accelerator_t<curves::bn254>* bn254 = nullptr;
  const accelerator_t<curves::bls12_381>* bls12_381 = nullptr;
  template <class C>
  const accelerator_t<C>* of() const {
    if constexpr (std::is_same_v<C, curves::bn254>)
      return bn254;
    else
      return bls12_381;
  }
};

struct prove_options_t {
  bool self_verify = true;        // check the proof with the key's own vk before writing it
  stage_observer_t observe;       // per-stage timings (also called for prover_stage_t::verify)
  bool release_key_pages = true;  // one-shot proving: drop key sections from RSS after use
  accelerators_t accelerators;    // the CUDA backend's hooks; none: the CPU
  precompute_t precompute;        // base tables built after loading (off: one-shot proving)
};

struct prove_report_t {
  std::string curve;  // snarkjs name
  uint32_t n_vars = 0, n_public = 0, domain_size = 0;
  double load_seconds = 0;    // mapping and validating the key and the witness
  double prove_seconds = 0;   // all prover stages
  double verify_seconds = 0;  // self-verification (0 when off)
};

// zkfleet prove <zkey> <wtns> <proof.json> <public.json>. Throws (format_error,
// std::runtime_error) with a message naming the file on bad input, and refuses to write a proof
// that fails verification (a witness that does not satisfy the circuit).
prove_report_t prove_files(const std::string& zkey_path, const std::string& wtns_path,
                           const std::string& proof_path, const std::string& public_path,
                           const prove_options_t& options = {});

// zkfleet verify <verification_key.json> <public.json> <proof.json>. Malformed files throw;
// a well-formed but wrong proof is refused with its reason.
check_t verify_files(const std::string& vkey_path, const std::string& public_path,
                     const std::string& proof_path);

}  // namespace zk::groth16
