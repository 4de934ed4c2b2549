// The job routes: POST and GET /v1/jobs, GET and DELETE /v1/jobs/ID, GET /v1/jobs/ID/proofs.
#include <algorithm>

#include "common/config/config.hpp"
#include "node/api/service.hpp"
#include "node/filecoin_job.hpp"
#include "node/filecoin_snap_job.hpp"
#include "zk/base/hex.hpp"
#include "zk/filecoin/api/prover_id.hpp"

namespace zk::node {

namespace {

// The query's sector= (a Filecoin job's sector number), or why not.
result_t<uint64_t> sector_param(const std::string& n) {
  if (n.empty() || n.size() > 20 || n.find_first_not_of("0123456789") != std::string::npos ||
      (n.size() == 20 && n > "18446744073709551615"))
    return "sector: '" + n.substr(0, 40) + "' is not a sector number (0 to 2^64-1)";
  return uint64_t(std::stoull(n));
}

}  // namespace

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
  const std::string token = session(who.name);
  for (const char* action : {"retry", "priority"}) {
    const std::string tail = std::string("/") + action;
    if (rest.size() > tail.size() &&
        rest.compare(rest.size() - tail.size(), tail.size(), tail) == 0)
      return job_action(r, token, rest.substr(0, rest.size() - tail.size()), action);
  }
  if (rest.empty() || rest.find('/') != std::string::npos)
    return api_error(404, "no route " + r.path.substr(0, 200));
  if (r.method == "DELETE" && !proofs) {
    auto c = gateway->cancel(token, rest);
    if (!c) return from_failure(c.error());
    if (!*c) return api_error(409, "job " + rest + " is already finished");
    return json_response(200, {{"cancelled", true}});
  }
  if (!is(r, {"GET", "HEAD"})) return method_not_allowed(r.method, proofs ? "GET" : "GET, DELETE");
  if (!proofs && r.param("wait")) return wait(r, token, rest);
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
  // A page that ends before the last partition names the next one.
  auto paged = [&](net::http_response_t answer) {
    if (it != sorted.end())
      answer.headers.push_back({"Link", "</v1/jobs/" + rest +
                                            "/proofs?from=" + std::to_string(it->partition) +
                                            "&limit=" + std::to_string(limit) + ">; rel=\"next\""});
    return answer;
  };
  if (!config::uses_filecoin_params(got->status.kind)) return paged(json_response(200, out));
  // A Filecoin C2 or SnapDeals job: the sector's proof too, its partitions' proofs in partition
  // order, once every partition is proven (hex here; ?format=raw: the bytes themselves).
  std::vector<std::pair<uint32_t, std::string>> parts;
  for (const auto& p : sorted) parts.emplace_back(p.partition, p.proof_json);
  const bool complete = got->status.done == got->status.partitions;
  auto sector = complete ? assemble_sector_proof(got->status.partitions, parts)
                         : result_t<std::vector<uint8_t>>(std::string("not all proven"));
  if (r.param("format") == std::optional<std::string>("raw")) {
    if (!complete)
      return api_error(409, "job " + rest + ": " + std::to_string(got->status.done) + " of " +
                                std::to_string(got->status.partitions) + " partitions proven");
    if (!sector) return api_error(500, "job " + rest + ": " + sector.error());
    net::http_response_t raw;
    raw.content_type = "application/octet-stream";
    raw.body.assign(sector->begin(), sector->end());
    return raw;
  }
  return paged(
      json_response(200, {{"partitions", out},
                          {"sector_proof", sector ? json(zk::to_hex(sector->data(), sector->size()))
                                                  : json(nullptr)}}));
}

net::http_response_t api_server_t::impl_t::wait(const net::http_request_t& r,
                                                const std::string& token, const std::string& job) {
  const std::string text = *r.param("wait");
  unsigned long s = 0;
  try {
    size_t used = 0;
    s = std::stoul(text, &used);
    if (used != text.size()) throw std::invalid_argument(text);
  } catch (const std::exception&) {
    return api_error(400, "wait: '" + text.substr(0, 40) + "' is not a number of seconds");
  }
  if (s > uint64_t(o.max_wait.count()))
    return api_error(400, "wait: " + text + " s is longer than the " +
                              std::to_string(o.max_wait.count()) +
                              " s a request may wait; ask again after it answers");
  {
    std::lock_guard<std::mutex> lock(mu);
    if (waits >= o.max_waits)
      return api_error(429, std::to_string(waits) +
                                " requests wait already (the most at once): poll GET /v1/jobs/" +
                                job.substr(0, 64) + " or ask again");
    ++waits;
  }
  auto st = gateway->wait(token, job, std::chrono::seconds(s));
  {
    std::lock_guard<std::mutex> lock(mu);
    --waits;
  }
  if (!st) return from_failure(st.error());
  return json_response(200, job_json(*st, true));
}

