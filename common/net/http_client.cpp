#include "common/net/http_client.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <boost/asio/error.hpp>
#include <boost/asio/ssl/error.hpp>
#include <boost/beast/http/buffer_body.hpp>
#include <boost/beast/http/empty_body.hpp>
#include <boost/beast/http/parser.hpp>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <limits>
#include <memory>
#include <vector>

#include "common/net/timed_socket.hpp"

namespace zk::net {

namespace {

namespace asio = boost::asio;
namespace http = boost::beast::http;
using steady_clock_t = std::chrono::steady_clock;

constexpr size_t piece_size = size_t(256) << 10;

bool at_end(const error_code& ec) {
  return ec == asio::error::eof || ec == asio::ssl::error::stream_truncated;
}

struct file_closer_t {
  void operator()(std::FILE* f) const {
    if (f) std::fclose(f);
  }
};
using file_t = std::unique_ptr<std::FILE, file_closer_t>;

// One exchange on a connected socket: what has been read and not yet parsed, and the deadline.
struct exchange_t {
  const http_call_t& call;
  timed_socket_t& sock;
  std::string where;
  steady_clock_t::time_point deadline;
  std::string in;
  std::vector<char> scratch = std::vector<char>(64 << 10);

  millis_t left() const {
    return std::max(millis_t(1),
                    std::chrono::duration_cast<millis_t>(deadline - steady_clock_t::now()));
  }
  // More bytes into `in`.
  error_code more() {
    const auto r = sock.read_some(asio::buffer(scratch), left());
    in.append(scratch.data(), r.bytes);
    return r.bytes > 0 ? error_code() : r.error;
  }
  std::string read_failed(const error_code& ec) const {
    if (ec == asio::error::timed_out)
      return "reading the answer of " + where + " failed: no answer within " +
             std::to_string(call.timeout.count()) + " ms";
    return "reading the answer of " + where + " failed: " + ec.message();
  }
  std::string not_http(const boost::beast::error_code& ec) const {
    return where + " did not answer HTTP (" + ec.message() + ")";
  }
};

// The status of the answer that starts `x.in`, once its whole header is there (read as needed);
// the header's bytes are left in `in`. 0 and why when none came.
struct head_t {
  unsigned status = 0;
  size_t header_bytes = 0;
  std::string error;
};
head_t peek_head(exchange_t& x) {
  for (;;) {
    http::response_parser<http::empty_body> p;
    p.header_limit(x.call.max_header_bytes);
    p.body_limit(std::numeric_limits<std::uint64_t>::max());
    boost::beast::error_code ec;
    const size_t n = x.in.empty() ? 0 : p.put(asio::buffer(x.in), ec);
    if (!ec && p.is_header_done()) return {unsigned(p.get().result_int()), n, ""};
    if (ec && ec != http::error::need_more) return {0, 0, x.not_http(ec)};
    const error_code e = x.more();
    if (at_end(e))
      return {0, 0,
              x.in.empty() ? x.where + " closed the connection without an answer"
                           : x.where + " closed the connection in the middle of its answer"};
    if (e) return {0, 0, x.read_failed(e)};
  }
}

// The answer, read from `x.in` and the socket: interim answers (100 Continue) skipped, its body
// into memory or the answer file, each under its bound.
result_t<http_answer_t> read_answer(exchange_t& x) {
  const http_call_t& call = x.call;
  for (;;) {
    const head_t head = peek_head(x);
    if (head.status == 0) return head.error;
    if (head.status / 100 == 1) {  // interim: nothing follows it but the next answer
      x.in.erase(0, head.header_bytes);
      continue;
    }
    http::response_parser<http::buffer_body> p;
    p.header_limit(call.max_header_bytes);
    p.body_limit(std::numeric_limits<std::uint64_t>::max());
    p.eager(true);
    boost::beast::error_code ec;
    p.get().body().data = nullptr;
    p.get().body().size = 0;
    size_t used = p.put(asio::buffer(x.in.data(), head.header_bytes), ec);
    if (ec && ec != http::error::need_buffer) return x.not_http(ec);
    x.in.erase(0, used);
    http_answer_t a;
    a.status = head.status;
    a.content_type = std::string(p.get()[http::field::content_type]);
    const bool to_file = !call.answer_file.empty() && a.status / 100 == 2;
    const uint64_t bound = to_file ? call.max_answer_file : call.max_answer;
    const auto length = p.content_length();
    auto over = [&](const std::string& size) {
      return x.where + " answered " + std::to_string(a.status) + " with a body " + size +
             " over this client's bound of " + std::to_string(bound) + " bytes" +
             (to_file && !call.answer_file_bound.empty() ? " (" + call.answer_file_bound + ")"
                                                         : std::string());
    };
    if (length && *length > bound) return over("of " + std::to_string(*length) + " bytes,");
    p.body_limit(bound);
    file_t out;
    if (to_file) {
      out.reset(std::fopen(call.answer_file.c_str(), "wb"));
      if (!out)
        return call.answer_file + ": cannot write the answer (" + std::strerror(errno) + ")";
    }
    std::vector<char> piece(piece_size);
    uint64_t got = 0;
    while (!p.is_done()) {
      if (x.in.empty()) {
        const error_code e = x.more();
        if (at_end(e)) {
          p.put_eof(ec);
          if (ec) return x.where + " cut its answer short (" + ec.message() + ")";
          break;
        }
        if (e) return x.read_failed(e);
      }
      p.get().body().data = piece.data();
      p.get().body().size = piece.size();
      used = p.put(asio::buffer(x.in), ec);
      if (ec == http::error::need_buffer) ec = {};
      if (ec == http::error::body_limit) return over("of more than its bound,");
      if (ec) return x.not_http(ec);
      x.in.erase(0, used);
      const size_t n = piece.size() - p.get().body().size;
      got += n;
      if (out) {
        if (n > 0 && std::fwrite(piece.data(), 1, n, out.get()) != n)
          return call.answer_file + ": cannot write the answer (" + std::strerror(errno) + ")";
        if (call.on_progress) call.on_progress(got, length.value_or(0));
      } else {
        a.body.append(piece.data(), n);
      }
    }
    if (out) {
      if (std::fclose(out.release()) != 0)
        return call.answer_file + ": cannot write the answer (" + std::strerror(errno) + ")";
      a.file_bytes = got;
    }
    return a;
  }
}

// A send failed: the server may have answered first (a refusal, then its close): that answer if
// it can still be read within a short wait, else the send's error.
result_t<http_answer_t> answer_or(exchange_t& x, const error_code& ec) {
  const std::string failed =
      "sending to " + x.where + " failed: " +
      (ec == asio::error::timed_out
           ? "not sent within " + std::to_string(x.call.timeout.count()) + " ms"
           : ec.message());
  if (ec == asio::error::timed_out || !x.sock.is_open()) return failed;
  x.deadline = std::min(x.deadline, steady_clock_t::now() + std::chrono::seconds(2));
  auto a = read_answer(x);
  if (a) return a;
  return failed;
}

}  // namespace

result_t<http_answer_t> http_call(const http_call_t& call) {
  std::unique_ptr<timed_socket_t> sock =
      call.tls.enabled() ? std::make_unique<timed_socket_t>(
                               make_tls_context(call.tls, tls_side_t::client), call.expected_server)
                         : std::make_unique<timed_socket_t>();
  exchange_t x{call,
               *sock,
               call.host + ":" + std::to_string(call.port),
               steady_clock_t::now() + call.timeout,
               {}};
  file_t body_file;
  uint64_t body_size = call.body.size();
  if (!call.body_file.empty()) {
    body_file.reset(std::fopen(call.body_file.c_str(), "rb"));
    struct stat st {};
    if (!body_file || ::fstat(::fileno(body_file.get()), &st) != 0)
      return call.body_file + ": cannot read (" + std::strerror(errno) + ")";
    body_size = uint64_t(st.st_size);
  }
  if (auto ec = sock->connect(call.host, call.port, x.left())) {
    if (call.tls.enabled() && is_foreign_ca_error(sock->peer_verify_error()))
      return "reached " + x.where + " but its certificate is not signed by your ca.crt (" +
             call.tls.ca_file + ": " + sock->peer_error() + "); is that file the cluster's ca.crt?";
    return "cannot reach " + x.where + ": " +
           (sock->peer_error().empty() ? ec.message() : sock->peer_error());
  }
  std::string req = call.method + " " + call.target + " HTTP/1.1\r\nHost: " + x.where +
                    "\r\nConnection: close\r\nUser-Agent: zkfleet\r\n";
  for (const auto& [k, v] : call.headers) req += k + ": " + v + "\r\n";
  if (body_size > 0 || call.method == "POST" || call.method == "PUT")
    req += "Content-Length: " + std::to_string(body_size) + "\r\n";
  const bool streamed = body_file && body_size > 0;
  if (streamed) req += "Expect: 100-continue\r\n";
  req += "\r\n";
  std::vector<asio::const_buffer> first{asio::buffer(req)};
  if (!streamed) first.push_back(asio::buffer(call.body));
  if (auto ec = sock->write(first, x.left())) return answer_or(x, ec);
  if (!streamed) return read_answer(x);

  // The body from its file, once the server said go on (or did not say within continue_wait);
  // an answer that comes while it goes out ends the sending.
  // Whether the server answered for good (true) or said 100 Continue (false, consumed).
  auto answered = [&]() -> bool {
    const head_t head = peek_head(x);
    if (head.status != 100) return true;
    x.in.erase(0, head.header_bytes);
    return false;
  };
  if (sock->readable(std::min(call.continue_wait, x.left())) && answered()) return read_answer(x);
  std::vector<char> piece(piece_size);
  uint64_t sent = 0;
  while (sent < body_size) {
    const size_t n = std::fread(piece.data(), 1, std::min<uint64_t>(piece.size(), body_size - sent),
                                body_file.get());
    if (n == 0)
      return call.body_file + ": the file ended after " + std::to_string(sent) + " of " +
             std::to_string(body_size) + " bytes (changed while it was sent?)";
    if (auto ec = sock->write(asio::buffer(piece.data(), n), x.left())) return answer_or(x, ec);
    sent += n;
    if (call.on_progress) call.on_progress(sent, body_size);
    if (sock->readable(millis_t(0)) && answered()) return read_answer(x);
  }
  return read_answer(x);
}

}  // namespace zk::net
