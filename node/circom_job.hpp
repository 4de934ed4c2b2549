#pragma once
// A circom circuit's jobs (node/job_spec.hpp): every partition proves the circuit of a witness,
// the same one for all partitions or one per partition. A witness comes as a .wtns, or as an
// input.json that the circuit's witness generator (its config's, never the job's) turns into one
// on the synthesis node.
//
//   submit     check_request: one input for every partition or one per partition, each a
//              well-formed path or stored object; take_in (the scheduler's checker thread): each
//              file found (a path under scheduler.input_roots, or an object of the store), a .wtns
//              of the circuit's field with one value per wire (its header only), an input.json
//              only for a circuit with a witness generator
//   dispatch   partition k gets its own input (or the one for all)
//   synthesis  node/synth/synthesize.hpp
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "node/circuit.hpp"
#include "node/input_file.hpp"
#include "zk/base/result.hpp"

namespace zk::node {

struct circom_input_t {
  enum class form_t : uint8_t { wtns = 0, input_json = 1 };
  form_t form = form_t::wtns;
  input_file_t file;  // stored: an object of type wtns or json, as its form
};

struct circom_spec_t {
  std::vector<circom_input_t> inputs;  // one for every partition, or one per partition
};

// A path's form, by its name: ".json" an input.json, anything else a .wtns (the one place a file's
// name decides anything: where a user names it, the command line).
circom_input_t::form_t circom_form_of_path(const std::string& path);

// The cheap checks (counts, forms, names): they pass, or refuse with the reason.
check_t check_request(const circuit_def_t& c, const circom_spec_t& s, uint32_t partitions);
// The files found and checked (see the top); the spec as it was, or the reason.
result_t<circom_spec_t> take_in(const circuit_def_t& c, circom_spec_t s, uint32_t partitions,
                                const intake_env_t& env);
// Partition k's input.
circom_input_t partition_input(const circom_spec_t& s, uint32_t k);
void stored_objects(const circom_spec_t& s, std::vector<stored_object_t>& out);

// The journal's JSON (node/job_spec.hpp): {"files": [{"form": "wtns"|"input_json", "path": P} or
// {"form": …, "stored": "sha256:<hex>.<ext>"}, …]}. from_json throws std::invalid_argument naming
// the field.
nlohmann::json spec_json(const circom_spec_t& s);
circom_spec_t circom_spec_from_json(const nlohmann::json& j);

}  // namespace zk::node
