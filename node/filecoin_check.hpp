#pragma once
// What `zkfleet config check` reads of a node's Filecoin entries (common/config/check.hpp
// check_options_t::node_files), so that a farm's config is refused at check time, not by a node at
// start or by the first proof:
//   circuits.ID.vk           (a scheduler) the .vk of the registered proof's circuit: not a .params
//                            (the parameters' file, said so), not another circuit's key (its IC
//                            points against the circuit's inputs)
//   filecoin_params.ID       (a prover) a .params of the circuit: not a .vk (said so), its
//                            verifying key and section sizes those of the registered proof's
//                            circuit (parameters of another one are named as such), its
//                            verifying key the one of circuits.ID.vk where this host has that file
//                            (a .vk of another proof with as many inputs is told only so)
//   resources.memory_budget  (a prover) holds its .params resident and one partition beside them,
//                            counted as the node counts them at start (actors/node.cpp)
// Files that do not exist are the generic check's (it names them); they are skipped here.
#include <functional>
#include <string>

#include "common/config/config.hpp"

namespace zk::node {

using config_problem_t = std::function<void(const std::string& key, const std::string& what)>;

void check_filecoin_entries(const config::config_t& cfg, const config::node_t& n,
                            const config_problem_t& problem);

}  // namespace zk::node
