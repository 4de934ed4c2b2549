// One connection of the data server: its state machine (data_server.hpp has the protocol).
#include <openssl/ssl.h>

#include <algorithm>
#include <boost/asio/bind_executor.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/ssl/stream.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/write.hpp>
#include <cstdio>
#include <cstring>
#include <deque>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include "common/buffer/checksum.hpp"
#include "common/net/data_server_core.hpp"
#include "common/net/socket_options.hpp"
#include "common/util/log.hpp"
#include "zk/base/error.hpp"
#include "zk/base/le_bytes.hpp"

namespace zk::net {

using namespace data_server_detail;

namespace {

reject_reason_t reason_for(reply_status_t s) {
  switch (s) {
    case reply_status_t::bad_magic:
      return reject_reason_t::bad_magic;
    case reply_status_t::bad_version:
      return reject_reason_t::bad_version;
    case reply_status_t::bad_length:
      return reject_reason_t::bad_length;
    case reply_status_t::bad_checksum:
      return reject_reason_t::bad_checksum;
    case reply_status_t::no_space:
      return reject_reason_t::no_space;
    case reply_status_t::bad_ticket:
      return reject_reason_t::bad_ticket;
    default:
      return reject_reason_t::bad_header;
  }
}

tcp::socket& lowest(tcp::socket& s) { return s; }
tcp::socket& lowest(tls_stream_t& s) { return s.next_layer(); }

template <class Stream>
Stream open_stream(tcp::socket&& s, tls_context_t* ctx);
template <>
tcp::socket open_stream<tcp::socket>(tcp::socket&& s, tls_context_t*) {
  return std::move(s);
}
template <>
tls_stream_t open_stream<tls_stream_t>(tcp::socket&& s, tls_context_t* ctx) {
  return tls_stream_t(std::move(s), *ctx);
}

// One connection: the TLS handshake (Stream = ssl::stream), then frames one after another, each
// as described in data_server.hpp. The framing is the same for both stream types.
template <class Stream>
class session_t : public session_base_t, public std::enable_shared_from_this<session_t<Stream>> {
  static constexpr bool is_tls = std::is_same_v<Stream, tls_stream_t>;
  static constexpr size_t head_size = ticket_size;  // the first read: a ticket or half a header
  static_assert(ticket_size * 2 == buffer::synth_header_size);

 public:
  // The core outlives every session: stop() closes them all and joins the io threads, which
  // return once the last session's last handler has run.
  session_t(data_server_t::core_t* core, tcp::socket socket, std::string ip)
      : core_(core),
        stream_(open_stream<Stream>(std::move(socket), core->tls.get())),
        deadline_(stream_.get_executor()),
        ip_(std::move(ip)) {}
  ~session_t() override {
    std::lock_guard<std::mutex> g(core_->mu);
    --core_->active;
    auto it = core_->per_peer.find(ip_);
    if (it != core_->per_peer.end() && --it->second == 0) core_->per_peer.erase(it);
  }

  void shutdown() override {
    asio::post(stream_.get_executor(), [self = this->shared_from_this()] { self->close(); });
  }

  // Everything a session does runs on its strand, the first step included (the accept handler
  // runs on the acceptor's strand; the timer and socket are not thread-safe).
  void start() {
    asio::post(stream_.get_executor(), [self = this->shared_from_this()] { self->begin(); });
  }

 private:
  void begin() {
    if (closed_) return;  // stop() came first
    error_code ec;
    const auto ep = lowest(stream_).remote_endpoint(ec);
    peer_ = ec ? std::string("unknown peer")
               : ep.address().to_string() + ":" + std::to_string(ep.port());
    tune_socket(lowest(stream_));
    disarm();
    watchdog();
    if constexpr (is_tls) {
      arm(core_->options.idle_timeout);  // the handshake's deadline
      await_client_hello();
    } else {
      read_frame();
    }
  }

  void arm(std::chrono::milliseconds t) { deadline_.expires_after(t); }
  // An operation inside a frame: io_timeout, but never past the frame's deadline.
  void arm_in_frame() {
    deadline_.expires_at(
        std::min(steady_clock_t::now() + core_->options.io_timeout, frame_deadline_));
  }
  void disarm() { deadline_.expires_at(steady_clock_t::time_point::max()); }

