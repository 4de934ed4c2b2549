#include "common/net/data_server.hpp"

#include <algorithm>
#include <boost/asio/bind_executor.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/write.hpp>
#include <cstdio>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "common/buffer/checksum.hpp"
#include "common/formats/error.hpp"
#include "common/util/log.hpp"

namespace zk::net {

namespace asio = boost::asio;
using asio::ip::tcp;
using error_code = boost::system::error_code;

const char* reject_reason_name(reject_reason r) {
  switch (r) {
    case reject_reason::bad_magic:
      return "bad_magic";
    case reject_reason::bad_version:
      return "bad_version";
    case reject_reason::bad_header:
      return "bad_header";
    case reject_reason::bad_length:
      return "bad_length";
    case reject_reason::bad_checksum:
      return "bad_checksum";
    case reject_reason::no_space:
      return "no_space";
    case reject_reason::truncated:
      return "truncated";
    case reject_reason::timeout:
      return "timeout";
    case reject_reason::io_error:
      return "io_error";
  }
  return "?";
}

namespace {
reject_reason reason_for(reply_status s) {
  switch (s) {
    case reply_status::bad_magic:
      return reject_reason::bad_magic;
    case reply_status::bad_version:
      return reject_reason::bad_version;
    case reply_status::bad_length:
      return reject_reason::bad_length;
    case reply_status::bad_checksum:
      return reject_reason::bad_checksum;
    case reply_status::no_space:
      return reject_reason::no_space;
    default:
      return reject_reason::bad_header;
  }
}
// What stop() needs of a connection.
struct session_base_t {
  virtual ~session_base_t() = default;
  virtual void shutdown() = 0;  // closes the connection on its strand
};

}  // namespace

struct data_server_t::core_t {
  core_t(buffer::buffer_store_t& s, server_options_t o, on_received_t r, on_rejected_t j)
      : store(s),
        options(std::move(o)),
        on_received(std::move(r)),
        on_rejected(std::move(j)),
        acceptor(asio::make_strand(io)),
        accept_retry(acceptor.get_executor()) {}

  void accept();
  void reject(reject_reason why, const std::string& peer, const std::string& what) {
    {
      std::lock_guard<std::mutex> g(mu);
      ++stats.rejected;
      ++stats.rejected_by_reason[static_cast<size_t>(why)];
    }
    rejected_t r{why, peer, peer + ": " + what};
    if (on_rejected) {
      on_rejected(r);
    } else {  // docs/design.md "Errors": rejected and logged
      log::warn(std::string("data plane: rejected (") + reject_reason_name(why) +
                "): " + r.message);
    }
  }

  buffer::buffer_store_t& store;
  const server_options_t options;
  const on_received_t on_received;
  const on_rejected_t on_rejected;
  asio::io_context io;
  tcp::acceptor acceptor;  // on its own strand: accept handlers and stop()'s close never overlap
  asio::steady_timer accept_retry;  // backoff after a failed accept, on the acceptor's strand
  uint16_t port = 0;
  std::vector<std::thread> threads;
  std::atomic<bool> stopped{false};
  mutable std::mutex mu;
  server_stats_t stats;
  std::vector<std::weak_ptr<session_base_t>> sessions;  // for stop(); guarded by mu
};

namespace {

// One connection: frames one after another, each as described in data_server.hpp.
class session_t : public session_base_t, public std::enable_shared_from_this<session_t> {
 public:
  // The core outlives every session: stop() closes them all and joins the io threads, which
  // return once the last session's last handler has run.
  session_t(data_server_t::core_t* core, tcp::socket socket)
      : core_(core), socket_(std::move(socket)), deadline_(socket_.get_executor()) {}

  void shutdown() override {
    asio::post(socket_.get_executor(), [self = shared_from_this()] { self->close(); });
  }

  // Everything a session does runs on its strand, the first step included (the accept handler
  // runs on the acceptor's strand; the timer and socket are not thread-safe).
  void start() {
    asio::post(socket_.get_executor(), [self = shared_from_this()] { self->begin(); });
  }

 private:
  void begin() {
    if (closed_) return;  // stop() came first
    error_code ec;
    const auto ep = socket_.remote_endpoint(ec);
    peer_ = ec ? std::string("unknown peer")
               : ep.address().to_string() + ":" + std::to_string(ep.port());
    socket_.set_option(tcp::no_delay(true), ec);
    disarm();
    watchdog();
    read_header();
  }

  using clock = asio::steady_timer::clock_type;
  void arm(std::chrono::milliseconds t) { deadline_.expires_after(t); }
  void disarm() { deadline_.expires_at(asio::steady_timer::time_point::max()); }

