#pragma once
// The receiving end of the data plane: a TCP server that takes synth buffers into a buffer store.
//
// Per connection, per frame (protocol in frame.hpp and common/net/README.md):
//   read the 128-byte header (idle_timeout) → validate every field (buffer::validate_header,
//   with max_payload_bytes) → reserve payload_bytes in the store (refused: NACK no_space,
//   nothing allocated) → reply READY → read the payload straight into the reserved buffer in
//   chunks (io_timeout each), hashing each chunk as it lands → checksum matches: commit to the
//   store, call on_received, reply ACK with the buffer id; mismatch: NACK bad_checksum, the
//   memory goes back to the pool and the connection stays open for the re-send.
// A header NACK closes the connection (the stream may not be a synth stream at all). A peer that
// closes or stalls mid-frame is dropped with a rejection naming what was missing; its
// reservation returns to the pool. Buffers already committed are never touched by any of this.
// Every rejection is counted and reported through on_rejected (without one: a line on stderr).
//
// Threads: the server runs its own io_context on io_threads threads (never the compute pool);
// each connection is served on a strand. on_received and on_rejected run on those threads:
// keep them short (hand the id to an actor) and do not throw. Delivery is at-least-once: if the
// ACK is lost the sender re-sends and a second buffer with the same job/partition arrives.
#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "common/buffer/buffer_store.hpp"
#include "common/net/frame.hpp"

namespace zk::net {

struct server_options_t {
  std::string address = "127.0.0.1";
  uint16_t port = 0;  // 0: an ephemeral port (data_server_t::port() says which)
  unsigned io_threads = 1;
  std::chrono::milliseconds io_timeout{10000};     // each payload chunk read, each reply write
  std::chrono::milliseconds idle_timeout{60000};   // waiting for (the rest of) a frame header
  uint64_t max_payload_bytes = uint64_t(1) << 36;  // 64 GiB: above it, NACK bad_length
  size_t chunk_bytes = size_t(4) << 20;            // payload read (and hash) granularity
};

// Why a frame was not accepted. The first six are answered with the NACK of the same name.
enum class reject_reason {
  bad_magic,
  bad_version,
  bad_header,
  bad_length,
  bad_checksum,
  no_space,
  truncated,
  timeout,
  io_error
};
inline constexpr size_t reject_reason_count = 9;
const char* reject_reason_name(reject_reason r);

struct received_t {
  uint64_t buffer_id;  // in the store: find() it, release() it when done
  buffer::synth_header_t header;
  std::string peer;  // "127.0.0.1:53412"
};

struct rejected_t {
  reject_reason reason;
  std::string peer;
  std::string
      message;  // e.g. "127.0.0.1:53412: synth header: version: 7 is not supported (expected 1)"
};

struct server_stats_t {
  uint64_t connections = 0;
  uint64_t frames_accepted = 0;
  uint64_t bytes_accepted = 0;
  uint64_t rejected = 0;
  std::array<uint64_t, reject_reason_count> rejected_by_reason{};
};

class data_server_t {
 public:
  using on_received_t = std::function<void(const received_t&)>;
  using on_rejected_t = std::function<void(const rejected_t&)>;

  // Binds and listens (throws std::runtime_error naming the address when it cannot), then serves
  // until stop() or destruction. The store must outlive the server.
  data_server_t(buffer::buffer_store_t& store, server_options_t options, on_received_t on_received,
                on_rejected_t on_rejected = {});
  ~data_server_t();
  data_server_t(const data_server_t&) = delete;
  data_server_t& operator=(const data_server_t&) = delete;

  uint16_t port() const;
  // Stops accepting, drops connections in progress (their reservations return to the pool) and
  // joins the io threads. Idempotent. Not from inside on_received/on_rejected (it joins their
  // thread).
  void stop();
  server_stats_t stats() const;

  struct core_t;  // shared with the connections (data_server.cpp)

 private:
  std::shared_ptr<core_t> core_;
};

}  // namespace zk::net
