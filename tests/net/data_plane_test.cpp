#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>

#include "common/buffer/checksum.hpp"
#include "common/net/data_client.hpp"
#include "common/net/data_server.hpp"
#include "common/net/timed_socket.hpp"
#include "tests/net/net_test_util.hpp"

using namespace zk;
using namespace std::chrono_literals;
using zk::test::collector_t;
using zk::test::make_sample;

namespace {

constexpr uint64_t mib = uint64_t(1) << 20;

net::send_options_t quick_options(unsigned attempts = 3) {
  net::send_options_t o;
  o.connect_timeout = 2000ms;
  o.io_timeout = 5000ms;
  o.max_attempts = attempts;
  o.retry_delay = 5ms;
  return o;
}

// A raw client: the header by hand, then the reply.
net::reply_t raw_header(net::timed_socket_t& sock, const buffer::synth_header_t& h) {
  const auto bytes = buffer::encode_header(h);
  REQUIRE_FALSE(sock.write(boost::asio::buffer(bytes), 2000ms));
  net::reply_bytes_t rb{};
  REQUIRE_FALSE(sock.read(boost::asio::buffer(rb), 2000ms));
  auto r = net::decode_reply(rb.data());
  REQUIRE_MESSAGE(r.ok(), r.error());
  return r.value();
}

// After a header NACK the server closes: the next read ends (not by timeout).
void check_closed_by_server(net::timed_socket_t& sock) {
  uint8_t byte = 0;
  auto ec = sock.read(boost::asio::buffer(&byte, 1), 3000ms);
  CHECK(ec);
  CHECK(ec != boost::asio::error::timed_out);
}

void check_serves(net::data_server_t& server, uint64_t job = 7) {
  auto s = make_sample(1000, 600, true, job, 99);
  auto r = net::send_buffer("127.0.0.1", server.port(), s.header, s.pieces(), quick_options());
  CHECK_MESSAGE(r.ok, r.error);
  CHECK(r.attempts == 1);
}

}  // namespace

TEST_CASE("round trip of a multi-MB buffer over loopback, checksum verified, memory reused") {
  buffer::buffer_store_t store(256 * mib);
  collector_t col;
  net::data_server_t server(store, {}, col.on_received(), col.on_rejected());
  // 2^17 witness + 3·2^17 rows = 16 MiB, from four separate arrays.
  auto s = make_sample(uint64_t(1) << 17, uint64_t(1) << 17, true);
  REQUIRE(s.header.payload_bytes == 16 * mib);
  net::data_client_t client("127.0.0.1", server.port(), quick_options());
  auto r = client.send(s.header, s.pieces());
  REQUIRE_MESSAGE(r.ok, r.error);
  CHECK(r.attempts == 1);
  CHECK_FALSE(r.last_nack.has_value());
  REQUIRE(col.wait_received(1));
  CHECK(col.received[0].buffer_id == r.buffer_id);
  CHECK(col.received[0].peer.rfind("127.0.0.1:", 0) == 0);
  check_same(store, r.buffer_id, s);

  // Acknowledged and released: the next buffer of the size reuses the memory (same connection).
  CHECK(store.release(r.buffer_id));
  auto s2 = make_sample(uint64_t(1) << 17, uint64_t(1) << 17, true, 43, 2);
  auto r2 = client.send(s2.header, s2.pieces());
  REQUIRE_MESSAGE(r2.ok, r2.error);
  check_same(store, r2.buffer_id, s2);
  CHECK(store.stats().fresh_allocations == 1);
  CHECK(store.stats().reuses == 1);
  CHECK(server.stats().frames_accepted == 2);
  CHECK(server.stats().connections == 1);

  // By name: the lookup goes through the resolver (localhost → 127.0.0.1 for this IPv4 server).
  auto by_name =
      net::send_buffer("localhost", server.port(), s2.header, s2.pieces(), quick_options());
  CHECK_MESSAGE(by_name.ok, by_name.error);
  CHECK(store.release(by_name.buffer_id));
  CHECK(server.stats().rejected == 0);
  CHECK(server.stats().connections == 2);

  // Witness-only shape, sent from a store buffer (the synth node's path).
  buffer::buffer_store_t local(64 * mib);
  auto w = make_sample(50000, 64, false, 44, 3);
  auto res = local.reserve(w.header.payload_bytes);
  REQUIRE(res.ok());
  std::memcpy(res.value().data(), w.witness.data(), w.witness.size());
  const uint64_t local_id = local.commit(std::move(res.value()), w.header);
  auto r3 = client.send(*local.find(local_id));
  REQUIRE_MESSAGE(r3.ok, r3.error);
  check_same(store, r3.buffer_id, w);
}

