#include "common/net/http_server.hpp"

#include <openssl/ssl.h>

#include <atomic>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/thread_pool.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>
#include <deque>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <thread>

#include "common/net/socket_options.hpp"
#include "common/security/certs.hpp"

namespace zk::net {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace ssl = asio::ssl;
using tcp = asio::ip::tcp;

std::string http_request_t::header(const std::string& name) const {
  for (const auto& [k, v] : headers)
    if (k == name) return v;
  return "";
}

namespace {

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::string percent_decode(std::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '+') {
      out += ' ';
    } else if (s[i] == '%' && i + 2 < s.size() && hex_value(s[i + 1]) >= 0 &&
               hex_value(s[i + 2]) >= 0) {
      out += char(hex_value(s[i + 1]) * 16 + hex_value(s[i + 2]));
      i += 2;
    } else {
      out += s[i];
    }
  }
  return out;
}

}  // namespace

std::optional<std::string> http_request_t::param(const std::string& name) const {
  std::string_view q = query;
  while (!q.empty()) {
    const size_t amp = q.find('&');
    const std::string_view pair = q.substr(0, amp);
    const size_t eq = pair.find('=');
    if (percent_decode(pair.substr(0, eq)) == name)
      return eq == std::string_view::npos ? std::string() : percent_decode(pair.substr(eq + 1));
    if (amp == std::string_view::npos) break;
    q.remove_prefix(amp + 1);
  }
  return std::nullopt;
}

http_response_t http_error(unsigned status, const std::string& why, bool json) {
  http_response_t r;
  r.status = status;
  if (json) {
    r.content_type = "application/json";
    r.body = nlohmann::json{{"error", why}}.dump() + "\n";
  } else {
    r.body = why + "\n";
  }
  return r;
}

struct http_server_t::core_t {
  core_t(std::string w, std::string h, http_handler_t f, http_options_t o)
      : what(std::move(w)),
        host(std::move(h)),
        handler(std::move(f)),
        options(std::move(o)),
        pool(std::max(1u, options.handler_threads)) {}
  void accept();
  // A request from `addr` now: within its bucket (and then taken from it)?
  bool admit(const std::string& addr) {
    std::lock_guard<std::mutex> lock(rate_mu);
    const auto now = std::chrono::steady_clock::now();
    if (buckets.size() > 10000)  // forget the idle ones (a scan now and then)
      for (auto it = buckets.begin(); it != buckets.end();)
        it = now - it->second.last > std::chrono::minutes(1) ? buckets.erase(it) : std::next(it);
    auto [it, fresh] = buckets.try_emplace(addr, bucket_t{options.burst, now});
    bucket_t& b = it->second;
    if (!fresh)
      b.tokens = std::min(
          options.burst,
          b.tokens + options.rate_per_s * std::chrono::duration<double>(now - b.last).count());
    b.last = now;
    if (b.tokens < 1) return false;
    b.tokens -= 1;
    return true;
  }
  uint64_t body_limit(const std::string& method, const std::string& path) const {
    return options.body_limit ? options.body_limit(method, path) : uint64_t(64) << 10;
  }

  const std::string what, host;
  const http_handler_t handler;
  const http_options_t options;
  asio::io_context io{1};
  tcp::acceptor acceptor{io};
  asio::steady_timer accept_retry{io};  // backoff after a failed accept
  uint16_t port = 0;
  std::shared_ptr<ssl::context> tls;
  std::atomic<unsigned> connections{0};
  struct bucket_t {
    double tokens;
    std::chrono::steady_clock::time_point last;
  };
  std::mutex rate_mu;
  std::map<std::string, bucket_t> buckets;
  asio::thread_pool pool;
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

template <class Stream>
tcp::socket& lowest(Stream& s) {
  return beast::get_lowest_layer(s).socket();
}

// One connection: [TLS handshake,] read a request, hand it to the handler, write its answer or
// stream, close. Owned by its pending operations and by its reply.
template <class Stream>
class session_t : public std::enable_shared_from_this<session_t<Stream>> {
 public:
  using core_t = http_server_t::core_t;
  session_t(core_t* core, Stream stream) : core_(core), stream_(std::move(stream)) {}
  ~session_t() { --core_->connections; }

