// Schema v1's job inputs (length-prefixed strings) read into typed specs, once, by the journal's
// migration to schema v2 (node/scheduler/journal_schema.cpp). The only code left that reads those
// strings: delete it when v1 journals are no longer read.
#include <stdexcept>

#include "node/job_spec.hpp"
#include "zk/base/hex.hpp"

namespace zk::node {

namespace {

bool starts_with(const std::string& s, std::string_view prefix) {
  return s.compare(0, prefix.size(), prefix) == 0;
}

uint64_t parse_u64(const std::string& n, const std::string& what) {
  if (n.empty() || n.size() > 20 || n.find_first_not_of("0123456789") != std::string::npos ||
      (n.size() == 20 && n > "18446744073709551615"))
    throw std::invalid_argument(what + " '" + n.substr(0, 40) + "' is not a number (0 to 2^64-1)");
  return std::stoull(n);
}

// A v1 input naming a file: an upload reference, or a path.
input_file_t file_of_v1(const std::string& in) {
  if (auto o = parse_upload(in)) return input_file_t::of(*o);
  if (starts_with(in, upload_prefix))
    throw std::invalid_argument("'" + in.substr(0, 100) + "' is not an upload reference");
  return input_file_t::at(in);
}

}  // namespace

job_spec_t job_spec_from_v1(const std::vector<std::string>& inputs) {
  constexpr std::string_view prover_key = "prover_id=", sector_key = "sector=", seed_key = "seed=";
  bool filecoin = false;
  for (const auto& in : inputs)
    filecoin |= starts_with(in, prover_key) || starts_with(in, sector_key);
  if (filecoin) {  // one C1 and the two arguments, in any order
    filecoin_porep_spec_t s;
    bool c1 = false, prover = false, sector = false;
    for (const auto& in : inputs) {
      if (starts_with(in, prover_key)) {
        if (prover) throw std::invalid_argument("prover_id is given twice");
        prover = true;
        s.prover_id = parse_hex32(in.substr(prover_key.size()), "prover_id");
      } else if (starts_with(in, sector_key)) {
        if (sector) throw std::invalid_argument("sector is given twice");
        sector = true;
        s.sector = parse_u64(in.substr(sector_key.size()), "sector");
      } else {
        if (c1) throw std::invalid_argument("a second C1 (" + in.substr(0, 100) + ")");
        c1 = true;
        s.c1 = file_of_v1(in);
      }
    }
    if (!c1 || !prover || !sector)
      throw std::invalid_argument("a Filecoin job without its C1, prover_id or sector");
    return {s};
  }
  if (inputs.empty() || (inputs.size() == 1 && inputs[0].empty())) return {porep_lite_spec_t{}};
  if (inputs.size() == 1 && starts_with(inputs[0], seed_key))
    return {porep_lite_spec_t{parse_u64(inputs[0].substr(seed_key.size()), "seed")}};
  circom_spec_t s;
  for (const auto& in : inputs) {
    if (in.empty())
      throw std::invalid_argument("an empty input among " + std::to_string(inputs.size()));
    circom_input_t c;
    c.file = file_of_v1(in);
    c.form = c.file.stored()
                 ? (c.file.object.type == object_type_t::json ? circom_input_t::form_t::input_json
                                                              : circom_input_t::form_t::wtns)
                 : circom_form_of_path(in);
    if (c.file.stored() && c.file.object.type == object_type_t::partition)
      throw std::invalid_argument("'" + in.substr(0, 100) + "' is no circom input");
    s.inputs.push_back(std::move(c));
  }
  return {s};
}

}  // namespace zk::node