TEST_CASE(
    "a payload byte flipped on the wire: NACK bad_checksum, the sender re-sends and succeeds") {
  buffer::buffer_store_t store(64 * mib);
  collector_t col;
  net::data_server_t server(store, {}, col.on_received(), col.on_rejected());
  test::corrupting_proxy_t proxy(server.port(),
                                 buffer::synth_header_size + 123457);  // inside the payload
  auto s = make_sample(100000, 32768, true);
  auto r = net::send_buffer("127.0.0.1", proxy.port(), s.header, s.pieces(), quick_options());
  REQUIRE_MESSAGE(r.ok, r.error);
  CHECK(proxy.flips() == 1);
  CHECK(r.attempts == 2);
  REQUIRE(r.last_nack.has_value());
  CHECK(*r.last_nack == net::reply_status_t::bad_checksum);
  REQUIRE(col.wait_rejected(1));
  CHECK(col.rejected[0].reason == net::reject_reason_t::bad_checksum);
  CHECK(col.rejected[0].message.find("payload checksum") != std::string::npos);
  CHECK(server.stats().connections == 1);  // re-sent on the same connection
  REQUIRE(col.wait_received(1));
  CHECK(col.received.size() == 1);  // the corrupted copy was never delivered
  check_same(store, r.buffer_id, s);
  CHECK(store.stats().registered == 1);
  CHECK(store.stats().fresh_allocations == 1);  // the rejected copy's memory was reused
}

TEST_CASE(
    "a header byte flipped on the wire: NACK bad_header, the sender reconnects and succeeds") {
  buffer::buffer_store_t store(16 * mib);
  collector_t col;
  net::data_server_t server(store, {}, col.on_received(), col.on_rejected());
  test::corrupting_proxy_t proxy(server.port(), 50);  // job_id
  auto s = make_sample(1000, 1024, true);
  auto r = net::send_buffer("127.0.0.1", proxy.port(), s.header, s.pieces(), quick_options());
  REQUIRE_MESSAGE(r.ok, r.error);
  CHECK(r.attempts == 2);
  CHECK(*r.last_nack == net::reply_status_t::bad_header);
  CHECK(r.error.empty());
  REQUIRE(col.wait_rejected(1));
  CHECK(col.rejected[0].message.find("header_checksum") != std::string::npos);
  CHECK(server.stats().connections == 2);
  check_same(store, r.buffer_id, s);
}

TEST_CASE(
    "bad version: refused with an error naming the field, retries bounded, server keeps serving") {
  buffer::buffer_store_t store(16 * mib);
  collector_t col;
  net::data_server_t server(store, {}, col.on_received(), col.on_rejected());
  auto s = make_sample(1000, 600, true);
  s.header.version = 2;
  s.header.header_checksum = buffer::compute_header_checksum(s.header);
  auto r = net::send_buffer("127.0.0.1", server.port(), s.header, s.pieces(), quick_options(3));
  CHECK_FALSE(r.ok);
  CHECK(r.attempts == 3);
  REQUIRE(r.last_nack.has_value());
  CHECK(*r.last_nack == net::reply_status_t::bad_version);
  CHECK(r.error.find("attempt 3: receiver refused the header: bad_version") != std::string::npos);
  REQUIRE(col.wait_rejected(3));
  CHECK(col.rejected[0].reason == net::reject_reason_t::bad_version);
  CHECK(col.rejected[0].message.find("synth header: version: 2 is not supported (expected 1)") !=
        std::string::npos);
  CHECK(store.stats().fresh_allocations == 0);
  check_serves(server);
}

