#include "node/job_inputs.hpp"

#include <filesystem>

#include "node/filecoin_job.hpp"
#include "node/synth/witness_generator.hpp"
#include "zk/circuit/porep.hpp"
#include "zk/formats/wtns.hpp"

namespace zk::node {

bool is_input_json(const std::string& path) {
  return path.size() >= 5 && path.compare(path.size() - 5, 5, ".json") == 0;
}

std::optional<std::string> check_job_inputs(const circuit_def_t& c,
                                            const std::vector<std::string>& inputs,
                                            uint32_t partitions) {
  if (partitions == 0) return "a job needs at least one partition";
  if (c.kind == circuit_kind_t::circom) {
    if (inputs.size() != 1 && inputs.size() != partitions)
      return "circuit '" + c.id +
             "' takes one .wtns for every partition or one per partition, got " +
             std::to_string(inputs.size()) + " inputs for " + std::to_string(partitions) +
             " partitions";
    for (const auto& path : inputs) {
      if (is_input_json(path)) {
        if (c.witness_generator.empty()) return no_witness_generator(c) + " (got " + path + ")";
        if (!std::filesystem::is_regular_file(path)) return path + ": no such input file";
        continue;
      }
      if (!std::filesystem::is_regular_file(path)) return path + ": no such witness file";
      // The witness must be of this circuit: its field, and one value per wire.
      try {
        formats::wtns_file_t w(path);
        if (w.curve() != c.curve)
          return path + ": the witness is over another field than circuit '" + c.id + "' (" +
                 curve_name(c.curve) + ")";
        if (w.n_witness() != c.n_vars)
          return path + ": the witness has " + std::to_string(w.n_witness()) +
                 " values, circuit '" + c.id + "' has " + std::to_string(c.n_vars) + " wires";
      } catch (const std::exception& e) {
        return e.what();  // names the file and what is wrong with it, never its content
      }
    }
    return std::nullopt;
  }
  if (c.kind == circuit_kind_t::filecoin_porep) return check_filecoin_job(c, inputs, partitions);
  if (inputs.size() > 1) return "circuit '" + c.id + "' takes at most one input (seed=N)";
  if (!inputs.empty() && !inputs[0].empty()) {
    if (inputs[0].rfind("seed=", 0) != 0 || inputs[0].find(',') != std::string::npos)
      return "circuit '" + c.id + "': input '" + inputs[0] + "' is not seed=N";
    try {
      circuit::porep_params_t::parse(c.native_params + ",partitions=" + std::to_string(partitions) +
                                     "," + inputs[0]);
    } catch (const std::exception& e) {
      return "circuit '" + c.id + "': " + e.what();
    }
  }
  return std::nullopt;
}

namespace {

// `p` lies inside `root` (both canonical): root is a whole-component prefix of p.
bool inside(const std::filesystem::path& p, const std::filesystem::path& root) {
  auto r = root.begin(), q = p.begin();
  for (; r != root.end(); ++r, ++q) {
    if (r->empty()) continue;  // a trailing separator
    if (q == p.end() || *q != *r) return false;
  }
  return true;
}

}  // namespace

std::optional<std::string> check_input_roots(const circuit_def_t& c,
                                             const std::vector<std::string>& inputs,
                                             const std::vector<std::string>& roots) {
  if (c.kind == circuit_kind_t::porep_lite) return std::nullopt;
  namespace fs = std::filesystem;
  for (const auto& path : inputs) {
    if (c.kind == circuit_kind_t::filecoin_porep && is_filecoin_arg(path))
      continue;  // prover_id=, sector=: not files
    if (roots.empty())
      return "input " + path +
             ": this cluster takes no file inputs (scheduler.input_roots is empty)";
    std::error_code ec;
    const fs::path real = fs::canonical(path, ec);
    if (ec) return "input " + path + ": no such file";
    bool ok = false;
    for (const auto& root : roots) {
      std::error_code rec;
      const fs::path r = fs::canonical(root, rec);
      if (!rec && inside(real, r)) ok = true;
    }
    if (!ok) return "input " + path + ": not under any of scheduler.input_roots";
  }
  return std::nullopt;
}

}  // namespace zk::node
