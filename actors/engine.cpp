#include "actors/engine.hpp"

#include <stdlib.h>
#include <sys/stat.h>

#include <array>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <stdexcept>

#include "common/buffer/checksum.hpp"
#include "common/circuit/api.hpp"
#include "common/circuit/porep.hpp"
#include "common/circuit/sha256.hpp"
#include "common/formats/json.hpp"
#include "common/formats/r1cs.hpp"
#include "common/formats/wtns.hpp"
#include "common/formats/zkey.hpp"
#include "common/groth16/verifier.hpp"
#include "common/util/fingerprint.hpp"
#include "common/util/subprocess.hpp"

namespace zk::actors {
namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// Fills the counts every circuit shares from its key's header.
void describe_from_key(circuit_def_t& c, const formats::zkey_file& zkey) {
  const auto& h = zkey.header();
  c.curve = buffer::curve_code(h.curve);
  c.n_vars = h.n_vars;
  c.n_public = h.n_public;
  c.domain_size = h.domain_size;
  // The prover's a, b, c work arrays (prover_t keeps them across proofs, one domain each).
  c.prover_work_bytes = 3 * uint64_t(h.domain_size) * buffer::fr_bytes;
}

buffer::digest_t digest_from_hex(const std::string& hex) {
  buffer::digest_t d{};
  if (hex.size() != 64) throw std::runtime_error("circuit digest '" + hex + "' is not 64 hex digits");
  for (size_t i = 0; i < 32; ++i) d[i] = uint8_t(std::stoul(hex.substr(2 * i, 2), nullptr, 16));
  return d;
}

// The header parameters of partition `part` of `job` for circuit c, in the given shape.
buffer::synth_params_t params_for(const circuit_def_t& c, formats::curve_id curve, uint64_t job, uint32_t part,
                                  buffer::synth_shape shape) {
  buffer::synth_params_t p;
  p.curve = curve;
  p.circuit_digest = digest_from_hex(c.digest);
  p.job_id = job;
  p.partition = part;
  p.n_vars = c.n_vars;
  p.n_public = c.n_public;
  // witness-only: no rows travel, the header's minimum; abc+witness: the key's domain rows
  p.domain_rows = shape == buffer::synth_shape::witness_only ? c.n_public + 1 : c.domain_rows;
  p.shape = shape;
  return p;
}

// Reserves a buffer for the payload, lets `fill` write it, seals the header and commits.
template <class Fill>
synth_result_t commit_buffer(const buffer::synth_params_t& p, buffer::buffer_store_t& store, Fill&& fill) {
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

// --- witness generation (an input.json through the circuit's configured command) ------------

bool is_input_json(const std::string& path) {
  return path.size() >= 5 && path.compare(path.size() - 5, 5, ".json") == 0;
}

std::string no_generator(const circuit_def_t& c) {
  return "circuit '" + c.id + "' has no witness_generator in its config: give a .wtns";
}

// A fresh directory under the temp dir for one generated witness, removed with its contents.
struct scratch_dir_t {
  std::filesystem::path path;
  scratch_dir_t() {
    std::string t = (std::filesystem::temp_directory_path() / "zkfleet-wtns-XXXXXX").string();
    if (::mkdtemp(t.data()) == nullptr)
      throw std::runtime_error("cannot make a temporary directory for a witness (" + t + "): " + std::strerror(errno));
    path = t;
  }
  ~scratch_dir_t() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
  scratch_dir_t(const scratch_dir_t&) = delete;
  scratch_dir_t& operator=(const scratch_dir_t&) = delete;
};

// The generator's argv with every "{input}" and "{output}" replaced, in one pass (a path that
// itself contains "{output}" is not substituted again).
std::vector<std::string> generator_argv(const std::vector<std::string>& tmpl, const std::string& input,
                                        const std::string& output) {
  static const std::string in_tag = "{input}", out_tag = "{output}";
  std::vector<std::string> argv;
  argv.reserve(tmpl.size());
  for (const auto& arg : tmpl) {
    std::string a;
    for (size_t i = 0; i < arg.size();) {
      if (arg.compare(i, in_tag.size(), in_tag) == 0) {
        a += input;
        i += in_tag.size();
      } else if (arg.compare(i, out_tag.size(), out_tag) == 0) {
        a += output;
        i += out_tag.size();
      } else {
        a += arg[i++];
      }
    }
    argv.push_back(std::move(a));
  }
  return argv;
}

// "; its output:\n<the tail>" (terminal colour codes and trailing blanks dropped), or
// " (no output)".
std::string output_tail(const util::subprocess_result_t& r) {
  std::string t;
  for (size_t i = 0; i < r.output.size(); ++i) {
    if (r.output[i] == '\x1b' && i + 1 < r.output.size() && r.output[i + 1] == '[') {  // ESC [ params final
      size_t j = i + 2;
      while (j < r.output.size() && !(r.output[j] >= 0x40 && r.output[j] <= 0x7e)) ++j;
      i = j;
      continue;
    }
    t += r.output[i];
  }
  while (!t.empty() && (t.back() == '\n' || t.back() == '\r' || t.back() == ' ' || t.back() == '\t')) t.pop_back();
  if (t.empty()) return " (no output)";
  return std::string(r.output_truncated ? "; its output ends:\n..." : "; its output:\n") + t;
}

// Runs the circuit's witness generator on `input` (an input.json), writing `output` (a .wtns).
// `stop` (polled while it runs) kills it: the job was cancelled.
void generate_witness(const circuit_def_t& c, const std::string& input, const std::string& output,
                      const std::function<bool()>& stop) {
  if (c.witness_generator.empty()) throw std::runtime_error(no_generator(c) + " (got " + input + ")");
  util::subprocess_options_t o;
  o.timeout = witness_generator_timeout;
  o.output_limit = 4096;
  o.stop = stop;
  const auto r = util::run_subprocess(generator_argv(c.witness_generator, input, output), o);
  const std::string what = "circuit '" + c.id + "': witness generator " + c.witness_generator[0] + " on " + input;
  if (r.stopped) throw std::runtime_error(what + ": " + r.describe() + ": the job was cancelled");
  if (!r.ok()) throw std::runtime_error(what + " failed: " + r.describe() + output_tail(r));
  std::error_code ec;
  const auto size = std::filesystem::file_size(output, ec);
  if (ec || size == 0)
    throw std::runtime_error(what + ": exit status 0 but it wrote no witness to \"{output}\" (" + output + ")" +
                             output_tail(r));
}

synth_result_t synth_wtns(const circuit_def_t& c, const std::string& path, uint64_t job, uint32_t part,
                          buffer::buffer_store_t& store) {
  formats::wtns_file w(path);
  auto curve = formats::curve_from_scalar_prime(w.prime(), w.n8());
  if (!curve || buffer::curve_code(*curve) != c.curve)
    throw std::runtime_error(path + ": the witness is not over circuit '" + c.id + "''s curve");
  if (w.n8() != buffer::fr_bytes || w.n_witness() != c.n_vars)
    throw std::runtime_error(path + ": " + std::to_string(w.n_witness()) + " witness values, circuit '" + c.id +
                             "' has " + std::to_string(c.n_vars) + " wires");
  const buffer::synth_params_t p = params_for(c, *curve, job, part, buffer::synth_shape::witness_only);
  return commit_buffer(p, store, [&](uint8_t* out) { std::memcpy(out, w.values(), size_t(c.n_vars) * 32); });
}

}  // namespace

// One matrix row-compressed, coefficients already in Montgomery form (one field per circuit:
// stored as 32-byte elements of the circuit's Fr).
struct synth_cache_t::csr_t {
  struct matrix_t {
    std::vector<uint64_t> row_ptr;
    std::vector<uint32_t> col;
    std::vector<std::array<uint64_t, 4>> coef;  // Fr in Montgomery form, limbs
  };
  matrix_t a, b, c;
  uint64_t n_constraints = 0;
};

synth_cache_t::synth_cache_t() = default;
synth_cache_t::~synth_cache_t() = default;

namespace {

template <class Fr>
void to_mont_matrix(const formats::csr_matrix& m, synth_cache_t::csr_t::matrix_t& out) {
  static_assert(sizeof(Fr) == 32, "Fr is four limbs");
  out.row_ptr = m.row_ptr;
  out.col = m.col;
  out.coef.resize(m.nnz());
  for (uint64_t k = 0; k < m.nnz(); ++k) {
    typename Fr::big_t v;
    std::memcpy(v.l, m.coef_at(k), 32);
    Fr x = Fr::from_canonical(v);
    std::memcpy(out.coef[k].data(), &x, 32);
  }
}

}  // namespace

const synth_cache_t::csr_t& synth_cache_t::csr(const circuit_def_t& c) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = csr_.find(c.id);
  if (it != csr_.end()) return *it->second;
  formats::r1cs_file r1cs(c.r1cs);
  if (!r1cs.curve() || buffer::curve_code(*r1cs.curve()) != c.curve || r1cs.header().n_wires != c.n_vars)
    throw std::runtime_error(c.r1cs + ": not the constraint system of circuit '" + c.id + "' (curve or wires differ)");
  auto m = formats::build_csr(r1cs);
  auto out = std::make_unique<csr_t>();
  out->n_constraints = m.a.n_rows();
  if (c.curve == buffer::curve_code_bn254) {
    to_mont_matrix<curves::bn254::fr_t>(m.a, out->a), to_mont_matrix<curves::bn254::fr_t>(m.b, out->b);
    to_mont_matrix<curves::bn254::fr_t>(m.c, out->c);
  } else {
    to_mont_matrix<curves::bls12_381::fr_t>(m.a, out->a), to_mont_matrix<curves::bls12_381::fr_t>(m.b, out->b);
    to_mont_matrix<curves::bls12_381::fr_t>(m.c, out->c);
  }
  return *csr_.emplace(c.id, std::move(out)).first->second;
}

