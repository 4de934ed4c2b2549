#pragma once
// One HTTP/1.1 request and its answer, blocking, for the cluster's own clients of the scheduler's
// HTTP endpoint (docs/api.md): the CLI uploading an input, a synthesis node fetching one. Plain
// or HTTPS over timed_socket_t (every operation bounded by the one deadline): with TLS files the
// client shows its certificate (a node's or a client's) and accepts only the scheduler node's
// (`expected_server`). Connection: close.
//
// Sizes, both ways, cost no memory: a body may be a file, streamed from disk with
// `Expect: 100-continue` (a refusal comes before any of it is sent); an answer's body may go into
// a file, a piece at a time. Every bound is explicit: the answer's header (max_header_bytes), its
// body in memory (max_answer: an error's JSON, a small answer) or in the file (max_answer_file).
// Whenever the server answered — at once (413), or while the body was still going out, then
// closing — the answer is what the call returns, never the socket error its close caused.
#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "common/net/tls.hpp"
#include "zk/base/result.hpp"

namespace zk::net {

struct http_call_t {
  std::string host;
  uint16_t port = 0;
  std::string method = "GET", target = "/";
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;             // a body in memory
  std::string body_file;        // or this file, streamed (Content-Length: its size)
  tls_files_t tls;              // empty: plain HTTP
  std::string expected_server;  // with TLS: the server's node name (its certificate's CN)
  std::chrono::milliseconds timeout{60000};  // the whole exchange
  // With body_file: how long to wait for the server's 100 Continue (or its refusal) before the
  // body goes anyway (a server that does not answer Expect).
  std::chrono::milliseconds continue_wait{3000};
  uint32_t max_header_bytes = 16384;        // the answer's header
  uint64_t max_answer = uint64_t(1) << 20;  // the answer's body in memory
  // Set: a 2xx answer's body is written into this file (made or truncated), at most
  // max_answer_file bytes; other answers stay in memory under max_answer.
  std::string answer_file;
  uint64_t max_answer_file = 0;
  std::string answer_file_bound;  // what max_answer_file is, for the error ("scheduler.max_upload")
  // Called as the body goes out and as an answer's body comes into answer_file: (bytes so far,
  // the total: the body's size, the answer's Content-Length, or 0 when unknown).
  std::function<void(uint64_t done, uint64_t total)> on_progress;
};

struct http_answer_t {
  unsigned status = 0;
  std::string body;  // empty when it went into answer_file
  std::string content_type;
  uint64_t file_bytes = 0;  // what was written into answer_file
};

// The server's answer (whatever its status), or why none came (it could not be reached, it
// refused this side's certificate or this side its, it did not answer HTTP, an answer over its
// bound, the timeout passed, the body's file could not be read). Never throws for the peer's
// doing (a bad TLS file does throw).
result_t<http_answer_t> http_call(const http_call_t& call);

}  // namespace zk::net
