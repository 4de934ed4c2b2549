// The scheduler's node registry: joins and losses.
#include <algorithm>
#include <iterator>
#include <string>

#include "actors/scheduler_internal.hpp"
#include "common/net/endpoint.hpp"
#include "common/net/ticket.hpp"
#include "common/util/log.hpp"

namespace zk::actors {

using namespace zk::node;  // the policy's types
using security::role_t;

caf::result<node_id_t> scheduler_actor_state::join(const std::string& token,
                                                   const node_join_msg& m) {
  auto id_of = who(token, role_t::node);
  if (!id_of) return id_of.error();
  const auto& r = m.resources;
  if (id_of->name != r.name) {
    log::warn("refused a join as " + r.name.substr(0, max_id_length) + " from node " + id_of->name +
              ": a node joins only under its certificate's name");
    return caf::make_error(zk_errc::forbidden,
                           "node " + id_of->name + " may join only as " + id_of->name);
  }
  if (r.data_endpoint.size() > max_path_length || r.hot_keys.size() > circuits.size() ||
      r.backend.size() > max_id_length || r.param_circuits.size() > circuits.size() ||
      r.param_circuits.size() != r.param_bytes.size())
    return caf::make_error(zk_errc::bad_request, "the join of " + r.name + " is malformed");
  std::map<std::string, uint64_t> params;
  for (size_t i = 0; m.prover && i < r.param_circuits.size(); ++i) {
    auto c = circuits.find(r.param_circuits[i]);
    if (c == circuits.end() || !config::uses_filecoin_params(c->second.kind))
      return caf::make_error(zk_errc::bad_request,
                             "node " + r.name + ": filecoin_params." +
                                 r.param_circuits[i].substr(0, max_id_length) +
                                 " is not a filecoin-porep or filecoin-snap circuit of this "
                                 "scheduler");
    params[c->first] = r.param_bytes[i];
  }
  for (const auto& k : r.hot_keys)
    if (!circuits.count(k))
      return caf::make_error(zk_errc::bad_request, "node " + r.name + ": hot circuit '" +
                                                       k.substr(0, max_id_length) +
                                                       "' is not a circuit of this scheduler");
  const auto ep = net::data_endpoint_t::parse(r.data_endpoint);
  if (m.prover && (!ep || (ep->is_tcp() && r.transfer_key.size() != net::transfer_key_t{}.size())))
    return caf::make_error(
        zk_errc::bad_request,
        "node " + r.name + ": a prover needs a data endpoint and its transfer key");
  for (const auto& [id, n] : nodes)  // a second process for the same node would count twice
    if (n.name == r.name && (n.synthesizer || n.prover))
      return caf::make_error(zk_errc::bad_request, "a node named " + n.name +
                                                       " is already in the cluster: stop it first, "
                                                       "or give this one another name");
  node_spec_t spec;
  spec.name = r.name;
  spec.synth = bool(m.synthesizer);
  spec.prover = bool(m.prover);
  spec.cores = std::min(1024u, std::max(1u, r.cores));
  spec.memory_budget = r.memory_budget;
  spec.hot_keys.insert(r.hot_keys.begin(), r.hot_keys.end());
  node_id_t id = policy.add_node(spec);
  log::info("node " + spec.name + " joined" + (spec.synth ? " (synth)" : "") +
            (spec.prover ? " (prover)" : ""));
  nodes[id] = {spec.name,
               m.synthesizer,
               m.prover,
               r.data_endpoint,
               r.transfer_key,
               spec.synth,
               spec.prover,
               m.prover ? r.backend : "",
               m.prover ? r.hot_keys : std::vector<std::string>(),
               std::move(params),
               {}};
  if (m.synthesizer) self->monitor(m.synthesizer);
  if (m.prover) self->monitor(m.prover);
  // Finished buffers it kept (it outlived its scheduler, or a send failed): each goes to the
  // queued partition it is for, held there; any other is freed.
  size_t kept = 0;
  for (size_t i = 0; m.synthesizer && i < m.held.size(); ++i) {
    const held_buffer_msg& h = m.held[i];
    auto j = jobs.find(h.job);
    const bool wanted = i < max_held && j != jobs.end() && j->second.public_id == h.job_key &&
                        h.partition < j->second.request.partitions &&
                        policy.hold(h.job, h.partition, id, h.size);
    if (wanted) {
      held[{h.job, h.partition}] = {id, h.buffer_id};
      ++kept;
    } else {
      self->send(m.synthesizer, release_atom::value, h.buffer_id);
    }
  }
  if (!m.held.empty())
    log::info("node " + spec.name + " holds " + std::to_string(m.held.size()) +
              " finished buffers: " + std::to_string(kept) + " kept for their partitions");
  schedule();
  return id;
}

void scheduler_actor_state::node_down(const caf::down_msg& m) {
  for (auto& [id, n] : nodes) {
    if (n.synthesizer.address() != m.source && n.prover.address() != m.source) continue;
    log::warn("node " + n.name +
              " lost: its partitions in flight are queued again, or failed past max_attempts");
    policy.remove_node(id,
                       to_string(zk_errc::node_lost) + ": node " + n.name + " left the cluster");
    n.synthesizer = nullptr;
    n.prover = nullptr;
    for (auto h = held.begin(); h != held.end();)  // its buffers went with it
      h = h->second.first == id ? held.erase(h) : std::next(h);
    // Partitions that were on it are queued again (or failed); forget their old placement (a
    // late report of that attempt is then dropped), and free a buffer a surviving synthesis node
    // still holds for them (as failed() and cancel() do).
    for (auto it = parts.begin(); it != parts.end();) {
      const part_state_t st = policy.state(it->first.first, it->first.second);
      if (st == part_state_t::queued || st == part_state_t::failed) {
        release_buffer(it->second);
        it = parts.erase(it);
      } else {
        ++it;
      }
    }
  }
  for (auto& [id, j] : jobs) settle(id);
  schedule();
}

}  // namespace zk::actors