namespace {

// a = A·w, b = B·w, c = C·w over the r1cs rows, then the zkey's nPublic+1 input rows
// (A = w_s, B = C = 0: groth16-compat.md §2.4), Montgomery form, straight into the buffer.
template <class C>
synth_result_t synth_wtns_abc(const circuit_def_t& c, const std::string& path, uint64_t job, uint32_t part,
                              buffer::buffer_store_t& store, const synth_cache_t::csr_t& m) {
  using Fr = typename C::fr_t;
  formats::wtns_file w(path);
  auto curve = formats::curve_from_scalar_prime(w.prime(), w.n8());
  if (!curve || buffer::curve_code(*curve) != c.curve || w.n8() != buffer::fr_bytes || w.n_witness() != c.n_vars)
    throw std::runtime_error(path + ": not a witness of circuit '" + c.id + "' (curve or " +
                             std::to_string(w.n_witness()) + " values for " + std::to_string(c.n_vars) + " wires)");
  std::vector<Fr> wm(c.n_vars);
  for (uint64_t i = 0; i < c.n_vars; ++i) {
    typename Fr::big_t v;
    std::memcpy(v.l, w.value(uint32_t(i)), 32);
    wm[i] = Fr::from_canonical(v);
  }
  if (m.n_constraints + c.n_public + 1 != c.domain_rows)
    throw std::runtime_error(c.r1cs + ": " + std::to_string(m.n_constraints) + " constraints do not match the key");
  const buffer::synth_params_t p = params_for(c, *curve, job, part, buffer::synth_shape::abc_witness);
  return commit_buffer(p, store, [&](uint8_t* out) {
    std::memcpy(out, w.values(), size_t(c.n_vars) * 32);
    Fr* rows = reinterpret_cast<Fr*>(out + size_t(c.n_vars) * 32);
    const synth_cache_t::csr_t::matrix_t* mats[3] = {&m.a, &m.b, &m.c};
    for (int k = 0; k < 3; ++k) {
      Fr* dst = rows + size_t(k) * c.domain_rows;
      const auto& mat = *mats[k];
      for (uint64_t i = 0; i < m.n_constraints; ++i) {
        Fr acc{};
        for (uint64_t t = mat.row_ptr[i]; t < mat.row_ptr[i + 1]; ++t)
          acc += reinterpret_cast<const Fr&>(mat.coef[t]) * wm[mat.col[t]];
        dst[i] = acc;
      }
      for (uint64_t s = 0; s <= c.n_public; ++s) dst[m.n_constraints + s] = k == 0 ? wm[s] : Fr{};
    }
  });
}

template <class C>
synth_result_t synth_porep(const circuit_def_t& c, const std::string& data_params, uint32_t partitions, uint64_t job,
                           uint32_t part, buffer::buffer_store_t& store) {
  using Fr = typename C::fr_t;
  std::string text = c.native_params + ",partitions=" + std::to_string(partitions);
  if (!data_params.empty()) text += "," + data_params;
  auto params = circuit::porep_params_t::parse(text);
  circuit::porep_data_t<Fr> data(params);
  static_assert(sizeof(Fr) == buffer::fr_bytes, "a/b/c travel as 32-byte Montgomery elements");
  const buffer::synth_params_t p = params_for(c, *buffer::curve_from_code(c.curve), job, part, buffer::synth_shape::abc_witness);
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
      throw std::runtime_error("circuit '" + c.id + "': synthesis outgrew the key's " + std::to_string(c.n_vars) +
                               " wires / " + std::to_string(c.domain_rows) + " rows: " + e.what());
    }
    if (cs.n_wires() != c.n_vars || cs.n_public() != c.n_public || cs.a().size() != c.domain_rows)
      throw std::runtime_error("circuit '" + c.id + "': synthesis made " + std::to_string(cs.n_wires()) + " wires, " +
                               std::to_string(cs.a().size()) + " rows; the key expects " + std::to_string(c.n_vars) +
                               " and " + std::to_string(c.domain_rows));
    circuit::write_canonical_le(w, c.n_vars, out);  // the witness as in a .wtns, in place
  });
}

}  // namespace