TEST_CASE(
    "bad length and bad magic from a raw client: NACK, connection closed, server keeps serving") {
  buffer::buffer_store_t store(16 * mib);
  collector_t col;
  net::server_options_t opts;
  opts.max_payload_bytes = 1 * mib;
  net::data_server_t server(store, opts, col.on_received(), col.on_rejected());
  auto s = make_sample(1000, 600, true);

  {  // length inconsistent with the counts (header resealed: not corruption, a bad value)
    auto h = s.header;
    h.payload_bytes += 32;
    h.header_checksum = buffer::compute_header_checksum(h);
    net::timed_socket_t sock;
    REQUIRE_FALSE(sock.connect("127.0.0.1", server.port(), 2000ms));
    CHECK(raw_header(sock, h).status == net::reply_status_t::bad_length);
    check_closed_by_server(sock);
    REQUIRE(col.wait_rejected(1));
    CHECK(col.last_rejected().reason == net::reject_reason_t::bad_length);
    CHECK(col.last_rejected().message.find("payload_bytes: ") != std::string::npos);
  }
  {                                            // over the receiver's limit
    auto big = make_sample(40000, 64, false);  // 1.22 MiB > 1 MiB
    net::timed_socket_t sock;
    REQUIRE_FALSE(sock.connect("127.0.0.1", server.port(), 2000ms));
    CHECK(raw_header(sock, big.header).status == net::reply_status_t::bad_length);
    REQUIRE(col.wait_rejected(2));
    CHECK(col.last_rejected().message.find("exceeds the receiver's limit") != std::string::npos);
  }
  {  // not a synth stream at all
    net::timed_socket_t sock;
    REQUIRE_FALSE(sock.connect("127.0.0.1", server.port(), 2000ms));
    std::string junk = "GET / HTTP/1.1\r\nHost: x\r\n\r\n";
    junk.resize(buffer::synth_header_size, ' ');
    REQUIRE_FALSE(sock.write(boost::asio::buffer(junk), 2000ms));
    net::reply_bytes_t rb{};
    REQUIRE_FALSE(sock.read(boost::asio::buffer(rb), 2000ms));
    auto rep = net::decode_reply(rb.data());
    REQUIRE(rep.ok());
    CHECK(rep->status == net::reply_status_t::bad_magic);
    check_closed_by_server(sock);
    REQUIRE(col.wait_rejected(3));
    CHECK(col.last_rejected().reason == net::reject_reason_t::bad_magic);
  }
  CHECK(store.stats().fresh_allocations == 0);
  check_serves(server);
  CHECK(server.stats().rejected == 3);
}

TEST_CASE(
    "truncated frame and peer closing mid-payload: rejected, reservation back in the pool, server "
    "keeps serving") {
  buffer::buffer_store_t store(16 * mib);
  collector_t col;
  net::data_server_t server(store, {}, col.on_received(), col.on_rejected());
  auto s = make_sample(10000, 8192, true);  // 1.06 MiB
  {
    net::timed_socket_t sock;
    REQUIRE_FALSE(sock.connect("127.0.0.1", server.port(), 2000ms));
    const auto bytes = buffer::encode_header(s.header);
    REQUIRE_FALSE(sock.write(boost::asio::buffer(bytes.data(), 60), 2000ms));
    sock.close();
    REQUIRE(col.wait_rejected(1));
    CHECK(col.last_rejected().reason == net::reject_reason_t::truncated);
    CHECK(col.last_rejected().message.find("after 60 of 128 header bytes") != std::string::npos);
  }
  {
    net::timed_socket_t sock;
    REQUIRE_FALSE(sock.connect("127.0.0.1", server.port(), 2000ms));
    CHECK(raw_header(sock, s.header).status == net::reply_status_t::ready);
    const auto all = s.joined();
    REQUIRE_FALSE(sock.write(boost::asio::buffer(all.data(), all.size() / 2), 2000ms));
    sock.close();
    REQUIRE(col.wait_rejected(2));
    CHECK(col.last_rejected().reason == net::reject_reason_t::truncated);
    CHECK(col.last_rejected().message.find("after " + std::to_string(all.size() / 2) + " of " +
                                           std::to_string(all.size()) + " payload bytes") !=
          std::string::npos);
  }
  // Nothing registered; the half-filled reservation is idle in the pool and serves the next one.
  auto st = store.stats();
  CHECK(st.registered == 0);
  CHECK(st.pooled == buffer::size_class(s.header.payload_bytes));
  auto r = net::send_buffer("127.0.0.1", server.port(), s.header, s.pieces(), quick_options());
  REQUIRE_MESSAGE(r.ok, r.error);
  check_same(store, r.buffer_id, s);
  CHECK(store.stats().fresh_allocations == 1);
}

