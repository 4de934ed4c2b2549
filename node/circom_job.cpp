#include "node/circom_job.hpp"

#include <filesystem>

#include "node/synth/witness_generator.hpp"
#include "zk/formats/wtns.hpp"

namespace zk::node {

namespace {

const char* form_name(circom_input_t::form_t f) {
  return f == circom_input_t::form_t::input_json ? "input_json" : "wtns";
}

object_type_t object_type_of(circom_input_t::form_t f) {
  return f == circom_input_t::form_t::input_json ? object_type_t::json : object_type_t::wtns;
}

}  // namespace

circom_input_t::form_t circom_form_of_path(const std::string& path) {
  const bool json = path.size() >= 5 && path.compare(path.size() - 5, 5, ".json") == 0;
  return json ? circom_input_t::form_t::input_json : circom_input_t::form_t::wtns;
}

check_t check_request(const circuit_def_t& c, const circom_spec_t& s, uint32_t partitions) {
  if (s.inputs.empty()) return "circuit '" + c.id + "': the job names no witness";
  if (s.inputs.size() > partitions)
    return std::to_string(s.inputs.size()) + " inputs for " + std::to_string(partitions) +
           " partitions: at most one per partition";
  if (s.inputs.size() != 1 && s.inputs.size() != partitions)
    return "circuit '" + c.id + "' takes one .wtns for every partition or one per partition, got " +
           std::to_string(s.inputs.size()) + " inputs for " + std::to_string(partitions) +
           " partitions";
  for (const auto& in : s.inputs) {
    if (check_t why = check_input_file(in.file); !why) return why.reason();
    if (in.file.stored() && in.file.object.type != object_type_of(in.form))
      return "input " + in.file.object.name() + " is not a " +
             (in.form == circom_input_t::form_t::wtns ? ".wtns" : "JSON object");
  }
  return {};
}

result_t<circom_spec_t> take_in(const circuit_def_t& c, circom_spec_t s, uint32_t partitions,
                                const intake_env_t& env) {
  if (check_t why = check_request(c, s, partitions); !why) return why.reason();
  for (const auto& in : s.inputs) {
    auto f = resolve_input(in.file, env);
    if (!f) return f.error();
    if (in.form == circom_input_t::form_t::input_json) {
      if (c.witness_generator.empty()) return no_witness_generator(c) + " (got " + f->name + ")";
      if (!std::filesystem::is_regular_file(f->path)) return f->name + ": no such input file";
      continue;
    }
    if (!std::filesystem::is_regular_file(f->path)) return f->name + ": no such witness file";
    // The witness must be of this circuit: its field, and one value per wire.
    try {
      formats::wtns_file_t w(f->path);
      if (w.curve() != c.curve)
        return f->name + ": the witness is over another field than circuit '" + c.id + "' (" +
               curve_name(c.curve) + ")";
      if (w.n_witness() != c.n_vars)
        return f->name + ": the witness has " + std::to_string(w.n_witness()) +
               " values, circuit '" + c.id + "' has " + std::to_string(c.n_vars) + " wires";
    } catch (const std::exception& e) {
      return f->named(e.what());  // names the file and what is wrong with it, never its content
    }
  }
  return s;
}

circom_input_t partition_input(const circom_spec_t& s, uint32_t k) {
  return s.inputs.size() == 1 ? s.inputs[0] : s.inputs.at(k);
}

void stored_objects(const circom_spec_t& s, std::vector<stored_object_t>& out) {
  for (const auto& in : s.inputs)
    if (in.file.stored()) out.push_back(in.file.object);
}

nlohmann::json spec_json(const circom_spec_t& s) {
  nlohmann::json files = nlohmann::json::array();
  for (const auto& in : s.inputs) {
    nlohmann::json f = {{"form", form_name(in.form)}};
    add_json(f, in.file);
    files.push_back(std::move(f));
  }
  return {{"files", std::move(files)}};
}

circom_spec_t circom_spec_from_json(const nlohmann::json& j) {
  if (!j.contains("files") || !j["files"].is_array())
    throw std::invalid_argument("circom: \"files\" is not an array");
  circom_spec_t s;
  for (size_t i = 0; i < j["files"].size(); ++i) {
    const nlohmann::json& f = j["files"][i];
    const std::string what = "circom: files[" + std::to_string(i) + "]";
    if (!f.is_object() || !f.contains("form") || !f["form"].is_string())
      throw std::invalid_argument(what + ".form is not a string");
    circom_input_t in;
    const std::string form = f["form"];
    if (form == form_name(circom_input_t::form_t::wtns))
      in.form = circom_input_t::form_t::wtns;
    else if (form == form_name(circom_input_t::form_t::input_json))
      in.form = circom_input_t::form_t::input_json;
    else
      throw std::invalid_argument(what + ".form '" + form.substr(0, 40) +
                                  "' is not wtns or input_json");
    in.file = input_file_from_json(f, what);
    s.inputs.push_back(std::move(in));
  }
  return s;
}

}  // namespace zk::node