circuit_def_t describe_zkey_circuit(const std::string& id, const std::string& zkey_path,
                                    const std::string& r1cs_path) {
  formats::zkey_file zkey(zkey_path);
  circuit_def_t c;
  c.id = id;
  c.kind = circuit_kind::circom;
  c.zkey = zkey_path;
  c.r1cs = r1cs_path;
  c.shape = r1cs_path.empty() ? buffer::synth_shape::witness_only : buffer::synth_shape::abc_witness;
  c.digest = circuit::to_hex(circuit::sha256(zkey.file().data(), zkey.file().size()));
  describe_from_key(c, zkey);
  c.domain_rows = c.n_public + 1;
  if (!r1cs_path.empty()) {
    formats::r1cs_file r1cs(r1cs_path);
    const auto& h = r1cs.header();
    if (!r1cs.curve() || buffer::curve_code(*r1cs.curve()) != c.curve || h.n_wires != c.n_vars ||
        uint64_t(h.n_pub_out) + h.n_pub_in != c.n_public)
      throw std::runtime_error(r1cs_path + ": does not match " + zkey_path + " (curve, wires or public inputs)");
    c.domain_rows = uint64_t(h.n_constraints) + c.n_public + 1;
    if (c.domain_rows > c.domain_size)
      throw std::runtime_error(r1cs_path + ": " + std::to_string(h.n_constraints) + " constraints exceed the key's domain");
  }
  c.buffer_bytes = buffer::size_class(buffer::payload_bytes_for(c.n_vars, c.domain_rows, c.shape));
  return c;
}

