// The upload routes: PUT /v1/uploads (clients), GET /v1/uploads/REF (synthesis nodes, with a
// ticket).
#include <openssl/crypto.h>

#include <cstdio>
#include <cstring>
#include <fstream>

#include "node/api/service.hpp"

namespace zk::node {

net::http_response_t api_server_t::impl_t::upload_put(const net::http_request_t& r, const who_t&) {
  if (r.method != "PUT" && r.method != "POST") return method_not_allowed(r.method, "PUT");
  if (!o.uploads) return api_error(404, "this scheduler takes no uploads");
  try {
    const bool json_type = r.header("content-type").rfind("application/json", 0) == 0;
    const std::string ref = o.uploads->put(r.body, json_type);
    return json_response(201, {{"upload", ref.substr(std::string("upload:").size())},
                               {"input", ref},
                               {"bytes", r.body.size()}});
  } catch (const std::invalid_argument& e) {
    return api_error(std::string(e.what()).find("max_upload") != std::string::npos ? 413 : 400,
                     e.what());
  }
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
  if (want.size() != std::strlen(mac) || CRYPTO_memcmp(want.data(), mac, want.size()) != 0)
    return api_error(403, "the ticket is not for this upload");
  auto path = o.uploads->path_of(input);
  if (!path) return api_error(404, "no upload " + input.substr(0, 100));
  std::ifstream in(*path, std::ios::binary);
  net::http_response_t out;
  out.content_type = "application/octet-stream";
  out.body.assign(std::istreambuf_iterator<char>(in), {});
  if (!in.good() && !in.eof()) return api_error(503, "the upload could not be read");
  return out;
}

}  // namespace zk::node
