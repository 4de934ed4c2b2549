#pragma once
// A key the prover engine holds per circuit (node/prover/prover_engine.hpp): what was loaded, and
// how it proves a buffer. One implementation per key format: snarkjs zkeys (prover_engine.cpp)
// and Filecoin's bellperson parameters (filecoin_key.hpp); both prove with the one Groth16 prover
// through prove_buffer.
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/buffer/synth_buffer.hpp"
#include "common/util/log.hpp"
#include "node/prover/key_file.hpp"
#include "node/prover/prover_engine.hpp"
#include "zk/formats/packed_witness.hpp"
#include "zk/groth16/prove_verified.hpp"

namespace zk::node {

struct prover_engine_t::key_t {
  file_id_t loaded;          // the key file as it was when mapped
  uint64_t sample = 0;       // sampled_fingerprint of its bytes when mapped
  uint64_t table_bytes = 0;  // its precomputed tables (0: none)
  virtual ~key_t() = default;
  virtual proof_result_t prove(const circuit_def_t& c, const buffer::buffer_ref_t& b,
                               const groth16::stage_observer_t& observe, const stop_t& stop) = 0;
};

// How a key rebuilds a, b, c from a packed witness (the packed wire): the witness's bit sets
// into the prover's rows (every domain row of the circuit's constraints and input constraints).
template <class C>
using abc_rebuild_t =
    std::function<void(const formats::witness_bits_t& witness,
                       const groth16::abc_rows_t<typename C::fr_t>& rows, const stop_t& stop)>;

// A synth buffer proved with `prover` and verified with `vk` (groth16::prove_verified, the one
// path): a, b, c loaded from an abc+witness buffer (its rows must fit the key's domain), built from
// the key's coefficients for a witness-only one, rebuilt by `rebuild` from a packed one (its
// witness checked, then read by class by the MSMs, groth16::witness_in_t; the stage build_ab
// times the rebuild). Throws
// std::runtime_error naming the job and partition when the buffer does not fit (a packed witness
// that does not check: zk::format_error, naming the byte) or the proof fails verification,
// zk::cancelled_error when `stop` asks for it (groth16::prove_call_t::stop).
template <class C>
groth16::verified_proof_t<C> prove_buffer(groth16::prover_t<C>& prover,
                                          const groth16::verifying_key_t<C>& vk,
                                          const circuit_def_t& c, const buffer::buffer_ref_t& b,
                                          const groth16::stage_observer_t& observe,
                                          const stop_t& stop = {},
                                          const abc_rebuild_t<C>& rebuild = {}) {
  using Fr = typename C::fr_t;
  // Between proofs the node holds its key and nothing of the last proof: the work arrays are
  // reserved per proof by the scheduler (circuit_def_t::prover_work_bytes), so their pages go back
  // once the proof is done, proved or not.
  struct work_scope_t {
    groth16::prover_t<C>& p;
    ~work_scope_t() { p.release_work(); }
  } work{prover};
  const auto& h = b.header();
  const auto layout = buffer::payload_layout(h);
  groth16::prove_call_t call;
  call.observe = observe;
  call.stop = stop;
  call.what = "circuit '" + c.id + "', job " + std::to_string(h.job_id) + " partition " +
              std::to_string(h.partition);
  if (h.shape() == buffer::synth_shape_t::abc_witness) {
    const uint64_t domain = prover.key().domain_size;
    if (h.domain_rows > domain)
      throw std::runtime_error("buffer of job " + std::to_string(h.job_id) + ": " +
                               std::to_string(h.domain_rows) + " rows exceed the key's domain " +
                               std::to_string(domain));
    const uint64_t ta = groth16::now_ns();
    prover.load_abc(reinterpret_cast<const Fr*>(b.data() + layout.a),
                    reinterpret_cast<const Fr*>(b.data() + layout.b),
                    reinterpret_cast<const Fr*>(b.data() + layout.c), size_t(h.domain_rows));
    if (observe)  // a, b, c loaded, not built
      observe({groth16::prover_stage_t::build_ab, ta, groth16::now_ns(),
               groth16::stage_backend_t::cpu});
    call.abc = groth16::abc_source_t::loaded;
  }
  if (h.shape() == buffer::synth_shape_t::packed_witness) {
    if (!rebuild)
      throw std::runtime_error(call.what + ": a packed witness, and circuit '" + c.id +
                               "' has no structure to rebuild a, b, c from");
    const uint64_t domain = prover.key().domain_size;
    if (h.domain_rows > domain)
      throw std::runtime_error(call.what + ": " + std::to_string(h.domain_rows) +
                               " rows exceed the key's domain " + std::to_string(domain));
    const uint64_t ta = groth16::now_ns();
    const uint8_t* packed = b.data() + layout.witness;
    const auto info =
        formats::check_packed_witness(packed, h.payload_bytes, Fr::modulus.l, call.what);
    if (info.n != h.n_vars)
      throw std::runtime_error(call.what + ": a packed witness of " + std::to_string(info.n) +
                               " values, the header says " + std::to_string(h.n_vars));
    const formats::witness_bits_t bits = formats::witness_bits(packed);
    rebuild(bits, prover.abc_for_loading(size_t(h.domain_rows)), stop);
    call.abc = groth16::abc_source_t::loaded;
    // The MSMs read the packed witness's classes (the CPU's plans from its bit sets, an
    // accelerator's scalars written from them): it is not unpacked whole. CPU MSMs without the
    // 0/1 split (a benchmark's setting) read 32-byte values: unpacked beside the work arrays
    // (accounted in circuit_def_t::prover_work_bytes) and freed with the proof.
    const msm::classed_scalars_t classed = bits.classes();
    std::unique_ptr<uint8_t[]> unpacked;
    if (!prover.reads_classed()) {
      unpacked.reset(new uint8_t[size_t(h.n_vars) * 32]);  // unpack writes all
      formats::unpack_witness(packed, unpacked.get());
    }
    if (observe)  // a, b, c rebuilt from the packed witness (and any unpacking)
      observe({groth16::prover_stage_t::build_ab, ta, groth16::now_ns(),
               groth16::stage_backend_t::cpu});
    return groth16::prove_verified(
        prover, vk,
        unpacked ? groth16::witness_in_t(unpacked.get()) : groth16::witness_in_t(&classed), call);
  }
  return groth16::prove_verified(prover, vk, b.data() + layout.witness, call);
}

// One line at a key's load: which stages run where ("circuit 'c2': stages on cuda (NVIDIA H100):
// msm_a msm_b1 msm_b2 msm_c msm_h; on the CPU: compute_h"), so an operator sees at start-up what
// a node's GPU does for each key. Nothing when there is no accelerator.
template <class C>
void log_stage_backends(const circuit_def_t& c, const groth16::prover_t<C>& prover,
                        const std::string& accelerator) {
  if (accelerator.empty()) return;
  std::string on_acc, on_cpu;
  for (groth16::prover_stage_t s : groth16::all_prover_stages) {
    if (s == groth16::prover_stage_t::build_ab || s == groth16::prover_stage_t::assemble) continue;
    std::string& to =
        prover.backend_of(s) == groth16::stage_backend_t::accelerator ? on_acc : on_cpu;
    to += std::string(to.empty() ? "" : " ") + groth16::stage_name(s);
  }
  std::string line = "circuit '" + c.id + "': stages on " + accelerator + ": " +
                     (on_acc.empty() ? "none" : on_acc);
  if (!on_cpu.empty())
    line += "; on the CPU: " + on_cpu +
            (prover.key().h_form == groth16::h_form_t::coset_quotient &&
                     on_cpu.find("compute_h") != std::string::npos
                 ? " (bellperson's coset quotient has no accelerator kernel)"
                 : "");
  if (on_acc.empty())
    log::warn(line);
  else
    log::info(line);
}

}  // namespace zk::node
