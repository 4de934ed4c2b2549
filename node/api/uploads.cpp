// The upload routes: PUT /v1/uploads (clients), GET /v1/uploads/REF (synthesis nodes, with a
// ticket).
#include <cstdio>
#include <cstring>

#include "common/security/digest.hpp"
#include "node/api/service.hpp"

namespace zk::node {

std::optional<net::http_response_t> upload_sink_t::write(std::string_view piece) {
  if (auto e = receiver_->write(piece)) return upload_refusal(*e);
  return std::nullopt;
}

net::http_response_t upload_refusal(const upload_error_t& e) {
  switch (e.kind) {
    case upload_error_t::kind_t::too_large:
      return api_error(413, e.why + ": raise scheduler.max_upload in the scheduler's config");
    case upload_error_t::kind_t::io:
      return api_error(500, e.why);
    default:
      return api_error(400, e.why);
  }
}

net::http_response_t api_server_t::impl_t::upload_put(const net::http_request_t& r, const who_t&) {
  if (r.method != "PUT" && r.method != "POST") return method_not_allowed(r.method, "PUT");
  auto sink = std::dynamic_pointer_cast<upload_sink_t>(r.sink);
  if (!o.uploads || !sink) return api_error(404, "this scheduler takes no uploads");
  if (check_t body = check_not_form_body(r); !body) return api_error(400, body.reason());
  auto ref = sink->receiver().commit();
  if (!ref) return upload_refusal(ref.error());
  return json_response(201, {{"upload", ref.value().substr(std::string("upload:").size())},
                             {"input", ref.value()},
                             {"bytes", sink->receiver().bytes()}});
}

net::http_response_t api_server_t::impl_t::upload_get(const net::http_request_t& r,
                                                      const who_t& who) {
  if (!is(r, {"GET"})) return method_not_allowed(r.method, "GET");
  if (secure && who.role != "node")
    return api_error(403, "uploads are fetched by synthesis nodes, with their node certificate");
  const std::string input = "upload:" + r.path.substr(std::string("/v1/uploads/").size());
  // The ticket the scheduler gave the dispatch: job.partition.attempt.mac
  const std::string t = r.header("x-zkfleet-ticket");
  uint64_t job = 0;
  unsigned long part = 0, attempt = 0;
  char mac[65] = {};
  if (!o.uploads || t.size() > 200 ||
      std::sscanf(t.c_str(), "%lu.%lu.%lu.%64s", &job, &part, &attempt, mac) != 4)
    return api_error(403, "no valid ticket for this upload (X-Zkfleet-Ticket)");
  const std::string want =
      upload_ticket(o.upload_key, input, job, uint32_t(part), uint32_t(attempt));
  if (!security::same_secret(want, mac)) return api_error(403, "the ticket is not for this upload");
  auto path = o.uploads->path_of(input);
  if (!path) return api_error(404, "no upload " + input.substr(0, 100));
  net::http_response_t out;  // streamed from the file by the server
  out.content_type = "application/octet-stream";
  out.file = *path;
  return out;
}

}  // namespace zk::node
