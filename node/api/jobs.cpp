// The job routes: POST and GET /v1/jobs, GET and DELETE /v1/jobs/ID, GET /v1/jobs/ID/proofs.
#include <algorithm>

#include "common/config/config.hpp"
#include "node/api/service.hpp"

namespace zk::node {

net::http_response_t api_server_t::impl_t::jobs(const net::http_request_t& r, const who_t& who) {
  if (r.method == "POST") return submit(r, who);
  if (!is(r, {"GET", "HEAD"})) return method_not_allowed(r.method, "GET, POST");
  uint32_t limit = 100;
  if (auto l = r.param("limit")) {
    try {
      limit = uint32_t(std::clamp<unsigned long>(std::stoul(*l), 1, 1000));
    } catch (const std::exception&) {
      return api_error(400, "limit: '" + l->substr(0, 40) + "' is not a number");
    }
  }
  auto list = gateway->jobs(session(who.name), limit);
  if (!list) return from_failure(list.error());
  json out = json::array();
  for (const auto& s : *list) out.push_back(job_json(s, false));
  return json_response(200, {{"jobs", out}});
}

net::http_response_t api_server_t::impl_t::job(const net::http_request_t& r, const who_t& who) {
  std::string rest = r.path.substr(std::string("/v1/jobs/").size());
  const bool proofs = rest.size() > 7 && rest.substr(rest.size() - 7) == "/proofs";
  if (proofs) rest.resize(rest.size() - 7);
  if (rest.empty() || rest.find('/') != std::string::npos)
    return api_error(404, "no route " + r.path.substr(0, 200));
  const std::string token = session(who.name);
  if (r.method == "DELETE" && !proofs) {
    auto c = gateway->cancel(token, rest);
    if (!c) return from_failure(c.error());
    if (!*c) return api_error(409, "job " + rest + " is already finished");
    return json_response(200, {{"cancelled", true}});
  }
  if (!is(r, {"GET", "HEAD"})) return method_not_allowed(r.method, proofs ? "GET" : "GET, DELETE");
  if (!proofs) {
    auto s = gateway->status(token, rest);
    if (!s) return from_failure(s.error());
    return json_response(200, job_json(*s, true));
  }
  // A page of at most max_proofs_per_answer, from partition `from` on; a Link header names the
  // next page when there is one.
  uint64_t from = 0;
  uint32_t limit = max_proofs_per_answer;
  try {
    if (auto f = r.param("from")) from = std::stoull(*f);
    if (auto l = r.param("limit"))
      limit = uint32_t(std::clamp<unsigned long long>(std::stoull(*l), 1, max_proofs_per_answer));
  } catch (const std::exception&) {
    return api_error(400, "from and limit are numbers of partitions");
  }
  auto got = gateway->proofs(token, rest);
  if (!got) return from_failure(got.error());
  json out = json::array();
  auto sorted = got->proofs;
  std::sort(sorted.begin(), sorted.end(),
            [](const proof_msg& a, const proof_msg& b) { return a.partition < b.partition; });
  auto it =
      std::lower_bound(sorted.begin(), sorted.end(), from,
                       [](const proof_msg& p, uint64_t k) { return uint64_t(p.partition) < k; });
  for (; it != sorted.end() && out.size() < limit; ++it)
    out.push_back({{"partition", it->partition},
                   {"proof", json::parse(it->proof_json)},
                   {"public", it->public_signals}});
  auto answer = json_response(200, out);
  if (it != sorted.end())
    answer.headers.push_back({"Link", "</v1/jobs/" + rest +
                                          "/proofs?from=" + std::to_string(it->partition) +
                                          "&limit=" + std::to_string(limit) + ">; rel=\"next\""});
  return answer;
}

net::http_response_t api_server_t::impl_t::submit(const net::http_request_t& r, const who_t& who) {
  const std::string type = r.header("content-type");
  const bool json_type = type.rfind("application/json", 0) == 0;
  job_request_msg req;
  std::string circuit_id, priority;
  uint64_t partitions = 1;
  json input;  // JSON form
  try {
    if (json_type && !r.param("circuit")) {
      const json body = json::parse(r.body);
      if (!body.is_object()) return api_error(400, "the body must be a JSON object");
      if (!body.contains("circuit") || !body["circuit"].is_string())
        return api_error(400, "\"circuit\" (a string) is required");
      circuit_id = body["circuit"];
      if (body.contains("partitions")) {
        if (!body["partitions"].is_number_unsigned())
          return api_error(400, "\"partitions\" must be a positive integer");
        partitions = body["partitions"];
      }
      if (body.contains("priority")) {
        if (!body["priority"].is_string()) return api_error(400, "\"priority\" must be a string");
        priority = body["priority"];
      }
      if (body.contains("input")) input = body["input"];
    } else {
      auto c = r.param("circuit");
      if (!c || c->empty()) return api_error(400, "the query needs circuit=ID");
      circuit_id = *c;
      if (auto p = r.param("partitions")) partitions = std::stoull(*p);
      if (auto p = r.param("priority")) priority = *p;
    }
  } catch (const json::exception& e) {
    return api_error(400, std::string("the body is not JSON: ") + e.what());
  } catch (const std::exception&) {
    return api_error(400, "partitions: not a number");
  }
  if (partitions == 0 || partitions > 0xffffffffull)
    return api_error(400, "partitions must be between 1 and 4294967295");
  req.circuit = circuit_id;
  req.partitions = uint32_t(partitions);
  if (priority.empty()) {
    req.circuit_priority = true;
  } else if (auto p = config::parse_priority(priority)) {
    req.priority = *p;
  } else {
    return api_error(400, "priority is one of critical, high, normal, low (got '" +
                              priority.substr(0, 40) + "')");
  }
  auto c = circuit(circuit_id);
  if (!c) return api_error(400, "unknown circuit '" + circuit_id.substr(0, 100) + "'");
  const bool native = c->kind == circuit_kind_t::native;
  const bool generator = !c->witness_generator.empty();
  try {
    if (json_type && !r.param("circuit")) {  // the input inside the JSON body
      if (native) {
        if (!input.is_null()) {
          if (!input.is_object() || !input.contains("seed") || !input["seed"].is_number_unsigned())
            return api_error(400, "circuit '" + circuit_id +
                                      "' is native: its input is {\"seed\": N} (or none)");
          req.inputs.push_back("seed=" + std::to_string(input["seed"].get<uint64_t>()));
        }
      } else if (generator) {
        if (!input.is_object())
          return api_error(400,
                           "circuit '" + circuit_id + "' takes an input.json object as \"input\"");
        if (!o.uploads) return api_error(400, "this scheduler takes no uploads");
        req.inputs.push_back(o.uploads->put(input.dump(), true));
      } else {
        return api_error(400, "circuit '" + circuit_id +
                                  "' takes a .wtns: POST it as application/octet-stream to "
                                  "/v1/jobs?circuit=" +
                                  circuit_id + "&partitions=N");
      }
    } else {  // the body is the input
      if (native)
        return api_error(400, "circuit '" + circuit_id + "' is native: its input is JSON");
      if (!o.uploads) return api_error(400, "this scheduler takes no uploads");
      if (json_type && !generator)
        return api_error(400,
                         "circuit '" + circuit_id + "' has no witness generator: send its .wtns");
      auto sink = std::dynamic_pointer_cast<upload_sink_t>(r.sink);
      if (!sink) return api_error(400, "this scheduler takes no uploads");
      auto ref = sink->receiver().commit();
      if (!ref) return upload_refusal(ref.error());
      req.inputs.push_back(ref.value());
    }
  } catch (const std::invalid_argument& e) {
    return api_error(std::string(e.what()).find("max_upload") != std::string::npos ? 413 : 400,
                     e.what());
  }
  auto id = gateway->submit(session(who.name), req);
  if (!id) return from_failure(id.error());
  return json_response(201, {{"id", *id}});
}

}  // namespace zk::node
