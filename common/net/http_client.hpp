#pragma once
// One HTTP/1.1 request and its answer, blocking, for the cluster's own clients of the scheduler's
// HTTP endpoint (docs/api.md): the CLI uploading an input, a synthesis node fetching one. Plain
// or HTTPS over timed_socket_t (every operation bounded by the one deadline): with TLS files the
// client shows its certificate (a node's or a client's) and accepts only the scheduler node's
// (`expected_server`). Connection: close; the answer is read whole into memory (inputs are
// bounded by scheduler.max_upload).
#include <chrono>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "common/net/tls.hpp"
#include "common/util/result.hpp"

namespace zk::net {

struct http_call_t {
  std::string host;
  uint16_t port = 0;
  std::string method = "GET", target = "/";
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;
  tls_files_t tls;              // empty: plain HTTP
  std::string expected_server;  // with TLS: the server's node name (its certificate's CN)
  std::chrono::milliseconds timeout{60000};  // the whole exchange
};

struct http_answer_t {
  unsigned status = 0;
  std::string body;
  std::string content_type;
};

// The server's answer (whatever its status), or why none came (it could not be reached, it
// refused this side's certificate or this side its, it did not answer HTTP, the timeout passed).
// Never throws for the peer's doing (a bad TLS file does throw).
util::result_t<http_answer_t> http_call(const http_call_t& call);

}  // namespace zk::net
