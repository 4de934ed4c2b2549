// The JSON of the API's answers (docs/api.md) and its error answers.
#include "common/config/config.hpp"
#include "node/api/service.hpp"

namespace zk::node {

json job_json(const job_status_msg& s, bool parts) {
  json j = {{"id", s.id},
            {"seq", s.seq},
            {"owner", s.owner},
            {"circuit", s.circuit},
            {"state", job_state(s)},
            {"priority", config::priority_name(s.priority)},
            {"done", s.done},
            {"failed", s.failed},
            {"partition_count", s.partitions},
            {"submitted_ms", s.submitted_ms}};
  if (!s.request_id.empty()) j["request_id"] = s.request_id;  // the client's own name of it
  if (!s.waiting.empty()) j["waiting"] = s.waiting;
  if (!s.error.empty()) j["error"] = s.error;
  if (parts) {
    json list = json::array();
    for (size_t k = 0; k < s.part_states.size(); ++k) {
      json p = {{"partition", k}, {"state", s.part_states[k]}};
      if (k < s.part_nodes.size() && !s.part_nodes[k].empty()) p["node"] = s.part_nodes[k];
      list.push_back(p);
    }
    j["partitions"] = list;
  }
  return j;
}

json node_json(const node_usage_msg& n) {
  json roles = json::array();
  if (n.synth) roles.push_back("synth");
  if (n.prover) roles.push_back("prover");
  return {{"name", n.name},
          {"roles", roles},
          {"alive", n.alive},
          {"backend", n.backend},
          {"reserved_bytes", n.reserved},
          {"peak_bytes", n.peak_reserved},
          {"budget_bytes", n.budget},
          {"synthesizing", n.synthesizing},
          {"pipeline", n.pipeline},
          {"draining", n.draining},
          {"drained", n.drained}};
}

json stats_json(const timeline::stats_t& s) {
  json tracks = json::array();
  for (const auto& t : s.tracks)
    tracks.push_back({{"name", t.name}, {"role", t.role}, {"busy", t.busy_fraction}});
  return {{"span_s", s.span_s},
          {"proofs", s.proofs},
          {"proofs_per_minute", s.proofs_per_minute},
          {"prover_idle_per_proof_s", s.prover_idle_per_proof_s},
          {"prover_starved_per_proof_s", s.prover_starved_per_proof_s},
          {"busy",
           {{"synthesis", s.synth_busy}, {"transfer", s.transfer_busy}, {"prover", s.prover_busy}}},
          {"queue_depth", {{"mean", s.mean_queue_depth}, {"max", s.max_queue_depth}}},
          {"tracks", tracks},
          {"bottleneck", s.bottleneck},
          {"verdict", s.verdict}};
}

net::http_response_t json_response(unsigned status, const json& body) {
  net::http_response_t r;
  r.status = status;
  r.content_type = "application/json";
  r.body = body.dump() + "\n";
  return r;
}

check_t check_not_form_body(const net::http_request_t& r) {
  if (r.header("content-type").rfind("application/x-www-form-urlencoded", 0) != 0) return {};
  return std::string(
      "the body was sent as a form (Content-Type: application/x-www-form-urlencoded, what curl "
      "-d sends; -d also strips the newline bytes of a file): send a .wtns or input.json with "
      "--data-binary @FILE -H 'Content-Type: application/octet-stream', a JSON job with -H "
      "'Content-Type: application/json'");
}

std::string mangled_body_hint(uint64_t size, bool any_newline) {
  if (size < 64 || any_newline) return "";
  return " (the body has no newline byte at all: curl -d strips them from a file; send it with "
         "--data-binary @FILE)";
}

net::http_response_t api_error(unsigned status, const std::string& why) {
  return net::http_error(status, why, true);
}

net::http_response_t from_failure(const api_failure_t& f) { return api_error(f.status, f.reason); }

net::http_response_t method_not_allowed(const std::string& method, const char* allow) {
  auto r = api_error(405, "method not allowed here: " + method);
  r.headers.push_back({"Allow", allow});
  return r;
}

bool is(const net::http_request_t& r, std::initializer_list<const char*> methods) {
  for (const char* m : methods)
    if (r.method == m) return true;
  return false;
}
}  // namespace zk::node
