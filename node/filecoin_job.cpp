#include "node/filecoin_job.hpp"

#include <cstring>
#include <map>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "common/buffer/buffer_store.hpp"
#include "node/filecoin_memory.hpp"
#include "node/verify_proof.hpp"
#include "zk/base/hex.hpp"
#include "zk/bellperson/groth16/files.hpp"
#include "zk/filecoin/api/check_c1.hpp"
#include "zk/filecoin/api/partition_input.hpp"
#include "zk/filecoin/porep/circuit/circuit.hpp"
#include "zk/filecoin/porep/circuit/public_inputs.hpp"
#include "zk/filecoin/porep/vanilla/graph.hpp"
#include "zk/filecoin/porep/vanilla/proof.hpp"
#include "zk/formats/packed_witness.hpp"

namespace zk::node {

namespace fc = zk::filecoin;

void check_filecoin_vk(const circuit_def_t& c, const std::string& vk, const std::string& vk_key) {
  try {
    const bellperson::verifying_key_t key = bellperson::read_vk_file(vk).vk;
    if (key.ic.size() != c.n_public + 1)
      throw std::runtime_error(vk + ": " + std::to_string(key.ic.size()) +
                               " IC points, the circuit of " + c.native_params + " has " +
                               std::to_string(c.n_public + 1) +
                               " inputs (ONE included): not its key");
  } catch (const std::exception& e) {
    if (vk_key.empty()) throw;
    throw std::runtime_error(vk_key + ": " + e.what());
  }
}

circuit_def_t describe_filecoin_circuit(const std::string& id, const std::string& registered_proof,
                                        const std::string& vk, const std::string& vk_key,
                                        config::wire_t wire) {
  circuit_def_t c = filecoin_circuit(id, registered_proof, wire);
  check_filecoin_vk(c, vk, vk_key);
  c.vk = vk;
  return c;
}

circuit_def_t filecoin_circuit_counts(const std::string& id, const std::string& registered_proof,
                                      config::wire_t wire) {
  const fc::porep_config_t pc = fc::porep_config(fc::registered_proof(registered_proof));
  return filecoin_kind_counts(id, circuit_kind_t::filecoin_porep, registered_proof,
                              fc::circuit_layout(fc::circuit_config(pc)), wire);
}

circuit_def_t filecoin_kind_counts(const std::string& id, circuit_kind_t kind,
                                   const std::string& registered_proof,
                                   const fc::circuit_layout_t& layout, config::wire_t wire) {
  circuit_def_t c;
  c.id = id;
  c.kind = kind;
  c.native_params = registered_proof;
  // `wire: auto`: described on the packed wire, with both wires' sizes (circuit_def_t::wire_auto).
  const config::wire_t own = wire == config::wire_t::automatic ? config::wire_t::packed : wire;
  c.shape = own == config::wire_t::packed ? buffer::synth_shape_t::packed_witness
                                          : buffer::synth_shape_t::abc_witness;
  c.curve = curve_id_t::bls12_381;
  // The buffer's witness is bellperson's input assignment then its aux assignment; its public
  // signals are the inputs after ONE; a, b, c hold every constraint and the input constraints.
  // What a partition holds on the nodes follows from the counts and the wire
  // (node/filecoin_memory.hpp).
  const partition_memory_t m = filecoin_partition_memory(layout.total, layout.field_aux, own);
  if (wire == config::wire_t::automatic) {
    if (kind != circuit_kind_t::filecoin_porep)
      throw std::invalid_argument("circuit '" + id + "': `wire: auto` is for filecoin-porep only");
    c.wire_auto = true;
    for (config::wire_t w : {config::wire_t::packed, config::wire_t::full}) {
      const partition_memory_t wm = filecoin_partition_memory(layout.total, layout.field_aux, w);
      (w == config::wire_t::full ? c.full_size : c.packed_size) = {
          wm.buffer_bytes, wm.prover_work_bytes, wm.wire_bytes};
    }
  }
  c.n_vars = m.n_vars;
  c.n_public = layout.total.inputs - 1;
  c.domain_rows = m.domain_rows;
  c.domain_size = m.domain_size;
  c.buffer_bytes = m.buffer_bytes;
  c.prover_work_bytes = m.prover_work_bytes;
  return c;
}

circuit_def_t filecoin_circuit(const std::string& id, const std::string& registered_proof,
                               config::wire_t wire) {
  circuit_def_t c = filecoin_circuit_counts(id, registered_proof, wire);
  const fc::circuit_config_t cc = fc::circuit_config(filecoin_config(c));
  c.digest = fc::circuit_shape(cc, /*matrices=*/false)->digest_hex();  // the circuit's hash
  return c;
}

uint64_t prover_resident_bytes(const circuit_def_t& c) {
  if (c.kind != circuit_kind_t::filecoin_porep ||
      !(c.wire_auto || c.shape == buffer::synth_shape_t::packed_witness))
    return 0;
  return fc::circuit_program(fc::circuit_config(filecoin_config(c)))->bytes_kept();
}

fc::porep_config_t filecoin_config(const circuit_def_t& c) {
  return fc::porep_config(fc::registered_proof(c.native_params));
}

// public_digest: w[1..n], canonical little-endian.
std::string filecoin_public_digest(const std::vector<fc::fr_t>& inputs) {
  std::vector<uint8_t> w((inputs.size() + 1) * 32);  // w[0] (ONE), then the inputs
  for (size_t i = 0; i < inputs.size(); ++i) {
    const zk::bytes32_t b = fc::fr_to_bytes(inputs[i]);
    std::memcpy(w.data() + 32 * (i + 1), b.data(), 32);
  }
  return public_digest(w.data(), inputs.size());
}

check_t check_request(const circuit_def_t& c, const filecoin_porep_spec_t& s, uint32_t) {
  if (check_t why = check_input_file(s.c1); !why)
    return "circuit '" + c.id + "': the C1: " + why.reason();
  if (!s.partitions.empty())
    return "circuit '" + c.id + "': a job brings its C1, not its partitions' inputs";
  return {};
}

result_t<resolved_file_t> filecoin_intake_file(const circuit_def_t& c, const input_file_t& f,
                                               const intake_env_t& env) {
  if (!env.store)
    return "circuit '" + c.id +
           "': this scheduler has no store for the partitions' inputs (scheduler.uploads)";
  return resolve_input(f, env);
}

filecoin_stored_partition_t store_filecoin_partition(const intake_env_t& env,
                                                     const std::vector<uint8_t>& bytes,
                                                     object_type_t type,
                                                     const std::vector<fc::fr_t>& inputs) {
  const stored_object_t o = env.store->put_object(
      std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()), type);
  return {input_file_t::of(o), filecoin_public_digest(inputs)};
}

