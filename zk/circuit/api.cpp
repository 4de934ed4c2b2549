#include "zk/circuit/api.hpp"

#include <cctype>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "zk/base/clock.hpp"
#include "zk/base/hex.hpp"
#include "zk/circuit/porep.hpp"
#include "zk/circuit/r1cs_writer.hpp"
#include "zk/ec/with_curve.hpp"
#include "zk/formats/json.hpp"
#include "zk/formats/paths.hpp"
#include "zk/formats/zkey.hpp"
#include "zk/groth16/prove_verified.hpp"

namespace zk::circuit {
namespace {

namespace fs = std::filesystem;

porep_params_t parse_circuit(const std::string& name, const std::string& params) {
  if (name != "porep-lite")
    throw std::invalid_argument("unknown circuit '" + name + "' (known: porep-lite)");
  return porep_params_t::parse(params);
}

struct key_record_t {
  std::string circuit, shape, digest;
  uint32_t n_constraints = 0, n_wires = 0, n_public = 0;
};

std::optional<key_record_t> read_record(const std::string& path) {
  std::ifstream in(path);
  if (!in) return std::nullopt;
  nlohmann::json j;
  try {
    in >> j;
    key_record_t r;
    r.circuit = j.at("circuit").get<std::string>();
    r.shape = j.at("shape").get<std::string>();
    r.digest = j.at("digest").get<std::string>();
    r.n_constraints = j.at("n_constraints").get<uint32_t>();
    r.n_wires = j.at("n_wires").get<uint32_t>();
    r.n_public = j.at("n_public").get<uint32_t>();
    return r;
  } catch (const std::exception& e) {
    throw std::runtime_error(path + ": not a zkfleet circuit key record: " + e.what());
  }
}

void write_record(const std::string& path, const key_record_t& r) {
  nlohmann::json j = {{"circuit", r.circuit}, {"shape", r.shape},
                      {"digest", r.digest},   {"n_constraints", r.n_constraints},
                      {"n_wires", r.n_wires}, {"n_public", r.n_public}};
  std::string text = j.dump(2) + "\n";
  write_bytes(path, std::vector<uint8_t>(text.begin(), text.end()));
}

template <class C>
void setup_typed(const porep_params_t& p, const std::string& dir,
                 const groth16::setup_options_t& options, circuit_setup_report_t& report) {
  using Fr = typename C::fr_t;
  auto t0 = std::chrono::steady_clock::now();
  porep_data_t<Fr> data(p);
  shape_cs_t<Fr> cs;
  porep_lite(cs, data, 0);
  auto shape = cs.take_shape();
  report.synth_seconds = seconds_since(t0);
  report.n_constraints = shape.n_constraints();
  report.n_wires = shape.n_wires;
  report.n_public = shape.n_public;

  t0 = std::chrono::steady_clock::now();
  auto bytes = r1cs_bytes(shape);
  report.digest = to_hex(sha256(bytes));
  report.digest_seconds = seconds_since(t0);

  const std::string record_path = dir + "/circuit.json", r1cs_path = dir + "/circuit.r1cs",
                    zkey_path = dir + "/circuit.zkey", vkey_path = dir + "/verification_key.json";
  auto old = read_record(record_path);
  if (old && old->digest == report.digest && fs::exists(zkey_path) && fs::exists(vkey_path) &&
      fs::exists(r1cs_path)) {
    report.reused = true;
    return;
  }
  fs::remove(record_path);  // a key being replaced is not valid for any digest until done
  write_bytes(r1cs_path, bytes);
  report.setup = groth16::dev_setup(r1cs_path, zkey_path, vkey_path, options);
  write_record(record_path, {"porep-lite", report.shape, report.digest, report.n_constraints,
                             report.n_wires, report.n_public});
}

template <class C>
void prove_typed(const porep_params_t& p, uint32_t partition, const key_record_t& rec,
                 const std::string& dir, const std::string& proof_path,
                 const std::string& public_path, circuit_prove_report_t& report,
                 const groth16::prove_options_t& options) {
  using Fr = typename C::fr_t;
  auto t0 = std::chrono::steady_clock::now();
  porep_data_t<Fr> data(p);
  report.replica_seconds = seconds_since(t0);
  t0 = std::chrono::steady_clock::now();
  prove_cs_t<Fr> cs(rec.n_wires, size_t(rec.n_constraints) + rec.n_public + 1);
  porep_lite(cs, data, partition);
  cs.finish();
  auto witness = cs.witness_bytes();
  report.synth_seconds = seconds_since(t0);
  report.n_constraints = cs.n_constraints();
  report.n_wires = cs.n_wires();
  report.n_public = cs.n_public();
  if (cs.n_wires() != rec.n_wires || cs.n_constraints() != rec.n_constraints ||
      cs.n_public() != rec.n_public)
    throw std::runtime_error(
        dir + "/circuit.json: the key is for " + std::to_string(rec.n_constraints) +
        " constraints, " + std::to_string(rec.n_wires) + " wires, but synthesis made " +
        std::to_string(cs.n_constraints()) + " and " + std::to_string(cs.n_wires()));

  t0 = std::chrono::steady_clock::now();
  formats::zkey_file_t zkey(dir + "/circuit.zkey");
  auto pk = groth16::proving_key_t<C>::view(zkey);
  if (pk.n_vars != cs.n_wires() || pk.n_public != cs.n_public() || pk.domain_size < cs.a().size())
    throw std::runtime_error(
        dir + "/circuit.zkey: key for " + std::to_string(pk.n_vars) + " wires (" +
        std::to_string(pk.n_public) + " public), domain " + std::to_string(pk.domain_size) +
        "; the circuit has " + std::to_string(cs.n_wires()) + " wires (" +
        std::to_string(cs.n_public()) + " public), " + std::to_string(cs.a().size()) + " rows");
  report.domain_size = pk.domain_size;
  groth16::prover_t<C> prover(pk);
  prover.set_accelerator(options.accelerators.of<C>());
  report.load_seconds = seconds_since(t0);

  t0 = std::chrono::steady_clock::now();
  prover.load_abc(cs.a().data(), cs.b().data(), cs.c().data(), cs.a().size());
  groth16::prove_call_t call;
  call.abc = groth16::abc_source_t::loaded;
  call.observe = options.observe;
  call.what = dir + "/circuit.zkey: partition " + std::to_string(partition);
  const auto proof = groth16::prove_verified(prover, groth16::verifying_key_t<C>::from_zkey(pk),
                                             witness.data(), call);
  report.prove_seconds = seconds_since(t0) - proof.verify_seconds;
  report.verify_seconds = proof.verify_seconds;
  groth16::write_proof_files(proof, proof_path, public_path);
}

}  // namespace

std::string default_key_dir(const std::string& name, const std::string& params) {
  fs::path base;
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x)
    base = x;
  else if (const char* h = std::getenv("HOME"); h && *h)
    base = fs::path(h) / ".cache";
  else
    base = fs::temp_directory_path();
  std::string leaf;
  for (char c : name + "-" + params)
    leaf += std::isalnum(static_cast<unsigned char>(c)) || c == '-' ? c : '_';
  return (base / "zkfleet" / "keys" / leaf).string();
}