net::http_response_t api_server_t::impl_t::job_action(const net::http_request_t& r,
                                                      const std::string& token,
                                                      const std::string& job,
                                                      const std::string& action) {
  if (job.empty() || job.find('/') != std::string::npos)
    return api_error(404, "no route " + r.path.substr(0, 200));
  if (r.method != "POST") return method_not_allowed(r.method, "POST");
  if (action == "retry") {
    auto s = gateway->retry(token, job);
    if (!s) return from_failure(s.error());
    return json_response(200, job_json(*s, true));
  }
  // priority: ?priority=P, or a JSON body {"priority": "P"}
  std::string text;
  if (auto p = r.param("priority")) {
    text = *p;
  } else {
    try {
      const json body = json::parse(r.body);
      if (body.is_object() && body.contains("priority") && body["priority"].is_string())
        text = body["priority"];
    } catch (const json::exception&) {
    }
  }
  auto p = config::parse_priority(text);
  if (!p)
    return api_error(400, "priority is one of critical, high, normal, low (got '" +
                              text.substr(0, 40) + "'): ?priority=P or {\"priority\": \"P\"}");
  auto s = gateway->set_priority(token, job, *p);
  if (!s) return from_failure(s.error());
  return json_response(200, job_json(*s, true));
}

net::http_response_t api_server_t::impl_t::submit(const net::http_request_t& r, const who_t& who) {
  const std::string type = r.header("content-type");
  const bool json_type = type.rfind("application/json", 0) == 0;
  if (check_t body = check_not_form_body(r); !body) return api_error(400, body.reason());
  job_request_msg req;
  std::string circuit_id, priority;
  uint64_t partitions = 1;
  bool partitions_given = false;
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
        partitions_given = true;
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
      if (auto p = r.param("partitions")) partitions = std::stoull(*p), partitions_given = true;
      if (auto p = r.param("priority")) priority = *p;
    }
  } catch (const json::exception& e) {
    return api_error(400, std::string("the body is not JSON: ") + e.what());
  } catch (const std::exception&) {
    return api_error(400, "partitions: not a number");
  }
  if (partitions == 0 || partitions > 0xffffffffull)
    return api_error(400, "partitions must be between 1 and 4294967295");
  auto c = circuit(circuit_id);
  if (!c)
    return api_error(400, "unknown circuit '" + circuit_id.substr(0, 100) +
                              "' (this scheduler's circuits: " + circuit_ids() + ")");
  // A Filecoin C2 or SnapDeals job: the registered proof's partitions unless given (the C1 or
  // the vanilla proofs must have them).
  if (c->kind == circuit_kind_t::filecoin_porep && !partitions_given)
    partitions = filecoin_config(*c).partitions;
  if (c->kind == circuit_kind_t::filecoin_snap && !partitions_given)
    partitions = snap_config(*c).partitions;
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
  const bool generator = !c->witness_generator.empty();
  // The curl -d hint, from the streamed body (or the one in memory).
  auto body_hint = [&] {
    if (auto sink = std::dynamic_pointer_cast<upload_sink_t>(r.sink))
      return mangled_body_hint(sink->receiver().bytes(), sink->receiver().any_newline());
    return mangled_body_hint(r.body.size(), r.body.find_first_of("\r\n") != std::string::npos);
  };
  // The body committed to the store: its object, or the refusal.
  std::optional<stored_object_t> body_object;
  auto stored_body = [&]() -> result_t<stored_object_t, net::http_response_t> {
    auto sink = std::dynamic_pointer_cast<upload_sink_t>(r.sink);
    if (!o.uploads || !sink) return api_error(400, "this scheduler takes no uploads");
    auto ref = sink->receiver().commit();
    if (!ref) return upload_refusal(ref.error());
    body_object = *parse_upload(ref.value());
    return *body_object;
  };
  try {
    switch (c->kind) {
      case circuit_kind_t::filecoin_porep: {  // the body is the C1 (the API's JSON or the wrapper)
        if (!r.param("circuit"))
          return api_error(400,
                           "circuit '" + circuit_id +
                               "' takes the C1 output as the body: POST it to /v1/jobs?circuit=" +
                               circuit_id + "&prover_id=HEX&sector=N");
        filecoin_porep_spec_t spec;
        auto prover = r.param("prover_id"), sector = r.param("sector");
        if (!prover || prover->empty() || !sector || sector->empty())
          return api_error(400, "circuit '" + circuit_id +
                                    "' needs prover_id= and sector= in the query (the sector the "
                                    "C1 is of)");
        try {
          spec.prover_id = zk::filecoin::parse_prover_id(*prover, "prover_id");
        } catch (const std::exception& e) {
          return api_error(400, e.what());
        }
        auto n = sector_param(*sector);
        if (!n) return api_error(400, n.error());
        spec.sector = *n;
        auto c1 = stored_body();
        if (!c1) return c1.error();
        spec.c1 = input_file_t::of(c1.value());
        req.spec = {std::move(spec)};
        break;
      }
      case circuit_kind_t::filecoin_snap: {  // the body is snap-vproof.json, the query the comms
        if (!r.param("circuit"))
          return api_error(400, "circuit '" + circuit_id +
                                    "' takes the update's snap-vproof.json as the body: POST it "
                                    "to /v1/jobs?circuit=" +
                                    circuit_id + "&comm_r_old=HEX&comm_r_new=HEX&comm_d_new=HEX");
        filecoin_snap_spec_t spec;
        for (auto [key, to] : {std::pair{"comm_r_old", &spec.comms.comm_r_old},
                               std::pair{"comm_r_new", &spec.comms.comm_r_new},
                               std::pair{"comm_d_new", &spec.comms.comm_d_new}}) {
          auto v = r.param(key);
          if (!v || v->empty())
            return api_error(400, "circuit '" + circuit_id +
                                      "' needs comm_r_old=, comm_r_new= and comm_d_new= in the "
                                      "query (64 hex digits each): " +
                                      key + " is missing");
          try {
            *to = zk::parse_hex32(*v, key);
          } catch (const std::exception& e) {
            return api_error(400, e.what());
          }
        }
        if (auto sector = r.param("sector")) {
          auto n = sector_param(*sector);
          if (!n) return api_error(400, n.error());
          spec.sector = *n;
        }
        auto body = stored_body();
        if (!body) return body.error();
        spec.vanilla = input_file_t::of(body.value());
        req.spec = {std::move(spec)};
        break;
      }
      case circuit_kind_t::porep_lite: {  // {"seed": N} as the JSON body's input, or none
        if (!json_type || r.param("circuit"))
          return api_error(400, "circuit '" + circuit_id + "' is native: its input is JSON");
        porep_lite_spec_t spec;
        if (!input.is_null()) {
          if (!input.is_object() || !input.contains("seed") || !input["seed"].is_number_unsigned())
            return api_error(400, "circuit '" + circuit_id +
                                      "' is native: its input is {\"seed\": N} (or none)");
          spec.seed = input["seed"].get<uint64_t>();
        }
        req.spec = {spec};
        break;
      }
      case circuit_kind_t::circom: {
        circom_input_t in;
        if (json_type && !r.param("circuit")) {  // the input.json inside the JSON body
          if (!generator)
            return api_error(400, "circuit '" + circuit_id +
                                      "' takes a .wtns: POST it as application/octet-stream to "
                                      "/v1/jobs?circuit=" +
                                      circuit_id + "&partitions=N");
          if (!input.is_object())
            return api_error(
                400, "circuit '" + circuit_id + "' takes an input.json object as \"input\"");
          if (!o.uploads) return api_error(400, "this scheduler takes no uploads");
          in.form = circom_input_t::form_t::input_json;
          in.file = input_file_t::of(*parse_upload(o.uploads->put(input.dump(), true)));
        } else {  // the body is the input: a .wtns, or an input.json sent as JSON
          if (json_type && !generator)
            return api_error(
                400, "circuit '" + circuit_id + "' has no witness generator: send its .wtns");
          auto body = stored_body();
          if (!body) return body.error();
          in.form = body.value().type == object_type_t::json ? circom_input_t::form_t::input_json
                                                             : circom_input_t::form_t::wtns;
          in.file = input_file_t::of(body.value());
        }
        req.spec = {circom_spec_t{{std::move(in)}}};
        break;
      }
    }
  } catch (const std::invalid_argument& e) {
    const bool too_big = std::string(e.what()).find("max_upload") != std::string::npos;
    return api_error(too_big ? 413 : 400,
                     e.what() + (too_big || json_type ? std::string() : body_hint()));
  }
  auto id = gateway->submit(session(who.name), req);
  if (!id) {  // the witness checked against the circuit: a body mangled by curl -d fails here
    api_failure_t f = id.error();
    // The scheduler names the stored upload; the client sent it as this request's body.
    if (body_object) {
      // what the body was taken as (its extension: a .wtns, an input .json, a C1 .json) stays said
      const std::string stored = input_file_t::of(*body_object).name();
      const size_t dot = stored.rfind('.');
      const std::string said =
          "the request's body" +
          (dot == std::string::npos ? std::string() : " (a " + stored.substr(dot) + ")");
      for (size_t at; (at = f.reason.find(stored)) != std::string::npos;)
        f.reason.replace(at, stored.size(), said);
    }
    if (f.status == 400 && !json_type) f.reason += body_hint();
    return from_failure(f);
  }
  return json_response(201, {{"id", *id}});
}

}  // namespace zk::node
