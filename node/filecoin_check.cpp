#include "node/filecoin_check.hpp"

#include <filesystem>
#include <map>
#include <memory>

#include "common/buffer/buffer_store.hpp"
#include "node/filecoin_job.hpp"
#include "node/filecoin_snap_job.hpp"
#include "zk/bellperson/groth16/files.hpp"

namespace zk::node {

namespace fs = std::filesystem;
using config::circuit_kind_t;
using config::node_role_t;

namespace {

bool is_file(const std::string& path) {
  std::error_code ec;
  return !path.empty() && fs::is_regular_file(path, ec);
}

// What the file is when it is not what its key wants: a .params read as a .vk or the reverse.
bool opens_as_params(const std::string& path) {
  try {
    bellperson::params_file_t f(path, bellperson::params_file_t::mode_t::unchecked);
    return true;
  } catch (const std::exception&) {
    return false;
  }
}
bool opens_as_vk(const std::string& path) {
  try {
    (void)bellperson::read_vk_file(path);
    return true;
  } catch (const std::exception&) {
    return false;
  }
}

}  // namespace

void check_filecoin_entries(const config::config_t& cfg, const config::node_t& n,
                            const config_problem_t& problem) {
  // Each circuit's description, made once from its layout (the counts: no digest, so no shape);
  // null when its entry did not read (that problem is reported already).
  std::map<std::string, std::unique_ptr<circuit_def_t>> defs;
  auto def_of = [&](const config::circuit_t& ci) -> const circuit_def_t* {
    auto it = defs.find(ci.id);
    if (it != defs.end()) return it->second.get();
    std::unique_ptr<circuit_def_t> d;
    try {
      if (!ci.registered_proof.empty())
        d = std::make_unique<circuit_def_t>(
            ci.kind == circuit_kind_t::filecoin_snap
                ? snap_circuit_counts(ci.id, ci.registered_proof)
                : filecoin_circuit_counts(ci.id, ci.registered_proof, ci.wire));
    } catch (const std::exception&) {
    }
    return defs.emplace(ci.id, std::move(d)).first->second.get();
  };

  if (n.has(node_role_t::scheduler))
    for (const auto& ci : cfg.circuits) {
      if (!config::uses_filecoin_params(ci.kind) || !is_file(ci.vk)) continue;
      const std::string key = "circuits." + ci.id + ".vk";
      if (opens_as_params(ci.vk)) {
        problem(key, ci.vk + " is a .params file (the proving parameters), not a .vk: give the " +
                         ".vk of the same parameters (zkfleet filecoin setup writes both; " +
                         "Filecoin's parameter cache has a .vk beside each .params)");
        continue;
      }
      const circuit_def_t* d = def_of(ci);
      if (!d) continue;
      try {
        check_filecoin_vk(*d, ci.vk);
      } catch (const std::exception& e) {
        problem(key, e.what());
      }
    }

  if (!n.has(node_role_t::prover) || n.filecoin_params.empty()) return;
  uint64_t resident = 0;
  std::vector<std::pair<std::string, const circuit_def_t*>> fitting;  // key → circuit
  for (const auto& [id, path] : n.filecoin_params) {
    const std::string key = "filecoin_params." + id;
    const config::circuit_t* ci = cfg.find_circuit(id);
    if (!ci || !config::uses_filecoin_params(ci->kind) || !is_file(path)) continue;
    std::error_code ec;
    resident += fs::file_size(path, ec);
    const circuit_def_t* d = def_of(*ci);
    std::unique_ptr<bellperson::params_file_t> f;
    try {
      f = std::make_unique<bellperson::params_file_t>(path,
                                                      bellperson::params_file_t::mode_t::unchecked);
    } catch (const std::exception& e) {
      if (opens_as_vk(path))
        problem(key, path + " is a .vk file (the verifying key), not the .params: give the " +
                         ".params (the verifying key goes in circuits." + id + ".vk)");
      else
        problem(key, e.what());
      continue;
    }
    if (!d) continue;
    const uint64_t ic = f->vk().ic.size(), h = f->h().count, l = f->l().count;
    const uint64_t aux = d->n_vars - d->n_public - 1;
    if (ic != d->n_public + 1 || h + 1 != d->domain_size || l != aux) {
      problem(key, path + ": parameters of another circuit than " + ci->registered_proof + "'s (" +
                       std::to_string(ic) + " inputs, a domain of " + std::to_string(h + 1) + ", " +
                       std::to_string(l) + " aux variables; the circuit has " +
                       std::to_string(d->n_public + 1) + ", " + std::to_string(d->domain_size) +
                       ", " + std::to_string(aux) + ")");
      continue;
    }
    fitting.push_back({id, d});
    // The circuit's .vk, where this host has it: the verifying key these parameters carry (a .vk
    // of another registered proof with as many inputs, or of another setup, is told only so).
    if (is_file(ci->vk) && !opens_as_params(ci->vk)) {
      try {
        const auto vk = bellperson::read_vk_file(ci->vk).vk;
        const auto& pv = f->vk();
        if (!(vk.alpha_g1 == pv.alpha_g1 && vk.beta_g2 == pv.beta_g2 &&
              vk.gamma_g2 == pv.gamma_g2 && vk.delta_g2 == pv.delta_g2 && vk.ic == pv.ic))
          problem(key, path + ": its verifying key is not circuits." + id + ".vk (" + ci->vk +
                           "): the two are of different parameters (another registered " +
                           "proof's, or another setup's); proofs made with these would not " +
                           "verify");
      } catch (const std::exception&) {  // a .vk that does not read: the scheduler's check says so
      }
    }
  }
  const uint64_t budget = n.resources.memory_budget;
  if (budget == 0 || resident == 0) return;
  if (resident >= budget) {
    problem("resources.memory_budget",
            buffer::format_bytes(budget) + " does not hold the node's filecoin_params (" +
                buffer::format_bytes(resident) + " resident): raise it or give fewer parameters");
    return;
  }
  for (const auto& [id, d] : fitting)
    if (d->buffer_bytes + d->prover_work_bytes > budget - resident)
      problem("resources.memory_budget",
              buffer::format_bytes(budget) + " holds the filecoin_params (" +
                  buffer::format_bytes(resident) + ") but not one partition of '" + id +
                  "' beside them (buffer " + buffer::format_bytes(d->buffer_bytes) + " + work " +
                  buffer::format_bytes(d->prover_work_bytes) + ", " +
                  buffer::format_bytes(budget - resident) + " left)");
}

}  // namespace zk::node
