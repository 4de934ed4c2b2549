// PreloadSRS / EvictSRS on the scheduler (docs/api.md "gRPC: Curio's cuzk API"): a Filecoin
// circuit's parameters loaded or released on the provers configured with them (filecoin_params).
// The scheduler decides what may move (a release while a partition of the circuit is placed on
// the prover is refused: it would load them again at once; a load that does not fit the prover's
// budget beside what it holds is refused, naming both), the policy's view follows at once (a key
// being released takes no new partition; a key being loaded counts as resident: the prover's
// worker maps it before any proof it is sent), and the budget holds the key's bytes exactly
// while it is resident. A released key that queued partitions need is loaded again
// (load_for_queued, from schedule()).
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "actors/scheduler_internal.hpp"
#include "common/buffer/buffer_store.hpp"
#include "common/util/log.hpp"

namespace zk::actors {

using namespace zk::node;  // the policy's types
using security::role_t;

namespace {

bool holds(const std::vector<std::string>& hot, const std::string& circuit) {
  return std::find(hot.begin(), hot.end(), circuit) != hot.end();
}

}  // namespace

void scheduler_actor_state::move_key(node_id_t id, const std::string& circuit, bool load,
                                     std::function<void(const key_outcome_msg&)> done) {
  node_ref_t& n = nodes.at(id);
  const uint64_t bytes = n.params.at(circuit);
  key_outcome_msg o{n.name, "", "", bytes, 0};
  const bool hot = holds(n.hot, circuit);
  auto refuse = [&](std::string why) {
    o.outcome = "refused";
    o.why = std::move(why);
    done(o);
  };
  if (n.moving.count(circuit))
    return refuse("a load or release of its parameters is under way: ask again once it is done");
  if (load && hot) return o.outcome = "already loaded", done(o);
  if (!load && !hot) return o.outcome = "not loaded", o.bytes = 0, done(o);
  if (!load) {
    if (auto p = policy.placed_on(id, circuit))
      return refuse("partition " + std::to_string(p->second) + " of job " +
                    jobs.at(p->first).public_id + " (" +
                    part_state_name(policy.state(p->first, p->second)) +
                    ") is placed here: evict once it is done");
    policy.set_resident(id, circuit, false);  // nothing new placed here; the budget once freed
    n.hot.erase(std::find(n.hot.begin(), n.hot.end(), circuit));
  } else {
    const circuit_def_t& c = circuits.at(circuit);
    const uint64_t budget = policy.budget(id), reserved = policy.reserved(id);
    const uint64_t partition = c.buffer_bytes + c.prover_work_bytes;
    if (reserved + bytes > budget || bytes + partition > budget)
      return refuse("its parameters need " + buffer::format_bytes(bytes) + " (and one partition " +
                    buffer::format_bytes(partition) + " beside them); its memory budget has " +
                    buffer::format_bytes(budget - std::min(budget, reserved)) + " free (" +
                    buffer::format_bytes(reserved) + " of " + buffer::format_bytes(budget) +
                    " reserved by partitions)");
    policy.resize_budget(id, bytes, false);
    policy.set_resident(id, circuit, true);
    n.hot.push_back(circuit);
  }
  n.moving.insert(circuit);
  log::info("node " + n.name + ": " + (load ? "loading" : "releasing") + " the parameters of '" +
            circuit + "'");
  // The prover that was asked: a rejoin under the same node id is another one, its state its own.
  const prover_actor asked = n.prover;
  auto settle = [this, id, circuit, load, bytes, asked, done](key_outcome_msg o) {
    auto it = nodes.find(id);
    if (it == nodes.end() || it->second.prover != asked) return done(o);
    node_ref_t& n = it->second;
    n.moving.erase(circuit);
    o.node = n.name;
    const bool moved = load ? (o.outcome == "loaded" || o.outcome == "already loaded")
                            : (o.outcome == "evicted" || o.outcome == "not loaded");
    if (moved && !load) {
      policy.resize_budget(id, bytes, true);
    } else if (!moved) {  // as it was
      policy.set_resident(id, circuit, !load);
      if (load) {
        policy.resize_budget(id, bytes, true);
        n.hot.erase(std::remove(n.hot.begin(), n.hot.end(), circuit), n.hot.end());
      } else if (!holds(n.hot, circuit)) {
        n.hot.push_back(circuit);
      }
    }
    log::info("node " + n.name + ": parameters of '" + circuit + "' " + o.outcome +
              (o.why.empty() ? "" : ": " + o.why));
    done(o);
    schedule();
  };
  self->request(asked, std::chrono::minutes(30), params_atom::value, circuit, load)
      .then([settle](const key_outcome_msg& o) { settle(o); },
            [settle, o](const caf::error& e) mutable {
              o.outcome = "refused";
              o.why = "the prover did not answer: " + describe(e);
              settle(o);
            });
}

caf::result<std::vector<key_outcome_msg>> scheduler_actor_state::move_params(
    const std::string& token, const std::string& circuit, bool load) {
  auto client = who(token, role_t::client);
  if (!client) return client.error();
  auto c = circuits.find(circuit);
  if (c == circuits.end() || !config::uses_filecoin_params(c->second.kind))
    return caf::make_error(zk_errc::bad_request,
                           "'" + circuit.substr(0, max_id_length) +
                               "' is not a filecoin-porep or filecoin-snap circuit of this "
                               "scheduler");
  std::vector<node_id_t> provers;
  for (const auto& [id, n] : nodes)
    if (n.prover && n.params.count(circuit)) provers.push_back(id);
  if (provers.empty()) return std::vector<key_outcome_msg>();
  struct gather_t {
    caf::typed_response_promise<std::vector<key_outcome_msg>> rp;
    std::vector<key_outcome_msg> out;
    size_t left = 0;
  };
  auto g = std::make_shared<gather_t>();
  g->rp = self->make_response_promise<std::vector<key_outcome_msg>>();
  g->left = provers.size();
  log::info(client->name + " asks every prover to " + (load ? "load" : "release") +
            " the parameters of '" + circuit + "'");
  for (node_id_t id : provers)
    move_key(id, circuit, load, [g](const key_outcome_msg& o) {
      g->out.push_back(o);
      if (--g->left == 0) g->rp.deliver(g->out);
    });
  return g->rp;
}

bool scheduler_actor_state::load_for_queued() {
  bool started = false;
  for (const std::string& circuit : policy.queued_circuits()) {
    if (!config::uses_filecoin_params(circuits.at(circuit).kind)) continue;
    bool held = false, able = false;
    for (const auto& [id, n] : nodes) {
      if (!n.prover || !n.params.count(circuit)) continue;
      held |= holds(n.hot, circuit) || n.moving.count(circuit);
      able = true;
    }
    if (held || !able) continue;
    for (const auto& [id, n] : nodes) {
      if (!n.prover || !n.params.count(circuit) || policy.draining(id)) continue;
      move_key(id, circuit, true, [](const key_outcome_msg&) {});  // it logs what happened
      if (!holds(nodes.at(id).hot, circuit)) continue;  // refused now (its budget): the next one
      log::info("node " + n.name + ": loading the parameters of '" + circuit +
                "' again for its queued partitions");
      started = true;
      break;
    }
  }
  return started;
}

}  // namespace zk::actors
