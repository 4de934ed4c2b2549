#include "node/prover/filecoin_key.hpp"

#include <optional>
#include <stdexcept>

#include "common/util/log.hpp"
#include "node/filecoin_job.hpp"
#include "node/filecoin_snap_job.hpp"
#include "zk/base/fingerprint.hpp"
#include "zk/filecoin/api/params_prover.hpp"
#include "zk/filecoin/porep/circuit/circuit.hpp"
#include "zk/filecoin/update/circuit.hpp"
#include "zk/formats/json.hpp"

namespace zk::node {

namespace fc = zk::filecoin;
using curve_t = bellperson::curve_t;

namespace {

// The .params of one circuit decoded for it (its densities from the circuit's shape) and the one
// prover over that key view (zk/filecoin/api/params_prover.hpp, what the command line's C2 and
// prove-update prove with); PoRep's circuit keeps its configuration for the packed wire's rebuild.
struct filecoin_key_t final : prover_engine_t::key_t {
  std::unique_ptr<fc::params_prover_t> pp;
  std::optional<fc::circuit_config_t> porep;

  proof_result_t prove(const circuit_def_t& c, const buffer::buffer_ref_t& b,
                       const groth16::stage_observer_t& observe, const stop_t& stop) override {
    // The packed wire (PoRep only): a, b, c from the witness and the circuit's structure (kept
    // once per circuit by circuit_program, built at the first packed partition).
    abc_rebuild_t<curve_t> rebuild;
    if (porep)
      rebuild = [this](const formats::witness_bits_t& bits,
                       const groth16::abc_rows_t<bellperson::fr_t>& rows, const stop_t& stop) {
        const auto program = fc::circuit_program(*porep);
        bellperson::assignment_view_t view;
        view.a = rows.a;
        view.b = rows.b;
        view.c = rows.c;
        view.capacity = program->total();
        program->eval(bits, view, stop);
      };
    const auto p =
        prove_buffer(pp->prover(), pp->key().verifying_key(), c, b, observe, stop, rebuild);
    uint8_t bytes[bellperson::proof_size];
    bellperson::encode_proof(p.proof, bytes);
    return {filecoin_proof_text(bytes), p.public_signals, p.prove_seconds, p.verify_seconds};
  }
};

}  // namespace

std::unique_ptr<prover_engine_t::key_t> load_filecoin_key(
    const circuit_def_t& c, const std::string& params,
    const groth16::accelerator_t<bellperson::curve_t>* acc) {
  auto k = std::make_unique<filecoin_key_t>();
  {
    // Mapped while its bases are decoded (and each section's pages dropped after), then closed:
    // the key is held once.
    const bellperson::params_file_t file(params, bellperson::params_file_t::mode_t::unchecked);
    if (file.vk().ic.size() != c.n_public + 1)
      throw std::runtime_error(params + ": its key has " + std::to_string(file.vk().ic.size()) +
                               " IC points, circuit '" + c.id + "' " +
                               std::to_string(c.n_public + 1) + " inputs");
    k->sample = sampled_fingerprint(file.mapping().data(), file.file_size());
    if (c.kind == circuit_kind_t::filecoin_snap) {
      k->pp = std::make_unique<fc::params_prover_t>(
          file, *fc::update_circuit_shape(snap_config(c), /*matrices=*/false));
    } else {
      k->porep = fc::circuit_config(filecoin_config(c));
      k->pp = std::make_unique<fc::params_prover_t>(
          file, *fc::circuit_shape(*k->porep, /*matrices=*/false));
    }
  }
  // The structure is kept where packed partitions come: the packed wire, or `wire: auto`.
  if (k->porep && c.shape != buffer::synth_shape_t::packed_witness && !c.wire_auto)
    k->porep.reset();
  if (k->porep) {
    // The structure a, b, c are rebuilt with, made now rather than in the first proof.
    const auto program = fc::circuit_program(*k->porep);
    log::info("circuit '" + c.id + "': packed wire, a, b, c rebuilt here from the circuit's " +
              "structure (" + std::to_string(program->bytes_kept()) + " bytes)");
  }
  k->pp->prover().set_accelerator(acc);
  k->pp->prover().release_work();  // touched by the allocation: held only while a proof runs
  log::info("circuit '" + c.id + "': " + params + " decoded and resident (" +
            std::to_string(k->pp->key().bytes()) + " bytes of bases; the file's pages released)");
  log_stage_backends(c, k->pp->prover(), acc ? acc->name : "");
  return k;
}

}  // namespace zk::node
