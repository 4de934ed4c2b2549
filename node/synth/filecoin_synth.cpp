#include "node/synth/filecoin_synth.hpp"

#include <chrono>

#include "node/filecoin_job.hpp"
#include "zk/base/clock.hpp"
#include "zk/ff/canonical.hpp"
#include "zk/filecoin/porep/circuit/circuit.hpp"

namespace zk::node {

namespace fc = zk::filecoin;

synth_result_t synthesize_filecoin(const circuit_def_t& c, const std::vector<std::string>& inputs,
                                   uint64_t job, uint32_t part, buffer::buffer_store_t& store,
                                   const synth_stage_observer_t& observe) {
  using fr_t = fc::fr_t;
  static_assert(sizeof(fr_t) == buffer::fr_bytes, "a/b/c travel as 32-byte Montgomery elements");
  const auto start = std::chrono::steady_clock::now();
  const std::string what = "partition " + std::to_string(part);
  auto stage = [&](timeline::stage_t s, int64_t t0) {
    const int64_t t1 = timeline::monotonic_ns();
    if (observe) observe(s, t0, t1);
    return t1;
  };

  // porep_witness: the C1 (checked at submit; read again here, where it was fetched) and the
  // partition's witness.
  int64_t t = timeline::monotonic_ns();
  auto args = parse_filecoin_args(c, inputs);
  if (!args) throw bad_input_error(args.error());
  const fc::c1_read_t read = fc::read_c1_file(args->c1);
  const fc::c1_output_t& c1 = read.c1;
  const fc::porep_config_t pc = filecoin_config(c);
  if (c1.registered_proof->name != pc.proof->name)
    throw bad_input_error(args->c1 + ": the C1 is of " + std::string(c1.registered_proof->name) +
                          ", circuit '" + c.id + "' proves " + std::string(pc.proof->name));
  if (part >= c1.vanilla_proofs.size())
    throw bad_input_error(args->c1 + ": the C1 has no " + what + " (" +
                          std::to_string(c1.vanilla_proofs.size()) + " partitions)");
  const fc::circuit_config_t cc = fc::circuit_config(pc);
  fc::partition_witness_t w;
  try {
    w = fc::witness_from_vanilla({c1.replica_id, c1.comm_d, c1.comm_r, c1.seed},
                                 c1.vanilla_proofs[part]);
    fc::check_witness(cc, w);
  } catch (const std::invalid_argument& e) {
    throw bad_input_error(args->c1 + ": " + what + ": " + e.what());
  }
  t = stage(timeline::stage_t::porep_witness, t);

  // porep_synthesize: prove mode straight into the reserved buffer's payload.
  const fc::circuit_layout_t& layout = fc::circuit_layout(cc);
  const uint64_t n_in = layout.total.inputs;
  if (n_in + layout.total.aux != c.n_vars ||
      uint64_t(layout.total.constraints) + n_in != c.domain_rows)
    throw std::runtime_error("circuit '" + c.id + "': the circuit of " +
                             std::string(pc.proof->name) + " does not have the counts the " +
                             "scheduler described (" + std::to_string(c.n_vars) + " variables, " +
                             std::to_string(c.domain_rows) + " rows)");
  const buffer::synth_params_t p =
      synth_params_for(c, job, part, buffer::synth_shape_t::abc_witness);
  const uint64_t bytes = buffer::payload_bytes_for(p.n_vars, p.domain_rows, p.shape);
  auto reserved = store.reserve(bytes);
  if (!reserved) throw std::runtime_error(reserved.error().message);
  buffer::writable_buffer_t buf = std::move(reserved.value());
  fr_t* base = reinterpret_cast<fr_t*>(buf.data());
  bellperson::assignment_view_t view;
  view.inputs = base;
  view.aux = base + n_in;
  view.a = base + c.n_vars;
  view.b = view.a + c.domain_rows;
  view.c = view.b + c.domain_rows;
  view.capacity = layout.total;
  try {
    fc::synthesize_partition(cc, w, view);
  } catch (const std::invalid_argument& e) {
    throw bad_input_error(args->c1 + ": " + what + ": " + e.what());
  }
  t = stage(timeline::stage_t::porep_synthesize, t);

  // porep_check: a proof of an unsatisfied circuit would not verify; say where it fails instead.
  if (auto bad = fc::first_unsatisfied(cc, view))
    throw bad_input_error(args->c1 + ": " + what + ": constraint " +
                          std::to_string(bad->constraint) + " (" + bad->where +
                          ") is not satisfied: the C1's vanilla proofs do not fit the circuit");
  ff::write_canonical_le(base, size_t(c.n_vars),
                         buf.data());  // the witness as the header says
  stage(timeline::stage_t::porep_check, t);

  auto header = buffer::make_header(p, {{buf.data(), size_t(bytes)}});
  synth_result_t r;
  r.payload_bytes = bytes;
  r.checksum = header.payload_checksum;
  r.buffer_id = store.commit(std::move(buf), header);
  r.seconds = seconds_since(start);
  return r;
}

}  // namespace zk::node
