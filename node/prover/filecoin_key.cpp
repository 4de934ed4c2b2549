#include "node/prover/filecoin_key.hpp"

#include <cstring>
#include <stdexcept>

#include "common/util/log.hpp"
#include "node/filecoin_job.hpp"
#include "zk/base/fingerprint.hpp"
#include "zk/filecoin/api/prover.hpp"
#include "zk/filecoin/api/verify_seal.hpp"
#include "zk/formats/json.hpp"

namespace zk::node {

namespace fc = zk::filecoin;

namespace {

struct filecoin_key_t final : prover_engine_t::key_t {
  bellperson::params_file_t file;
  fc::circuit_config_t config;
  fc::partition_prover_t prover;

  filecoin_key_t(const circuit_def_t& c, const std::string& params)
      : file(params, bellperson::params_file_t::mode_t::unchecked),
        config(fc::circuit_config(filecoin_config(c))),
        prover(file, config, /*resident=*/true) {
    if (file.vk().ic.size() != c.n_public + 1)
      throw std::runtime_error(params + ": its key has " + std::to_string(file.vk().ic.size()) +
                               " IC points, circuit '" + c.id + "' " +
                               std::to_string(c.n_public + 1) + " inputs");
    sample = sampled_fingerprint(file.mapping().data(), file.file_size());
    log::info("circuit '" + c.id + "': " + params + " resident (" +
              std::to_string(prover.resident_bytes()) + " bytes of decoded bases)");
  }

  proof_result_t prove(const circuit_def_t& c, const buffer::buffer_ref_t& b,
                       const groth16::stage_observer_t& observe) override {
    const auto& h = b.header();
    const auto layout = buffer::payload_layout(h);
    const std::string what = "circuit '" + c.id + "', job " + std::to_string(h.job_id) +
                             " partition " + std::to_string(h.partition);
    const bellperson::counts_t total = fc::circuit_layout(config).total;
    const uint64_t rows = uint64_t(total.constraints) + total.inputs;
    if (h.shape() != buffer::synth_shape_t::abc_witness ||
        h.n_vars != uint64_t(total.inputs) + total.aux || h.domain_rows != rows)
      throw std::runtime_error(what + ": the buffer's counts are not the circuit's");
    // The assignment as bellperson's prover holds it: inputs and aux from the canonical witness,
    // a, b, c as synthesized (Montgomery).
    const uint64_t t_load = groth16::now_ns();
    fc::partition_assignment_t a;
    a.counts = total;
    a.inputs.resize(total.inputs);
    a.aux.resize(total.aux);
    const uint8_t* w = b.data() + layout.witness;
    for (uint64_t i = 0; i < h.n_vars; ++i) {
      fc::fr_t::big_t v;
      std::memcpy(v.l, w + 32 * i, 32);
      (i < total.inputs ? a.inputs[i] : a.aux[i - total.inputs]) = fc::fr_t::from_canonical(v);
    }
    auto rows_of = [&](uint64_t off) {
      const auto* p = reinterpret_cast<const fc::fr_t*>(b.data() + off);
      return std::vector<fc::fr_t>(p, p + rows);
    };
    a.a = rows_of(layout.a);
    a.b = rows_of(layout.b);
    a.c = rows_of(layout.c);
    if (observe) observe(groth16::prover_stage_t::build_ab, t_load, groth16::now_ns());
    fc::prove_options_t opt;
    opt.observe = observe;
    const uint64_t t0 = groth16::now_ns();
    const bellperson::proof_t proof = prover.prove(a, opt);
    const uint64_t t1 = groth16::now_ns();
    // Verified with the parameters' own key against the partition's public inputs.
    std::vector<fc::fr_t> inputs(a.inputs.begin() + 1, a.inputs.end());
    const auto verdict = bellperson::verify_proof(file.vk(), proof, inputs);
    const uint64_t t2 = groth16::now_ns();
    if (observe) observe(groth16::prover_stage_t::verify, t1, t2);
    if (!verdict)
      throw std::runtime_error(what + ": the proof fails verification with " + file.path() +
                               "'s key: " + verdict.reason);
    uint8_t bytes[bellperson::proof_size];
    bellperson::encode_proof(proof, bytes);
    proof_result_t r;
    r.proof_json = filecoin_proof_text(bytes);
    for (const auto& x : inputs) {
      const auto le = fc::fr_to_bytes(x);
      r.public_signals.push_back(formats::le_to_decimal(le.data(), le.size()));
    }
    r.prove_seconds = double(t1 - t0) * 1e-9;
    r.verify_seconds = double(t2 - t1) * 1e-9;
    return r;
  }
};

}  // namespace

std::unique_ptr<prover_engine_t::key_t> load_filecoin_key(const circuit_def_t& c,
                                                          const std::string& params) {
  return std::make_unique<filecoin_key_t>(c, params);
}

}  // namespace zk::node
