#pragma once
// A small HTTP/1.1 server (Boost.Beast) for a node's HTTP face, plain or HTTPS:
//
//   - one io_context on a thread of its own for the sockets; handlers run on a small pool of
//     their own threads (a handler may wait on the cluster without stalling other connections)
//     and answer through their reply, from any thread, once;
//   - one request per connection (Connection: close); a deadline on reading the header, on the
//     body (io_timeout plus the time its length takes at min_body_rate), and on each write;
//   - bounds: the header (max_header_bytes), the body (body_plan(header): a declared length over
//     the route's bound is answered 413 before any of the body is read, a chunked body when it
//     passes it), connections at once (more are closed at accept), and requests per client
//     address (a token bucket: rate_per_s, burst; over it, 429); no bound is a library default;
//   - bodies in memory (small: JSON) or streamed, a piece at a time, into the sink the route's
//     plan gives (an upload of any size in bounded memory); `Expect: 100-continue` is answered
//     once the header is accepted; an answer given before the body was read (413, 401) is
//     followed by a bounded drain of what the client still sends, so that it reads the answer
//     rather than a reset;
//   - an answer's body is a string or a file, streamed from disk;
//   - HTTPS (tls.enabled()): the node's certificate; a client certificate of the same CA is asked
//     for but optional, and when one verifies the request carries its subject (client_cert);
//   - a reply may be a stream (text/event-stream and the like): headers at once, then whatever
//     the handler writes, until either side closes or the handler's writes outrun the peer by
//     more than max_stream_backlog bytes (the stream is then dropped, not buffered without bound).
// An exception from a handler is answered 500 with its message, and the server keeps serving.
// HEAD is answered with the headers GET would have.
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/net/tls.hpp"

namespace zk::net {

class http_body_sink_t;

struct http_request_t {
  std::string method;                                        // "GET", "HEAD", ...
  std::string target;                                        // as sent: path and query
  std::string path;                                          // target up to '?'
  std::string query;                                         // after '?', raw
  std::vector<std::pair<std::string, std::string>> headers;  // names lower-case
  std::string body;  // in memory: a route whose plan has no sink
  // The streamed body's sink once it has taken the whole body (a route whose plan gives one).
  std::shared_ptr<http_body_sink_t> sink;
  std::string peer;  // the client's address (no port)
  // With HTTPS, the verified client certificate's subject: "O=zkfleet, OU=client, CN=alice" as
  // role "client" and name "alice" (empty role: none, or not a zkfleet certificate).
  std::string cert_role, cert_name;

  // The first header of that (lower-case) name; "" when absent.
  std::string header(const std::string& name) const;
  // A query parameter, percent-decoded; nullopt when absent.
  std::optional<std::string> param(const std::string& name) const;
};

struct http_response_t {
  unsigned status = 200;
  std::string content_type = "text/plain; charset=utf-8";
  std::string body;
  std::vector<std::pair<std::string, std::string>> headers;  // more fields, e.g. {"Allow", "GET"}
  std::string file;  // set: the body is this file, streamed from disk (`body` is ignored)
};

// Where a streamed request body goes (http_body_plan_t::sink). Its calls run on the server's io
// thread, one at a time: they append and hash, never wait. A refusal ends the request: it is
// answered as it is and the rest of the body is not read. Dropped without finish() (the client
// left, a deadline passed, a refusal), the sink must leave nothing behind.
class http_body_sink_t {
 public:
  virtual ~http_body_sink_t() = default;
  virtual std::optional<http_response_t> write(std::string_view piece) = 0;
  // The whole body has arrived; the handler then gets the request with this sink.
  virtual std::optional<http_response_t> finish() = 0;
};

// What a request may send, decided from its header (method, target, headers, peer, client
// certificate; no body) before any of its body is read.
struct http_body_plan_t {
  uint64_t limit = uint64_t(64) << 10;  // the largest body this request may carry
  // What the 413 names as the bound ("scheduler.max_upload"; empty: "this route's bound") and a
  // hint after it ("raise scheduler.max_upload ...").
  std::string limit_name, hint;
  std::shared_ptr<http_body_sink_t> sink;  // null: the body is read into http_request_t::body
  std::optional<http_response_t> answer;   // set: answered at once, the body not read (e.g. 401)
};

// An open streamed reply. write() queues bytes for the peer, from any thread; false once the
// stream has ended (the peer left, the server stops, or the backlog bound was passed).
class http_stream_t {
 public:
  virtual ~http_stream_t() = default;
  virtual bool write(std::string bytes) = 0;
  virtual bool open() const = 0;
  virtual void close() = 0;
};

// Handed to the handler with each request; exactly one of respond() or stream(), once, from any
// thread. A reply dropped unanswered is answered 500.
class http_reply_t {
 public:
  virtual ~http_reply_t() = default;
  virtual void respond(http_response_t r) = 0;
  virtual std::shared_ptr<http_stream_t> stream(
      std::string content_type, std::vector<std::pair<std::string, std::string>> headers = {}) = 0;
};

using http_handler_t = std::function<void(http_request_t, std::shared_ptr<http_reply_t>)>;

struct http_options_t {
  std::chrono::milliseconds io_timeout{10000};  // the header, each write, and the body's base
  uint64_t min_body_rate = uint64_t(1) << 20;   // bytes/s a body may take on top of io_timeout
  uint32_t max_header_bytes = 16384;
  // Each request's plan for its body (runs on the io thread: quick); empty: 64 KiB in memory.
  std::function<http_body_plan_t(const http_request_t& head)> body_plan;
  // After an answer given before the body was read: what is still read and dropped, at most.
  uint64_t max_drain_bytes = uint64_t(64) << 20;
  std::chrono::milliseconds drain_timeout{2000};
  size_t file_piece = size_t(256) << 10;  // a file answer is written in pieces of this size
  unsigned max_connections = 128;
  double rate_per_s = 50, burst = 100;  // requests per client address
  unsigned handler_threads = 4;
  size_t max_stream_backlog = size_t(4) << 20;
  tls_files_t tls;  // empty: plain HTTP
  // The body of the answers the server makes itself (400, 413, 429, 500, 503): a JSON object
  // {"error": why} when set to json, else the plain sentence.
  bool json_errors = false;
};

class http_server_t {
 public:
  // Binds host:port at once (port 0: an ephemeral port; port() says which) and serves. host: an
  // address or a name. Throws std::runtime_error "<what>: cannot listen on host:port: ..." when
  // it cannot bind, or naming the TLS file that is wrong.
  http_server_t(std::string what, std::string host, uint16_t port, http_handler_t handler,
                http_options_t options = {});
  // Stops accepting, ends open connections and streams, joins the threads.
  ~http_server_t();
  http_server_t(const http_server_t&) = delete;
  http_server_t& operator=(const http_server_t&) = delete;

  uint16_t port() const;
  const std::string& host() const;
  bool tls() const;

  struct core_t;

 private:
  std::shared_ptr<core_t> core_;
};

// The answer a handler gives for an error, in the server's error format.
http_response_t http_error(unsigned status, const std::string& why, bool json);
// The 413 of a body over its plan's bound: "the body (N bytes) is over NAME (L bytes, 1 GiB)"
// and the plan's hint; `declared`: the request's Content-Length (none: a chunked body, refused
// once it passed the bound).
http_response_t http_too_large(const http_body_plan_t& plan, std::optional<uint64_t> declared,
                               bool json);
// "1 GiB", "64 KiB", "1000 bytes": a size as configs write it (the unit exact, or bytes).
std::string http_size_text(uint64_t n);

}  // namespace zk::net