circuit_def_t describe_native_circuit(const std::string& id, const std::string& name, const std::string& params,
                                      const std::string& key_dir) {
  auto parsed = circuit::porep_params_t::parse(params);  // throws naming a bad key
  auto setup = circuit::setup_circuit(name, params, key_dir);
  circuit_def_t c;
  c.id = id;
  c.kind = circuit_kind::native;
  c.zkey = key_dir + "/circuit.zkey";
  c.native_name = name;
  // Only the shape keys: partitions and seed belong to jobs.
  c.native_params = "curve=" + std::string(parsed.curve == formats::curve_id::bn254 ? "bn254" : "bls12-381") +
                    ",challenges=" + std::to_string(parsed.challenges) + ",depth=" + std::to_string(parsed.depth);
  c.shape = buffer::synth_shape::abc_witness;
  c.digest = setup.digest;
  formats::zkey_file zkey(c.zkey);
  describe_from_key(c, zkey);
  c.domain_rows = uint64_t(setup.n_constraints) + setup.n_public + 1;
  c.buffer_bytes = buffer::size_class(buffer::payload_bytes_for(c.n_vars, c.domain_rows, c.shape));
  return c;
}

circuit_spec_t to_spec(const circuit_def_t& c) { return {c.id, c.buffer_bytes, c.prover_work_bytes}; }

