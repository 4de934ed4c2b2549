#include "node/synth/synthesize.hpp"

#include <chrono>
#include <cstring>
#include <optional>
#include <stdexcept>

#include "node/synth/filecoin_synth.hpp"
#include "node/synth/satisfied.hpp"
#include "node/synth/witness_generator.hpp"
#include "zk/base/clock.hpp"
#include "zk/circuit/porep.hpp"
#include "zk/ec/with_curve.hpp"
#include "zk/ff/canonical.hpp"
#include "zk/formats/wtns.hpp"

namespace zk::node {

// The header parameters of partition `part` of `job` for circuit c, in the given shape.
buffer::synth_params_t synth_params_for(const circuit_def_t& c, uint64_t job, uint32_t part,
                                        buffer::synth_shape_t shape) {
  buffer::synth_params_t p;
  p.curve = c.curve;
  p.circuit_digest = c.digest_bytes();
  p.job_id = job;
  p.partition = part;
  p.n_vars = c.n_vars;
  p.n_public = c.n_public;
  // witness-only: no rows travel, the header's minimum; abc+witness: the key's domain rows
  p.domain_rows = shape == buffer::synth_shape_t::witness_only ? c.n_public + 1 : c.domain_rows;
  p.shape = shape;
  return p;
}

namespace {

// Reserves a buffer for the payload, lets `fill` write it, seals the header and commits.
template <class Fill>
synth_result_t commit_buffer(const buffer::synth_params_t& p, buffer::buffer_store_t& store,
                             Fill&& fill) {
  const uint64_t bytes = buffer::payload_bytes_for(p.n_vars, p.domain_rows, p.shape);
  auto reserved = store.reserve(bytes);
  if (!reserved) throw std::runtime_error(reserved.error().message);
  buffer::writable_buffer_t buf = std::move(reserved.value());
  fill(buf.data());
  auto header = buffer::make_header(p, {{buf.data(), size_t(bytes)}});
  synth_result_t r;
  r.payload_bytes = bytes;
  r.checksum = header.payload_checksum;
  r.buffer_id = store.commit(std::move(buf), header);
  return r;
}

// The witness's values in Montgomery form (what the matrices multiply).
template <class Fr>
std::vector<Fr> montgomery_witness(const formats::wtns_file_t& w, uint64_t n) {
  std::vector<Fr> wm(n);
  for (uint64_t i = 0; i < n; ++i) {
    typename Fr::big_t v;
    std::memcpy(v.l, w.value(uint32_t(i)), 32);
    wm[i] = Fr::from_canonical(v);
  }
  return wm;
}

synth_result_t synth_wtns(const circuit_def_t& c, const std::string& path, uint64_t job,
                          uint32_t part, buffer::buffer_store_t& store, csr_cache_t& cache) {
  formats::wtns_file_t w(path);
  if (w.curve() != c.curve)
    throw std::runtime_error(path + ": the witness is not over circuit '" + c.id + "''s curve");
  if (w.n8() != buffer::fr_bytes || w.n_witness() != c.n_vars)
    throw std::runtime_error(path + ": " + std::to_string(w.n_witness()) +
                             " witness values, circuit '" + c.id + "' has " +
                             std::to_string(c.n_vars) + " wires");
  // With the circuit's r1cs known, a witness-only buffer is checked too: the prover would
  // otherwise spend a proof on it and find only a failed pairing check.
  if (!c.r1cs.empty())
    curves::with_curve(c.curve, [&](auto tag) {
      using Fr = typename decltype(tag)::fr_t;
      const csr_t& m = cache.csr(c);
      const auto wm = montgomery_witness<Fr>(w, c.n_vars);
      if (auto row = first_unsatisfied(m, wm.data()))
        throw bad_input_error(unsatisfied_reason(path, c.id, c.r1cs, *row, m.n_constraints));
    });
  const buffer::synth_params_t p =
      synth_params_for(c, job, part, buffer::synth_shape_t::witness_only);
  return commit_buffer(p, store,
                       [&](uint8_t* out) { std::memcpy(out, w.values(), size_t(c.n_vars) * 32); });
}

// a = A·w, b = B·w, c = C·w over the r1cs rows, then the zkey's nPublic+1 input rows
// (A = w_s, B = C = 0: docs/formats.md §2.4), Montgomery form, straight into the buffer. A row
// where a·b ≠ c throws bad_input_error before the buffer is committed.
template <class C>
synth_result_t synth_wtns_abc(const circuit_def_t& c, const std::string& path, uint64_t job,
                              uint32_t part, buffer::buffer_store_t& store, const csr_t& m) {
  using Fr = typename C::fr_t;
  formats::wtns_file_t w(path);
  if (w.curve() != c.curve || w.n8() != buffer::fr_bytes || w.n_witness() != c.n_vars)
    throw std::runtime_error(path + ": not a witness of circuit '" + c.id + "' (curve or " +
                             std::to_string(w.n_witness()) + " values for " +
                             std::to_string(c.n_vars) + " wires)");
  const std::vector<Fr> wm = montgomery_witness<Fr>(w, c.n_vars);
  if (m.n_constraints + c.n_public + 1 != c.domain_rows)
    throw std::runtime_error(c.r1cs + ": " + std::to_string(m.n_constraints) +
                             " constraints do not match the key");
  const buffer::synth_params_t p =
      synth_params_for(c, job, part, buffer::synth_shape_t::abc_witness);
  return commit_buffer(p, store, [&](uint8_t* out) {
    std::memcpy(out, w.values(), size_t(c.n_vars) * 32);
    Fr* rows = reinterpret_cast<Fr*>(out + size_t(c.n_vars) * 32);
    const csr_t::matrix_t* mats[3] = {&m.a, &m.b, &m.c};
    for (int k = 0; k < 3; ++k) {
      Fr* dst = rows + size_t(k) * c.domain_rows;
      for (uint64_t i = 0; i < m.n_constraints; ++i) dst[i] = row_times(*mats[k], i, wm.data());
      for (uint64_t s = 0; s <= c.n_public; ++s) dst[m.n_constraints + s] = k == 0 ? wm[s] : Fr{};
    }
    if (auto row = first_unsatisfied(rows, rows + c.domain_rows, rows + 2 * c.domain_rows,
                                     m.n_constraints))
      throw bad_input_error(unsatisfied_reason(path, c.id, c.r1cs, *row, m.n_constraints));
  });
}

template <class C>
synth_result_t synth_porep(const circuit_def_t& c, const porep_lite_spec_t& s, uint32_t partitions,
                           uint64_t job, uint32_t part, buffer::buffer_store_t& store) {
  using Fr = typename C::fr_t;
  const circuit::porep_params_t params = porep_lite_params(c, s, partitions);
  circuit::porep_data_t<Fr> data(params);
  static_assert(sizeof(Fr) == buffer::fr_bytes, "a/b/c travel as 32-byte Montgomery elements");
  const buffer::synth_params_t p =
      synth_params_for(c, job, part, buffer::synth_shape_t::abc_witness);
  // Prove mode straight into the buffer's payload (witness | a | b | c): no second copy of the
  // partition exists, so the node's memory is the buffer its budget accounts for.
  return commit_buffer(p, store, [&](uint8_t* out) {
    Fr* w = reinterpret_cast<Fr*>(out);
    Fr* a = w + c.n_vars;
    Fr* b = a + c.domain_rows;
    Fr* cc = b + c.domain_rows;
    circuit::prove_cs_t<Fr> cs(w, c.n_vars, a, b, cc, c.domain_rows);
    try {
      circuit::porep_lite(cs, data, part);
      cs.finish();
    } catch (const std::length_error& e) {  // a key made for another shape of the circuit
      throw std::runtime_error("circuit '" + c.id + "': synthesis outgrew the key's " +
                               std::to_string(c.n_vars) + " wires / " +
                               std::to_string(c.domain_rows) + " rows: " + e.what());
    }
    if (cs.n_wires() != c.n_vars || cs.n_public() != c.n_public || cs.a().size() != c.domain_rows)
      throw std::runtime_error("circuit '" + c.id + "': synthesis made " +
                               std::to_string(cs.n_wires()) + " wires, " +
                               std::to_string(cs.a().size()) + " rows; the key expects " +
                               std::to_string(c.n_vars) + " and " + std::to_string(c.domain_rows));
    ff::write_canonical_le(w, c.n_vars, out);  // the witness as in a .wtns, in place
  });
}

// A circom partition: its .wtns, or the witness its input.json generates.
synth_result_t synth_circom(const circuit_def_t& c, const circom_input_t& in,
                            const std::string& file, const std::string& name, uint64_t job,
                            uint32_t part, buffer::buffer_store_t& store, csr_cache_t& cache,
                            const std::function<bool()>& stop) {
  std::string wtns = file;
  std::optional<scratch_dir_t> scratch;  // the generated .wtns, removed on the way out
  if (in.form == circom_input_t::form_t::input_json) {
    scratch.emplace();
    wtns = (scratch->path / "witness.wtns").string();
    generate_witness(c, file, wtns, stop);
  }
  const resolved_file_t named{wtns, scratch ? wtns : name};
  try {
    if (c.shape == buffer::synth_shape_t::witness_only)
      return synth_wtns(c, wtns, job, part, store, cache);
    return curves::with_curve(c.curve, [&](auto tag) {
      return synth_wtns_abc<decltype(tag)>(c, wtns, job, part, store, cache.csr(c));
    });
  } catch (const bad_input_error& e) {
    if (!scratch) throw bad_input_error(named.named(e.what()));
    throw bad_input_error("circuit '" + c.id + "': the witness that " + c.witness_generator[0] +
                          " generated from " + name + ": " + e.what());
  } catch (const std::exception& e) {
    if (!scratch) throw std::runtime_error(named.named(e.what()));
    throw std::runtime_error("circuit '" + c.id + "': the witness that " + c.witness_generator[0] +
                             " generated from " + name + ": " + e.what());
  }
}

template <class... F>
struct overloaded_t : F... {
  using F::operator()...;
};
template <class... F>
overloaded_t(F...) -> overloaded_t<F...>;

}  // namespace

synth_result_t synthesize(const circuit_def_t& c, const partition_spec_t& input,
                          const std::string& file, const std::string& name, uint32_t partitions,
                          uint64_t job, uint32_t part, buffer::buffer_store_t& store,
                          csr_cache_t& cache, const std::function<bool()>& stop,
                          const synth_stage_observer_t& observe) {
  if (kind_of(input) != c.kind)
    throw std::runtime_error(std::string("a ") + config::circuit_kind_name(kind_of(input)) +
                             " partition for circuit '" + c.id + "', which is " +
                             config::circuit_kind_name(c.kind));
  auto t0 = std::chrono::steady_clock::now();
  synth_result_t r = std::visit(
      overloaded_t{[&](const circom_input_t& in) {
                     return synth_circom(c, in, file, name, job, part, store, cache, stop);
                   },
                   [&](const porep_lite_spec_t& s) {
                     return curves::with_curve(c.curve, [&](auto tag) {
                       return synth_porep<decltype(tag)>(c, s, partitions, job, part, store);
                     });
                   },
                   [&](const filecoin_porep_partition_t&) {
                     return synthesize_filecoin(c, file, name, job, part, store, observe, stop);
                   },
                   [&](const filecoin_snap_partition_t&) {
                     return synthesize_snap(c, file, name, job, part, store, observe, stop);
                   }},
      input.v);
  r.seconds = seconds_since(t0);
  return r;
}

}  // namespace zk::node