TEST_CASE("a stalled peer times out, the server drops it and keeps serving") {
  buffer::buffer_store_t store(16 * mib);
  collector_t col;
  net::server_options_t opts;
  opts.io_timeout = 300ms;
  opts.idle_timeout = 300ms;
  net::data_server_t server(store, opts, col.on_received(), col.on_rejected());
  auto s = make_sample(10000, 8192, true);
  net::timed_socket_t sock;
  REQUIRE_FALSE(sock.connect("127.0.0.1", server.port(), 2000ms));
  CHECK(raw_header(sock, s.header).status == net::reply_status_t::ready);
  const auto all = s.joined();
  REQUIRE_FALSE(sock.write(boost::asio::buffer(all.data(), 1000), 2000ms));
  const auto t0 = std::chrono::steady_clock::now();
  REQUIRE(col.wait_rejected(1, 3000ms));
  CHECK(std::chrono::steady_clock::now() - t0 < 2000ms);
  CHECK(col.last_rejected().reason == net::reject_reason_t::timeout);
  CHECK(col.last_rejected().message.find("timed out after 1000 of") != std::string::npos);
  check_closed_by_server(sock);
  CHECK(store.stats().registered == 0);
  check_serves(server);
}

TEST_CASE("budget exceeded: NACK no_space, nothing allocated, the sender reports failure") {
  buffer::buffer_store_t store(1 * mib);
  collector_t col;
  net::data_server_t server(store, {}, col.on_received(), col.on_rejected());
  auto s = make_sample(20000, 16384, true);  // 2.1 MiB
  auto r = net::send_buffer("127.0.0.1", server.port(), s.header, s.pieces(), quick_options(2));
  CHECK_FALSE(r.ok);
  CHECK(r.attempts == 2);
  REQUIRE(r.last_nack.has_value());
  CHECK(*r.last_nack == net::reply_status_t::no_space);
  CHECK(r.error.find("no_space") != std::string::npos);
  const auto st = store.stats();
  CHECK(st.fresh_allocations == 0);
  CHECK(st.accounted == 0);
  CHECK(st.refusals == 2);
  REQUIRE(col.wait_rejected(2));
  CHECK(col.last_rejected().reason == net::reject_reason_t::no_space);
  CHECK(col.last_rejected().message.find("larger than the whole budget of 1.00 MiB") !=
        std::string::npos);
  // A buffer that fits still goes through.
  auto small = make_sample(1000, 600, true);
  auto ok =
      net::send_buffer("127.0.0.1", server.port(), small.header, small.pieces(), quick_options());
  CHECK_MESSAGE(ok.ok, ok.error);
  CHECK(store.accounted_bytes() <= store.budget());
}