std::optional<std::string> check_job_inputs(const circuit_def_t& c, const std::vector<std::string>& inputs,
                                            uint32_t partitions) {
  if (partitions == 0) return "a job needs at least one partition";
  if (c.kind == circuit_kind::circom) {
    if (inputs.size() != 1 && inputs.size() != partitions)
      return "circuit '" + c.id + "' takes one .wtns for every partition or one per partition, got " +
             std::to_string(inputs.size()) + " inputs for " + std::to_string(partitions) + " partitions";
    for (const auto& path : inputs) {
      if (is_input_json(path)) {
        if (c.witness_generator.empty()) return no_generator(c) + " (got " + path + ")";
        if (!std::filesystem::is_regular_file(path)) return path + ": no such input file";
        continue;
      }
      if (!std::filesystem::is_regular_file(path)) return path + ": no such witness file";
    }
    return std::nullopt;
  }
  if (inputs.size() > 1) return "circuit '" + c.id + "' takes at most one input (seed=N)";
  if (!inputs.empty() && !inputs[0].empty()) {
    if (inputs[0].rfind("seed=", 0) != 0 || inputs[0].find(',') != std::string::npos)
      return "circuit '" + c.id + "': input '" + inputs[0] + "' is not seed=N";
    try {
      circuit::porep_params_t::parse(c.native_params + ",partitions=" + std::to_string(partitions) + "," + inputs[0]);
    } catch (const std::exception& e) {
      return "circuit '" + c.id + "': " + e.what();
    }
  }
  return std::nullopt;
}

synth_result_t synthesize(const circuit_def_t& c, const std::vector<std::string>& inputs, uint32_t partitions,
                          uint64_t job, uint32_t part, buffer::buffer_store_t& store, synth_cache_t& cache,
                          const std::function<bool()>& stop) {
  auto t0 = std::chrono::steady_clock::now();
  synth_result_t r;
  if (c.kind == circuit_kind::circom) {
    if (inputs.empty()) throw std::runtime_error("circuit '" + c.id + "': the job names no witness");
    const std::string& input = inputs.size() == 1 ? inputs[0] : inputs.at(part);
    std::string wtns = input;
    std::optional<scratch_dir_t> scratch;  // the generated .wtns, removed on the way out
    if (is_input_json(input)) {
      scratch.emplace();
      wtns = (scratch->path / "witness.wtns").string();
      generate_witness(c, input, wtns, stop);
    }
    try {
      if (c.shape == buffer::synth_shape::witness_only)
        r = synth_wtns(c, wtns, job, part, store);
      else if (c.curve == buffer::curve_code_bn254)
        r = synth_wtns_abc<curves::bn254>(c, wtns, job, part, store, cache.csr(c));
      else
        r = synth_wtns_abc<curves::bls12_381>(c, wtns, job, part, store, cache.csr(c));
    } catch (const std::exception& e) {
      if (!scratch) throw;
      throw std::runtime_error("circuit '" + c.id + "': the witness that " + c.witness_generator[0] + " generated from " +
                               input + ": " + e.what());
    }
  } else {
    const std::string data = inputs.empty() ? "" : inputs[0];
    if (c.curve == buffer::curve_code_bn254)
      r = synth_porep<curves::bn254>(c, data, partitions, job, part, store);
    else
      r = synth_porep<curves::bls12_381>(c, data, partitions, job, part, store);
  }
  r.seconds = seconds_since(t0);
  return r;
}

// --- proving -------------------------------------------------------------------------------

