#include "common/net/timed_socket.hpp"

#include <boost/asio/connect.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/write.hpp>

namespace zk::net {

namespace asio = boost::asio;
using asio::ip::tcp;

timed_socket_t::timed_socket_t() : socket_(io_) {}
timed_socket_t::~timed_socket_t() { close(); }

void timed_socket_t::close() {
  error_code ignored;
  socket_.shutdown(tcp::socket::shutdown_both, ignored);
  socket_.close(ignored);
}

bool timed_socket_t::run_until_done(millis timeout) {
  io_.restart();
  io_.run_for(timeout);
  if (io_.stopped()) return true;  // the handler ran: nothing left in the context
  close();                         // cancels the operation...
  io_.run();                       // ...whose handler now runs with operation_aborted
  return false;
}

error_code timed_socket_t::connect(const std::string& host, uint16_t port, millis timeout) {
  close();
  // The name lookup shares the deadline (a numeric host resolves without one).
  const auto deadline = std::chrono::steady_clock::now() + timeout;
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
  const auto left = std::chrono::duration_cast<millis>(deadline - std::chrono::steady_clock::now());
  if (left.count() <= 0) return asio::error::timed_out;
  result = asio::error::would_block;
  asio::async_connect(socket_, endpoints,
                      [&](const error_code& e, const tcp::endpoint&) { result = e; });
  if (!run_until_done(left)) return asio::error::timed_out;
  error_code ignored;
  if (!result) socket_.set_option(tcp::no_delay(true), ignored);
  return result;
}

error_code timed_socket_t::write(const std::vector<asio::const_buffer>& buffers, millis timeout) {
  error_code result = asio::error::would_block;
  asio::async_write(socket_, buffers, [&](const error_code& e, size_t) { result = e; });
  if (!run_until_done(timeout)) return asio::error::timed_out;
  return result;
}

error_code timed_socket_t::write(asio::const_buffer buffer, millis timeout) {
  return write(std::vector<asio::const_buffer>{buffer}, timeout);
}

error_code timed_socket_t::read(asio::mutable_buffer buffer, millis timeout, size_t* got) {
  error_code result = asio::error::would_block;
  size_t n = 0;
  asio::async_read(socket_, buffer, [&](const error_code& e, size_t bytes) {
    result = e;
    n = bytes;
  });
  const bool done = run_until_done(timeout);
  if (got != nullptr) *got = n;
  return done ? result : asio::error::timed_out;
}

}  // namespace zk::net
