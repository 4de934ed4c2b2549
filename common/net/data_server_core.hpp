#pragma once
// The data server's parts shared by its files, not for use outside them (data_server.hpp is the
// interface): the core every connection shares (options, the store, the io threads, counters, the
// delivery ledger), and how a connection is started. The files: data_server.cpp (the acceptor,
// start and stop), data_session.cpp (one connection's state machine: the TLS handshake, then
// frames), data_ledger.cpp (the delivery ledger: duplicates, spent tickets, unclaimed buffers).
#include <atomic>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl/stream.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "common/net/data_server.hpp"

namespace zk::net {

namespace asio = boost::asio;
namespace ssl = asio::ssl;
using asio::ip::tcp;
using error_code = boost::system::error_code;
using tls_stream_t = ssl::stream<tcp::socket>;

namespace data_server_detail {

using steady_clock_t = asio::steady_timer::clock_type;

// What stop() needs of a connection.
struct session_base_t {
  virtual ~session_base_t() = default;
  virtual void shutdown() = 0;  // closes the connection on its strand
};

// A committed buffer's identity for duplicate detection: the ticket's (job, partition, attempt).
struct dup_key_t {
  uint64_t job;
  uint32_t partition, attempt;
  bool operator<(const dup_key_t& o) const {
    return std::tie(job, partition, attempt) < std::tie(o.job, o.partition, o.attempt);
  }
};
struct dup_t {
  uint64_t id;
  uint64_t payload_checksum;
  bool gone = false;  // the buffer left the store (released, expired): remembered for the window
  steady_clock_t::time_point gone_at{};
};

// "1.5 s"
std::string seconds_text(steady_clock_t::duration d);

}  // namespace data_server_detail

struct data_server_t::core_t {
  using steady_clock_t = data_server_detail::steady_clock_t;
  using dup_key_t = data_server_detail::dup_key_t;
  using dup_t = data_server_detail::dup_t;
  using session_base_t = data_server_detail::session_base_t;

  core_t(buffer::buffer_store_t& s, server_options_t o, on_received_t r, on_rejected_t j)
      : store(s),
        options(std::move(o)),
        on_received(std::move(r)),
        on_rejected(std::move(j)),
        acceptor(asio::make_strand(io)),
        accept_retry(acceptor.get_executor()),
        sweep_timer(asio::make_strand(io)) {}

  void accept();
  void start_sweeps();
  void sweep();
  // Counts a refused connection or frame and reports it (on_rejected, else the log).
  void reject(reject_reason_t why, const std::string& peer, const std::string& what);

  // --- bookkeeping of received buffers (all under mu) ---
  // The id of a committed buffer with this key and payload, if one is remembered.
  std::optional<uint64_t> find_dup_locked(const dup_key_t& k, uint64_t checksum) const;
  // A ticket is good for one payload: true when this key was committed with another one.
  bool ticket_spent_locked(const dup_key_t& k, uint64_t checksum) const;
  void committed_locked(uint64_t id, const std::optional<dup_key_t>& k, uint64_t checksum,
                        steady_clock_t::time_point now);
  // The buffer left the store: its key is kept for the duplicate window.
  void gone_locked(uint64_t id, steady_clock_t::time_point now);
  void drop_oldest_gone_locked();

  buffer::buffer_store_t& store;
  const server_options_t options;
  const on_received_t on_received;
  const on_rejected_t on_rejected;
  std::shared_ptr<tls_context_t> tls;  // null: plaintext
  asio::io_context io;
  tcp::acceptor acceptor;  // on its own strand: accept handlers and stop()'s close never overlap
  asio::steady_timer accept_retry;  // backoff after a failed accept, on the acceptor's strand
  asio::steady_timer sweep_timer;   // expiry of unclaimed buffers, duplicate window; own strand
  uint16_t port = 0;
  std::vector<std::thread> threads;
  std::atomic<bool> stopped{false};
  mutable std::mutex mu;
  server_stats_t stats;
  std::vector<std::weak_ptr<session_base_t>> sessions;       // for stop(); guarded by mu
  unsigned active = 0;                                       // connections served now
  std::map<std::string, unsigned> per_peer;                  // ... per remote IP address
  std::map<uint64_t, steady_clock_t::time_point> unclaimed;  // id → when it was committed
  std::map<dup_key_t, dup_t> dups;                           // keys of committed buffers
  std::map<uint64_t, dup_key_t> key_of;                      // id → key, while the buffer is held
  std::deque<std::pair<dup_key_t, uint64_t>> gone_order;     // gone keys, oldest first
};

// A new connection's session, started (on its own strand): the TLS handshake when the core has
// a TLS context, then frames.
std::shared_ptr<data_server_detail::session_base_t> start_session(data_server_t::core_t* core,
                                                                  tcp::socket socket,
                                                                  std::string ip);

}  // namespace zk::net