  void start() {
    error_code_t ec;
    const auto ep = lowest(stream_).remote_endpoint(ec);
    peer_ = ec ? "" : ep.address().to_string();
    tune_socket(lowest(stream_));
    beast::get_lowest_layer(stream_).expires_after(core_->options.io_timeout);
    if constexpr (is_tls)
      stream_.async_handshake(ssl::stream_base::server,
                              [self = this->shared_from_this()](beast::error_code e) {
                                if (e) return self->close();
                                self->note_client_cert();
                                self->read_header();
                              });
    else
      read_header();
  }

  // From any thread (the reply's): the answer, written on the io thread.
  void answer(http_response_t r) {
    asio::post(core_->io, [self = this->shared_from_this(), r = std::move(r)]() mutable {
      self->write_answer(std::move(r));
    });
  }
  void begin_stream(std::string head) {
    asio::post(core_->io, [self = this->shared_from_this(), head = std::move(head)]() mutable {
      self->answered_ = true;
      self->push(std::move(head));
    });
  }
  bool stream_write(std::string bytes) {
    if (ended_) return false;
    asio::post(core_->io, [self = this->shared_from_this(), b = std::move(bytes)]() mutable {
      self->push(std::move(b));
    });
    return true;
  }
  bool ended() const { return ended_; }
  void end_stream() {
    asio::post(core_->io, [self = this->shared_from_this()] {
      if (self->queue_.empty()) self->close();
      self->closing_ = true;
    });
  }

 private:
  using error_code_t = boost::system::error_code;
  static constexpr bool is_tls = !std::is_same_v<Stream, beast::tcp_stream>;

  void note_client_cert() {
    if constexpr (is_tls) {
      X509* cert = SSL_get1_peer_certificate(stream_.native_handle());
      if (cert && SSL_get_verify_result(stream_.native_handle()) == X509_V_OK)
        if (auto who = security::subject_identity(cert)) {
          cert_role_ = security::role_name(who->role);
          cert_name_ = who->name;
        }
      if (cert) X509_free(cert);
    }
  }

  void read_header() {
    parser_.emplace();
    parser_->header_limit(core_->options.max_header_bytes);
    beast::get_lowest_layer(stream_).expires_after(core_->options.io_timeout);
    http::async_read_header(
        stream_, buffer_, *parser_,
        [self = this->shared_from_this()](beast::error_code ec, size_t) { self->on_header(ec); });
  }

  bool peer_gone(beast::error_code ec) const {
    const bool http_error =
        ec.category() == http::make_error_code(http::error::end_of_stream).category();
    return !http_error || ec == http::error::end_of_stream || ec == http::error::partial_message;
  }

  void on_header(beast::error_code ec) {
    if (ec) {
      if (peer_gone(ec)) return close();  // left, stalled (timeout), or not TLS
      return write_answer(
          http_error(400, "bad request: " + ec.message(), core_->options.json_errors));
    }
    const auto& h = parser_->get();
    method_ = std::string(h.method_string());
    target_ = std::string(h.target());
    path_ = target_.substr(0, target_.find('?'));
    if (!core_->admit(peer_))
      return write_answer(http_error(429, "too many requests from " + peer_ + ": slow down",
                                     core_->options.json_errors));
    const uint64_t limit = core_->body_limit(method_, path_);
    const auto length = parser_->content_length();
    if (length && *length > limit)
      return write_answer(http_error(413,
                                     "the body (" + std::to_string(*length) +
                                         " bytes) is over this route's bound of " +
                                         std::to_string(limit) + " bytes",
                                     core_->options.json_errors));
    parser_->body_limit(limit);
    const uint64_t expect = length.value_or(limit);
    beast::get_lowest_layer(stream_).expires_after(
        core_->options.io_timeout +
        std::chrono::milliseconds(1000 * expect /
                                  std::max<uint64_t>(1, core_->options.min_body_rate)));
    http::async_read(
        stream_, buffer_, *parser_,
        [self = this->shared_from_this()](beast::error_code e, size_t) { self->on_body(e); });
  }

