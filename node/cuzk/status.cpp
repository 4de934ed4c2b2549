#include "node/cuzk/status.hpp"

#include <algorithm>
#include <map>

#include "common/buffer/buffer_store.hpp"
#include "node/filecoin_job.hpp"
#include "node/filecoin_snap_job.hpp"

namespace zk::node::cuzk {

namespace fc = zk::filecoin;

namespace {

// "32g", "8m", "2k".
std::string size_label(uint64_t s) {
  const std::string size = s % (uint64_t(1) << 30) == 0   ? std::to_string(s >> 30) + "g"
                           : s % (uint64_t(1) << 20) == 0 ? std::to_string(s >> 20) + "m"
                                                          : std::to_string(s >> 10) + "k";
  return size;
}

}  // namespace

std::string circuit_id_of(const fc::registered_proof_t& proof) {
  return "porep-" + size_label(proof.sector_size);
}

std::string proof_kind_label(circuit_kind_t kind) {
  return kind == circuit_kind_t::filecoin_porep  ? "porep-c2"
         : kind == circuit_kind_t::filecoin_snap ? "snap-update"
                                                 : config::circuit_kind_name(kind);
}

namespace {

// cuzk's id of a configured Filecoin circuit: porep-<size> or snap-<size>.
std::string size_id_of(const circuit_def_t& c) {
  if (c.kind == circuit_kind_t::filecoin_snap)
    return "snap-" + size_label(snap_config(c).sector_size);
  return circuit_id_of(*filecoin_config(c).proof);
}

bool holds(const node_usage_msg& n, const std::string& circuit) {
  return std::find(n.hot_circuits.begin(), n.hot_circuits.end(), circuit) != n.hot_circuits.end();
}

// Whether a live prover holds any of `named` resident.
bool resident(const std::vector<node_usage_msg>& nodes, const std::vector<circuit_def_t>& named) {
  for (const auto& n : nodes)
    if (n.prover && n.alive)
      for (const auto& c : named)
        if (holds(n, c.id)) return true;
  return false;
}

}  // namespace

status_t cluster_status(const std::vector<node_usage_msg>& nodes,
                        const std::vector<job_status_msg>& jobs,
                        const std::vector<circuit_def_t>& circuits, const std::string& caller,
                        std::chrono::seconds uptime) {
  status_t st;
  st.uptime_seconds = uint64_t(std::max<int64_t>(0, uptime.count()));
  std::map<std::string, uint32_t> proving;  // circuit → partitions proving now
  std::map<std::string, queue_status_t> queues{{"porep-c2", {"porep-c2", 0, 0}}};
  for (const auto& j : jobs) {
    if (config::uses_filecoin_params(j.kind) && j.finished) {
      if (j.failed > 0) ++st.total_proofs_failed;
      if (!j.cancelled && j.failed == 0) ++st.total_proofs_completed;
    }
    if (j.finished) continue;
    const std::string kind = proof_kind_label(j.kind);
    queue_status_t& q = queues[kind];
    q.proof_kind = kind;
    if (std::string(job_state(j)) == "queued")
      ++q.pending;
    else
      ++q.in_progress;
    for (size_t k = 0; k < j.part_states.size(); ++k)
      if (j.part_states[k] == "proving") ++proving[j.circuit];
  }
  for (auto& [kind, q] : queues) st.queues.push_back(q);
  uint32_t ordinal = 0;
  for (const auto& n : nodes) {
    if (!n.prover || !n.alive) continue;
    gpu_status_t g;
    g.ordinal = ordinal++;
    g.name = n.name + ": " + (n.backend.empty() ? std::string("cpu") : n.backend);
    for (const auto& j : jobs) {
      if (j.finished) continue;
      for (size_t k = 0; k < j.part_states.size() && k < j.part_nodes.size(); ++k)
        if (j.part_states[k] == "proving" && j.part_nodes[k] == n.name) {
          if (j.owner == caller || caller == "admin")
            g.current_job_id = j.request_id.empty() ? j.id : j.request_id;
          g.current_proof_kind = proof_kind_label(j.kind);
        }
    }
    st.gpus.push_back(std::move(g));
    st.pinned_memory_bytes += n.reserved;
    st.pinned_memory_limit_bytes += n.budget;
  }
  std::map<std::string, srs_status_t> srs;  // by cuzk's circuit id
  for (const auto& c : circuits) {
    if (!config::uses_filecoin_params(c.kind) || !resident(nodes, {c})) continue;
    const std::string id = size_id_of(c);
    srs_status_t& s = srs[id];
    s.circuit_id = id;
    s.ref_count += proving[c.id];
  }
  for (auto& [id, s] : srs) st.loaded_srs.push_back(s);
  return st;
}

answer_t<std::vector<circuit_def_t>> circuits_named(const std::vector<circuit_def_t>& circuits,
                                                    const std::string& circuit_id) {
  std::vector<circuit_def_t> out;
  std::string known;
  for (const auto& c : circuits) {
    if (!config::uses_filecoin_params(c.kind)) continue;
    const std::string id = size_id_of(c);
    known += (known.empty() ? "" : ", ") + id + " (" + c.id + ")";
    if (id == circuit_id || c.id == circuit_id) out.push_back(c);
  }
  if (out.empty())
    return refusal_t{code_t::not_found,
                     "unknown circuit ID: " + circuit_id.substr(0, 128) +
                         " (this cluster's: " + (known.empty() ? "none" : known) + ")"};
  return out;
}

answer_t<srs_moved_t> srs_moved(const std::vector<key_outcome_msg>& outcomes, bool load,
                                const std::string& circuit_id) {
  srs_moved_t m;
  m.already_loaded = true;
  bool refused = false;
  for (const auto& o : outcomes) {
    m.summary += (m.summary.empty() ? "" : "; ") + o.node + ": " + o.outcome;
    if (o.outcome == "refused") {
      refused = true;
      m.summary += ": " + o.why;
    } else if (o.outcome == "loaded") {
      m.already_loaded = false;
      m.load_time_ms = std::max(m.load_time_ms, o.ms);
      m.summary += " in " + std::to_string(o.ms) + " ms";
    } else if (o.outcome == "evicted") {
      m.was_loaded = true;
      m.freed_bytes += o.bytes;
      m.summary += " (" + buffer::format_bytes(o.bytes) + ")";
    }
  }
  if (outcomes.empty())
    return refusal_t{code_t::failed_precondition, "no live prover has filecoin_params for " +
                                                      circuit_id.substr(0, 128) + ": nothing to " +
                                                      (load ? "load" : "evict")};
  if (refused)
    return refusal_t{code_t::failed_precondition, std::string(load ? "PreloadSRS " : "EvictSRS ") +
                                                      circuit_id.substr(0, 128) + ": " + m.summary};
  return m;
}

}  // namespace zk::node::cuzk