void filecoin_stored_objects(const input_file_t& submitted,
                             const std::vector<filecoin_stored_partition_t>& parts,
                             std::vector<stored_object_t>& out) {
  if (parts.empty()) {  // not taken in yet: what was submitted is still needed
    if (submitted.stored()) out.push_back(submitted.object);
    return;
  }
  for (const auto& p : parts) out.push_back(p.input.object);
}

result_t<filecoin_porep_spec_t> take_in(const circuit_def_t& c, filecoin_porep_spec_t s,
                                        uint32_t partitions, const intake_env_t& env) {
  if (check_t why = check_request(c, s, partitions); !why) return why.reason();
  auto file = filecoin_intake_file(c, s.c1, env);
  if (!file) return file.error();
  fc::c1_read_t read;
  try {
    read = fc::read_c1_file(file->path);  // names the file and the JSON path of what is wrong
  } catch (const std::exception& e) {
    return file->named(e.what());
  }
  const fc::c1_output_t& c1 = read.c1;
  const fc::porep_config_t pc = filecoin_config(c);
  if (const check_t c1_ok = fc::check_c1(pc, c1, read.wrapper, {s.prover_id, s.sector, partitions});
      !c1_ok)
    return file->name + ": " + c1_ok.reason();
  // Each partition's input, one at a time beside the C1, durable in the store before the job is
  // journaled (the caller journals it after this returns).
  try {
    const fc::graph_t g(pc);
    const fc::sector_ids_t ids = fc::sector_ids_of(c1, s.prover_id, s.sector);
    for (uint32_t k = 0; k < partitions; ++k) {
      const fc::partition_inputs_t pub = fc::partition_inputs(pc, g, ids, k);
      const fc::partition_witness_t w = fc::witness_from_vanilla(
          {c1.replica_id, c1.comm_d, c1.comm_r, c1.seed}, c1.vanilla_proofs[k]);
      s.partitions.push_back(
          store_filecoin_partition(env, fc::write_partition_input(pc, k, w, pub.challenges),
                                   object_type_t::partition, pub.inputs));
    }
  } catch (const std::invalid_argument& e) {
    return file->name + ": " + e.what();
  }
  return s;
}

