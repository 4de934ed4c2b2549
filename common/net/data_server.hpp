#pragma once
// The receiving end of the data plane: a TCP (optionally TLS) server that takes synth buffers into
// a buffer store.
//
// Per connection: the accept checks the caps (max_connections, max_connections_per_peer: over
// one, the socket is closed at once, before any TLS); with `tls` the TLS handshake follows
// (idle_timeout; the peer must present a node certificate of the CA, tls.hpp). Then per frame
// (protocol in frame.hpp, ticket.hpp and common/net/README.md):
//   wait for the frame's first bytes (idle_timeout) → read the ticket (when one comes) and the
//   128-byte header → validate every field (buffer::validate_header, with max_payload_bytes) →
//   with a transfer_key: the ticket must be there, verify (MAC over job, partition, attempt and
//   the header's circuit digest) and name the header's job and partition (else NACK bad_ticket,
//   close) → a ticket whose (job, partition, attempt) this server already committed: ACK with
//   that buffer's id, no payload (duplicates are never stored twice) → reserve payload_bytes in
//   the store (refused: NACK no_space, nothing allocated) → reply READY → read the payload
//   straight into the reserved buffer in chunks (io_timeout each), hashing each chunk as it lands
//   → checksum matches: commit to the store, call on_received, reply ACK with the buffer id;
//   mismatch: NACK bad_checksum, the memory goes back to the pool and the connection stays open
//   for the re-send.
// Deadlines: idle_timeout for the TLS handshake and until a frame's first byte; from that byte
// the whole frame (ticket, header, payload) must arrive within frame_timeout + payload_bytes /
// min_rate, and every read or write within io_timeout, whichever ends first — a peer holding a
// reservation with a trickle loses it at the frame deadline.
// A header or ticket NACK closes the connection (the stream may not be a synth stream at all). A
// peer that closes or stalls mid-frame is dropped with a rejection naming what was missing; its
// reservation returns to the pool. Buffers already committed are never touched by any of this.
// Every rejection is counted and reported through on_rejected (without one: a line on stderr).
//
// Received buffers belong to the server until claimed: the prover calls claim(id) when the
// scheduler's prove request for the buffer arrives; a buffer not claimed within
// unclaimed_timeout is released from the store by the server (counted in stats().expired).
// After claim() the caller owns the buffer (store.release(id) when done; forget(id) may tell the
// server at once, else it notices on its next sweep).
//
// Threads: the server runs its own io_context on io_threads threads (never the compute pool);
// each connection is served on a strand, the expiry sweep on another. on_received and on_rejected
// run on those threads: keep them short (hand the id to an actor) and do not throw. claim,
// forget, stats and stop may be called from any thread. Delivery is at-least-once: a frame with
// a ticket repeated after a lost ACK is answered with the first copy's id; a frame without a
// ticket (no transfer key: tests, bench) that is repeated is stored again.
#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "common/buffer/buffer_store.hpp"
#include "common/net/frame.hpp"
#include "common/net/ticket.hpp"
#include "common/net/tls.hpp"