  // One watchdog per connection: wakes when the deadline passes (or moves) and closes the socket
  // when it has really passed, which fails the pending read or write.
  void watchdog() {
    deadline_.async_wait([self = shared_from_this()](const error_code&) {
      if (self->closed_) return;
      if (self->deadline_.expiry() <= clock::now()) {
        self->timed_out_ = true;
        self->close();
        return;
      }
      self->watchdog();
    });
  }

  void close() {
    if (closed_) return;
    closed_ = true;
    error_code ignored;
    deadline_.cancel();
    socket_.shutdown(tcp::socket::shutdown_both, ignored);
    socket_.close(ignored);
    pending_ = buffer::writable_buffer_t();  // a reservation in progress returns to the pool
  }

  // Why a read or write failed, for the rejection message.
  std::string failure(const error_code& ec) const {
    if (timed_out_) return "timed out";
    if (ec == asio::error::eof) return "peer closed the connection";
    return ec.message();
  }
  reject_reason failure_reason(const error_code& ec) const {
    if (timed_out_) return reject_reason::timeout;
    if (ec == asio::error::eof || ec == asio::error::connection_reset)
      return reject_reason::truncated;
    return reject_reason::io_error;
  }

  void read_header() {
    arm(core_->options.idle_timeout);
    asio::async_read(
        socket_, asio::buffer(header_bytes_),
        [self = shared_from_this()](const error_code& ec, size_t n) { self->on_header(ec, n); });
  }

  void on_header(const error_code& ec, size_t n) {
    if (ec) {
      // Between frames, a close (or an idle connection timing out) is the normal end.
      const bool report = n != 0 && !closed_after_stop();
      close();
      if (report) {
        core_->reject(failure_reason(ec), peer_,
                      "truncated frame: " + failure(ec) + " after " + std::to_string(n) + " of " +
                          std::to_string(buffer::synth_header_size) + " header bytes");
      }
      return;
    }
    header_ = buffer::decode_header(header_bytes_.data());
    if (auto err = buffer::validate_header(header_, core_->options.max_payload_bytes)) {
      const reply_status st = status_for(err->field);
      core_->reject(reason_for(st), peer_, err->message);
      reply(st, 0, /*then_close=*/true);
      return;
    }
    auto r = core_->store.reserve(header_.payload_bytes);
    if (!r) {
      core_->reject(reject_reason::no_space, peer_, r.error().message);
      reply(reply_status::no_space, header_.payload_bytes, /*then_close=*/true);
      return;
    }
    pending_ = std::move(r.value());
    received_ = 0;
    hash_.reset();
    reply(reply_status::ready, 0, /*then_close=*/false);
  }

  // Writes a reply; then closes (header NACKs), reads the payload (READY) or the next header.
  void reply(reply_status st, uint64_t detail, bool then_close, uint64_t buffer_id = 0) {
    reply_t r;
    r.status = st;
    r.job_id = header_.job_id;
    r.partition = header_.partition;
    r.buffer_id = buffer_id;
    r.payload_checksum = header_.payload_checksum;
    r.detail = detail;
    reply_bytes_ = encode_reply(r);
    arm(core_->options.io_timeout);
    asio::async_write(socket_, asio::buffer(reply_bytes_),
                      [self = shared_from_this(), st, then_close](const error_code& ec, size_t) {
                        if (ec || then_close) {
                          self->close();
                          return;
                        }
                        if (st == reply_status::ready) {
                          self->read_payload();
                        } else {
                          self->read_header();
                        }
                      });
  }

  void read_payload() {
    const uint64_t left = header_.payload_bytes - received_;
    const size_t chunk = static_cast<size_t>(std::min<uint64_t>(left, core_->options.chunk_bytes));
    arm(core_->options.io_timeout);
    asio::async_read(
        socket_, asio::buffer(pending_.data() + received_, chunk),
        [self = shared_from_this()](const error_code& ec, size_t n) { self->on_payload(ec, n); });
  }