namespace {

// A file's identity and version: a key replaced or rewritten on disk after it was mapped differs.
struct file_id_t {
  uint64_t dev = 0, ino = 0, size = 0;
  int64_t mtime_ns = 0;
  bool operator==(const file_id_t& o) const {
    return dev == o.dev && ino == o.ino && size == o.size && mtime_ns == o.mtime_ns;
  }
};

std::optional<file_id_t> file_id_of(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return std::nullopt;
  return file_id_t{uint64_t(st.st_dev), uint64_t(st.st_ino), uint64_t(st.st_size),
                   int64_t(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec};
}

}  // namespace

struct prover_engine_t::key_t {
  file_id_t loaded;     // the zkey file as it was when mapped
  uint64_t sample = 0;  // util::sampled_fingerprint of its bytes when mapped
  virtual ~key_t() = default;
  virtual proof_result_t prove(const circuit_def_t& c, const buffer::buffer_ref_t& b,
                               const groth16::stage_observer& observe) = 0;
};

namespace {

template <class C>
std::vector<typename C::fr_t> public_inputs(const uint8_t* witness, uint64_t n_public, std::vector<std::string>* dec) {
  std::vector<typename C::fr_t> pub(n_public);
  for (uint64_t i = 0; i < n_public; ++i) {
    typename C::fr_t::big_t v;
    std::memcpy(v.l, witness + (i + 1) * 32, 32);
    pub[i] = C::fr_t::from_canonical(v);
    if (dec) dec->push_back(formats::le_to_decimal(witness + (i + 1) * 32, 32));
  }
  return pub;
}

template <class C>
struct typed_key_t final : prover_engine_t::key_t {
  formats::zkey_file file;
  groth16::proving_key_t<C> pk;
  groth16::prover_t<C> prover;
  groth16::verifying_key_t<C> vk;

  typed_key_t(const std::string& path, const groth16::accelerator_t<C>* acc)
      : file(path), pk(groth16::proving_key_t<C>::view(file)), prover(pk),
        vk(groth16::verifying_key_t<C>::from_zkey(pk)) {
    prover.set_accelerator(acc);
    sample = util::sampled_fingerprint(file.file().data(), file.file().size());
  }

