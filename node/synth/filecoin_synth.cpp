#include "node/synth/filecoin_synth.hpp"

#include <chrono>
#include <cstring>

#include "node/filecoin_job.hpp"
#include "node/filecoin_snap_job.hpp"
#include "zk/base/clock.hpp"
#include "zk/base/error.hpp"
#include "zk/ff/canonical.hpp"
#include "zk/filecoin/api/partition_input.hpp"
#include "zk/filecoin/api/update_input.hpp"
#include "zk/filecoin/porep/circuit/circuit.hpp"
#include "zk/filecoin/update/circuit.hpp"
#include "zk/formats/packed_witness.hpp"

namespace zk::node {

namespace fc = zk::filecoin;

namespace {

using fr_t = fc::fr_t;

int64_t stage_end(const synth_stage_observer_t& observe, timeline::stage_t s, int64_t t0) {
  const int64_t t1 = timeline::monotonic_ns();
  if (observe) observe(s, t0, t1);
  return t1;
}

// porep_witness: the partition's input (made and checked at intake from the C1, fetched here by
// its digest): its witness and the public inputs the verifier derives; the circuit's counts
// checked against c's.
struct porep_input_t {
  fc::porep_config_t pc;
  fc::circuit_config_t cc;
  fc::partition_input_t in;
  std::vector<fr_t> public_inputs;
};
porep_input_t read_porep_input(const circuit_def_t& c, const porep_input_ref_t& input,
                               uint32_t part, const std::string& what) {
  const std::string& name = input.name;
  porep_input_t r;
  r.pc = filecoin_config(c);
  r.cc = fc::circuit_config(r.pc);
  try {
    if (input.bytes) {
      r.in = fc::read_partition_input(r.pc, input.bytes->data(), input.bytes->size(), name);
    } else {
      r.in = fc::read_partition_input_file(r.pc, input.file);
    }
  } catch (const zk::format_error& e) {
    std::string why = e.what();
    if (!input.bytes && why.compare(0, input.file.size(), input.file) == 0)
      why.replace(0, input.file.size(), name);
    throw bad_input_error(why);
  }
  if (r.in.partition != part)
    throw bad_input_error(name + ": the input of partition " + std::to_string(r.in.partition) +
                          ", dispatched for partition " + std::to_string(part));
  try {
    fc::check_witness(r.cc, r.in.witness);
  } catch (const std::invalid_argument& e) {
    throw bad_input_error(what + ": " + e.what());
  }
  r.public_inputs = fc::public_inputs_of(r.in);
  const fc::circuit_layout_t& layout = fc::circuit_layout(r.cc);
  if (uint64_t(layout.total.inputs) + layout.total.aux != c.n_vars ||
      uint64_t(layout.total.constraints) + layout.total.inputs != c.domain_rows)
    throw std::runtime_error("circuit '" + c.id + "': the circuit of " +
                             std::string(r.pc.proof->name) + " does not have the counts the " +
                             "scheduler described (" + std::to_string(c.n_vars) + " variables, " +
                             std::to_string(c.domain_rows) + " rows)");
  if (r.public_inputs.size() + 1 != layout.total.inputs)
    throw bad_input_error(what + ": the circuit has " + std::to_string(layout.total.inputs) +
                          " inputs, the partition's input derives " +
                          std::to_string(r.public_inputs.size() + 1));
  return r;
}

// The circuit's input assignment must be the public inputs derived for the sector (the paths'
// indices are the challenged nodes and parents).
void check_public_inputs(const porep_input_t& r, const fr_t* inputs, const std::string& what) {
  for (size_t i = 0; i < r.public_inputs.size(); ++i)
    if (!(inputs[i + 1] == r.public_inputs[i]))
      throw bad_input_error(what + ": public input " + std::to_string(i) +
                            " of the synthesized circuit is not the one derived for the sector");
}

// An abc+witness payload of circuit c as prove mode writes it: the witness (inputs then aux), then
// a, b and c of domain_rows rows each.
bellperson::assignment_view_t payload_view(const circuit_def_t& c,
                                           const bellperson::counts_t& total, fr_t* base) {
  bellperson::assignment_view_t view;
  view.inputs = base;
  view.aux = base + total.inputs;
  view.a = base + c.n_vars;
  view.b = view.a + c.domain_rows;
  view.c = view.b + c.domain_rows;
  view.capacity = total;
  return view;
}

// porep_witness as a stage: the input read (read_porep_input), the stage observed, `stop`
// polled; `t` is where the next stage starts.
porep_input_t witness_stage(const circuit_def_t& c, const porep_input_ref_t& input, uint32_t part,
                            const std::string& what, const synth_stage_observer_t& observe,
                            const stop_t& stop, int64_t& t) {
  t = timeline::monotonic_ns();
  porep_input_t r = read_porep_input(c, input, part, what);
  t = stage_end(observe, timeline::stage_t::porep_witness, t);
  throw_if_stopped(stop, what);
  return r;
}

}  // namespace

porep_payload_t synthesize_porep_payload(const circuit_def_t& c, const porep_input_ref_t& input,
                                         uint64_t job, uint32_t part, uint8_t* payload, bool check,
                                         const synth_stage_observer_t& observe,
                                         const stop_t& stop) {
  static_assert(sizeof(fr_t) == buffer::fr_bytes, "a/b/c travel as 32-byte Montgomery elements");
  const std::string what = input.name + ": partition " + std::to_string(part);
  int64_t t = 0;
  const porep_input_t r = witness_stage(c, input, part, what, observe, stop, t);

  // porep_synthesize: prove mode straight into the payload.
  const fc::circuit_layout_t& layout = fc::circuit_layout(r.cc);
  const buffer::synth_params_t p =
      synth_params_for(c, job, part, buffer::synth_shape_t::abc_witness);
  const uint64_t bytes = buffer::payload_bytes_for(p.n_vars, p.domain_rows, p.shape);
  fr_t* base = reinterpret_cast<fr_t*>(payload);
  const bellperson::assignment_view_t view = payload_view(c, layout.total, base);
  try {
    fc::synthesize_partition(r.cc, r.in.witness, view, true, stop);
  } catch (const std::invalid_argument& e) {
    throw bad_input_error(what + ": " + e.what());
  } catch (const cancelled_error&) {
    throw cancelled_error(what + ": stopped (cancelled)");
  }
  t = stage_end(observe, timeline::stage_t::porep_synthesize, t);
  throw_if_stopped(stop, what);

  // porep_check: a proof of an unsatisfied circuit would not verify; say where it fails instead.
  porep_payload_t out;
  if (check) {
    out.unsatisfied = fc::first_unsatisfied(r.cc, view);
    if (out.unsatisfied) return out;
  }
  check_public_inputs(r, view.inputs, what);
  ff::write_canonical_le(base, size_t(c.n_vars), payload);  // the witness as the header says
  out.header = buffer::make_header(p, {{payload, size_t(bytes)}});
  stage_end(observe, timeline::stage_t::porep_check, t);
  return out;
}

porep_packed_t synthesize_porep_packed(const circuit_def_t& c, const porep_input_ref_t& input,
                                       uint64_t job, uint32_t part,
                                       const synth_stage_observer_t& observe, const stop_t& stop) {
  const std::string what = input.name + ": partition " + std::to_string(part);
  int64_t t = 0;
  const porep_input_t r = witness_stage(c, input, part, what, observe, stop, t);

  // porep_synthesize: the witness a challenge at a time into the packer, every constraint checked
  // as it is made (porep_check is part of this stage here: a, b, c are never held).
  const fc::circuit_layout_t& layout = fc::circuit_layout(r.cc);
  std::vector<fr_t> inputs(layout.total.inputs);
  formats::witness_packer_t packer(c.n_vars);
  porep_packed_t out;
  try {
    out.unsatisfied = fc::synthesize_partition_streamed(
        r.cc, r.in.witness, inputs.data(), true,
        [&](uint32_t first, const fr_t* v, uint32_t n) {
          packer.put(uint64_t(layout.total.inputs) + first, v, n);
        },
        stop);
  } catch (const std::invalid_argument& e) {
    throw bad_input_error(what + ": " + e.what());
  } catch (const cancelled_error&) {
    throw cancelled_error(what + ": stopped (cancelled)");
  }
  if (out.unsatisfied) return out;
  check_public_inputs(r, inputs.data(), what);
  packer.put(0, inputs.data(), inputs.size());
  out.payload = packer.finish();
  const buffer::synth_params_t p =
      synth_params_for(c, job, part, buffer::synth_shape_t::packed_witness);
  out.header = buffer::make_header(p, {{out.payload.data(), out.payload.size()}});
  stage_end(observe, timeline::stage_t::porep_synthesize, t);
  return out;
}

synth_result_t synthesize_filecoin(const circuit_def_t& c, const std::string& file,
                                   const std::string& name, uint64_t job, uint32_t part,
                                   buffer::buffer_store_t& store,
                                   const synth_stage_observer_t& observe, const stop_t& stop) {
  const auto start = std::chrono::steady_clock::now();
  porep_input_ref_t input;
  input.name = name;
  input.file = file;
  auto refuse_unsatisfied = [&](const fc::unsatisfied_t& u) {
    return bad_input_error(name + ": partition " + std::to_string(part) + ": constraint " +
                           std::to_string(u.constraint) + " (" + u.where +
                           ") is not satisfied: the C1's vanilla proofs do not fit the circuit");
  };
  synth_result_t r;
  if (c.shape == buffer::synth_shape_t::packed_witness) {
    // The packed wire: the witness alone, packed (~87 MB at 32 GiB, not 16.7 GB); the prover
    // rebuilds a, b, c. The buffer is reserved at its exact size once the witness is packed.
    porep_packed_t made = synthesize_porep_packed(c, input, job, part, observe, stop);
    if (made.unsatisfied) throw refuse_unsatisfied(*made.unsatisfied);
    auto reserved = store.reserve(made.payload.size());
    if (!reserved) throw std::runtime_error(reserved.error().message);
    buffer::writable_buffer_t buf = std::move(reserved.value());
    std::memcpy(buf.data(), made.payload.data(), made.payload.size());
    r.payload_bytes = made.payload.size();
    r.checksum = made.header.payload_checksum;
    r.buffer_id = store.commit(std::move(buf), made.header);
  } else {
    const uint64_t bytes =
        buffer::payload_bytes_for(c.n_vars, c.domain_rows, buffer::synth_shape_t::abc_witness);
    auto reserved = store.reserve(bytes);
    if (!reserved) throw std::runtime_error(reserved.error().message);
    buffer::writable_buffer_t buf = std::move(reserved.value());
    const porep_payload_t made =
        synthesize_porep_payload(c, input, job, part, buf.data(), /*check=*/true, observe, stop);
    if (made.unsatisfied) throw refuse_unsatisfied(*made.unsatisfied);
    r.payload_bytes = bytes;
    r.checksum = made.header.payload_checksum;
    r.buffer_id = store.commit(std::move(buf), made.header);
  }
  r.seconds = seconds_since(start);
  return r;
}

synth_result_t synthesize_snap(const circuit_def_t& c, const std::string& file,
                               const std::string& name, uint64_t job, uint32_t part,
                               buffer::buffer_store_t& store, const synth_stage_observer_t& observe,
                               const stop_t& stop) {
  const auto start = std::chrono::steady_clock::now();
  const std::string what = name + ": partition " + std::to_string(part);
  int64_t t = timeline::monotonic_ns();

  // snap_witness: the input (made at intake from the checked vanilla proofs) and its witness.
  const fc::update_config_t uc = snap_config(c);
  fc::update_input_t in;
  try {
    in = fc::read_update_input_file(uc, file);
  } catch (const zk::format_error& e) {
    std::string why = e.what();
    if (why.compare(0, file.size(), file) == 0) why.replace(0, file.size(), name);
    throw bad_input_error(why);
  }
  if (in.partition != part)
    throw bad_input_error(name + ": the input of partition " + std::to_string(in.partition) +
                          ", dispatched for partition " + std::to_string(part));
  fc::update_partition_witness_t w;
  try {
    w = fc::update_witness_from_vanilla(uc, part, in.comms, in.proof);
  } catch (const std::invalid_argument& e) {
    throw bad_input_error(what + ": " + e.what());
  }
  auto pub = fc::update_public_inputs(uc, part, in.comms);
  if (!pub) throw bad_input_error(what + ": " + pub.error());
  const fc::circuit_layout_t& layout = fc::update_circuit_layout(uc);
  if (uint64_t(layout.total.inputs) + layout.total.aux != c.n_vars ||
      uint64_t(layout.total.constraints) + layout.total.inputs != c.domain_rows)
    throw std::runtime_error("circuit '" + c.id + "': the update circuit of " +
                             std::string(uc.proof->name) + " does not have the counts the " +
                             "scheduler described (" + std::to_string(c.n_vars) + " variables, " +
                             std::to_string(c.domain_rows) + " rows)");
  t = stage_end(observe, timeline::stage_t::snap_witness, t);
  throw_if_stopped(stop, what);

  // snap_synthesize: prove mode straight into the reserved buffer.
  const buffer::synth_params_t p =
      synth_params_for(c, job, part, buffer::synth_shape_t::abc_witness);
  const uint64_t bytes = buffer::payload_bytes_for(p.n_vars, p.domain_rows, p.shape);
  auto reserved = store.reserve(bytes);
  if (!reserved) throw std::runtime_error(reserved.error().message);
  buffer::writable_buffer_t buf = std::move(reserved.value());
  uint8_t* payload = buf.data();
  fr_t* base = reinterpret_cast<fr_t*>(payload);
  const bellperson::assignment_view_t view = payload_view(c, layout.total, base);
  try {
    fc::synthesize_update_partition(uc, w, view, true, stop);
  } catch (const std::invalid_argument& e) {
    throw bad_input_error(what + ": " + e.what());
  } catch (const cancelled_error&) {
    throw cancelled_error(what + ": stopped (cancelled)");
  }
  t = stage_end(observe, timeline::stage_t::snap_synthesize, t);
  throw_if_stopped(stop, what);

  // snap_check: a proof of an unsatisfied circuit would not verify; say where it fails instead.
  if (const auto u = fc::first_unsatisfied_update(uc, view))
    throw bad_input_error(what + ": constraint " + std::to_string(u->constraint) + " (" + u->where +
                          ") is not satisfied: the vanilla proof does not fit the circuit");
  for (size_t i = 0; i < pub->size(); ++i)
    if (!(view.inputs[i + 1] == (*pub)[i]))
      throw bad_input_error(what + ": public input " + std::to_string(i) +
                            " of the synthesized circuit is not the one the commitments derive");
  ff::write_canonical_le(base, size_t(c.n_vars), payload);  // the witness as the header says
  const buffer::synth_header_t header = buffer::make_header(p, {{payload, size_t(bytes)}});
  stage_end(observe, timeline::stage_t::snap_check, t);

  synth_result_t r;
  r.payload_bytes = bytes;
  r.checksum = header.payload_checksum;
  r.buffer_id = store.commit(std::move(buf), header);
  r.seconds = seconds_since(start);
  return r;
}

}  // namespace zk::node
