#include "common/net/http_server.hpp"

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <optional>
#include <stdexcept>
#include <thread>

namespace zk::net {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;

struct http_server_t::core_t {
  core_t(std::string w, std::string h, http_handler_t f, http_options_t o)
      : what(std::move(w)), host(std::move(h)), handler(std::move(f)), options(o) {}
  void accept();

  const std::string what, host;
  const http_handler_t handler;
  const http_options_t options;
  asio::io_context io{1};
  tcp::acceptor acceptor{io};
  asio::steady_timer accept_retry{io};  // backoff after a failed accept
  uint16_t port = 0;
  std::thread thread;
};

namespace {

using response_t = http::response<http::string_body>;

response_t to_beast(const http_response_t& r, unsigned version) {
  response_t res{http::status(r.status), version};
  res.set(http::field::server, "zkfleet");
  res.set(http::field::content_type, r.content_type);
  for (const auto& [k, v] : r.headers) res.set(k, v);
  res.keep_alive(false);
  res.body() = r.body;
  res.prepare_payload();
  return res;
}

http_response_t plain(unsigned status, std::string body) {
  http_response_t r;
  r.status = status;
  r.body = std::move(body);
  return r;
}

// One connection: read a request, write the answer, close. Owned by its pending handler.
class session_t : public std::enable_shared_from_this<session_t> {
 public:
  session_t(http_server_t::core_t* core, tcp::socket socket)
      : core_(core), stream_(std::move(socket)) {}

  void start() {
    parser_.emplace();
    parser_->header_limit(core_->options.max_request_bytes);
    parser_->body_limit(core_->options.max_request_bytes);
    stream_.expires_after(core_->options.io_timeout);
    http::async_read(
        stream_, buffer_, *parser_,
        [self = shared_from_this()](beast::error_code ec, size_t) { self->on_read(ec); });
  }

 private:
  void on_read(beast::error_code ec) {
    const bool http_error =
        ec && ec.category() == http::make_error_code(http::error::end_of_stream).category();
    if (ec &&
        (!http_error || ec == http::error::end_of_stream || ec == http::error::partial_message)) {
      close();  // the peer left, stalled (timeout), or the socket failed: nobody to answer
      return;
    }
    if (ec) {  // not HTTP, or over the size bound
      res_ = to_beast(plain(400, "bad request: " + ec.message() + "\n"), 11);
    } else {
      const auto& req = parser_->get();
      http_request_t r;
      r.method = std::string(req.method_string());
      r.target = std::string(req.target());
      r.path = r.target.substr(0, r.target.find('?'));
      r.body = req.body();
      http_response_t out;
      try {
        out = core_->handler(r);
      } catch (const std::exception& e) {  // never out of io.run(): the server keeps serving
        out = plain(500, core_->what + ": " + e.what() + "\n");
      }
      res_ = to_beast(out, req.version());
      if (req.method() == http::verb::head) {  // the headers GET would have, no body
        const auto n = res_.body().size();
        res_.body().clear();
        res_.content_length(n);
      }
    }
    stream_.expires_after(core_->options.io_timeout);
    http::async_write(stream_, res_,
                      [self = shared_from_this()](beast::error_code, size_t) { self->close(); });
  }

  void close() {
    beast::error_code ec;
    stream_.socket().shutdown(tcp::socket::shutdown_send, ec);
    stream_.socket().close(ec);
  }

  http_server_t::core_t* core_;
  beast::tcp_stream stream_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
  response_t res_;
};

}  // namespace

void http_server_t::core_t::accept() {
  acceptor.async_accept(asio::make_strand(io), [this](beast::error_code ec, tcp::socket socket) {
    if (ec == asio::error::operation_aborted || !acceptor.is_open()) return;  // stopping
    if (!ec) {
      std::make_shared<session_t>(this, std::move(socket))->start();
      accept();
      return;
    }
    // A failed accept (e.g. out of descriptors) does not end the server: try again shortly.
    accept_retry.expires_after(std::chrono::milliseconds(100));
    accept_retry.async_wait([this](beast::error_code e) {
      if (!e) accept();
    });
  });
}

http_server_t::http_server_t(std::string what, std::string host, uint16_t port,
                             http_handler_t handler, http_options_t options)
    : core_(
          std::make_unique<core_t>(std::move(what), std::move(host), std::move(handler), options)) {
  auto& c = *core_;
  const std::string where = c.host + ":" + std::to_string(port);
  beast::error_code ec;
  tcp::resolver resolver(c.io);
  auto endpoints = resolver.resolve(c.host, std::to_string(port),
                                    tcp::resolver::passive | tcp::resolver::numeric_service, ec);
  if (ec || endpoints.empty())
    throw std::runtime_error(c.what + ": cannot resolve " + where + ": " +
                             (ec ? ec.message() : "no address"));
  const tcp::endpoint ep = *endpoints.begin();
  c.acceptor.open(ep.protocol(), ec);
  if (!ec) c.acceptor.set_option(asio::socket_base::reuse_address(true), ec);
  if (!ec) c.acceptor.bind(ep, ec);
  if (!ec) c.acceptor.listen(asio::socket_base::max_listen_connections, ec);
  if (ec) throw std::runtime_error(c.what + ": cannot listen on " + where + ": " + ec.message());
  c.port = c.acceptor.local_endpoint().port();
  c.accept();
  c.thread = std::thread([&c] { c.io.run(); });
}

http_server_t::~http_server_t() {
  // run() returns once the handler in progress is done; the pending accept and the sessions'
  // handlers are then destroyed with the core's io_context, which closes their sockets.
  core_->io.stop();
  if (core_->thread.joinable()) core_->thread.join();
}

uint16_t http_server_t::port() const { return core_->port; }
const std::string& http_server_t::host() const { return core_->host; }

}  // namespace zk::net
