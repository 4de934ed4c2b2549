#pragma once
// A TCP client socket whose every operation has a deadline: blocking calls for the calling thread,
// driven by a private io_context (Asio's "blocking client with timeouts" pattern: start the
// asynchronous operation, run the context for at most the timeout, close the socket when it
// did not finish). The data plane's sender uses it; so do tests that speak the wire by hand.
// Not thread-safe: one thread drives one socket. Never call it from the compute pool.
#include <boost/asio/buffer.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

namespace zk::net {

using millis = std::chrono::milliseconds;
using error_code = boost::system::error_code;

class timed_socket_t {
 public:
  timed_socket_t();
  ~timed_socket_t();
  timed_socket_t(const timed_socket_t&) = delete;
  timed_socket_t& operator=(const timed_socket_t&) = delete;

  // Resolves host (a name or an address) and connects to the first endpoint that answers, all
  // within the timeout (a name lookup that overruns it returns timed_out once the system
  // resolver gives up; numeric addresses involve no lookup).
  error_code connect(const std::string& host, uint16_t port, millis timeout);
  // Writes every byte of the buffers (gathered, no copy). boost::asio::error::timed_out when the
  // deadline passed first (the socket is then closed).
  error_code write(const std::vector<boost::asio::const_buffer>& buffers, millis timeout);
  error_code write(boost::asio::const_buffer buffer, millis timeout);
  // Reads exactly buffer.size() bytes; *got (when given) says how many arrived before an error.
  error_code read(boost::asio::mutable_buffer buffer, millis timeout, size_t* got = nullptr);
  bool is_open() const { return socket_.is_open(); }
  void close();

 private:
  // Runs the started operation until done or the deadline; closes the socket on a timeout.
  bool run_until_done(millis timeout);
  boost::asio::io_context io_;
  boost::asio::ip::tcp::socket socket_;
};

}  // namespace zk::net
