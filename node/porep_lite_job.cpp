#include "node/porep_lite_job.hpp"

#include <stdexcept>

namespace zk::node {

circuit::porep_params_t porep_lite_params(const circuit_def_t& c, const porep_lite_spec_t& s,
                                          uint32_t partitions) {
  circuit::porep_params_t p = circuit::porep_params_t::parse(c.native_params);
  if (partitions == 0 || partitions > (1u << 20))
    throw std::invalid_argument(std::to_string(partitions) +
                                " partitions: porep-lite takes 1 to 2^20");
  p.partitions = partitions;
  p.seed = s.seed;
  return p;
}

check_t check_request(const circuit_def_t&, const porep_lite_spec_t&, uint32_t) { return {}; }

result_t<porep_lite_spec_t> take_in(const circuit_def_t& c, porep_lite_spec_t s,
                                    uint32_t partitions, const intake_env_t&) {
  try {
    porep_lite_params(c, s, partitions);
  } catch (const std::exception& e) {
    return "circuit '" + c.id + "': " + e.what();
  }
  return s;
}

porep_lite_spec_t partition_input(const porep_lite_spec_t& s, uint32_t) { return s; }

void stored_objects(const porep_lite_spec_t&, std::vector<stored_object_t>&) {}

nlohmann::json spec_json(const porep_lite_spec_t& s) { return {{"seed", s.seed}}; }

porep_lite_spec_t porep_lite_spec_from_json(const nlohmann::json& j) {
  if (!j.contains("seed") || !j["seed"].is_number_unsigned())
    throw std::invalid_argument("porep-lite: \"seed\" is not an unsigned integer");
  return {j["seed"].get<uint64_t>()};
}

}  // namespace zk::node
