#include "node/filecoin_job.hpp"

#include <map>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "common/buffer/buffer_store.hpp"
#include "zk/base/hex.hpp"
#include "zk/bellperson/groth16/files.hpp"
#include "zk/filecoin/api/check_c1.hpp"
#include "zk/filecoin/porep/circuit/circuit.hpp"
#include "zk/filecoin/porep/circuit/public_inputs.hpp"
#include "zk/filecoin/porep/vanilla/graph.hpp"
#include "zk/filecoin/porep/vanilla/proof.hpp"

namespace zk::node {

namespace fc = zk::filecoin;

circuit_def_t describe_filecoin_circuit(const std::string& id, const std::string& registered_proof,
                                        const std::string& vk) {
  circuit_def_t c = filecoin_circuit(id, registered_proof);
  const bellperson::verifying_key_t key = bellperson::read_vk_file(vk).vk;
  if (key.ic.size() != c.n_public + 1)
    throw std::runtime_error(vk + ": " + std::to_string(key.ic.size()) +
                             " IC points, the circuit of " + registered_proof + " has " +
                             std::to_string(c.n_public + 1) +
                             " inputs (ONE included): not its key");
  c.vk = vk;
  return c;
}

circuit_def_t filecoin_circuit(const std::string& id, const std::string& registered_proof) {
  const fc::porep_config_t pc = fc::porep_config(fc::registered_proof(registered_proof));
  const fc::circuit_config_t cc = fc::circuit_config(pc);
  const auto shape = fc::circuit_shape(cc, /*matrices=*/false);  // counts, densities, digest
  circuit_def_t c;
  c.id = id;
  c.kind = circuit_kind_t::filecoin_porep;
  c.native_params = registered_proof;
  c.shape = buffer::synth_shape_t::abc_witness;
  c.curve = curve_id_t::bls12_381;
  c.digest = shape->digest_hex();
  // The buffer's witness is bellperson's input assignment then its aux assignment; its public
  // signals are the inputs after ONE; a, b, c hold every constraint and the input constraints.
  c.n_vars = uint64_t(shape->counts.inputs) + shape->counts.aux;
  c.n_public = shape->counts.inputs - 1;
  c.domain_rows = shape->prover_constraints();
  c.domain_size = shape->domain_size();
  c.buffer_bytes = buffer::size_class(buffer::payload_bytes_for(c.n_vars, c.domain_rows, c.shape));
  // The prover's work arrays: a, b, c over the domain (its FFTs) and the witness in Montgomery
  // form for the MSMs' scalars.
  c.prover_work_bytes = (3 * c.domain_size + c.n_vars) * buffer::fr_bytes;
  return c;
}

fc::porep_config_t filecoin_config(const circuit_def_t& c) {
  return fc::porep_config(fc::registered_proof(c.native_params));
}

namespace {

constexpr const char* prover_id_key = "prover_id=";
constexpr const char* sector_key = "sector=";

bool starts_with(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }

std::string what_circuit(const circuit_def_t& c) { return "circuit '" + c.id + "'"; }

}  // namespace

bool is_filecoin_arg(const std::string& input) {
  return starts_with(input, prover_id_key) || starts_with(input, sector_key);
}

util::result_t<filecoin_job_args_t> parse_filecoin_args(const circuit_def_t& c,
                                                        const std::vector<std::string>& inputs) {
  filecoin_job_args_t a;
  bool c1 = false, prover = false, sector = false;
  const std::string usage = what_circuit(c) +
                            " takes one C1 output and the arguments prover_id=HEX and "
                            "sector=N (zkfleet submit --input c1.json --input prover_id=HEX "
                            "--input sector=N)";
  for (const auto& in : inputs) {
    if (starts_with(in, prover_id_key)) {
      if (prover) return what_circuit(c) + ": prover_id is given twice";
      prover = true;
      try {
        a.prover_id = zk::parse_hex32(in.substr(std::string(prover_id_key).size()), "prover_id");
      } catch (const std::exception& e) {
        return what_circuit(c) + ": " + e.what();
      }
    } else if (starts_with(in, sector_key)) {
      if (sector) return what_circuit(c) + ": sector is given twice";
      sector = true;
      const std::string n = in.substr(std::string(sector_key).size());
      if (n.empty() || n.size() > 20 || n.find_first_not_of("0123456789") != std::string::npos ||
          (n.size() == 20 && n > "18446744073709551615"))
        return what_circuit(c) + ": sector '" + n.substr(0, 40) +
               "' is not a sector number (0 to 2^64-1)";
      a.sector = std::stoull(n);
    } else {
      if (c1) return usage + ": got a second C1 (" + in.substr(0, 200) + ")";
      c1 = true;
      a.c1 = in;
    }
  }
  if (!c1) return usage + ": no C1 given";
  if (!prover) return usage + ": prover_id is missing";
  if (!sector) return usage + ": sector is missing";
  return a;
}

std::optional<std::string> check_filecoin_job(const circuit_def_t& c,
                                              const std::vector<std::string>& inputs,
                                              uint32_t partitions) {
  auto args = parse_filecoin_args(c, inputs);
  if (!args) return args.error();
  const std::string& file = args->c1;
  fc::c1_read_t read;
  try {
    read = fc::read_c1_file(file);  // names the file and the JSON path of what is wrong
  } catch (const std::exception& e) {
    return std::string(e.what());
  }
  if (auto why = fc::check_c1(filecoin_config(c), read.c1, read.wrapper,
                              {args->prover_id, args->sector, partitions}))
    return file + ": " + *why;
  return std::nullopt;
}

std::string filecoin_proof_text(const uint8_t* proof192) {
  nlohmann::ordered_json j;
  j["protocol"] = "groth16";
  j["curve"] = "bls12381";
  j["format"] = "bellperson";
  j["proof"] = zk::to_hex(proof192, bellperson::proof_size);
  return j.dump();
}

bool is_filecoin_proof_text(const std::string& text) {
  if (text.find("\"bellperson\"") == std::string::npos) return false;  // cheap first
  try {
    const auto j = nlohmann::json::parse(text);
    return j.is_object() && j.value("format", "") == "bellperson";
  } catch (const std::exception&) {
    return false;
  }
}

util::result_t<std::vector<uint8_t>> filecoin_proof_bytes(const std::string& text) {
  std::string hex;
  try {
    const auto j = nlohmann::json::parse(text);
    if (!j.is_object() || j.value("format", "") != "bellperson" || !j.contains("proof") ||
        !j["proof"].is_string())
      return std::string("not a bellperson proof text (format, proof)");
    hex = j["proof"].get<std::string>();
  } catch (const std::exception& e) {
    return std::string("the proof text is not JSON: ") + e.what();
  }
  if (hex.size() != 2 * bellperson::proof_size)
    return "the proof has " + std::to_string(hex.size()) + " hex digits, not " +
           std::to_string(2 * bellperson::proof_size);
  std::vector<uint8_t> out(bellperson::proof_size);
  for (size_t i = 0; i < out.size(); ++i) {
    int v = 0;
    for (int k = 0; k < 2; ++k) {
      const char ch = hex[2 * i + k];
      const int d = ch >= '0' && ch <= '9'   ? ch - '0'
                    : ch >= 'a' && ch <= 'f' ? ch - 'a' + 10
                    : ch >= 'A' && ch <= 'F' ? ch - 'A' + 10
                                             : -1;
      if (d < 0) return "the proof is not hex (offset " + std::to_string(2 * i + k) + ")";
      v = v * 16 + d;
    }
    out[i] = uint8_t(v);
  }
  return out;
}

util::result_t<std::vector<uint8_t>> assemble_sector_proof(
    uint32_t partitions, const std::vector<std::pair<uint32_t, std::string>>& proofs) {
  std::map<uint32_t, const std::string*> by_partition;
  for (const auto& [k, text] : proofs) {
    if (k >= partitions)
      return "a proof of partition " + std::to_string(k) + ", the sector has " +
             std::to_string(partitions);
    if (!by_partition.emplace(k, &text).second)
      return "partition " + std::to_string(k) + " has two proofs";
  }
  std::vector<uint8_t> out;
  out.reserve(size_t(partitions) * bellperson::proof_size);
  for (uint32_t k = 0; k < partitions; ++k) {
    auto it = by_partition.find(k);
    if (it == by_partition.end()) return "partition " + std::to_string(k) + " has no proof";
    auto bytes = filecoin_proof_bytes(*it->second);
    if (!bytes) return "partition " + std::to_string(k) + ": " + bytes.error();
    out.insert(out.end(), bytes->begin(), bytes->end());
  }
  return out;
}

}  // namespace zk::node
