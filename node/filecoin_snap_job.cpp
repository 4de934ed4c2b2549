#include "node/filecoin_snap_job.hpp"

#include <stdexcept>

#include "common/buffer/buffer_store.hpp"
#include "node/filecoin_memory.hpp"
#include "zk/base/hex.hpp"
#include "zk/filecoin/api/registry.hpp"
#include "zk/filecoin/api/update_input.hpp"
#include "zk/filecoin/update/circuit.hpp"
#include "zk/filecoin/update/vanilla.hpp"
#include "zk/filecoin/update/vanilla_proof.hpp"

namespace zk::node {

namespace fc = zk::filecoin;

circuit_def_t snap_circuit_counts(const std::string& id, const std::string& registered_proof) {
  const fc::update_config_t uc = fc::update_config(fc::registered_update_proof(registered_proof));
  // wire: full, the only wire of an update (common/config refuses packed).
  return filecoin_kind_counts(id, circuit_kind_t::filecoin_snap, registered_proof,
                              fc::update_circuit_layout(uc), config::wire_t::full);
}

circuit_def_t snap_circuit(const std::string& id, const std::string& registered_proof) {
  circuit_def_t c = snap_circuit_counts(id, registered_proof);
  c.digest = fc::update_circuit_shape(snap_config(c), /*matrices=*/false)->digest_hex();
  return c;
}

circuit_def_t describe_snap_circuit(const std::string& id, const std::string& registered_proof,
                                    const std::string& vk, const std::string& vk_key) {
  circuit_def_t c = snap_circuit(id, registered_proof);
  check_filecoin_vk(c, vk, vk_key);
  c.vk = vk;
  return c;
}

fc::update_config_t snap_config(const circuit_def_t& c) {
  return fc::update_config(fc::registered_update_proof(c.native_params));
}

check_t check_request(const circuit_def_t& c, const filecoin_snap_spec_t& s, uint32_t partitions) {
  if (check_t why = check_input_file(s.vanilla); !why)
    return "circuit '" + c.id + "': the vanilla proofs: " + why.reason();
  if (!s.partitions.empty())
    return "circuit '" + c.id + "': a job brings its vanilla proofs, not its partitions' inputs";
  const fc::update_config_t uc = snap_config(c);
  if (partitions != uc.partitions)
    return "circuit '" + c.id + "': an update of " + std::string(uc.proof->name) + " has " +
           std::to_string(uc.partitions) + " partitions, the job asks for " +
           std::to_string(partitions);
  if (auto pub = fc::update_public_inputs(uc, 0, s.comms); !pub)
    return "circuit '" + c.id + "': " + pub.error();
  return {};
}

result_t<filecoin_snap_spec_t> take_in(const circuit_def_t& c, filecoin_snap_spec_t s,
                                       uint32_t partitions, const intake_env_t& env) {
  if (check_t why = check_request(c, s, partitions); !why) return why.reason();
  auto file = filecoin_intake_file(c, s.vanilla, env);
  if (!file) return file.error();
  const fc::update_config_t uc = snap_config(c);
  std::vector<fc::update_partition_proof_t> proofs;
  try {
    proofs = fc::read_update_vanilla_file(file->path, uc);  // every count bounded, named
  } catch (const std::exception& e) {
    return file->named(e.what());
  }
  // Filecoin's vanilla verifier: a job whose proofs would not make a valid SNARK is refused now.
  if (const check_t ok = fc::verify_update_partitions(uc, s.comms, proofs); !ok)
    return file->name + ": " + ok.reason() + " (with the job's comm_r_old, comm_d_new, comm_r_new)";
  try {
    for (uint32_t k = 0; k < uc.partitions; ++k) {
      auto pub = fc::update_public_inputs(uc, k, s.comms);
      if (!pub) return file->name + ": partition " + std::to_string(k) + ": " + pub.error();
      s.partitions.push_back(store_filecoin_partition(
          env, fc::write_update_input(uc, k, s.comms, fc::encode_update_partition_proof(proofs[k])),
          object_type_t::update_partition, *pub));
    }
  } catch (const std::invalid_argument& e) {
    return file->name + ": " + e.what();
  }
  return s;
}

filecoin_snap_partition_t partition_input(const filecoin_snap_spec_t& s, uint32_t k) {
  return {s.partitions.at(k).input};
}

void stored_objects(const filecoin_snap_spec_t& s, std::vector<stored_object_t>& out) {
  filecoin_stored_objects(s.vanilla, s.partitions, out);
}

nlohmann::json spec_json(const filecoin_snap_spec_t& s) {
  nlohmann::json vanilla = nlohmann::json::object();
  add_json(vanilla, s.vanilla);
  return {{"comm_r_old", zk::to_hex(s.comms.comm_r_old)},
          {"comm_d_new", zk::to_hex(s.comms.comm_d_new)},
          {"comm_r_new", zk::to_hex(s.comms.comm_r_new)},
          {"sector", s.sector},
          {"vanilla", std::move(vanilla)},
          {"partitions", stored_partitions_json(s.partitions)}};
}

filecoin_snap_spec_t filecoin_snap_spec_from_json(const nlohmann::json& j) {
  auto need = [&](const char* key, bool ok) {
    if (!ok)
      throw std::invalid_argument(std::string("filecoin-snap: \"") + key +
                                  "\" is missing or of the wrong type");
  };
  for (const char* key : {"comm_r_old", "comm_d_new", "comm_r_new"})
    need(key, j.contains(key) && j[key].is_string());
  need("sector", j.contains("sector") && j["sector"].is_number_unsigned());
  need("vanilla", j.contains("vanilla") && j["vanilla"].is_object());
  need("partitions", j.contains("partitions") && j["partitions"].is_array());
  filecoin_snap_spec_t s;
  try {
    s.comms.comm_r_old = zk::parse_hex32(j["comm_r_old"].get<std::string>(), "comm_r_old");
    s.comms.comm_d_new = zk::parse_hex32(j["comm_d_new"].get<std::string>(), "comm_d_new");
    s.comms.comm_r_new = zk::parse_hex32(j["comm_r_new"].get<std::string>(), "comm_r_new");
  } catch (const std::exception& e) {
    throw std::invalid_argument(std::string("filecoin-snap: ") + e.what());
  }
  s.sector = j["sector"].get<uint64_t>();
  s.vanilla = input_file_from_json(j["vanilla"], "filecoin-snap: vanilla");
  s.partitions = stored_partitions_from_json(j["partitions"], "filecoin-snap: partitions",
                                             object_type_t::update_partition);
  return s;
}

}  // namespace zk::node