namespace zk::net {

struct server_options_t {
  std::string address = "127.0.0.1";
  uint16_t port = 0;  // 0: an ephemeral port (data_server_t::port() says which)
  unsigned io_threads = 1;
  std::chrono::milliseconds io_timeout{10000};     // each payload chunk read, each reply write
  std::chrono::milliseconds idle_timeout{60000};   // TLS handshake; waiting for a frame's start
  uint64_t max_payload_bytes = uint64_t(1) << 36;  // 64 GiB: above it, NACK bad_length
  size_t chunk_bytes = size_t(4) << 20;            // payload read (and hash) granularity
  // TLS (tls.hpp): empty = plaintext. The constructor throws naming the file when one is bad.
  tls_files_t tls;
  // Tickets (ticket.hpp): with a key every frame must come with a valid ticket; without one
  // frames are taken with or without a ticket (a ticket is then only checked for its form and
  // its job/partition, and serves duplicate detection).
  std::optional<transfer_key_t> transfer_key;
  // Received buffers not claim()ed within this are released from the store; 0: never.
  std::chrono::milliseconds unclaimed_timeout{std::chrono::minutes(10)};
  // Keys (job, partition, attempt) of committed buffers are remembered while the buffer is in
  // the store and for duplicate_window after (at most duplicate_memory keys of released buffers).
  std::chrono::milliseconds duplicate_window{std::chrono::minutes(10)};
  size_t duplicate_memory = 4096;
  // Connections served at once (over a cap the connection is closed at accept), in all and per
  // remote IP address.
  unsigned max_connections = 64;
  unsigned max_connections_per_peer = 8;
  // Whole-frame deadline: frame_timeout + payload_bytes / min_rate_bytes_per_s from the frame's
  // first byte (min_rate 0: frame_timeout alone bounds ticket and header, the payload only by
  // io_timeout per chunk).
  std::chrono::milliseconds frame_timeout{30000};
  uint64_t min_rate_bytes_per_s = uint64_t(16) << 20;
};

// Why a frame or connection was not accepted. The first six and bad_ticket are answered with the
// NACK of the same name; too_many_connections and tls close the connection without a reply.
enum class reject_reason_t {
  bad_magic,
  bad_version,
  bad_header,
  bad_length,
  bad_checksum,
  no_space,
  truncated,
  timeout,
  io_error,
  bad_ticket,
  too_many_connections,
  tls,  // handshake failed or the peer's certificate was refused (the message names its subject)
};
inline constexpr size_t reject_reason_count = 12;
const char* reject_reason_name(reject_reason_t r);

struct received_t {
  uint64_t buffer_id;  // in the store: find() it; claim() it, then release() it when done
  buffer::synth_header_t header;
  std::string peer;       // "127.0.0.1:53412"
  std::string peer_node;  // TLS: the sender's node name (certificate CN); "" in plaintext
  bool ticket = false;    // the frame came with a ticket (verified when there is a key)
  uint32_t attempt = 0;   // the ticket's attempt (0 without a ticket)
};

struct rejected_t {
  reject_reason_t reason;
  std::string peer;
  std::string
      message;  // e.g. "127.0.0.1:53412: synth header: version: 7 is not supported (expected 1)"
};

struct server_stats_t {
  uint64_t connections = 0;  // accepted and served (the capped ones are rejections)
  uint64_t open = 0;         // being served now (closed ones, by either side, are not)
  uint64_t frames_accepted = 0;
  uint64_t bytes_accepted = 0;
  uint64_t duplicates = 0;  // frames answered with an existing buffer's id
  uint64_t expired = 0;     // buffers released because nobody claimed them in time
  uint64_t unclaimed = 0;   // received buffers waiting for claim() now
  uint64_t rejected = 0;
  std::array<uint64_t, reject_reason_count> rejected_by_reason{};
};

class data_server_t {
 public:
  using on_received_t = std::function<void(const received_t&)>;
  using on_rejected_t = std::function<void(const rejected_t&)>;

  // Binds and listens (throws std::runtime_error naming the address, or the TLS file, when it
  // cannot), then serves until stop() or destruction. The store must outlive the server.
  data_server_t(buffer::buffer_store_t& store, server_options_t options, on_received_t on_received,
                on_rejected_t on_rejected = {});
  ~data_server_t();
  data_server_t(const data_server_t&) = delete;
  data_server_t& operator=(const data_server_t&) = delete;

  uint16_t port() const;
  bool tls() const;
  // The prover takes over a received buffer (its prove request arrived): from now on the server
  // never expires it. False when the id is unknown to the server, already claimed, expired or
  // no longer in the store.
  bool claim(uint64_t buffer_id);
  // The owner released the buffer: drop it from the bookkeeping now (its key is still remembered
  // for duplicate_window). Unknown ids are ignored.
  void forget(uint64_t buffer_id);
  // Stops accepting, drops connections in progress (their reservations return to the pool) and
  // joins the io threads. Idempotent. Not from inside on_received/on_rejected (it joins their
  // thread). Unclaimed buffers stay in the store (the owner of the store decides).
  void stop();
  server_stats_t stats() const;

  struct core_t;  // shared with the connections (data_server.cpp)

 private:
  std::shared_ptr<core_t> core_;
};

}  // namespace zk::net