  void on_payload(const error_code& ec, size_t n) {
    if (ec) {
      const bool report = !closed_after_stop();
      close();  // first: the reservation is back in the pool when the rejection is reported
      if (report) {
        core_->reject(failure_reason(ec), peer_,
                      "truncated frame: " + failure(ec) + " after " +
                          std::to_string(received_ + n) + " of " +
                          std::to_string(header_.payload_bytes) + " payload bytes (job " +
                          std::to_string(header_.job_id) + " partition " +
                          std::to_string(header_.partition) + ")");
      }
      return;
    }
    hash_.update(pending_.data() + received_, n);  // while the chunk is still in cache
    received_ += n;
    if (received_ < header_.payload_bytes) {
      read_payload();
      return;
    }
    const uint64_t got = hash_.digest();
    if (got != header_.payload_checksum) {
      pending_ = buffer::writable_buffer_t();  // back to the pool; the sender re-sends
      core_->reject(reject_reason::bad_checksum, peer_,
                    "payload checksum " + formats::hex(got) + " does not match the header's " +
                        formats::hex(header_.payload_checksum) + " (job " +
                        std::to_string(header_.job_id) + " partition " +
                        std::to_string(header_.partition) + "): corrupted in transit");
      reply(reply_status::bad_checksum, 0, /*then_close=*/false);
      return;
    }
    const uint64_t id = core_->store.commit(std::move(pending_), header_);
    {
      std::lock_guard<std::mutex> g(core_->mu);
      ++core_->stats.frames_accepted;
      core_->stats.bytes_accepted += header_.payload_bytes;
    }
    if (core_->on_received) core_->on_received(received_t{id, header_, peer_});
    reply(reply_status::ack, 0, /*then_close=*/false, id);
  }

  bool closed_after_stop() const { return core_->stopped.load(); }

  data_server_t::core_t* core_;
  tcp::socket socket_;
  asio::steady_timer deadline_;
  std::string peer_;
  bool closed_ = false;
  bool timed_out_ = false;
  std::array<uint8_t, buffer::synth_header_size> header_bytes_{};
  buffer::synth_header_t header_;
  buffer::writable_buffer_t pending_;
  uint64_t received_ = 0;
  buffer::xxh64_state_t hash_;
  reply_bytes_t reply_bytes_{};
};

}  // namespace

void data_server_t::core_t::accept() {
  acceptor.async_accept(asio::make_strand(io), [this](const error_code& ec, tcp::socket socket) {
    if (stopped.load() || !acceptor.is_open()) return;
    if (!ec) {
      auto session = std::make_shared<session_t>(this, std::move(socket));
      {
        std::lock_guard<std::mutex> g(mu);
        if (stopped.load()) return;  // stop() took its snapshot: this one would be missed
        ++stats.connections;
        sessions.erase(
            std::remove_if(sessions.begin(), sessions.end(), [](auto& w) { return w.expired(); }),
            sessions.end());
        sessions.push_back(session);
      }
      session->start();
      accept();
      return;
    }
    // Out of descriptors or memory: try again shortly instead of spinning on the error.
    accept_retry.expires_after(std::chrono::milliseconds(50));
    accept_retry.async_wait([this](const error_code&) { accept(); });
  });
}

data_server_t::data_server_t(buffer::buffer_store_t& store, server_options_t options,
                             on_received_t on_received, on_rejected_t on_rejected)
    : core_(std::make_shared<core_t>(store, std::move(options), std::move(on_received),
                                     std::move(on_rejected))) {
  auto& c = *core_;
  const tcp::endpoint ep(asio::ip::make_address(c.options.address), c.options.port);
  try {
    c.acceptor.open(ep.protocol());
    c.acceptor.set_option(tcp::acceptor::reuse_address(true));
    c.acceptor.bind(ep);
    c.acceptor.listen();
  } catch (
      const boost::system::system_error& e) {  // "bind: Address already in use" alone names no port
    throw std::runtime_error("data plane: cannot listen on " + c.options.address + ":" +
                             std::to_string(c.options.port) + ": " + e.code().message());
  }
  c.port = c.acceptor.local_endpoint().port();
  c.accept();
  const unsigned n = c.options.io_threads == 0 ? 1 : c.options.io_threads;
  // A callback that throws (it must not) costs its connection, never the server: the thread goes
  // back to serving the others.
  for (unsigned i = 0; i < n; ++i) {
    c.threads.emplace_back([&c] {
      for (;;) {
        try {
          c.io.run();
          return;
        } catch (const std::exception&) {
        }
      }
    });
  }
}

data_server_t::~data_server_t() { stop(); }

uint16_t data_server_t::port() const { return core_->port; }

// No io_context::stop(): every connection is closed and the threads return when the last
// handler has run, so reservations in progress are back in the pool when stop() returns.
void data_server_t::stop() {
  auto& c = *core_;
  std::vector<std::weak_ptr<session_base_t>> sessions;
  {
    std::lock_guard<std::mutex> g(c.mu);
    if (c.stopped.exchange(true)) return;
    sessions.swap(c.sessions);
  }
  asio::post(c.acceptor.get_executor(), [&c] {
    error_code ignored;
    c.acceptor.close(ignored);
    c.accept_retry.cancel();
  });
  for (auto& w : sessions) {
    if (auto s = w.lock()) s->shutdown();
  }
  for (auto& t : c.threads) t.join();
  c.threads.clear();
}

server_stats_t data_server_t::stats() const {
  std::lock_guard<std::mutex> g(core_->mu);
  return core_->stats;
}

}  // namespace zk::net