circuit_setup_report_t setup_circuit(const std::string& name, const std::string& params,
                                     const std::string& dir,
                                     const groth16::setup_options_t& options) {
  auto p = parse_circuit(name, params);
  fs::create_directories(dir);
  circuit_setup_report_t report;
  report.shape = p.shape_key();
  report.curve = curve_name(p.curve);
  curves::with_curve(p.curve,
                     [&](auto tag) { setup_typed<decltype(tag)>(p, dir, options, report); });
  return report;
}

circuit_prove_report_t prove_circuit(const std::string& name, const std::string& params,
                                     uint32_t partition, const std::string& key_dir,
                                     const std::string& proof_path, const std::string& public_path,
                                     const groth16::prove_options_t& options) {
  auto p = parse_circuit(name, params);
  const std::string record_path = key_dir + "/circuit.json", zkey_path = key_dir + "/circuit.zkey";
  formats::check_outputs(
      {{"the key's record", record_path}, {"the proving key", zkey_path}},
      {{"the proof output", proof_path}, {"the public signals output", public_path}});
  auto rec = read_record(record_path);
  if (!rec)
    throw std::runtime_error(record_path +
                             ": missing: make the key with `zkfleet setup --circuit " + name +
                             " --params ... --out " + key_dir + "`");
  if (rec->shape != p.shape_key())
    throw std::runtime_error(record_path + ": the key is for " + rec->shape + ", not " +
                             p.shape_key());
  circuit_prove_report_t report;
  report.curve = curve_name(p.curve);
  curves::with_curve(p.curve, [&](auto tag) {
    prove_typed<decltype(tag)>(p, partition, *rec, key_dir, proof_path, public_path, report,
                               options);
  });
  return report;
}

}  // namespace zk::circuit
