#include "common/net/http_client.hpp"

#include <algorithm>
#include <boost/asio/error.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/string_body.hpp>

#include "common/net/timed_socket.hpp"

namespace zk::net {

util::result_t<http_answer_t> http_call(const http_call_t& call) {
  using steady_clock_t = std::chrono::steady_clock;
  const auto deadline = steady_clock_t::now() + call.timeout;
  auto left = [&] {
    return std::max(millis_t(1),
                    std::chrono::duration_cast<millis_t>(deadline - steady_clock_t::now()));
  };
  std::unique_ptr<timed_socket_t> sock =
      call.tls.enabled() ? std::make_unique<timed_socket_t>(
                               make_tls_context(call.tls, tls_side_t::client), call.expected_server)
                         : std::make_unique<timed_socket_t>();
  const std::string where = call.host + ":" + std::to_string(call.port);
  if (auto ec = sock->connect(call.host, call.port, left())) {
    if (call.tls.enabled() && is_foreign_ca_error(sock->peer_verify_error()))
      return "reached " + where + " but its certificate is not signed by your ca.crt (" +
             call.tls.ca_file + ": " + sock->peer_error() + "); is that file the cluster's ca.crt?";
    return "cannot reach " + where + ": " +
           (sock->peer_error().empty() ? ec.message() : sock->peer_error());
  }
  std::string req = call.method + " " + call.target + " HTTP/1.1\r\nHost: " + where +
                    "\r\nConnection: close\r\nUser-Agent: zkfleet\r\n";
  for (const auto& [k, v] : call.headers) req += k + ": " + v + "\r\n";
  if (!call.body.empty() || call.method == "POST" || call.method == "PUT")
    req += "Content-Length: " + std::to_string(call.body.size()) + "\r\n";
  req += "\r\n";
  if (auto ec = sock->write({boost::asio::buffer(req), boost::asio::buffer(call.body)}, left()))
    return "sending to " + where + " failed: " + ec.message();
  std::string in;
  std::vector<char> chunk(1 << 16);
  for (;;) {
    size_t got = 0;
    auto ec = sock->read(boost::asio::buffer(chunk), left(), &got);
    in.append(chunk.data(), got);
    if (ec == boost::asio::error::eof || ec == boost::asio::ssl::error::stream_truncated) break;
    if (ec) return "reading the answer of " + where + " failed: " + ec.message();
  }
  // Beast's parser on what came (the connection closed at the end): status, headers, the body by
  // its Content-Length or chunks; a body cut short is an error, not a shorter answer.
  namespace http = boost::beast::http;
  http::response_parser<http::string_body> parser;
  parser.body_limit(in.size());
  boost::beast::error_code ec;
  size_t used = 0;
  while (used < in.size() && !parser.is_done()) {
    const size_t n = parser.put(boost::asio::buffer(in.data() + used, in.size() - used), ec);
    if (ec || n == 0) break;
    used += n;
  }
  if (!ec && !parser.is_done()) parser.put_eof(ec);
  if (ec || !parser.is_done())
    return where + " did not answer HTTP" + (ec ? " (" + ec.message() + ")" : std::string());
  const auto& res = parser.get();
  http_answer_t a;
  a.status = res.result_int();
  a.content_type = std::string(res[http::field::content_type]);
  a.body = res.body();
  return a;
}

}  // namespace zk::net
