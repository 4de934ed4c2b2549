#pragma once
// The sending end of the data plane: writes a synth buffer straight from its arrays (a gather
// write of the caller's pieces, no serialisation copy) and waits for the receiver's ACK.
//
// One attempt = [ticket +] header → READY → payload (in chunks, io_timeout each) → ACK; or
// [ticket +] header → ACK when the receiver already holds this (job, partition, attempt) (a
// re-send after a lost ACK: done, the payload is not sent, result.duplicate). Any NACK (bad
// version, length, header, checksum, ticket, no space), a reply that does not decode, a timeout
// or a dropped connection fails the attempt; the sender then waits retry_delay (doubling, at most
// 1 s), reconnects when the connection is gone, and tries again, up to max_attempts — except
// when this end refused the receiver's certificate (not a node of the CA, or not expected_peer)
// or the receiver refused the ticket (bad_ticket): the same again cannot succeed, so that ends
// the send at once. The result says whether the receiver holds the buffer (ok, with
// its buffer id there) and, when not, every attempt's failure.
//
// TLS (options.tls, tls.hpp): the connection is TLS 1.3 with this node's certificate; the
// handshake shares connect_timeout. A bad TLS file makes every send fail at once with an error
// naming it (the constructor does not throw).
//
// Threads: send() blocks the calling thread (a data-plane thread of the node, never the compute
// pool) and drives its socket with a private io_context; every connect, handshake, read and write
// has a deadline, so it always returns.
#include <boost/asio/buffer.hpp>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/buffer/buffer_store.hpp"
#include "common/net/frame.hpp"
#include "common/net/ticket.hpp"
#include "common/net/timed_socket.hpp"
#include "common/net/tls.hpp"
#include "zk/base/result.hpp"

namespace zk::net {

struct send_options_t {
  std::chrono::milliseconds connect_timeout{5000};
  std::chrono::milliseconds io_timeout{10000};  // each header/payload-chunk write, each reply read
  unsigned max_attempts = 4;
  std::chrono::milliseconds retry_delay{20};  // before the 2nd attempt; doubles, capped at 1 s
  size_t chunk_bytes = size_t(8) << 20;       // payload write granularity (one deadline each)
  tls_files_t tls;            // empty: plaintext (the receiver must then be plaintext too)
  std::string expected_peer;  // TLS: the receiver's node name (its certificate CN); "": any node
};

struct send_result_t {
  bool ok = false;
  unsigned attempts = 0;
  uint64_t buffer_id = 0;                   // ok: the buffer's id in the receiver's store
  std::optional<reply_status_t> last_nack;  // the last NACK received, if any
  std::string error;                        // not ok: "attempt 1: ...; attempt 2: ..."
  uint64_t payload_bytes = 0;
  double seconds = 0;    // whole call, retries included
  int64_t ready_ns = 0;  // ok: when the receiver's READY came (steady_clock ns): the payload starts
  bool duplicate = false;  // ok: the receiver already held it (answered the header with its ACK)
  std::string peer_node;   // TLS: the receiver's node name (its certificate CN)
};

// Keeps one connection to a receiver across sends. When the receiver closed it meanwhile (its
// idle timeout), the first write or READY read finds out and the send reconnects at once, within
// the same attempt.
class data_client_t {
 public:
  data_client_t(std::string host, uint16_t port, send_options_t options = {});

  ~data_client_t();
  data_client_t(const data_client_t&) = delete;
  data_client_t& operator=(const data_client_t&) = delete;

  // The payload pieces, in order, must add up to header.payload_bytes (else: not ok, nothing sent).
  // ticket: the scheduler's ticket of this transfer (ticket.hpp), written before the header;
  // required by a receiver with a transfer key, and what identifies a re-send as a duplicate.
  send_result_t send(const buffer::synth_header_t& header,
                     const std::vector<boost::asio::const_buffer>& payload,
                     const std::optional<transfer_ticket_t>& ticket = std::nullopt);
  // A buffer of the local store (pinned by the caller for the duration).
  send_result_t send(const buffer::buffer_ref_t& buffer,
                     const std::optional<transfer_ticket_t>& ticket = std::nullopt);

 private:
  // What one attempt delivered: the buffer's id in the receiver's store, and how.
  struct delivered_t {
    uint64_t buffer_id = 0;
    bool duplicate = false;  // the receiver already held it
    std::string peer_node;
    int64_t ready_ns = 0;  // when the READY (or the duplicate's ACK) came
  };
  // Why one attempt failed.
  struct attempt_error_t {
    explicit attempt_error_t(std::string w, std::optional<reply_status_t> n = std::nullopt,
                             bool f = false, int64_t r = 0)
        : what(std::move(w)), nack(n), final(f), ready_ns(r) {}
    std::string what;
    std::optional<reply_status_t> nack;  // the receiver's NACK, if it sent one
    bool final = false;    // the same again cannot succeed: we refused the receiver's certificate,
                           // or it refused the ticket
    int64_t ready_ns = 0;  // when the receiver's READY came, if it did
  };
  result_t<delivered_t, attempt_error_t> attempt(
      const buffer::synth_header_t& header, const std::vector<boost::asio::const_buffer>& payload,
      const std::optional<transfer_ticket_t>& ticket);
  std::string host_;
  uint16_t port_;
  send_options_t options_;
  std::string setup_error_;  // a TLS file that could not be loaded: every send fails with it
  std::unique_ptr<timed_socket_t> socket_;
};

// One-shot: connect, send, close.
send_result_t send_buffer(const std::string& host, uint16_t port,
                          const buffer::synth_header_t& header,
                          const std::vector<boost::asio::const_buffer>& payload,
                          const send_options_t& options = {},
                          const std::optional<transfer_ticket_t>& ticket = std::nullopt);

}  // namespace zk::net
