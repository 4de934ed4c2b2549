// The scheduler's metrics endpoint (see metrics_http.hpp): Beast over one io_context on one
// thread. A session reads one request (bounded, with a deadline), answers it and closes.
#include "actors/metrics_http.hpp"

#include <optional>
#include <stdexcept>
#include <thread>

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include "actors/node.hpp"  // ask
#include "common/timeline/render.hpp"

namespace zk::actors {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;

namespace {

constexpr const char* content_type = "text/plain; version=0.0.4; charset=utf-8";

void gauge(std::string& out, const char* name, const char* help, const std::vector<node_usage_msg>& nodes,
           uint64_t (*value)(const node_usage_msg&)) {
  out += std::string("# HELP ") + name + " " + help + "\n";
  out += std::string("# TYPE ") + name + " gauge\n";
  for (const auto& n : nodes)
    out += std::string(name) + "{node=\"" + escape_label_value(n.name) + "\"} " + std::to_string(value(n)) + "\n";
}

}  // namespace

std::string escape_label_value(const std::string& v) {
  std::string out;
  out.reserve(v.size());
  for (char c : v) {
    if (c == '\\') out += "\\\\";
    else if (c == '"') out += "\\\"";
    else if (c == '\n') out += "\\n";
    else out += c;
  }
  return out;
}

std::string render_node_gauges(const std::vector<node_usage_msg>& nodes) {
  std::string out;
  gauge(out, "zkfleet_node_reserved_bytes", "Bytes the scheduler holds reserved on the node (buffers, proving work).",
        nodes, [](const node_usage_msg& n) { return n.reserved; });
  gauge(out, "zkfleet_node_peak_reserved_bytes", "The most the scheduler has held reserved on the node since it joined.",
        nodes, [](const node_usage_msg& n) { return n.peak_reserved; });
  gauge(out, "zkfleet_node_budget_bytes", "The node's memory budget as the scheduler accounts it.", nodes,
        [](const node_usage_msg& n) { return n.budget; });
  gauge(out, "zkfleet_node_synthesizing", "Partitions synthesizing on the node.", nodes,
        [](const node_usage_msg& n) { return uint64_t(n.synthesizing); });
  gauge(out, "zkfleet_node_pipeline", "Partitions assigned to the node's prover and not yet proving.", nodes,
        [](const node_usage_msg& n) { return uint64_t(n.pipeline); });
  return out;
}

using request_t = http::request<http::string_body>;
using response_t = http::response<http::string_body>;

namespace {

// A plain-text answer that closes the connection.
response_t text_response(http::status status, unsigned version, std::string body) {
  response_t res{status, version};
  res.set(http::field::server, "zkfleet");
  res.set(http::field::content_type, "text/plain; charset=utf-8");
  res.keep_alive(false);
  res.body() = std::move(body);
  res.prepare_payload();
  return res;
}

}  // namespace

struct metrics_server_t::core_t {
  core_t(caf::actor_system& s, caf::actor sc, caf::actor ag, std::string h, metrics_options_t o)
      : sys(s), scheduler(std::move(sc)), aggregator(std::move(ag)), host(std::move(h)), options(o) {}

  void accept();
  response_t answer(const request_t& req);
  // The exposition body, or the reason for a 503.
  bool scrape(std::string& body);

  caf::actor_system& sys;
  const caf::actor scheduler, aggregator;
  const std::string host;
  const metrics_options_t options;
  asio::io_context io{1};
  tcp::acceptor acceptor{io};
  asio::steady_timer accept_retry{io};  // backoff after a failed accept
  uint16_t port = 0;
  std::thread thread;
};

namespace {

// One connection: read a request, write the answer, close. Owned by its pending handler.
class session_t : public std::enable_shared_from_this<session_t> {
 public:
  session_t(metrics_server_t::core_t* core, tcp::socket socket) : core_(core), stream_(std::move(socket)) {}

  void start() {
    parser_.emplace();
    parser_->header_limit(core_->options.max_request_bytes);
    parser_->body_limit(core_->options.max_request_bytes);
    stream_.expires_after(core_->options.io_timeout);
    http::async_read(stream_, buffer_, *parser_,
                     [self = shared_from_this()](beast::error_code ec, size_t) { self->on_read(ec); });
  }

 private:
  void on_read(beast::error_code ec) {
    const bool http_error = ec && ec.category() == http::make_error_code(http::error::end_of_stream).category();
    if (ec && (!http_error || ec == http::error::end_of_stream || ec == http::error::partial_message)) {
      close();  // the peer left, stalled (timeout), or the socket failed: nobody to answer
      return;
    }
    if (ec) {  // not HTTP, or over the size bound
      res_ = text_response(http::status::bad_request, 11, "bad request: " + ec.message() + "\n");
    } else {
      try {
        res_ = core_->answer(parser_->get());
      } catch (const std::exception& e) {  // never out of io.run(): the server keeps serving
        res_ = text_response(http::status::internal_server_error, 11, std::string("metrics: ") + e.what() + "\n");
      }
    }
    stream_.expires_after(core_->options.io_timeout);
    http::async_write(stream_, res_, [self = shared_from_this()](beast::error_code, size_t) { self->close(); });
  }

