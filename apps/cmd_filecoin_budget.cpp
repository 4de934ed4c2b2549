// zkfleet filecoin budget --registered-proof NAME [--wire packed|full] [--json]
// zkfleet filecoin budget --registered-update-proof NAME [--json]   (SnapDeals: the full wire)
//
// What one partition of a registered proof's circuit takes on the nodes, from the circuit's
// shape (node/filecoin_memory.hpp; docs/filecoin.md "Budgets at 32 GiB"): the synthesis node's
// buffer and what it ships, the prover's work arrays, its decoded parameters and the sections a
// .params of this circuit has. Nothing is synthesized but the circuit's structure (its shape, for
// the densities the parameters follow: about 16 s and 0.6 GB at 32 GiB).
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "apps/cmd_filecoin.hpp"
#include "apps/commands.hpp"
#include "common/buffer/buffer_store.hpp"
#include "node/filecoin_memory.hpp"
#include "zk/filecoin/api/registry.hpp"
#include "zk/filecoin/porep/circuit/circuit.hpp"
#include "zk/filecoin/update/circuit.hpp"

namespace zk::apps {
namespace {

namespace fc = zk::filecoin;
using ojson_t = nlohmann::ordered_json;

int run_budget(const opt_t& proof, const opt_t& update_proof, const opt_t& wire_opt,
               const opt_t& json) {
  if (proof.given() == update_proof.given())
    throw usage_error(
        "give one of --registered-proof NAME (PoRep C2) and --registered-update-proof NAME "
        "(SnapDeals)");
  const bool update = update_proof.given();
  const std::string wire_name = wire_opt.given() ? wire_opt.one() : update ? "full" : "packed";
  if (wire_name != "packed" && wire_name != "full")
    throw usage_error("--wire " + wire_name + ": expected packed or full");
  if (update && wire_name != "full")
    throw usage_error("--wire " + wire_name +
                      ": a SnapDeals update's partitions cross the data plane in full (the packed "
                      "wire's rebuild of the update circuit is not built yet)");
  const config::wire_t wire = wire_name == "packed" ? config::wire_t::packed : config::wire_t::full;
  // The circuit's shape (for the densities its parameters follow) and layout; an unknown proof
  // throws std::invalid_argument naming it: a usage error.
  std::shared_ptr<const bellperson::r1cs_shape_t> shape;
  const fc::circuit_layout_t* layout = nullptr;
  if (update) {
    const fc::update_config_t uc =
        fc::update_config(fc::registered_update_proof(update_proof.one()));
    shape = fc::update_circuit_shape(uc, /*matrices=*/false);
    layout = &fc::update_circuit_layout(uc);
  } else {
    const fc::circuit_config_t cc =
        fc::circuit_config(fc::porep_config(fc::registered_proof(proof.one())));
    shape = fc::circuit_shape(cc, /*matrices=*/false);
    layout = &fc::circuit_layout(cc);
  }
  const node::partition_memory_t m =
      node::filecoin_partition_memory(layout->total, layout->field_aux, wire);
  const uint64_t params = node::filecoin_params_bytes(*shape);
  const uint64_t nb = uint64_t(shape->b_input.count()) + shape->b_aux.count();
  ojson_t out;
  if (update)
    out["registered_update_proof"] = update_proof.one();
  else
    out["registered_proof"] = proof.one();
  out["wire"] = wire_name;
  out["constraints"] = shape->counts.constraints;
  out["inputs"] = shape->counts.inputs;
  out["aux"] = shape->counts.aux;
  out["domain_size"] = m.domain_size;
  out["payload_bytes"] = m.payload_bytes;
  out["buffer_bytes"] = m.buffer_bytes;
  out["wire_bytes"] = m.wire_bytes;
  out["prover_work_bytes"] = m.prover_work_bytes;
  out["params_bytes"] = params;
  out["params_sections"] = {{"ic", shape->counts.inputs},
                            {"h", m.domain_size - 1},
                            {"l", shape->counts.aux},
                            {"a", uint64_t(shape->counts.inputs) + shape->a_aux.count()},
                            {"b_g1", nb},
                            {"b_g2", nb}};
  // A prover's least budget: its parameters and one partition (its buffer and the work arrays).
  out["prover_one_partition_bytes"] = params + m.buffer_bytes + m.prover_work_bytes;
  if (json.given()) {
    std::printf("%s\n", out.dump(2).c_str());
    return 0;
  }
  for (const auto& [key, v] : out.items()) {
    if (v.is_number_unsigned() && key.size() > 6 && key.substr(key.size() - 6) == "_bytes")
      std::printf("%-27s %s (%s)\n", (key + ":").c_str(), v.dump().c_str(),
                  buffer::format_bytes(v.get<uint64_t>()).c_str());
    else
      std::printf("%-27s %s\n", (key + ":").c_str(),
                  v.is_string() ? v.get<std::string>().c_str() : v.dump().c_str());
  }
  return 0;
}

}  // namespace

filecoin_sub_t add_filecoin_budget(CLI::App* group) {
  CLI::App* app = add_command(
      *group, "budget",
      "what one partition of a registered proof's (or update proof's) circuit takes on the nodes, "
      "from the circuit's shape: the synthesis node's buffer, the bytes on the wire, the "
      "prover's work arrays and decoded parameters");
  const opt_t proof = add_value(app, "--registered-proof", "NAME",
                                "the registered seal proof (StackedDrg32GiBV1_1, ...)");
  const opt_t update_proof =
      add_value(app, "--registered-update-proof", "NAME",
                "instead: a SnapDeals update's circuit (StackedDrg32GiBV1, ...; the full wire)");
  const opt_t wire = add_value(app, "--wire", "packed|full",
                               "the circuit's wire (default packed: the synthesis node's buffer "
                               "is the packed witness at its largest)");
  const opt_t json = add_flag(app, "--json", "print the figures as JSON");
  return {app,
          [proof, update_proof, wire, json] { return run_budget(proof, update_proof, wire, json); },
          "filecoin budget takes options only"};
}

}  // namespace zk::apps
