#include "common/net/data_client.hpp"

#include <openssl/err.h>
#include <openssl/ssl.h>

#include <algorithm>
#include <cstring>
#include <thread>

namespace zk::net {

namespace asio = boost::asio;

data_client_t::data_client_t(std::string host, uint16_t port, send_options_t options)
    : host_(std::move(host)), port_(port), options_(std::move(options)) {
  std::shared_ptr<tls_context_t> tls;
  if (options_.tls.enabled()) {
    try {
      tls = make_tls_context(options_.tls, tls_side_t::client);
    } catch (const std::exception& e) {
      setup_error_ = e.what();
    }
  }
  socket_ = tls ? std::make_unique<timed_socket_t>(std::move(tls), options_.expected_peer)
                : std::make_unique<timed_socket_t>();
}

data_client_t::~data_client_t() = default;

send_result_t data_client_t::send(const buffer::buffer_ref_t& buffer,
                                  const std::optional<transfer_ticket_t>& ticket) {
  return send(buffer.header(), {asio::const_buffer(buffer.data(), buffer.size())}, ticket);
}

send_result_t data_client_t::send(const buffer::synth_header_t& header,
                                  const std::vector<asio::const_buffer>& payload,
                                  const std::optional<transfer_ticket_t>& ticket) {
  const auto t0 = std::chrono::steady_clock::now();
  send_result_t result;
  result.payload_bytes = header.payload_bytes;
  if (!setup_error_.empty()) {
    result.error = setup_error_;
    return result;
  }
  uint64_t given = 0;
  for (const auto& b : payload) given += b.size();
  if (given != header.payload_bytes) {
    result.error = "payload pieces hold " + std::to_string(given) + " bytes, the header says " +
                   std::to_string(header.payload_bytes);
    return result;
  }
  auto delay = options_.retry_delay;
  const unsigned attempts = std::max(1u, options_.max_attempts);
  for (unsigned i = 1; i <= attempts; ++i) {
    result.attempts = i;
    auto a = attempt(header, payload, ticket);
    if (a) {
      result.ok = true;
      result.error.clear();
      result.buffer_id = a->buffer_id;
      result.duplicate = a->duplicate;
      result.peer_node = a->peer_node;
      result.ready_ns = a->ready_ns;
      break;
    }
    const attempt_error_t& err = a.error();
    if (err.nack) result.last_nack = err.nack;
    if (err.ready_ns) result.ready_ns = err.ready_ns;
    if (!result.error.empty()) result.error += "; ";
    result.error += "attempt " + std::to_string(i) + ": " + err.what;
    if (err.final) break;
    if (i < attempts) {
      std::this_thread::sleep_for(delay);
      delay = std::min(delay * 2, std::chrono::milliseconds(1000));
    }
  }
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return result;
}

result_t<data_client_t::delivered_t, data_client_t::attempt_error_t> data_client_t::attempt(
    const buffer::synth_header_t& header, const std::vector<asio::const_buffer>& payload,
    const std::optional<transfer_ticket_t>& ticket) {
  timed_socket_t& socket = *socket_;
  const std::string where = host_ + ":" + std::to_string(port_);
  int64_t ready_ns = 0;
  auto fail = [&](attempt_error_t e) {
    socket.close();
    e.ready_ns = ready_ns;
    return e;
  };
  auto connect = [&]() -> std::optional<attempt_error_t> {
    if (auto ec = socket.connect(host_, port_, options_.connect_timeout)) {
      if (!socket.peer_error().empty())  // our refusal of the receiver: retrying cannot help
        return attempt_error_t{
            "TLS handshake with " + where + ": " + socket.peer_error(), {}, true};
      std::string what = std::string(socket.tls() ? "connect (TLS) to " : "connect to ") + where +
                         ": " + ec.message();
      if (socket.tls() && ec.category() == asio::error::get_ssl_category() &&
          ERR_GET_REASON(static_cast<unsigned long>(ec.value())) == SSL_R_WRONG_VERSION_NUMBER)
        what += " (the receiver does not speak TLS: is its data-plane TLS configured?)";
      return attempt_error_t(what);
    }
    return std::nullopt;
  };
  // A kept connection may have been closed by the receiver meanwhile (its idle timeout): if the
  // header step fails on it without a reply, connect afresh once within this attempt.
  bool reused = socket.is_open();
  if (!reused) {
    if (auto err = connect()) return fail(*err);
  }
  const uint32_t attempt_no = ticket ? ticket->attempt : 0;
  error_code io_error;  // the last socket error of a reply read or header write
  // A reply, checked against what was sent.
  auto read_reply = [&](const char* stage) -> result_t<reply_t> {
    reply_bytes_t bytes{};
    size_t got = 0;
    if (auto ec = socket.read(asio::buffer(bytes), options_.io_timeout, &got)) {
      io_error = ec;
      return std::string("waiting for ") + stage + " from " + where + ": " + ec.message() + " (" +
             std::to_string(got) + " of " + std::to_string(reply_size) + " reply bytes)";
    }
    auto r = decode_reply(bytes.data());
    // A NACK echoes what the receiver read, which may be the corruption it complains about.
    if (r && !is_nack(r->status) &&
        (r->job_id != header.job_id || r->partition != header.partition ||
         r->payload_checksum != header.payload_checksum || r->attempt != attempt_no))
      return "reply: it names another buffer (job " + std::to_string(r->job_id) + " partition " +
             std::to_string(r->partition) + " attempt " + std::to_string(r->attempt) + ")";
    return r;
  };

  // Ticket and header in one write (one TLS record).
  std::array<uint8_t, ticket_size + buffer::synth_header_size> head{};
  size_t head_bytes = 0;
  if (ticket) {
    const auto t = encode_ticket(*ticket);
    std::memcpy(head.data(), t.data(), t.size());
    head_bytes = t.size();
  }
  const buffer::header_bytes_t h = buffer::encode_header(header);
  std::memcpy(head.data() + head_bytes, h.data(), h.size());
  head_bytes += h.size();

  result_t<reply_t> ready = std::string("no header sent");
  for (;;) {
    io_error = {};
    if (auto ec = socket.write(asio::buffer(head.data(), head_bytes), options_.io_timeout)) {
      io_error = ec;
      ready = "writing the header: " + ec.message();
    } else {
      ready = read_reply("READY");
    }
    const bool peer_closed =
        io_error == asio::error::eof || io_error == asio::error::connection_reset ||
        io_error == asio::error::broken_pipe || io_error == asio::ssl::error::stream_truncated;
    if (ready || !(reused && peer_closed)) break;
    reused = false;
    socket.close();
    if (auto err = connect()) return fail(*err);
  }
  if (!ready) return fail(attempt_error_t(ready.error()));
  ready_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                 std::chrono::steady_clock::now().time_since_epoch())
                 .count();
  if (ready->status == reply_status_t::ack)  // already held: a re-send after a lost ACK
    return delivered_t{ready->buffer_id, true, socket.peer_name(), ready_ns};
  if (ready->status != reply_status_t::ready) {
    std::string what = std::string("receiver refused the header: ") + status_name(ready->status);
    if (ready->status == reply_status_t::no_space)
      what += " (" + buffer::format_bytes(ready->detail) + " did not fit)";
    // The same ticket again would be refused again: the scheduler must issue another.
    const bool final = ready->status == reply_status_t::bad_ticket;
    return fail(
        attempt_error_t(what, ready->status, final));  // the receiver closes after a header NACK
  }