  void on_body(beast::error_code ec);
  void write_answer(http_response_t r) {
    if (answered_) return;
    answered_ = true;
    res_ = to_beast(r, 11);
    if (method_ == "HEAD") {  // the headers GET would have, no body
      const auto n = res_.body().size();
      res_.body().clear();
      res_.content_length(n);
    }
    beast::get_lowest_layer(stream_).expires_after(core_->options.io_timeout);
    http::async_write(stream_, res_, [self = this->shared_from_this()](beast::error_code, size_t) {
      self->close();
    });
  }

  void push(std::string bytes) {
    if (ended_) return;
    backlog_ += bytes.size();
    if (backlog_ > core_->options.max_stream_backlog) return close();  // a reader too slow
    queue_.push_back(std::move(bytes));
    if (queue_.size() == 1) write_next();
  }
  void write_next() {
    beast::get_lowest_layer(stream_).expires_after(core_->options.io_timeout);
    asio::async_write(stream_, asio::buffer(queue_.front()),
                      [self = this->shared_from_this()](beast::error_code ec, size_t) {
                        if (ec) return self->close();
                        self->backlog_ -= self->queue_.front().size();
                        self->queue_.pop_front();
                        if (!self->queue_.empty())
                          self->write_next();
                        else if (self->closing_)
                          self->close();
                        else
                          beast::get_lowest_layer(self->stream_).expires_never();
                      });
  }

  void close() {
    if (ended_) return;
    ended_ = true;
    error_code_t ec;
    lowest(stream_).shutdown(tcp::socket::shutdown_both, ec);
    lowest(stream_).close(ec);
  }

  core_t* core_;
  Stream stream_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
  response_t res_;
  std::string peer_, cert_role_, cert_name_, method_, target_, path_;
  bool answered_ = false, closing_ = false;
  std::atomic<bool> ended_{false};
  std::deque<std::string> queue_;
  size_t backlog_ = 0;
};

template <class Stream>
class stream_impl_t : public http_stream_t {
 public:
  explicit stream_impl_t(std::shared_ptr<session_t<Stream>> s) : s_(std::move(s)) {}
  ~stream_impl_t() override { close(); }
  bool write(std::string bytes) override { return s_->stream_write(std::move(bytes)); }
  bool open() const override { return !s_->ended(); }
  void close() override {
    if (!closed_.exchange(true)) s_->end_stream();
  }

 private:
  std::shared_ptr<session_t<Stream>> s_;
  std::atomic<bool> closed_{false};
};

template <class Stream>
class reply_impl_t : public http_reply_t {
 public:
  explicit reply_impl_t(std::shared_ptr<session_t<Stream>> s, bool json)
      : s_(std::move(s)), json_(json) {}
  ~reply_impl_t() override {
    if (!done_.exchange(true)) s_->answer(http_error(500, "the request was not answered", json_));
  }
  void respond(http_response_t r) override {
    if (!done_.exchange(true)) s_->answer(std::move(r));
  }
  std::shared_ptr<http_stream_t> stream(
      std::string content_type, std::vector<std::pair<std::string, std::string>> headers) override {
    if (done_.exchange(true)) return nullptr;
    std::string head = "HTTP/1.1 200 OK\r\nServer: zkfleet\r\nContent-Type: " + content_type +
                       "\r\nCache-Control: no-cache\r\nConnection: close\r\n";
    for (const auto& [k, v] : headers) head += k + ": " + v + "\r\n";
    s_->begin_stream(head + "\r\n");
    return std::make_shared<stream_impl_t<Stream>>(s_);
  }

