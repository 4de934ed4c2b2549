#include "node/synth/filecoin_synth.hpp"

#include <chrono>

#include "node/filecoin_job.hpp"
#include "zk/base/clock.hpp"
#include "zk/base/error.hpp"
#include "zk/ff/canonical.hpp"
#include "zk/filecoin/api/partition_input.hpp"
#include "zk/filecoin/porep/circuit/circuit.hpp"

namespace zk::node {

namespace fc = zk::filecoin;

porep_payload_t synthesize_porep_payload(const circuit_def_t& c, const porep_input_ref_t& input,
                                         uint64_t job, uint32_t part, uint8_t* payload, bool check,
                                         const synth_stage_observer_t& observe,
                                         const stop_t& stop) {
  using fr_t = fc::fr_t;
  static_assert(sizeof(fr_t) == buffer::fr_bytes, "a/b/c travel as 32-byte Montgomery elements");
  const std::string& name = input.name;
  const std::string what = name + ": partition " + std::to_string(part);
  auto stage = [&](timeline::stage_t s, int64_t t0) {
    const int64_t t1 = timeline::monotonic_ns();
    if (observe) observe(s, t0, t1);
    return t1;
  };

  // porep_witness: the partition's input (made and checked at intake from the C1, fetched here
  // by its digest): its witness and the public inputs the verifier derives.
  int64_t t = timeline::monotonic_ns();
  const fc::porep_config_t pc = filecoin_config(c);
  const fc::circuit_config_t cc = fc::circuit_config(pc);
  fc::partition_input_t in;
  try {
    if (input.bytes) {
      in = fc::read_partition_input(pc, input.bytes->data(), input.bytes->size(), name);
    } else {
      in = fc::read_partition_input_file(pc, input.file);
    }
  } catch (const zk::format_error& e) {
    std::string why = e.what();
    if (!input.bytes && why.compare(0, input.file.size(), input.file) == 0)
      why.replace(0, input.file.size(), name);
    throw bad_input_error(why);
  }
  if (in.partition != part)
    throw bad_input_error(name + ": the input of partition " + std::to_string(in.partition) +
                          ", dispatched for partition " + std::to_string(part));
  try {
    fc::check_witness(cc, in.witness);
  } catch (const std::invalid_argument& e) {
    throw bad_input_error(what + ": " + e.what());
  }
  const std::vector<fr_t> public_inputs = fc::public_inputs_of(in);
  t = stage(timeline::stage_t::porep_witness, t);
  throw_if_stopped(stop, what);

  // porep_synthesize: prove mode straight into the payload.
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
  fr_t* base = reinterpret_cast<fr_t*>(payload);
  bellperson::assignment_view_t view;
  view.inputs = base;
  view.aux = base + n_in;
  view.a = base + c.n_vars;
  view.b = view.a + c.domain_rows;
  view.c = view.b + c.domain_rows;
  view.capacity = layout.total;
  try {
    fc::synthesize_partition(cc, in.witness, view, true, stop);
  } catch (const std::invalid_argument& e) {
    throw bad_input_error(what + ": " + e.what());
  } catch (const cancelled_error&) {
    throw cancelled_error(what + ": stopped (cancelled)");
  }
  t = stage(timeline::stage_t::porep_synthesize, t);
  throw_if_stopped(stop, what);

  // porep_check: a proof of an unsatisfied circuit would not verify; say where it fails instead.
  // The circuit's public inputs must be those derived for the sector (the paths' indices are the
  // challenged nodes and parents).
  porep_payload_t r;
  if (check) {
    r.unsatisfied = fc::first_unsatisfied(cc, view);
    if (r.unsatisfied) return r;
  }
  if (public_inputs.size() + 1 != n_in)
    throw bad_input_error(what + ": the circuit has " + std::to_string(n_in) +
                          " inputs, the partition's input derives " +
                          std::to_string(public_inputs.size() + 1));
  for (size_t i = 0; i < public_inputs.size(); ++i)
    if (!(view.inputs[i + 1] == public_inputs[i]))
      throw bad_input_error(what + ": public input " + std::to_string(i) +
                            " of the synthesized circuit is not the one derived for the sector");
  ff::write_canonical_le(base, size_t(c.n_vars), payload);  // the witness as the header says
  r.header = buffer::make_header(p, {{payload, size_t(bytes)}});
  stage(timeline::stage_t::porep_check, t);
  return r;
}

synth_result_t synthesize_filecoin(const circuit_def_t& c, const std::string& file,
                                   const std::string& name, uint64_t job, uint32_t part,
                                   buffer::buffer_store_t& store,
                                   const synth_stage_observer_t& observe, const stop_t& stop) {
  const auto start = std::chrono::steady_clock::now();
  const uint64_t bytes =
      buffer::payload_bytes_for(c.n_vars, c.domain_rows, buffer::synth_shape_t::abc_witness);
  auto reserved = store.reserve(bytes);
  if (!reserved) throw std::runtime_error(reserved.error().message);
  buffer::writable_buffer_t buf = std::move(reserved.value());
  porep_input_ref_t input;
  input.name = name;
  input.file = file;
  const porep_payload_t made =
      synthesize_porep_payload(c, input, job, part, buf.data(), /*check=*/true, observe, stop);
  if (made.unsatisfied)
    throw bad_input_error(name + ": partition " + std::to_string(part) + ": constraint " +
                          std::to_string(made.unsatisfied->constraint) + " (" +
                          made.unsatisfied->where +
                          ") is not satisfied: the C1's vanilla proofs do not fit the circuit");
  synth_result_t r;
  r.payload_bytes = bytes;
  r.checksum = made.header.payload_checksum;
  r.buffer_id = store.commit(std::move(buf), made.header);
  r.seconds = seconds_since(start);
  return r;
}

}  // namespace zk::node
