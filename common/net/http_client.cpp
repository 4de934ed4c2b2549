#include "common/net/http_client.hpp"

#include <algorithm>
#include <boost/asio/error.hpp>
#include <cctype>

#include "common/net/timed_socket.hpp"

namespace zk::net {

namespace {

std::string lower(std::string s) {
  for (auto& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

}  // namespace

http_answer_t http_call(const http_call_t& call) {
  using clock = std::chrono::steady_clock;
  const auto deadline = clock::now() + call.timeout;
  auto left = [&] {
    return std::max(millis(1), std::chrono::duration_cast<millis>(deadline - clock::now()));
  };
  http_answer_t a;
  std::unique_ptr<timed_socket_t> sock =
      call.tls.enabled() ? std::make_unique<timed_socket_t>(
                               make_tls_context(call.tls, tls_side::client), call.expected_server)
                         : std::make_unique<timed_socket_t>();
  const std::string where = call.host + ":" + std::to_string(call.port);
  if (auto ec = sock->connect(call.host, call.port, left())) {
    a.error = "cannot reach " + where + ": " +
              (sock->peer_error().empty() ? ec.message() : sock->peer_error());
    return a;
  }
  std::string req = call.method + " " + call.target + " HTTP/1.1\r\nHost: " + where +
                    "\r\nConnection: close\r\nUser-Agent: zkfleet\r\n";
  for (const auto& [k, v] : call.headers) req += k + ": " + v + "\r\n";
  if (!call.body.empty() || call.method == "POST" || call.method == "PUT")
    req += "Content-Length: " + std::to_string(call.body.size()) + "\r\n";
  req += "\r\n";
  if (auto ec = sock->write({boost::asio::buffer(req), boost::asio::buffer(call.body)}, left())) {
    a.error = "sending to " + where + " failed: " + ec.message();
    return a;
  }
  std::string in;
  std::vector<char> chunk(1 << 16);
  for (;;) {
    size_t got = 0;
    auto ec = sock->read(boost::asio::buffer(chunk), left(), &got);
    in.append(chunk.data(), got);
    if (ec == boost::asio::error::eof || ec == boost::asio::ssl::error::stream_truncated) break;
    if (ec) {
      a.error = "reading the answer of " + where + " failed: " + ec.message();
      return a;
    }
  }
  const size_t end = in.find("\r\n\r\n");
  if (in.rfind("HTTP/1.", 0) != 0 || end == std::string::npos || in.size() < 12) {
    a.error = where + " did not answer HTTP";
    return a;
  }
  a.status = unsigned(std::stoul(in.substr(9, 3)));
  size_t length = in.size() - end - 4;
  for (size_t p = in.find("\r\n") + 2; p < end;) {
    const size_t e = in.find("\r\n", p);
    const std::string line = in.substr(p, e - p);
    const size_t colon = line.find(':');
    if (colon != std::string::npos) {
      const std::string k = lower(line.substr(0, colon));
      std::string v = line.substr(colon + 1);
      v.erase(0, v.find_first_not_of(' '));
      if (k == "content-type") a.content_type = v;
      if (k == "content-length") length = std::min<size_t>(length, std::stoull(v));
    }
    p = e + 2;
  }
  a.body = in.substr(end + 4, length);
  return a;
}

}  // namespace zk::net