  // The payload in chunks of at most chunk_bytes, each a gather of slices of the caller's pieces.
  std::vector<asio::const_buffer> slices;
  size_t piece = 0, offset = 0;
  uint64_t sent = 0;
  while (sent < header.payload_bytes) {
    slices.clear();
    size_t room = options_.chunk_bytes;
    while (room > 0 && piece < payload.size()) {
      const size_t take = std::min(room, payload[piece].size() - offset);
      slices.push_back(
          asio::buffer(static_cast<const uint8_t*>(payload[piece].data()) + offset, take));
      room -= take;
      offset += take;
      if (offset == payload[piece].size()) ++piece, offset = 0;
      sent += take;
    }
    if (auto ec = socket.write(slices, options_.io_timeout))
      return fail(attempt_error_t("writing the payload to " + where + ": " + ec.message()));
  }

  auto done = read_reply("ACK");
  if (!done) return fail(attempt_error_t(done.error()));
  if (done->status == reply_status_t::ack)
    return delivered_t{done->buffer_id, false, socket.peer_name(), ready_ns};
  attempt_error_t refused{std::string("receiver refused the payload: ") + status_name(done->status),
                          done->status, false, ready_ns};
  if (done->status == reply_status_t::bad_checksum)
    return refused;  // the connection stays open for the re-send
  return fail(refused);
}

send_result_t send_buffer(const std::string& host, uint16_t port,
                          const buffer::synth_header_t& header,
                          const std::vector<asio::const_buffer>& payload,
                          const send_options_t& options,
                          const std::optional<transfer_ticket_t>& ticket) {
  data_client_t client(host, port, options);
  return client.send(header, payload, ticket);
}

}  // namespace zk::net