  proof_result_t prove(const circuit_def_t& c, const buffer::buffer_ref_t& b,
                       const groth16::stage_observer& observe) override {
    using Fr = typename C::fr_t;
    const auto& h = b.header();
    const auto layout = buffer::payload_layout(h);
    const uint8_t* witness = b.data() + layout.witness;
    auto t0 = std::chrono::steady_clock::now();
    groth16::proof_t<C> proof;
    if (h.shape() == buffer::synth_shape::witness_only) {
      proof = prover.prove(witness, observe);
    } else {
      if (h.domain_rows > pk.domain_size)
        throw std::runtime_error("buffer of job " + std::to_string(h.job_id) + ": " + std::to_string(h.domain_rows) +
                                 " rows exceed the key's domain " + std::to_string(pk.domain_size));
      uint64_t ta = groth16::now_ns();
      prover.load_abc(reinterpret_cast<const Fr*>(b.data() + layout.a), reinterpret_cast<const Fr*>(b.data() + layout.b),
                      reinterpret_cast<const Fr*>(b.data() + layout.c), size_t(h.domain_rows));
      if (observe) observe(groth16::stage::build_ab, ta, groth16::now_ns());  // a/b/c loaded, not built
      proof = prover.prove_loaded(witness, groth16::random_scalar<Fr>(), groth16::random_scalar<Fr>(), observe);
    }
    proof_result_t r;
    r.prove_seconds = seconds_since(t0);
    auto pub = public_inputs<C>(witness, h.n_public, &r.public_signals);
    t0 = std::chrono::steady_clock::now();
    uint64_t tv = groth16::now_ns();
    std::string why;
    bool ok = groth16::verify(vk, pub, proof, &why);
    if (observe) observe(groth16::stage::verify, tv, groth16::now_ns());
    r.verify_seconds = seconds_since(t0);
    if (!ok)
      throw std::runtime_error("circuit '" + c.id + "', job " + std::to_string(h.job_id) + " partition " +
                               std::to_string(h.partition) + ": the proof fails verification (" + why + ")");
    r.proof_json = formats::proof_to_json(proof.to_json());
    return r;
  }
};

std::unique_ptr<prover_engine_t::key_t> load_key(const circuit_def_t& c, const accelerators_t& acc) {
  const auto before = file_id_of(c.zkey);
  std::unique_ptr<prover_engine_t::key_t> k;
  if (c.curve == buffer::curve_code_bn254) k = std::make_unique<typed_key_t<curves::bn254>>(c.zkey, acc.bn254);
  else k = std::make_unique<typed_key_t<curves::bls12_381>>(c.zkey, acc.bls12_381);
  if (before) k->loaded = *before;
  return k;
}

}  // namespace

prover_engine_t::prover_engine_t() = default;
prover_engine_t::~prover_engine_t() = default;

proof_result_t prover_engine_t::prove(const circuit_def_t& c, const buffer::buffer_ref_t& buffer,
                                      const groth16::stage_observer& observe) {
  const auto& h = buffer.header();
  const std::string what = "buffer of job " + std::to_string(h.job_id) + " partition " + std::to_string(h.partition);
  if (auto err = buffer::validate_header(h)) throw std::runtime_error(what + ": " + err->message);
  if (circuit::to_hex(h.circuit_digest.data(), h.circuit_digest.size()) != c.digest)
    throw std::runtime_error(what + ": made for another circuit than '" + c.id + "' (digest differs)");
  if (h.curve != c.curve || h.n_vars != c.n_vars || h.n_public != c.n_public || h.shape() != c.shape)
    throw std::runtime_error(what + ": curve, counts or shape do not match circuit '" + c.id + "'");
  // The payload checksum is not hashed again here: a store only holds buffers whose checksum was
  // computed from their bytes (make_header at synthesis) or verified on receipt (data_server).
  // The mapped key file itself (same inode) changed since it was mapped: cut shorter in place, its
  // pages past the new end would fault (SIGBUS) when read; rewritten, they may hold another key.
  // It is unmapped before anything reads it and mapped again; the new mapping proves only when its
  // sampled bytes are those this prover first mapped (a touch, a byte-identical copy), else the
  // proof fails saying so — until the first bytes are back or a restart registers the new key.
  // A new file renamed over the old one (another inode) leaves the mapping intact and in use.
  auto it = keys_.find(c.id);
  if (it != keys_.end()) {
    const auto now = file_id_of(c.zkey);
    const file_id_t& was = it->second->loaded;
    if (now && now->dev == was.dev && now->ino == was.ino && !(*now == was)) {
      keys_.erase(it);
      it = keys_.end();
    }
  }
  if (it == keys_.end()) {
    auto k = load_key(c, acc_);  // a truncated or damaged file throws here, naming it
    auto [first, fresh] = first_sample_.emplace(c.id, k->sample);
    if (!fresh && first->second != k->sample)
      throw std::runtime_error("circuit '" + c.id + "': " + c.zkey + " was rewritten in place with other bytes since " +
                               "this prover first mapped it: not proving with a key other than the one registered " +
                               "(restart the cluster to register the new key, or replace keys by renaming a new " +
                               "file over the old one)");
    it = keys_.emplace(c.id, std::move(k)).first;
  }
  return it->second->prove(c, buffer, observe);
}

void buffer_directory_t::add(const std::string& endpoint, std::shared_ptr<buffer::buffer_store_t> store) {
  std::lock_guard<std::mutex> lock(mu_);
  stores_[endpoint] = std::move(store);
}

std::shared_ptr<buffer::buffer_store_t> buffer_directory_t::store(const std::string& endpoint) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = stores_.find(endpoint);
  return it == stores_.end() ? nullptr : it->second;
}

std::optional<buffer::buffer_ref_t> buffer_directory_t::find(const std::string& endpoint, uint64_t id) const {
  auto s = store(endpoint);
  if (!s) return std::nullopt;
  return s->find(id);
}

bool verify_proof_json(const circuit_def_t& c, const std::string& proof_json,
                       const std::vector<std::string>& public_signals, std::string* why) {
  auto check = [&](auto tag) {
    using C = decltype(tag);
    formats::zkey_file zkey(c.zkey);
    auto pk = groth16::proving_key_t<C>::view(zkey);
    auto vk = groth16::verifying_key_t<C>::from_zkey(pk);
    auto proof = groth16::proof_t<C>::from_json(formats::parse_proof_json(proof_json, "proof"), "proof");
    auto pub = groth16::public_from_json<C>(public_signals, "public");
    return groth16::verify(vk, pub, proof, why);
  };
  if (c.curve == buffer::curve_code_bn254) return check(curves::bn254{});
  return check(curves::bls12_381{});
}

}  // namespace zk::actors