filecoin_porep_partition_t partition_input(const filecoin_porep_spec_t& s, uint32_t k) {
  return {s.partitions.at(k).input};
}

void stored_objects(const filecoin_porep_spec_t& s, std::vector<stored_object_t>& out) {
  filecoin_stored_objects(s.c1, s.partitions, out);
}

nlohmann::json stored_partitions_json(const std::vector<filecoin_stored_partition_t>& parts) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& p : parts) {
    nlohmann::json j = {
        {"public_digest", zk::to_hex(reinterpret_cast<const uint8_t*>(p.public_digest.data()),
                                     p.public_digest.size())}};
    add_json(j, p.input);
    out.push_back(std::move(j));
  }
  return out;
}

std::vector<filecoin_stored_partition_t> stored_partitions_from_json(const nlohmann::json& j,
                                                                     const std::string& what,
                                                                     object_type_t type) {
  std::vector<filecoin_stored_partition_t> out;
  for (size_t k = 0; k < j.size(); ++k) {
    const nlohmann::json& p = j[k];
    const std::string at = what + "[" + std::to_string(k) + "]";
    filecoin_stored_partition_t part;
    part.input = input_file_from_json(p, at);
    if (!part.input.stored() || part.input.object.type != type)
      throw std::invalid_argument(at + " is not a stored partition input (." + object_ext(type) +
                                  ")");
    if (!p.contains("public_digest") || !p["public_digest"].is_string())
      throw std::invalid_argument(at + ".public_digest is missing");
    try {
      const auto d = zk::parse_hex32(p["public_digest"].get<std::string>(), at + ".public_digest");
      part.public_digest.assign(d.begin(), d.end());
    } catch (const std::exception& e) {
      throw std::invalid_argument(e.what());
    }
    out.push_back(std::move(part));
  }
  return out;
}

nlohmann::json spec_json(const filecoin_porep_spec_t& s) {
  nlohmann::json c1 = nlohmann::json::object();
  add_json(c1, s.c1);
  return {{"prover_id", zk::to_hex(s.prover_id)},
          {"sector", s.sector},
          {"c1", std::move(c1)},
          {"partitions", stored_partitions_json(s.partitions)}};
}

filecoin_porep_spec_t filecoin_porep_spec_from_json(const nlohmann::json& j) {
  auto need = [&](const char* key, bool ok) {
    if (!j.contains(key) || !ok)
      throw std::invalid_argument(std::string("filecoin-porep: \"") + key +
                                  "\" is missing or of the wrong type");
  };
  need("prover_id", j.contains("prover_id") && j["prover_id"].is_string());
  need("sector", j.contains("sector") && j["sector"].is_number_unsigned());
  need("c1", j.contains("c1") && j["c1"].is_object());
  need("partitions", j.contains("partitions") && j["partitions"].is_array());
  filecoin_porep_spec_t s;
  try {
    s.prover_id = zk::parse_hex32(j["prover_id"].get<std::string>(), "filecoin-porep: prover_id");
  } catch (const std::exception& e) {
    throw std::invalid_argument(e.what());
  }
  s.sector = j["sector"].get<uint64_t>();
  s.c1 = input_file_from_json(j["c1"], "filecoin-porep: c1");
  s.partitions = stored_partitions_from_json(j["partitions"], "filecoin-porep: partitions",
                                             object_type_t::partition);
  return s;
}

std::string filecoin_proof_text(const uint8_t* proof192) {
  nlohmann::ordered_json j;
  j["protocol"] = "groth16";
  j["curve"] = "bls12381";
  j["format"] = "bellperson";
  j["proof"] = zk::to_hex(proof192, bellperson::proof_size);
  return j.dump();
}

result_t<std::vector<uint8_t>> filecoin_proof_bytes(const std::string& text) {
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

result_t<std::vector<uint8_t>> assemble_sector_proof(
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