TEST_CASE("several clients at once on a two-thread server") {
  buffer::buffer_store_t store(128 * mib);
  collector_t col;
  net::server_options_t opts;
  opts.io_threads = 2;
  net::data_server_t server(store, opts, col.on_received(), col.on_rejected());
  std::vector<std::thread> threads;
  std::vector<uint64_t> ids(6, 0);
  std::vector<test::sample_buffer_t> samples;
  for (uint32_t i = 0; i < 6; ++i)
    samples.push_back(make_sample(30000 + i, 20000, i % 2 == 0, 100 + i, i));
  for (int t = 0; t < 3; ++t) {
    threads.emplace_back([&, t] {
      net::data_client_t client("127.0.0.1", server.port(), quick_options());
      for (int k = 0; k < 2; ++k) {
        const int i = t * 2 + k;
        auto r = client.send(samples[i].header, samples[i].pieces());
        if (r.ok) ids[i] = r.buffer_id;
      }
    });
  }
  for (auto& th : threads) th.join();
  std::set<uint64_t> distinct(ids.begin(), ids.end());
  CHECK(distinct.size() == 6);
  CHECK(distinct.count(0) == 0);
  for (int i = 0; i < 6; ++i) {
    if (ids[i] != 0) check_same(store, ids[i], samples[i]);
  }
  CHECK(server.stats().frames_accepted == 6);
}

TEST_CASE(
    "sender: pieces that do not match the header, and no receiver at all, fail in bounded time") {
  auto s = make_sample(1000, 600, true);
  auto pieces = s.pieces();
  pieces.pop_back();
  auto r = net::send_buffer("127.0.0.1", 9, s.header, pieces, quick_options());
  CHECK_FALSE(r.ok);
  CHECK(r.attempts == 0);
  CHECK(r.error.find("the header says") != std::string::npos);

  uint16_t dead_port;
  {
    buffer::buffer_store_t store(mib);
    net::data_server_t server(store, {}, {}, {});
    dead_port = server.port();
  }  // closed: connections to the port are refused now
  const auto t0 = std::chrono::steady_clock::now();
  auto r2 = net::send_buffer("127.0.0.1", dead_port, s.header, s.pieces(), quick_options(3));
  CHECK_FALSE(r2.ok);
  CHECK(r2.attempts == 3);
  CHECK(r2.error.find("attempt 3: connect to 127.0.0.1:") != std::string::npos);
  CHECK(std::chrono::steady_clock::now() - t0 < 5s);
}

TEST_CASE("stop() with a transfer in progress returns promptly and frees its reservation") {
  buffer::buffer_store_t store(16 * mib);
  collector_t col;
  auto server = std::make_unique<net::data_server_t>(store, net::server_options_t{},
                                                     col.on_received(), col.on_rejected());
  auto s = make_sample(10000, 8192, true);
  net::timed_socket_t sock;
  REQUIRE_FALSE(sock.connect("127.0.0.1", server->port(), 2000ms));
  CHECK(raw_header(sock, s.header).status == net::reply_status_t::ready);
  CHECK(store.stats().pooled == 0);
  const auto t0 = std::chrono::steady_clock::now();
  server->stop();
  CHECK(std::chrono::steady_clock::now() - t0 < 2s);
  CHECK(store.stats().pooled == buffer::size_class(s.header.payload_bytes));
  CHECK(store.stats().registered == 0);
  CHECK(col.rejected.empty());  // a shutdown is not the peer's fault
  check_closed_by_server(sock);
}

TEST_CASE("reply frames round-trip and reject corruption") {
  net::reply_t r;
  r.status = net::reply_status_t::no_space;
  r.job_id = 9;
  r.partition = 4;
  r.buffer_id = 77;
  r.payload_checksum = 0xabcdef;
  r.detail = 12345;
  r.attempt = 3;
  auto b = net::encode_reply(r);
  CHECK(b[4] == 2);  // reply version 2
  auto back = net::decode_reply(b.data());
  REQUIRE(back.ok());
  CHECK(back->status == r.status);
  CHECK(back->buffer_id == 77);
  CHECK(back->detail == 12345);
  CHECK(back->attempt == 3);
  r.status = net::reply_status_t::bad_ticket;
  b = net::encode_reply(r);
  REQUIRE(net::decode_reply(b.data()).ok());
  CHECK(net::decode_reply(b.data())->status == net::reply_status_t::bad_ticket);
  CHECK(std::string(net::status_name(net::reply_status_t::bad_ticket)) == "bad_ticket");
  r.status = net::reply_status_t::no_space;
  b[20] ^= 1;
  auto bad = net::decode_reply(b.data());
  CHECK_FALSE(bad.ok());
  CHECK(bad.error() == "reply: checksum mismatch (corrupted reply)");
  b = net::encode_reply(r);
  b[4] = 9;
  auto v9 = net::decode_reply(b.data());
  CHECK_FALSE(v9.ok());
  CHECK(v9.error().find("version 9") != std::string::npos);
}