 private:
  std::shared_ptr<session_t<Stream>> s_;
  bool json_;
  std::atomic<bool> done_{false};
};

template <class Stream>
void session_t<Stream>::on_body(beast::error_code ec) {
  if (ec == http::error::body_limit)
    return write_answer(
        http_error(413, "the body is over this route's bound", core_->options.json_errors));
  if (ec) {
    if (peer_gone(ec)) return close();
    return write_answer(
        http_error(400, "bad request: " + ec.message(), core_->options.json_errors));
  }
  auto& req = parser_->get();
  http_request_t r;
  r.method = method_;
  r.target = target_;
  r.path = path_;
  const size_t q = target_.find('?');
  if (q != std::string::npos) r.query = target_.substr(q + 1);
  for (const auto& f : req) {
    std::string name(f.name_string());
    for (auto& c : name) c = char(std::tolower(static_cast<unsigned char>(c)));
    r.headers.emplace_back(std::move(name), std::string(f.value()));
  }
  r.body = std::move(req.body());
  r.peer = peer_;
  r.cert_role = cert_role_;
  r.cert_name = cert_name_;
  beast::get_lowest_layer(stream_).expires_never();  // the handler's time is its own
  auto reply =
      std::make_shared<reply_impl_t<Stream>>(this->shared_from_this(), core_->options.json_errors);
  asio::post(core_->pool, [core = core_, r = std::move(r), reply]() mutable {
    try {
      core->handler(std::move(r), reply);
    } catch (const std::exception& e) {  // never out of the pool: the server keeps serving
      reply->respond(http_error(500, core->what + ": " + e.what(), core->options.json_errors));
    }
  });
}

}  // namespace

void http_server_t::core_t::accept() {
  acceptor.async_accept(asio::make_strand(io), [this](beast::error_code ec, tcp::socket socket) {
    if (ec == asio::error::operation_aborted || !acceptor.is_open()) return;  // stopping
    if (!ec) {
      if (++connections > options.max_connections) {
        --connections;  // over the cap: closed at accept, nothing read
        boost::system::error_code ignored;
        socket.close(ignored);
      } else if (tls) {
        using ssl_stream_t = beast::ssl_stream<beast::tcp_stream>;
        std::make_shared<session_t<ssl_stream_t>>(
            this, ssl_stream_t(beast::tcp_stream(std::move(socket)), *tls))
            ->start();
      } else {
        std::make_shared<session_t<beast::tcp_stream>>(this, beast::tcp_stream(std::move(socket)))
            ->start();
      }
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
    : core_(std::make_shared<core_t>(std::move(what), std::move(host), std::move(handler),
                                     std::move(options))) {
  auto& c = *core_;
  const std::string where = c.host + ":" + std::to_string(port);
  if (c.options.tls.enabled()) {
    try {
      c.tls = make_tls_context(c.options.tls, tls_side_t::server);
    } catch (const std::exception& e) {
      throw std::runtime_error(c.what + ": " + e.what());
    }
    // Browsers, curl and Prometheus: TLS 1.2 as well, and a client certificate is optional (a
    // request may carry a bearer token instead); one that is sent must chain to the CA.
    SSL_CTX_set_min_proto_version(c.tls->native_handle(), TLS1_2_VERSION);
    boost::system::error_code ec;
    c.tls->set_verify_mode(ssl::verify_peer, ec);
  }
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
  // The sockets' thread first (what handlers still post is never run), then the handlers: each
  // one running ends (a handler waits on the cluster for a bounded time); then the io_context
  // goes with the core, closing every socket.
  core_->io.stop();
  if (core_->thread.joinable()) core_->thread.join();
  core_->pool.join();
}

uint16_t http_server_t::port() const { return core_->port; }
const std::string& http_server_t::host() const { return core_->host; }
bool http_server_t::tls() const { return bool(core_->tls); }

}  // namespace zk::net
