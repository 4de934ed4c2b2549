#include "common/net/timed_socket.hpp"

#include <openssl/ssl.h>

#include <boost/asio/connect.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/write.hpp>

#include "common/net/socket_options.hpp"

namespace zk::net {

namespace asio = boost::asio;
namespace ssl = asio::ssl;
using asio::ip::tcp;

timed_socket_t::timed_socket_t() : socket_(io_) {}
timed_socket_t::timed_socket_t(std::shared_ptr<tls_context_t> tls, std::string expected_peer)
    : socket_(io_), tls_(std::move(tls)), expected_peer_(std::move(expected_peer)) {}
timed_socket_t::~timed_socket_t() { close(); }

timed_socket_t::tcp_socket_t& timed_socket_t::lowest() {
  return stream_ ? stream_->next_layer() : socket_;
}
const timed_socket_t::tcp_socket_t& timed_socket_t::lowest() const {
  return stream_ ? stream_->next_layer() : socket_;
}
bool timed_socket_t::is_open() const { return lowest().is_open(); }

void timed_socket_t::close() {
  error_code ignored;
  lowest().shutdown(tcp::socket::shutdown_both, ignored);
  lowest().close(ignored);
}

bool timed_socket_t::run_until_done(millis_t timeout) {
  io_.restart();
  io_.run_for(timeout);
  if (io_.stopped()) return true;  // the handler ran: nothing left in the context
  close();                         // cancels the operation...
  io_.run();                       // ...whose handler now runs with operation_aborted
  return false;
}

error_code timed_socket_t::connect(const std::string& host, uint16_t port, millis_t timeout) {
  close();
  peer_error_.clear();
  peer_name_.clear();
  peer_verify_error_ = 0;
  reached_ = false;
  if (tls_) {
    stream_ = std::make_unique<tls_stream_t>(io_, *tls_);
    // Keep OpenSSL's record buffers (asio frees them whenever they drain: a free and a malloc
    // per 16 KiB record of a bulk stream).
    SSL_clear_mode(stream_->native_handle(), SSL_MODE_RELEASE_BUFFERS);
    stream_->set_verify_callback([this](bool preverified, ssl::verify_context& vc) {
      if (!preverified && peer_verify_error_ == 0)
        peer_verify_error_ = X509_STORE_CTX_get_error(vc.native_handle());
      return verify_node_peer(preverified, vc.native_handle(), expected_peer_, peer_error_);
    });
  }
  // The name lookup shares the deadline (a numeric host resolves without one).
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  auto left = [&] {
    return std::chrono::duration_cast<millis_t>(deadline - std::chrono::steady_clock::now());
  };
  tcp::resolver resolver(io_);
  error_code result = asio::error::would_block;
  tcp::resolver::results_type endpoints;
  resolver.async_resolve(host, std::to_string(port),
                         [&](const error_code& e, tcp::resolver::results_type r) {
                           result = e;
                           endpoints = std::move(r);
                         });
  io_.restart();
  io_.run_for(timeout);
  if (!io_.stopped()) {
    // getaddrinfo itself cannot be interrupted: the lookup ends within the system resolver's own
    // timeouts (resolv.conf), then reports the cancellation.
    resolver.cancel();
    io_.run();
    return asio::error::timed_out;
  }
  if (result) return result;
  if (left().count() <= 0) return asio::error::timed_out;
  result = asio::error::would_block;
  asio::async_connect(lowest(), endpoints,
                      [&](const error_code& e, const tcp::endpoint&) { result = e; });
  if (!run_until_done(left())) return asio::error::timed_out;
  if (result) return result;
  reached_ = true;
  tune_socket(lowest());
  if (!stream_) return result;
  if (left().count() <= 0) {
    close();
    return asio::error::timed_out;
  }
  result = asio::error::would_block;
  stream_->async_handshake(ssl::stream_base::client, [&](const error_code& e) { result = e; });
  if (!run_until_done(left())) return asio::error::timed_out;
  if (result) {
    close();
    return result;
  }
  X509* cert = SSL_get1_peer_certificate(stream_->native_handle());
  peer_name_ = node_name_of(cert);
  X509_free(cert);
  return result;
}

error_code timed_socket_t::write(const std::vector<asio::const_buffer>& buffers, millis_t timeout) {
  error_code result = asio::error::would_block;
  auto done = [&](const error_code& e, size_t) { result = e; };
  if (stream_)
    asio::async_write(*stream_, buffers, done);
  else
    asio::async_write(socket_, buffers, done);
  if (!run_until_done(timeout)) return asio::error::timed_out;
  return result;
}

error_code timed_socket_t::write(asio::const_buffer buffer, millis_t timeout) {
  return write(std::vector<asio::const_buffer>{buffer}, timeout);
}

error_code timed_socket_t::read(asio::mutable_buffer buffer, millis_t timeout, size_t* got) {
  error_code result = asio::error::would_block;
  size_t n = 0;
  auto done = [&](const error_code& e, size_t bytes) {
    result = e;
    n = bytes;
  };
  if (stream_)
    asio::async_read(*stream_, buffer, done);
  else
    asio::async_read(socket_, buffer, done);
  const bool ok = run_until_done(timeout);
  if (got != nullptr) *got = n;
  return ok ? result : asio::error::timed_out;
}

timed_socket_t::read_some_t timed_socket_t::read_some(asio::mutable_buffer buffer,
                                                      millis_t timeout) {
  read_some_t r{asio::error::would_block, 0};
  auto done = [&](const error_code& e, size_t bytes) {
    r.error = e;
    r.bytes = bytes;
  };
  if (stream_)
    stream_->async_read_some(buffer, done);
  else
    socket_.async_read_some(buffer, done);
  if (!run_until_done(timeout)) return {asio::error::timed_out, r.bytes};
  return r;
}

bool timed_socket_t::readable(millis_t timeout) {
  if (stream_ && SSL_pending(stream_->native_handle()) > 0) return true;
  if (!lowest().is_open()) return true;  // a read says why at once
  error_code result = asio::error::would_block;
  lowest().async_wait(tcp::socket::wait_read, [&](const error_code& e) { result = e; });
  io_.restart();
  if (timeout.count() <= 0)
    io_.poll();
  else
    io_.run_for(timeout);
  if (result != asio::error::would_block) return true;
  error_code ignored;
  lowest().cancel(ignored);  // not closed: the caller goes on writing
  io_.restart();
  io_.run();
  return false;
}

}  // namespace zk::net