TEST_CASE("a throwing on_received costs its connection, not the server") {
  buffer::buffer_store_t store(16 * mib);
  std::atomic<int> calls{0};
  net::data_server_t server(store, {}, [&](const net::received_t&) {
    if (calls++ == 0) throw std::runtime_error("callback bug");
  });
  auto s = make_sample(1000, 600, true);
  net::send_options_t o = quick_options(2);
  o.io_timeout = 1000ms;
  auto r = net::send_buffer("127.0.0.1", server.port(), s.header, s.pieces(), o);
  // The first copy was committed before the callback threw; its ACK never went out, so the
  // sender re-sent (at-least-once) and the second copy was acknowledged.
  CHECK_MESSAGE(r.ok, r.error);
  CHECK(r.attempts == 2);
  CHECK(calls.load() == 2);
  CHECK(store.stats().registered == 2);
  check_serves(server);
}

TEST_CASE(
    "a kept connection closed by the receiver's idle timeout is replaced within the attempt") {
  buffer::buffer_store_t store(16 * mib);
  collector_t col;
  net::server_options_t opts;
  opts.idle_timeout = 150ms;
  net::data_server_t server(store, opts, col.on_received(), col.on_rejected());
  net::data_client_t client("127.0.0.1", server.port(), quick_options(1));  // no retries to spare
  auto s = make_sample(1000, 600, true);
  auto r1 = client.send(s.header, s.pieces());
  REQUIRE_MESSAGE(r1.ok, r1.error);
  // The server drops the idle connection (its session ends) before the next send.
  REQUIRE(zk::test::eventually([&] { return server.stats().open == 0; }, 5s));
  auto r2 = client.send(s.header, s.pieces());
  CHECK_MESSAGE(r2.ok, r2.error);
  CHECK(r2.attempts == 1);
  CHECK(server.stats().connections == 2);
  CHECK(col.rejected.empty());  // an idle close is not a rejection
}

TEST_CASE("budget held by other buffers: NACK no_space until they are released") {
  buffer::buffer_store_t store(3 * mib);
  collector_t col;
  net::data_server_t server(store, {}, col.on_received(), col.on_rejected());
  auto held = store.reserve(2 * mib);  // a buffer the node holds until its ACK
  REQUIRE(held.ok());
  auto s =
      make_sample(10000, 8192, true);  // 1.06 MiB: class 1.12 MiB does not fit in the 1 MiB left
  auto r = net::send_buffer("127.0.0.1", server.port(), s.header, s.pieces(), quick_options(1));
  CHECK_FALSE(r.ok);
  REQUIRE(r.last_nack.has_value());
  CHECK(*r.last_nack == net::reply_status_t::no_space);
  REQUIRE(col.wait_rejected(1));
  CHECK(col.last_rejected().message.find(
            "does not fit the budget: 2.00 MiB of 3.00 MiB accounted") != std::string::npos);
  CHECK(store.accounted_bytes() == 2 * mib);
  held.value() = buffer::writable_buffer_t();  // released: back to the pool (another class)
  auto r2 = net::send_buffer("127.0.0.1", server.port(), s.header, s.pieces(), quick_options(1));
  CHECK_MESSAGE(r2.ok, r2.error);
  CHECK(store.accounted_bytes() <= store.budget());
}
