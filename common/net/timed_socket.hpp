#pragma once
// A TCP client socket, plaintext or TLS, whose every operation has a deadline: blocking calls for
// the calling thread, driven by a private io_context (Asio's "blocking client with timeouts"
// pattern: start the asynchronous operation, run the context for at most the timeout, close the
// socket when it did not finish). The data plane's sender uses it; so do tests that speak the
// wire by hand.
//
// TLS (a context from make_tls_context(files, tls_side_t::client), tls.hpp): connect() also makes
// the TLS handshake within the same deadline and verifies the receiver's certificate (a node
// certificate of the CA; CN == expected_peer when that is set). Reads and writes then go through
// the TLS stream; nothing else differs.
// Not thread-safe: one thread drives one socket. Never call it from the compute pool.
#include <boost/asio/buffer.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl/stream.hpp>
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "common/net/tls.hpp"

namespace zk::net {

using millis_t = std::chrono::milliseconds;
using error_code = boost::system::error_code;

class timed_socket_t {
 public:
  timed_socket_t();  // plaintext
  // TLS with this context; expected_peer: the receiver's node name (certificate CN), or "" for
  // any node certificate of the CA.
  explicit timed_socket_t(std::shared_ptr<tls_context_t> tls, std::string expected_peer = {});
  ~timed_socket_t();
  timed_socket_t(const timed_socket_t&) = delete;
  timed_socket_t& operator=(const timed_socket_t&) = delete;

  // Resolves host (a name or an address), connects to the first endpoint that answers and (TLS)
  // makes the handshake, all within the timeout (a name lookup that overruns it returns timed_out
  // once the system resolver gives up; numeric addresses involve no lookup).
  error_code connect(const std::string& host, uint16_t port, millis_t timeout);
  // Writes every byte of the buffers (gathered, no copy). boost::asio::error::timed_out when the
  // deadline passed first (the socket is then closed).
  error_code write(const std::vector<boost::asio::const_buffer>& buffers, millis_t timeout);
  error_code write(boost::asio::const_buffer buffer, millis_t timeout);
  // Reads exactly buffer.size() bytes; *got (when given) says how many arrived before an error.
  error_code read(boost::asio::mutable_buffer buffer, millis_t timeout, size_t* got = nullptr);
  // Reads what is there, at least one byte: the bytes read and the error (eof at the end).
  struct read_some_t {
    error_code error;
    size_t bytes = 0;
  };
  read_some_t read_some(boost::asio::mutable_buffer buffer, millis_t timeout);
  // Whether bytes (or the peer's close) are there to read within the timeout; unlike the other
  // calls, a timeout leaves the socket open (0: only what is there now).
  bool readable(millis_t timeout);
  bool is_open() const;
  void close();

  bool tls() const { return tls_ != nullptr; }
  // After a connect that failed in the TLS handshake: why this end refused the receiver's
  // certificate (names its subject); "" when the refusal was not ours (or there was none).
  const std::string& peer_error() const { return peer_error_; }
  // The X509_V_ERR_* of that refusal (X509_V_OK when the chain verified or there was none).
  long peer_verify_error() const { return peer_verify_error_; }
  // After a connect: whether the TCP connection was made (a failure came after it: the TLS
  // handshake's).
  bool reached() const { return reached_; }
  // After a TLS connect: the receiver's node name (its certificate's CN).
  const std::string& peer_name() const { return peer_name_; }

 private:
  using tcp_socket_t = boost::asio::ip::tcp::socket;
  using tls_stream_t = boost::asio::ssl::stream<tcp_socket_t>;
  tcp_socket_t& lowest();
  const tcp_socket_t& lowest() const;
  // Runs the started operation until done or the deadline; closes the socket on a timeout.
  bool run_until_done(millis_t timeout);
  boost::asio::io_context io_;
  tcp_socket_t socket_;  // plaintext
  std::shared_ptr<tls_context_t> tls_;
  std::string expected_peer_;
  std::unique_ptr<tls_stream_t> stream_;  // TLS: made afresh by each connect
  std::string peer_error_, peer_name_;
  long peer_verify_error_ = 0;
  bool reached_ = false;
};

}  // namespace zk::net