  // One watchdog per connection: wakes when the deadline passes (or moves) and closes the socket
  // when it has really passed, which fails the pending read or write.
  void watchdog() {
    deadline_.async_wait([self = this->shared_from_this()](const error_code&) {
      if (self->closed_) return;
      const auto now = steady_clock_t::now();
      if (self->deadline_.expiry() <= now) {
        self->timed_out_ = true;
        self->frame_deadline_hit_ = self->frame_deadline_ <= now;
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
    lowest(stream_).shutdown(tcp::socket::shutdown_both, ignored);
    lowest(stream_).close(ignored);
    pending_ = buffer::writable_buffer_t();  // a reservation in progress returns to the pool
  }

  // --- TLS ---------------------------------------------------------------------------------
  // A plaintext sender's first bytes are a frame magic: say so instead of a handshake error.
  void await_client_hello() {
    lowest(stream_).async_wait(tcp::socket::wait_read, [self = this->shared_from_this()](
                                                           const error_code& ec) {
      if (self->closed_ || ec) {  // the watchdog (handshake deadline), stop() or an error
        const bool report = self->timed_out_ && !self->closed_after_stop();
        self->close();
        if (report)
          self->core_->reject(reject_reason_t::timeout, self->peer_,
                              "TLS handshake: timed out (the peer sent nothing)");
        return;
      }
      std::array<uint8_t, 4> first{};
      error_code pe;
      const size_t n =
          lowest(self->stream_).receive(asio::buffer(first), tcp::socket::message_peek, pe);
      if (!pe && n == 0) {  // closed before saying anything (a port probe): not a rejection
        self->close();
        return;
      }
      if (!pe && n == first.size()) {
        const uint32_t magic = le_get<uint32_t>(first.data(), 0);
        if (magic == buffer::synth_magic || magic == ticket_magic) {
          self->close();
          self->core_->reject(reject_reason_t::tls, self->peer_,
                              "TLS handshake: the peer sent a plaintext data-plane frame to this "
                              "TLS receiver (the sender has no data-plane TLS configured)");
          return;
        }
      }
      self->handshake();
    });
  }

  void handshake() {
    if constexpr (is_tls) {
      // Asio frees OpenSSL's record buffers whenever they drain: for a bulk stream that is a
      // free and a malloc per 16 KiB record. Keep them.
      SSL_clear_mode(stream_.native_handle(), SSL_MODE_RELEASE_BUFFERS);
      stream_.set_verify_callback([this](bool preverified, ssl::verify_context& vc) {
        return verify_node_peer(preverified, vc.native_handle(), {}, verify_error_);
      });
      stream_.async_handshake(
          ssl::stream_base::server,
          [self = this->shared_from_this()](const error_code& ec) { self->on_handshake(ec); });
    }
  }

  void on_handshake(const error_code& ec) {
    if (ec) {
      const bool report = !closed_after_stop();
      const bool timed_out = timed_out_;
      close();
      if (report) {
        std::string what = timed_out ? "timed out" : verify_error_;
        if (what.empty()) what = ec.message();
        core_->reject(timed_out ? reject_reason_t::timeout : reject_reason_t::tls, peer_,
                      "TLS handshake: " + what);
      }
      return;
    }
    if constexpr (is_tls) {
      X509* cert = SSL_get1_peer_certificate(stream_.native_handle());
      peer_node_ = node_name_of(cert);
      X509_free(cert);
    }
    read_frame();
  }

  // --- frames ------------------------------------------------------------------------------
  // Why a read or write failed, for the rejection message.
  std::string failure(const error_code& ec) const {
    if (timed_out_ && frame_deadline_hit_)
      return "frame deadline passed (" + seconds_text(frame_deadline_ - frame_start_) +
             " allowed: frame_timeout + payload_bytes / min_rate)";
    if (timed_out_) return "timed out";
    if (ec == asio::error::eof || ec == ssl::error::stream_truncated)
      return "peer closed the connection";
    return ec.message();
  }
  reject_reason_t failure_reason(const error_code& ec) const {
    if (timed_out_) return reject_reason_t::timeout;
    if (ec == asio::error::eof || ec == asio::error::connection_reset ||
        ec == ssl::error::stream_truncated)
      return reject_reason_t::truncated;
    return reject_reason_t::io_error;
  }

  // Between frames: wait (idle_timeout) for the next frame's first bytes.
  void read_frame() {
    header_ = buffer::synth_header_t{};
    ticket_.reset();
    frame_deadline_ = steady_clock_t::time_point::max();
    arm(core_->options.idle_timeout);
    stream_.async_read_some(asio::buffer(head_),
                            [self = this->shared_from_this()](const error_code& ec, size_t n) {
                              self->on_frame_start(ec, n);
                            });
  }

  void on_frame_start(const error_code& ec, size_t n) {
    if (ec) {  // between frames, a close (or an idle connection timing out) is the normal end
      close();
      return;
    }
    frame_start_ = steady_clock_t::now();
    const auto ft = core_->options.frame_timeout;
    frame_deadline_ = ft.count() > 0 ? frame_start_ + ft : steady_clock_t::time_point::max();
    head_got_ = n;
    if (head_got_ < head_size) {
      arm_in_frame();
      asio::async_read(stream_, asio::buffer(head_.data() + head_got_, head_size - head_got_),
                       [self = this->shared_from_this()](const error_code& e, size_t m) {
                         self->head_got_ += m;
                         self->on_head(e);
                       });
      return;
    }
    on_head({});
  }

  void truncated_head(const error_code& ec, size_t got, size_t of, const char* what) {
    const bool report = !closed_after_stop();
    close();
    if (report)
      core_->reject(failure_reason(ec), peer_,
                    "truncated frame: " + failure(ec) + " after " + std::to_string(got) + " of " +
                        std::to_string(of) + " " + what + " bytes");
  }

  // The frame's first 64 bytes: a ticket, or the first half of a synth header.
  void on_head(const error_code& ec) {
    const bool is_ticket = head_got_ >= 4 && le_get<uint32_t>(head_.data(), 0) == ticket_magic;
    if (ec) {
      if (is_ticket)
        truncated_head(ec, head_got_, ticket_size, "ticket");
      else
        truncated_head(ec, head_got_, buffer::synth_header_size, "header");
      return;
    }
    const uint32_t magic = le_get<uint32_t>(head_.data(), 0);
    if (magic == ticket_magic) {
      auto t = decode_ticket(head_.data());
      if (!t) {
        refuse(reply_status_t::bad_ticket, t.error());
        return;
      }
      ticket_ = t.value();
      read_header(0);
      return;
    }
    if (magic != buffer::synth_magic) {
      refuse(reply_status_t::bad_magic, "not a data-plane frame: magic " + hex(magic) +
                                            " is neither \"ZKTT\" (ticket) nor \"ZKSB\" (header)");
      return;
    }
    if (core_->options.transfer_key) {
      refuse(reply_status_t::bad_ticket,
             "frame without a transfer ticket: this receiver takes only transfers the scheduler "
             "dispatched to it");
      return;
    }
    std::memcpy(header_bytes_.data(), head_.data(), head_size);
    read_header(head_size);
  }

  void read_header(size_t have) {
    arm_in_frame();
    asio::async_read(stream_,
                     asio::buffer(header_bytes_.data() + have, header_bytes_.size() - have),
                     [self = this->shared_from_this(), have](const error_code& ec, size_t n) {
                       if (ec) {
                         self->truncated_head(ec, have + n, buffer::synth_header_size, "header");
                         return;
                       }
                       self->on_header();
                     });
  }

  // A NACK that ends the connection (the stream may not be a synth stream at all).
  void refuse(reply_status_t st, const std::string& message, uint64_t detail = 0) {
    core_->reject(reason_for(st), peer_, message);
    reply(st, detail, /*then_close=*/true);
  }

  std::string frame_name() const {
    return "job " + std::to_string(header_.job_id) + " partition " +
           std::to_string(header_.partition);
  }

  void on_header() {
    header_ = buffer::decode_header(header_bytes_.data());
    if (auto err = buffer::validate_header(header_, core_->options.max_payload_bytes)) {
      refuse(status_for(err->field), err->message);
      return;
    }
    if (ticket_) {
      if (ticket_->job != header_.job_id || ticket_->partition != header_.partition) {
        refuse(reply_status_t::bad_ticket, "transfer ticket for job " +
                                               std::to_string(ticket_->job) + " partition " +
                                               std::to_string(ticket_->partition) +
                                               " does not match the header's " + frame_name());
        return;
      }
      if (core_->options.transfer_key &&
          !ticket_valid(*core_->options.transfer_key, *ticket_, header_.circuit_digest)) {
        refuse(reply_status_t::bad_ticket,
               "transfer ticket of " + frame_name() + " attempt " +
                   std::to_string(ticket_->attempt) +
                   ": MAC does not verify (not issued for this receiver, attempt or circuit)");
        return;
      }
    }
    const uint64_t rate = core_->options.min_rate_bytes_per_s;
    if (rate > 0) {
      const auto allowed = std::chrono::duration_cast<steady_clock_t::duration>(
          std::chrono::duration<double>(double(header_.payload_bytes) / double(rate)));
      frame_deadline_ = frame_start_ + core_->options.frame_timeout + allowed;
    }
    if (ticket_) {
      std::optional<uint64_t> dup;
      bool spent = false;
      {
        std::lock_guard<std::mutex> g(core_->mu);
        dup = core_->find_dup_locked(key(), header_.payload_checksum);
        spent = core_->ticket_spent_locked(key(), header_.payload_checksum);
        if (dup) ++core_->stats.duplicates;
      }
      if (spent) {  // one ticket, one buffer: a second payload under it is not stored
        refuse(reply_status_t::bad_ticket,
               "transfer ticket already used for another payload (job " +
                   std::to_string(header_.job_id) + " partition " +
                   std::to_string(header_.partition) + ")");
        return;
      }
      if (dup) {  // a re-send after a lost ACK: the sender is done, nothing is stored twice
        reply(reply_status_t::ack, ack_duplicate, /*then_close=*/false, *dup);
        return;
      }
    }
    auto r = core_->store.reserve(header_.payload_bytes);
    if (!r) {
      refuse(reply_status_t::no_space, r.error().message, header_.payload_bytes);
      return;
    }
    pending_ = std::move(r.value());
    received_ = 0;
    hash_.reset();
    reply(reply_status_t::ready, 0, /*then_close=*/false);
  }

  dup_key_t key() const { return {ticket_->job, ticket_->partition, ticket_->attempt}; }

  // Writes a reply; then closes (header NACKs), reads the payload (READY) or the next frame.
  void reply(reply_status_t st, uint64_t detail, bool then_close, uint64_t buffer_id = 0) {
    reply_t r;
    r.status = st;
    r.job_id = header_.job_id;
    r.partition = header_.partition;
    r.attempt = ticket_ ? ticket_->attempt : 0;
    r.buffer_id = buffer_id;
    r.payload_checksum = header_.payload_checksum;
    r.detail = detail;
    reply_bytes_ = encode_reply(r);
    if (st == reply_status_t::ready)
      arm_in_frame();
    else
      arm(core_->options.io_timeout);
    asio::async_write(
        stream_, asio::buffer(reply_bytes_),
        [self = this->shared_from_this(), st, then_close](const error_code& ec, size_t) {
          if (ec || then_close) {
            self->close();
            return;
          }
          if (st == reply_status_t::ready) {
            self->read_payload();
          } else {
            self->read_frame();
          }
        });
  }

  void read_payload() {
    const uint64_t left = header_.payload_bytes - received_;
    const size_t chunk = static_cast<size_t>(std::min<uint64_t>(left, core_->options.chunk_bytes));
    arm_in_frame();
    asio::async_read(stream_, asio::buffer(pending_.data() + received_, chunk),
                     [self = this->shared_from_this()](const error_code& ec, size_t n) {
                       self->on_payload(ec, n);
                     });
  }

  void on_payload(const error_code& ec, size_t n) {
    if (ec) {
      const bool report = !closed_after_stop();
      close();  // first: the reservation is back in the pool when the rejection is reported
      if (report) {
        core_->reject(
            failure_reason(ec), peer_,
            "truncated frame: " + failure(ec) + " after " + std::to_string(received_ + n) + " of " +
                std::to_string(header_.payload_bytes) + " payload bytes (" + frame_name() + ")");
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
      core_->reject(reject_reason_t::bad_checksum, peer_,
                    "payload checksum " + hex(got) + " does not match the header's " +
                        hex(header_.payload_checksum) + " (" + frame_name() +
                        "): corrupted in transit");
      reply(reply_status_t::bad_checksum, 0, /*then_close=*/false);
      return;
    }
    frame_deadline_ =
        steady_clock_t::time_point::max();  // every byte is here: only the ACK is left
    std::optional<dup_key_t> k;
    if (ticket_) k = key();
    uint64_t id = 0;
    bool dup = false;
    {
      // The same key may have been committed by another connection meanwhile (a re-send that
      // overtook a slow first copy): then this copy is dropped and the first one's id answered.
      std::lock_guard<std::mutex> g(core_->mu);
      if (k) {
        if (auto d = core_->find_dup_locked(*k, header_.payload_checksum)) {
          dup = true;
          id = *d;
          ++core_->stats.duplicates;
        } else if (core_->ticket_spent_locked(*k, header_.payload_checksum)) {
          dup = true;  // another payload under the same ticket overtook this one: not stored
          id = 0;
        }
      }
      if (!dup) {
        id = core_->store.commit(std::move(pending_), header_);
        core_->committed_locked(id, k, header_.payload_checksum, steady_clock_t::now());
        ++core_->stats.frames_accepted;
        core_->stats.bytes_accepted += header_.payload_bytes;
      }
    }
    if (dup) {
      pending_ = buffer::writable_buffer_t();
      if (id == 0) {  // store ids start at 1: the ticket was spent on another payload
        refuse(reply_status_t::bad_ticket, "transfer ticket already used for another payload");
        return;
      }
      reply(reply_status_t::ack, ack_duplicate, /*then_close=*/false, id);
      return;
    }
    if (core_->on_received)
      core_->on_received(
          received_t{id, header_, peer_, peer_node_, ticket_.has_value(), k ? k->attempt : 0});
    reply(reply_status_t::ack, 0, /*then_close=*/false, id);
  }

  bool closed_after_stop() const { return core_->stopped.load(); }

  data_server_t::core_t* core_;
  Stream stream_;
  asio::steady_timer deadline_;
  std::string ip_;            // the remote address, for the per-peer cap
  std::string peer_;          // "address:port"
  std::string peer_node_;     // TLS: the peer certificate's CN
  std::string verify_error_;  // TLS: why the verify callback refused the peer
  bool closed_ = false;
  bool timed_out_ = false;
  bool frame_deadline_hit_ = false;
  steady_clock_t::time_point frame_start_{};
  steady_clock_t::time_point frame_deadline_ = steady_clock_t::time_point::max();
  std::array<uint8_t, head_size> head_{};
  size_t head_got_ = 0;
  std::optional<transfer_ticket_t> ticket_;
  std::array<uint8_t, buffer::synth_header_size> header_bytes_{};
  buffer::synth_header_t header_;
  buffer::writable_buffer_t pending_;
  uint64_t received_ = 0;
  buffer::xxh64_state_t hash_;
  reply_bytes_t reply_bytes_{};
};

}  // namespace

std::string data_server_detail::seconds_text(steady_clock_t::duration d) {
  char b[32];
  std::snprintf(b, sizeof(b), "%.3g s", std::chrono::duration<double>(d).count());
  return b;
}

std::shared_ptr<session_base_t> start_session(data_server_t::core_t* core, tcp::socket socket,
                                              std::string ip) {
  if (core->tls) {
    auto s = std::make_shared<session_t<tls_stream_t>>(core, std::move(socket), std::move(ip));
    s->start();
    return s;
  }
  auto s = std::make_shared<session_t<tcp::socket>>(core, std::move(socket), std::move(ip));
  s->start();
  return s;
}

}  // namespace zk::net
