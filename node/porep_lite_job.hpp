#pragma once
// A porep-lite circuit's jobs (node/job_spec.hpp): zkfleet's own PoRep-like circuit over a
// synthetic replica made from a seed (zk/circuit/porep.hpp); partition k proves the replica's
// challenges of partition k. No file: the seed is the whole input, and every partition gets it.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "node/circuit.hpp"
#include "node/input_file.hpp"
#include "zk/base/result.hpp"
#include "zk/circuit/porep.hpp"

namespace zk::node {

struct porep_lite_spec_t {
  uint64_t seed = 0;  // the replica's (zk/circuit/porep.hpp)
};

// The circuit's parameters with the job's partitions and seed (what synthesis runs); throws
// std::invalid_argument naming what does not fit.
circuit::porep_params_t porep_lite_params(const circuit_def_t& c, const porep_lite_spec_t& s,
                                          uint32_t partitions);

check_t check_request(const circuit_def_t& c, const porep_lite_spec_t& s, uint32_t partitions);
result_t<porep_lite_spec_t> take_in(const circuit_def_t& c, porep_lite_spec_t s,
                                    uint32_t partitions, const intake_env_t& env);
// Every partition's input is the spec itself.
porep_lite_spec_t partition_input(const porep_lite_spec_t& s, uint32_t k);
void stored_objects(const porep_lite_spec_t& s, std::vector<stored_object_t>& out);

// The journal's JSON: {"seed": N}.
nlohmann::json spec_json(const porep_lite_spec_t& s);
porep_lite_spec_t porep_lite_spec_from_json(const nlohmann::json& j);

}  // namespace zk::node
