#pragma once
// A small HTTP/1.1 server (Boost.Beast) for a node's HTTP face: one io_context on a thread of
// its own, one request per connection (Connection: close), each connection with a deadline for
// reading the request and writing the answer, requests over max_request_bytes (header or body)
// answered 400. The handler runs on the server's thread, one request at a time; an exception
// from it is answered 500 with its message, and the server keeps serving. HEAD is answered with
// the headers GET would have.
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace zk::net {

struct http_request_t {
  std::string method;  // "GET", "HEAD", ...
  std::string target;  // as sent: path and query
  std::string path;    // target up to '?'
  std::string body;
};

struct http_response_t {
  unsigned status = 200;
  std::string content_type = "text/plain; charset=utf-8";
  std::string body;
  std::vector<std::pair<std::string, std::string>> headers;  // more fields, e.g. {"Allow", "GET"}
};

using http_handler_t = std::function<http_response_t(const http_request_t&)>;

struct http_options_t {
  std::chrono::milliseconds io_timeout{5000};  // reading a request, writing an answer
  uint32_t max_request_bytes = 8192;           // header, and body
};

class http_server_t {
 public:
  // Binds host:port at once (port 0: an ephemeral port; port() says which) and serves. host: an
  // address or a name. Throws std::runtime_error "<what>: cannot listen on host:port: ..." when
  // it cannot bind.
  http_server_t(std::string what, std::string host, uint16_t port, http_handler_t handler,
                http_options_t options = {});
  // Stops accepting, drops open connections and joins the thread (after an answer in progress).
  ~http_server_t();
  http_server_t(const http_server_t&) = delete;
  http_server_t& operator=(const http_server_t&) = delete;

  uint16_t port() const;
  const std::string& host() const;

  struct core_t;

 private:
  std::unique_ptr<core_t> core_;
};

}  // namespace zk::net
