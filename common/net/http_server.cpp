#include "common/net/http_server.hpp"

#include <openssl/ssl.h>
#include <sys/stat.h>

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
#include <cstdio>
#include <deque>
#include <limits>
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

std::string http_size_text(uint64_t n) {
  static const char* units[] = {"bytes", "KiB", "MiB", "GiB", "TiB"};
  int u = 0;
  while (u < 4 && n >= 1024 && n % 1024 == 0) n /= 1024, ++u;
  return std::to_string(n) + " " + units[u];
}

http_response_t http_too_large(const http_body_plan_t& plan, std::optional<uint64_t> declared,
                               bool json) {
  const std::string name = plan.limit_name.empty() ? "this route's bound" : plan.limit_name;
  std::string why = (declared ? "the body (" + std::to_string(*declared) + " bytes)"
                              : std::string("the body (sent in chunks)")) +
                    " is over " + name + " (" + std::to_string(plan.limit) + " bytes";
  if (plan.limit >= 1024) why += ", " + http_size_text(plan.limit);
  why += ")";
  if (!plan.hint.empty()) why += ": " + plan.hint;
  return http_error(413, why, json);
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
  http_body_plan_t body_plan(const http_request_t& head) const {
    return options.body_plan ? options.body_plan(head) : http_body_plan_t{};
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
    header_parser_.emplace();
    header_parser_->header_limit(core_->options.max_header_bytes);
    // No bound on the body yet: Beast would check a declared length against its default (1 MiB)
    // when the header ends; the route's plan sets the bound once the header is read. (Not
    // boost::none: Boost 1.74's check `len > limit` holds for every length against none.)
    header_parser_->body_limit(std::numeric_limits<std::uint64_t>::max());
    beast::get_lowest_layer(stream_).expires_after(core_->options.io_timeout);
    http::async_read_header(
        stream_, buffer_, *header_parser_,
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
    const auto& h = header_parser_->get();
    head_.method = std::string(h.method_string());
    head_.target = std::string(h.target());
    head_.path = head_.target.substr(0, head_.target.find('?'));
    const size_t q = head_.target.find('?');
    if (q != std::string::npos) head_.query = head_.target.substr(q + 1);
    for (const auto& f : h) {
      std::string name(f.name_string());
      for (auto& c : name) c = char(std::tolower(static_cast<unsigned char>(c)));
      head_.headers.emplace_back(std::move(name), std::string(f.value()));
    }
    head_.peer = peer_;
    head_.cert_role = cert_role_;
    head_.cert_name = cert_name_;
    method_ = head_.method;
    body_pending_ = !header_parser_->is_done();  // a body follows the header
    if (!core_->admit(peer_))
      return write_answer(http_error(429, "too many requests from " + peer_ + ": slow down",
                                     core_->options.json_errors));
    plan_ = core_->body_plan(head_);
    if (plan_.answer) return write_answer(std::move(*plan_.answer));
    const auto declared = header_parser_->content_length();
    const std::optional<uint64_t> length =
        declared ? std::optional<uint64_t>(*declared) : std::nullopt;
    if (length && *length > plan_.limit)
      return write_answer(http_too_large(plan_, length, core_->options.json_errors));
    const uint64_t expect = length.value_or(plan_.limit);
    beast::get_lowest_layer(stream_).expires_after(
        core_->options.io_timeout +
        std::chrono::milliseconds(1000 * expect /
                                  std::max<uint64_t>(1, core_->options.min_body_rate)));
    std::string expect_field = head_.header("expect");
    for (auto& c : expect_field) c = char(std::tolower(static_cast<unsigned char>(c)));
    if (body_pending_ && expect_field == "100-continue" && h.version() >= 11) {
      static const std::string go_on = "HTTP/1.1 100 Continue\r\n\r\n";
      return asio::async_write(stream_, asio::buffer(go_on),
                               [self = this->shared_from_this()](beast::error_code e, size_t) {
                                 if (e) return self->close();
                                 self->read_body();
                               });
    }
    read_body();
  }

  // The body by the plan: into its sink a piece at a time, or into memory.
  void read_body() {
    if (!body_pending_) {  // none follows the header
      if (plan_.sink)
        if (auto refusal = plan_.sink->finish()) {
          plan_.sink.reset();
          return write_answer(std::move(*refusal));
        }
      return on_body({});
    }
    if (plan_.sink) {
      sink_parser_.emplace(std::move(*header_parser_));
      sink_parser_->body_limit(plan_.limit);
      piece_.resize(std::max<size_t>(core_->options.file_piece, 4096));
      return read_piece();
    }
    string_parser_.emplace(std::move(*header_parser_));
    string_parser_->body_limit(plan_.limit);
    http::async_read(
        stream_, buffer_, *string_parser_,
        [self = this->shared_from_this()](beast::error_code e, size_t) { self->on_body(e); });
  }

  void read_piece() {
    auto& body = sink_parser_->get().body();
    body.data = piece_.data();
    body.size = piece_.size();
    body.more = true;
    http::async_read_some(
        stream_, buffer_, *sink_parser_,
        [self = this->shared_from_this()](beast::error_code e, size_t) { self->on_piece(e); });
  }

  void on_piece(beast::error_code ec) {
    if (ec == http::error::need_buffer) ec = {};
    const size_t got = piece_.size() - sink_parser_->get().body().size;
    if (!ec && got > 0)
      if (auto refusal = plan_.sink->write({piece_.data(), got})) {
        plan_.sink.reset();  // it drops what it took
        return write_answer(std::move(*refusal));
      }
    if (ec) return on_body(ec);
    if (!sink_parser_->is_done()) return read_piece();
    if (auto refusal = plan_.sink->finish()) {
      plan_.sink.reset();
      return write_answer(std::move(*refusal));
    }
    on_body({});
  }

  void on_body(beast::error_code ec);
  void write_answer(http_response_t r) {
    if (answered_) return;
    answered_ = true;
    if (!r.file.empty()) return write_file_answer(std::move(r));
    res_ = to_beast(r, 11);
    if (method_ == "HEAD") {  // the headers GET would have, no body
      const auto n = res_.body().size();
      res_.body().clear();
      res_.content_length(n);
    }
    beast::get_lowest_layer(stream_).expires_after(core_->options.io_timeout);
    http::async_write(
        stream_, res_,
        [self = this->shared_from_this()](beast::error_code e, size_t) { self->after_answer(e); });
  }

  // A file as the body: the header, then the file a piece at a time (each write under the io
  // timeout), so that its size costs no memory.
  void write_file_answer(http_response_t r) {
    file_ = std::fopen(r.file.c_str(), "rb");
    struct stat st {};
    if (!file_ || ::fstat(::fileno(file_), &st) != 0) {
      answered_ = false;
      return write_answer(
          http_error(503, "the file of this answer cannot be read", core_->options.json_errors));
    }
    std::string head = "HTTP/1.1 " + std::to_string(r.status) + " " +
                       std::string(http::obsolete_reason(http::status(r.status))) +
                       "\r\nServer: zkfleet\r\nContent-Type: " + r.content_type +
                       "\r\nContent-Length: " + std::to_string(st.st_size) +
                       "\r\nConnection: close\r\n";
    for (const auto& [k, v] : r.headers) head += k + ": " + v + "\r\n";
    file_piece_ = std::move(head) + "\r\n";
    file_left_ = method_ == "HEAD" ? 0 : uint64_t(st.st_size);
    write_file_piece();
  }
  void write_file_piece() {
    beast::get_lowest_layer(stream_).expires_after(core_->options.io_timeout);
    asio::async_write(
        stream_, asio::buffer(file_piece_),
        [self = this->shared_from_this()](beast::error_code ec, size_t) {
          if (ec) return self->close();
          if (self->file_left_ == 0) return self->after_answer(ec);
          auto& piece = self->file_piece_;
          piece.resize(std::min<uint64_t>(self->file_left_, self->core_->options.file_piece));
          if (std::fread(piece.data(), 1, piece.size(), self->file_) != piece.size())
            return self->close();  // the file shrank: the answer is cut short
          self->file_left_ -= piece.size();
          self->write_file_piece();
        });
  }

  // After an answer: close; or, when the client may still be sending a body this answer came
  // before, stop sending and read (and drop) what it sends for a bounded time and size first,
  // so that it sees the answer rather than a reset.
  void after_answer(beast::error_code ec) {
    if (ec || !body_pending_) return close();
    plan_.sink.reset();
    error_code_t ignored;
    lowest(stream_).shutdown(tcp::socket::shutdown_send, ignored);
    drained_ = 0;
    piece_.resize(64 << 10);
    beast::get_lowest_layer(stream_).expires_after(core_->options.drain_timeout);
    drain();
  }
  void drain() {
    stream_.async_read_some(asio::buffer(piece_),
                            [self = this->shared_from_this()](beast::error_code ec, size_t n) {
                              self->drained_ += n;
                              if (ec || self->drained_ > self->core_->options.max_drain_bytes)
                                return self->close();
                              self->drain();
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
    plan_.sink.reset();  // a body cut off: the sink drops what it took
    if (file_) std::fclose(file_);
    file_ = nullptr;
    error_code_t ec;
    lowest(stream_).shutdown(tcp::socket::shutdown_both, ec);
    lowest(stream_).close(ec);
  }

  core_t* core_;
  Stream stream_;
  beast::flat_buffer buffer_;
  // The header is read by the first; the body by one of the others, made from it by the plan.
  std::optional<http::request_parser<http::empty_body>> header_parser_;
  std::optional<http::request_parser<http::string_body>> string_parser_;
  std::optional<http::request_parser<http::buffer_body>> sink_parser_;
  http_request_t head_;  // the request without its body
  http_body_plan_t plan_;
  std::vector<char> piece_;  // a streamed body's piece; the drain's scratch
  uint64_t drained_ = 0;
  std::FILE* file_ = nullptr;  // a file answer
  std::string file_piece_;
  uint64_t file_left_ = 0;
  response_t res_;
  std::string peer_, cert_role_, cert_name_, method_;
  bool answered_ = false, closing_ = false, body_pending_ = false;
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
  if (ec == http::error::body_limit)  // a chunked body passed the bound
    return write_answer(http_too_large(plan_, std::nullopt, core_->options.json_errors));
  if (ec) {
    if (peer_gone(ec)) return close();
    return write_answer(
        http_error(400, "bad request: " + ec.message(), core_->options.json_errors));
  }
  body_pending_ = false;
  http_request_t r = std::move(head_);
  if (string_parser_) r.body = std::move(string_parser_->get().body());
  r.sink = std::move(plan_.sink);
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