  void close() {
    beast::error_code ec;
    stream_.socket().shutdown(tcp::socket::shutdown_send, ec);
    stream_.socket().close(ec);
  }

  metrics_server_t::core_t* core_;
  beast::tcp_stream stream_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
  response_t res_;
};

// "did not answer within 2000 ms" for a timeout, "failed: <the error>" otherwise.
std::string why(const caf::error& e, std::chrono::milliseconds timeout) {
  if (e == caf::sec::request_timeout) return "did not answer within " + std::to_string(timeout.count()) + " ms";
  return "failed: " + describe(e);
}

}  // namespace

void metrics_server_t::core_t::accept() {
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

bool metrics_server_t::core_t::scrape(std::string& body) {
  const auto t = options.ask_timeout;
  if (!scheduler || !aggregator) {
    body = std::string("no ") + (scheduler ? "timeline aggregator" : "scheduler") + " to ask\n";
    return false;
  }
  auto usage = ask<std::vector<node_usage_msg>>(sys, scheduler, t, stats_atom::value);
  if (!usage) {
    body = "the scheduler " + why(usage.error(), t) + "\n";
    return false;
  }
  auto metrics = ask<std::string>(sys, aggregator, t, metrics_atom::value);
  if (!metrics) {
    body = "the timeline aggregator " + why(metrics.error(), t) + "\n";
    return false;
  }
  body = *metrics + render_node_gauges(*usage);
  return true;
}

response_t metrics_server_t::core_t::answer(const request_t& req) {
  const bool head = req.method() == http::verb::head;
  const auto target = req.target();
  const auto path = target.substr(0, target.find('?'));
  response_t res;
  if (req.method() != http::verb::get && !head) {
    res = text_response(http::status::method_not_allowed, req.version(),
                        "method not allowed: " + std::string(req.method_string()) + "\n");
    res.set(http::field::allow, "GET, HEAD");
  } else if (path != "/metrics") {
    res = text_response(http::status::not_found, req.version(), "not found: " + std::string(path) + " (metrics are at /metrics)\n");
  } else {
    std::string body;
    const bool ok = scrape(body);
    res = text_response(ok ? http::status::ok : http::status::service_unavailable, req.version(), std::move(body));
    if (ok) res.set(http::field::content_type, content_type);
  }
  if (head) {  // the headers GET would have, no body
    const auto n = res.body().size();
    res.body().clear();
    res.content_length(n);
  }
  return res;
}

metrics_server_t::metrics_server_t(caf::actor_system& sys, caf::actor scheduler, caf::actor aggregator,
                                   std::string host, uint16_t port, metrics_options_t options)
    : core_(std::make_unique<core_t>(sys, std::move(scheduler), std::move(aggregator), std::move(host), options)) {
  auto& c = *core_;
  const std::string where = c.host + ":" + std::to_string(port);
  beast::error_code ec;
  tcp::resolver resolver(c.io);
  auto endpoints = resolver.resolve(c.host, std::to_string(port), tcp::resolver::passive | tcp::resolver::numeric_service, ec);
  if (ec || endpoints.empty())
    throw std::runtime_error("metrics: cannot resolve " + where + ": " + (ec ? ec.message() : "no address"));
  const tcp::endpoint ep = *endpoints.begin();
  c.acceptor.open(ep.protocol(), ec);
  if (!ec) c.acceptor.set_option(asio::socket_base::reuse_address(true), ec);
  if (!ec) c.acceptor.bind(ep, ec);
  if (!ec) c.acceptor.listen(asio::socket_base::max_listen_connections, ec);
  if (ec) throw std::runtime_error("metrics: cannot listen on " + where + ": " + ec.message());
  c.port = c.acceptor.local_endpoint().port();
  c.accept();
  c.thread = std::thread([&c] { c.io.run(); });
}

metrics_server_t::~metrics_server_t() {
  // run() returns once the handler in progress (an answer being computed) is done; the pending
  // accept and the sessions' handlers are then destroyed with the core's io_context, which
  // closes their sockets (the acceptor closes with the core).
  core_->io.stop();
  if (core_->thread.joinable()) core_->thread.join();
}

uint16_t metrics_server_t::port() const { return core_->port; }
const std::string& metrics_server_t::host() const { return core_->host; }

}  // namespace zk::actors
