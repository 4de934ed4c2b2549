#include "node/circuit.hpp"

#include <stdexcept>

#include "common/buffer/buffer_store.hpp"
#include "common/security/digest.hpp"
#include "zk/circuit/api.hpp"
#include "zk/circuit/porep.hpp"
#include "zk/formats/r1cs.hpp"
#include "zk/formats/zkey.hpp"

namespace zk::node {
namespace {

// Fills the counts every circuit shares from its key's header.
void describe_from_key(circuit_def_t& c, const formats::zkey_file_t& zkey) {
  const auto& h = zkey.header();
  c.curve = h.curve;
  c.n_vars = h.n_vars;
  c.n_public = h.n_public;
  c.domain_size = h.domain_size;
  // The prover's a, b, c work arrays (prover_t keeps them across proofs, one domain each).
  c.prover_work_bytes = 3 * uint64_t(h.domain_size) * buffer::fr_bytes;
}

}  // namespace

buffer::digest_t circuit_def_t::digest_bytes() const {
  buffer::digest_t d{};
  if (digest.size() != 64)
    throw std::runtime_error("circuit digest '" + digest + "' is not 64 hex digits");
  for (size_t i = 0; i < 32; ++i) d[i] = uint8_t(std::stoul(digest.substr(2 * i, 2), nullptr, 16));
  return d;
}

circuit_def_t describe_zkey_circuit(const std::string& id, const std::string& zkey_path,
                                    const std::string& r1cs_path,
                                    std::optional<buffer::synth_shape_t> shape) {
  formats::zkey_file_t zkey(zkey_path, formats::zkey_open_t::verifier);
  circuit_def_t c;
  c.id = id;
  c.kind = circuit_kind_t::circom;
  c.zkey = zkey_path;
  c.r1cs = r1cs_path;
  c.shape = shape.value_or(r1cs_path.empty() ? buffer::synth_shape_t::witness_only
                                             : buffer::synth_shape_t::abc_witness);
  if (c.shape == buffer::synth_shape_t::abc_witness && r1cs_path.empty())
    throw std::runtime_error("circuit " + id + ": shape abc_witness needs an r1cs");
  // Read through a buffer, not the mapping: hashing a key of gigabytes in place would map all of
  // it into this process (a scheduler's peak RSS would be the key's size); OpenSSL's SHA-256 also
  // uses the CPU's SHA instructions.
  auto digest = security::sha256_file_hex(zkey_path);
  if (!digest) throw std::runtime_error(digest.error().why);
  c.digest = digest.value();
  describe_from_key(c, zkey);
  c.domain_rows = c.n_public + 1;
  if (!r1cs_path.empty()) {
    formats::r1cs_file_t r1cs(r1cs_path, formats::r1cs_open_t::header);  // counts only
    const auto& h = r1cs.header();
    if (r1cs.curve() != c.curve || h.n_wires != c.n_vars ||
        uint64_t(h.n_pub_out) + h.n_pub_in != c.n_public)
      throw std::runtime_error(r1cs_path + ": does not match " + zkey_path +
                               " (curve, wires or public inputs)");
    c.domain_rows = uint64_t(h.n_constraints) + c.n_public + 1;
    if (c.domain_rows > c.domain_size)
      throw std::runtime_error(r1cs_path + ": " + std::to_string(h.n_constraints) +
                               " constraints exceed the key's domain");
  }
  c.buffer_bytes = buffer::size_class(buffer::payload_bytes_for(c.n_vars, c.domain_rows, c.shape));
  return c;
}

circuit_def_t describe_porep_lite_circuit(const std::string& id, const std::string& params,
                                          const std::string& key_dir) {
  auto parsed = circuit::porep_params_t::parse(params);  // throws naming a bad key
  auto setup = circuit::setup_circuit(config::circuit_kind_name(circuit_kind_t::porep_lite), params,
                                      key_dir);
  circuit_def_t c;
  c.id = id;
  c.kind = circuit_kind_t::porep_lite;
  c.zkey = key_dir + "/circuit.zkey";
  c.native_params = parsed.shape_params();  // partitions and seed belong to jobs
  c.shape = buffer::synth_shape_t::abc_witness;
  c.digest = setup.digest;
  formats::zkey_file_t zkey(c.zkey, formats::zkey_open_t::verifier);
  describe_from_key(c, zkey);
  c.domain_rows = uint64_t(setup.n_constraints) + setup.n_public + 1;
  c.buffer_bytes = buffer::size_class(buffer::payload_bytes_for(c.n_vars, c.domain_rows, c.shape));
  return c;
}

circuit_spec_t to_spec(const circuit_def_t& c) {
  // Filecoin's parameters are resident on the provers that hold them: only those prove it.
  circuit_spec_t s{c.id, c.buffer_bytes, c.prover_work_bytes, config::uses_filecoin_params(c.kind)};
  if (c.wire_auto) {
    s.wire_auto = true;
    s.packed = c.packed_size;
    s.full = c.full_size;
    s.buffer_bytes = c.packed_size.buffer_bytes;  // what fits anywhere: the smaller wire
    s.prover_work_bytes = c.packed_size.prover_work_bytes;
    s.rebuild_prior_s = rebuild_prior_seconds(c.domain_rows);
    if (c.link_prior_per_s) s.link_prior_per_s = double(c.link_prior_per_s);
  }
  return s;
}

circuit_def_t on_wire(circuit_def_t c, config::wire_t w) {
  if (!c.wire_auto || w == config::wire_t::automatic) return c;
  const bool full = w == config::wire_t::full;
  const wire_size_t& z = full ? c.full_size : c.packed_size;
  c.shape = full ? buffer::synth_shape_t::abc_witness : buffer::synth_shape_t::packed_witness;
  c.buffer_bytes = z.buffer_bytes;
  c.prover_work_bytes = z.prover_work_bytes;
  return c;
}

bool takes_shape(const circuit_def_t& c, buffer::synth_shape_t shape) {
  if (c.wire_auto)
    return shape == buffer::synth_shape_t::packed_witness ||
           shape == buffer::synth_shape_t::abc_witness;
  return shape == c.shape;
}

}  // namespace zk::node
