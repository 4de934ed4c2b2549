// The secured data plane on loopback, real sockets: TLS between node certificates (and every way a
// peer is refused), transfer tickets, duplicates, unclaimed buffers, connection caps and the frame
// deadline. Each case ends with a good transfer: nothing that was refused hurt the server.
#include <doctest/doctest.h>
#include <openssl/hmac.h>
#include <openssl/ssl.h>

#include <boost/asio/ssl/context.hpp>
#include <chrono>
#include <cstring>
#include <functional>
#include <string>
#include <thread>

#include "common/buffer/checksum.hpp"
#include "common/net/data_client.hpp"
#include "common/net/data_server.hpp"
#include "common/net/ticket.hpp"
#include "common/net/timed_socket.hpp"
#include "common/net/tls.hpp"
#include "tests/net/net_test_util.hpp"
#include "tests/net/test_certs.hpp"
#include "zk/base/le_bytes.hpp"

using namespace zk;
using namespace std::chrono_literals;
using zk::test::certs;
using zk::test::collector_t;
using zk::test::contains;
using zk::test::eventually;
using zk::test::make_sample;

namespace {

constexpr uint64_t mib = uint64_t(1) << 20;

net::send_options_t quick(unsigned attempts = 1, net::tls_files_t tls = {},
                          std::string expected_peer = {}) {
  net::send_options_t o;
  o.connect_timeout = 2000ms;
  o.io_timeout = 3000ms;
  o.max_attempts = attempts;
  o.retry_delay = 5ms;
  o.tls = std::move(tls);
  o.expected_peer = std::move(expected_peer);
  return o;
}

net::server_options_t tls_server(std::optional<net::transfer_key_t> key = std::nullopt) {
  net::server_options_t o;
  o.tls = certs().files("node.n1");
  o.transfer_key = key;
  o.idle_timeout = 2000ms;
  return o;
}

net::transfer_ticket_t ticket_for(const net::transfer_key_t& key, const buffer::synth_header_t& h,
                                  uint32_t attempt = 1) {
  return net::make_ticket(key, h.job_id, h.partition, attempt, h.circuit_digest);
}

// A good transfer (with a ticket when there is a key, over TLS when the server has it).
void check_serves(net::data_server_t& server, std::optional<net::transfer_key_t> key = {},
                  uint64_t job = 7) {
  auto s = make_sample(1000, 600, true, job, 99);
  std::optional<net::transfer_ticket_t> t;
  if (key) t = ticket_for(*key, s.header, 9);
  auto o = quick(1, server.tls() ? certs().files("node.n2") : net::tls_files_t{});
  auto r = net::send_buffer("127.0.0.1", server.port(), s.header, s.pieces(), o, t);
  CHECK_MESSAGE(r.ok, r.error);
}

// After the server closed the connection: the next read ends (not by timeout).
void check_closed_by_server(net::timed_socket_t& sock) {
  uint8_t byte = 0;
  auto ec = sock.read(boost::asio::buffer(&byte, 1), 3000ms);
  CHECK(ec);
  CHECK(ec != boost::asio::error::timed_out);
}

// Writes raw bytes and reads one reply.
net::reply_t raw_exchange(net::timed_socket_t& sock, const std::vector<uint8_t>& bytes) {
  REQUIRE_FALSE(sock.write(boost::asio::buffer(bytes), 2000ms));
  net::reply_bytes_t rb{};
  REQUIRE_FALSE(sock.read(boost::asio::buffer(rb), 2000ms));
  auto r = net::decode_reply(rb.data());
  REQUIRE_MESSAGE(r.ok(), r.error());
  return r.value();
}

std::vector<uint8_t> frame_bytes(const std::optional<net::ticket_bytes_t>& ticket,
                                 const buffer::synth_header_t& h) {
  std::vector<uint8_t> v;
  if (ticket) v.insert(v.end(), ticket->begin(), ticket->end());
  const auto hb = buffer::encode_header(h);
  v.insert(v.end(), hb.begin(), hb.end());
  return v;
}

}  // namespace

TEST_CASE("TLS: a buffer crosses between two node certificates byte for byte, with a ticket") {
  buffer::buffer_store_t store(64 * mib);
  collector_t col;
  const auto key = net::make_transfer_key();
  net::data_server_t server(store, tls_server(key), col.on_received(), col.on_rejected());
  CHECK(server.tls());
  auto s = make_sample(uint64_t(1) << 16, uint64_t(1) << 16, true, 42, 5);  // 8 MiB
  net::data_client_t client("127.0.0.1", server.port(), quick(2, certs().files("node.n2"), "n1"));
  auto r = client.send(s.header, s.pieces(), ticket_for(key, s.header));
  REQUIRE_MESSAGE(r.ok, r.error);
  CHECK(r.attempts == 1);
  CHECK_FALSE(r.duplicate);
  CHECK(r.peer_node == "n1");
  REQUIRE(col.wait_received(1));
  CHECK(col.received[0].peer_node == "n2");
  CHECK(col.received[0].ticket);
  CHECK(col.received[0].attempt == 1);
  check_same(store, r.buffer_id, s);
  // The next one on the same TLS connection; then the first again: a duplicate, not stored twice.
  auto s2 = make_sample(5000, 4096, true, 43, 6);
  auto r2 = client.send(s2.header, s2.pieces(), ticket_for(key, s2.header));
  REQUIRE_MESSAGE(r2.ok, r2.error);
  CHECK(r2.peer_node == "n1");
  check_same(store, r2.buffer_id, s2);
  auto again = client.send(s.header, s.pieces(), ticket_for(key, s.header));
  REQUIRE_MESSAGE(again.ok, again.error);
  CHECK(again.duplicate);
  CHECK(again.buffer_id == r.buffer_id);
  CHECK(server.stats().connections == 1);
  CHECK(server.stats().frames_accepted == 2);
  CHECK(store.stats().registered == 2);
  CHECK(server.stats().rejected == 0);
}

TEST_CASE("TLS and plaintext do not mix: each side fails cleanly, later transfers succeed") {
  buffer::buffer_store_t store(16 * mib);
  auto s = make_sample(1000, 600, true);
  {  // a plaintext sender against a TLS receiver
    collector_t col;
    net::data_server_t server(store, tls_server(), col.on_received(), col.on_rejected());
    auto r = net::send_buffer("127.0.0.1", server.port(), s.header, s.pieces(), quick(1));
    CHECK_FALSE(r.ok);
    REQUIRE(col.wait_rejected(1));
    CHECK(col.last_rejected().reason == net::reject_reason_t::tls);
    CHECK_MESSAGE(contains(col.last_rejected().message, "plaintext data-plane frame"),
                  col.last_rejected().message);
    CHECK(store.stats().fresh_allocations == 0);
    check_serves(server);
  }
  {  // a TLS sender against a plaintext receiver
    collector_t col;
    net::data_server_t server(store, {}, col.on_received(), col.on_rejected());
    const auto t0 = std::chrono::steady_clock::now();
    auto r = net::send_buffer("127.0.0.1", server.port(), s.header, s.pieces(),
                              quick(1, certs().files("node.n2")));
    CHECK_FALSE(r.ok);
    CHECK(std::chrono::steady_clock::now() - t0 < 2s);
    CHECK_MESSAGE(contains(r.error, "connect (TLS) to 127.0.0.1:"), r.error);
    REQUIRE(col.wait_rejected(1));
    CHECK(col.last_rejected().reason == net::reject_reason_t::bad_magic);
    check_serves(server);
  }
  CHECK(store.stats().registered == 2);
}

TEST_CASE(
    "TLS: a sender without a certificate, of another CA, or with a client certificate is "
    "refused, so is a receiver of another CA") {
  buffer::buffer_store_t store(16 * mib);
  collector_t col;
  net::data_server_t server(store, tls_server(), col.on_received(), col.on_rejected());
  auto s = make_sample(1000, 600, true);
  size_t rejections = 0;
  auto refused = [&](const net::tls_files_t& files, const std::string& want) {
    CAPTURE(files.cert_file);
    auto r = net::send_buffer("127.0.0.1", server.port(), s.header, s.pieces(), quick(1, files));
    CHECK_FALSE(r.ok);
    REQUIRE(col.wait_rejected(++rejections));
    const auto rej = col.last_rejected();
    CHECK(rej.reason == net::reject_reason_t::tls);
    CHECK_MESSAGE(contains(rej.message, want), rej.message);
  };
  SUBCASE("another CA's node certificate") {
    refused(certs().files("other.node.n1", "ca"),
            "peer certificate O=zkfleet, OU=node, CN=n1: unable to get local issuer certificate");
  }
  SUBCASE("a client certificate of the CA") {
    refused(certs().files("client.c1"),
            "peer certificate O=zkfleet, OU=client, CN=c1 is not a zkfleet node certificate");
  }
  SUBCASE("no certificate at all") {
    auto ctx = std::make_shared<net::tls_context_t>(boost::asio::ssl::context::tls_client);
    SSL_CTX_set_min_proto_version(ctx->native_handle(), TLS1_3_VERSION);
    ctx->set_verify_mode(boost::asio::ssl::verify_peer);
    ctx->load_verify_file(certs().path("ca.crt"));
    net::timed_socket_t sock(ctx);
    // TLS 1.3: the client's side of the handshake may complete before the server's verdict.
    if (!sock.connect("127.0.0.1", server.port(), 2000ms)) {
      const auto bytes = frame_bytes(std::nullopt, s.header);
      sock.write(boost::asio::buffer(bytes), 2000ms);
      net::reply_bytes_t rb{};
      CHECK(sock.read(boost::asio::buffer(rb), 2000ms));
    }
    REQUIRE(col.wait_rejected(1));
    CHECK(col.last_rejected().reason == net::reject_reason_t::tls);
    CHECK_MESSAGE(contains(col.last_rejected().message, "certificate"),
                  col.last_rejected().message);
  }
  SUBCASE("a sender that trusts another CA refuses the receiver, at once") {
    auto r = net::send_buffer("127.0.0.1", server.port(), s.header, s.pieces(),
                              quick(3, certs().files("other.node.n1", "other-ca")));
    CHECK_FALSE(r.ok);
    CHECK(r.attempts == 1);  // our own refusal: retrying cannot help
    // The receiver sends its chain: the CA it names is not the one this sender trusts.
    CHECK_MESSAGE(contains(r.error,
                           "peer certificate O=zkfleet, OU=node, CN=n1: self-signed "
                           "certificate in certificate chain (at O=zkfleet, OU=ca, "
                           "CN=zkfleet CA)"),
                  r.error);
  }
  CHECK(store.stats().fresh_allocations == 0);
  check_serves(server);
}

TEST_CASE("TLS: expected_peer other than the receiver's node name ends the send at once") {
  buffer::buffer_store_t store(16 * mib);
  collector_t col;
  net::data_server_t server(store, tls_server(), col.on_received(), col.on_rejected());
  auto s = make_sample(1000, 600, true);
  auto r = net::send_buffer("127.0.0.1", server.port(), s.header, s.pieces(),
                            quick(3, certs().files("node.n2"), "n9"));
  CHECK_FALSE(r.ok);
  CHECK(r.attempts == 1);
  CHECK_MESSAGE(contains(r.error,
                         "peer certificate O=zkfleet, OU=node, CN=n1 is node 'n1', "
                         "expected 'n9'"),
                r.error);
  CHECK(store.stats().fresh_allocations == 0);
  auto ok = net::send_buffer("127.0.0.1", server.port(), s.header, s.pieces(),
                             quick(1, certs().files("node.n2"), "n1"));
  CHECK_MESSAGE(ok.ok, ok.error);
}

TEST_CASE("TLS: bad files are named, a silent connection is dropped at the handshake deadline") {
  buffer::buffer_store_t store(16 * mib);
  auto o = tls_server();
  o.tls.key_file = certs().path("node.n2.key");  // not node.n1's key
  CHECK_THROWS_WITH_AS(net::data_server_t(store, o, {}, {}),
                       doctest::Contains("does not match certificate file"), std::runtime_error);
  o.tls.key_file = certs().path("missing.key");
  CHECK_THROWS_WITH_AS(net::data_server_t(store, o, {}, {}), doctest::Contains("missing.key"),
                       std::runtime_error);
  o.tls.key_file.clear();
  CHECK_THROWS_WITH_AS(net::data_server_t(store, o, {}, {}), doctest::Contains("key_file not set"),
                       std::runtime_error);
  auto bad = quick(1, certs().files("node.n2"));
  bad.tls.ca_file = certs().path("nowhere.crt");
  auto s = make_sample(1000, 600, true);
  auto r = net::send_buffer("127.0.0.1", 9, s.header, s.pieces(), bad);
  CHECK_FALSE(r.ok);
  CHECK(r.attempts == 0);
  CHECK(contains(r.error, "nowhere.crt"));

  collector_t col;
  auto so = tls_server();
  so.idle_timeout = 200ms;
  net::data_server_t server(store, so, col.on_received(), col.on_rejected());
  net::timed_socket_t sock;  // plain TCP: says nothing
  REQUIRE_FALSE(sock.connect("127.0.0.1", server.port(), 2000ms));
  REQUIRE(col.wait_rejected(1, 2000ms));
  CHECK(col.last_rejected().reason == net::reject_reason_t::timeout);
  CHECK(contains(col.last_rejected().message, "TLS handshake: timed out"));
  check_closed_by_server(sock);
  check_serves(server);
}

TEST_CASE("ticket frames round-trip, the MAC covers every field and the digest") {
  const auto key = net::make_transfer_key();
  CHECK(key != net::make_transfer_key());
  CHECK(net::transfer_key_from_hex(net::transfer_key_hex(key)) == key);
  CHECK_FALSE(net::transfer_key_from_hex("abc").has_value());
  CHECK_FALSE(net::transfer_key_from_hex(std::string(64, 'g')).has_value());
  buffer::digest_t digest;
  digest.fill(0xcd);
  const auto t = net::make_ticket(key, 0x1122334455667788ULL, 7, 3, digest);

  // The MAC is HMAC-SHA256 over exactly the documented message.
  std::vector<uint8_t> msg(net::ticket_mac_label.begin(), net::ticket_mac_label.end());
  REQUIRE(msg.size() == 19);
  uint8_t le[16];
  le_put<uint64_t>(le, 0, t.job);
  le_put<uint32_t>(le, 8, 7);
  le_put<uint32_t>(le, 12, 3);
  msg.insert(msg.end(), le, le + 16);
  msg.insert(msg.end(), digest.begin(), digest.end());
  unsigned char want[32];
  unsigned int len = 0;
  HMAC(EVP_sha256(), key.data(), 32, msg.data(), msg.size(), want, &len);
  REQUIRE(len == 32);
  CHECK(std::memcmp(want, t.mac.data(), 32) == 0);

  const auto bytes = net::encode_ticket(t);
  CHECK(std::memcmp(bytes.data(), "ZKTT", 4) == 0);
  CHECK(le_get<uint16_t>(bytes.data(), 4) == 1);
  CHECK(le_get<uint64_t>(bytes.data(), 8) == t.job);
  CHECK(le_get<uint32_t>(bytes.data(), 16) == 7);
  CHECK(le_get<uint32_t>(bytes.data(), 20) == 3);
  CHECK(std::memcmp(bytes.data() + 24, t.mac.data(), 32) == 0);
  auto back = net::decode_ticket(bytes.data());
  REQUIRE(back.ok());
  CHECK(back->job == t.job);
  CHECK(back->partition == 7);
  CHECK(back->attempt == 3);
  CHECK(back->mac == t.mac);
  CHECK(net::ticket_valid(key, back.value(), digest));

  auto with = [&](size_t at, uint8_t v) {
    auto b = bytes;
    b[at] = v;
    return net::decode_ticket(b.data());
  };
  CHECK(with(0, 'X').error() == "transfer ticket: magic is not \"ZKTT\"");
  CHECK(with(4, 2).error() == "transfer ticket: version 2 is not supported (expected 1)");
  CHECK(with(60, 1).error() == "transfer ticket: reserved fields are not zero");

  // Any field changed, another digest, another key: the MAC no longer verifies.
  for (int f = 0; f < 4; ++f) {
    auto u = t;
    if (f == 0) u.job ^= 1;
    if (f == 1) u.partition ^= 1;
    if (f == 2) u.attempt ^= 1;
    if (f == 3) u.mac[31] ^= 1;
    CHECK_FALSE(net::ticket_valid(key, u, digest));
  }
  auto other_digest = digest;
  other_digest[0] ^= 1;
  CHECK_FALSE(net::ticket_valid(key, t, other_digest));
  CHECK_FALSE(net::ticket_valid(net::make_transfer_key(), t, digest));
}

TEST_CASE("tickets: missing, malformed, forged or mismatched: NACK bad_ticket, nothing reserved") {
  buffer::buffer_store_t store(16 * mib);
  collector_t col;
  const auto key = net::make_transfer_key();
  net::server_options_t o;
  o.transfer_key = key;
  net::data_server_t server(store, o, col.on_received(), col.on_rejected());
  auto s = make_sample(1000, 600, true);
  size_t n = 0;
  auto refused = [&](const std::optional<net::transfer_ticket_t>& t, const std::string& want) {
    auto r = net::send_buffer("127.0.0.1", server.port(), s.header, s.pieces(), quick(3), t);
    CHECK_FALSE(r.ok);
    CHECK(r.attempts == 1);  // the same ticket would be refused again
    REQUIRE(r.last_nack.has_value());
    CHECK(*r.last_nack == net::reply_status_t::bad_ticket);
    CHECK(contains(r.error, "receiver refused the header: bad_ticket"));
    REQUIRE(col.wait_rejected(++n));
    CHECK(col.last_rejected().reason == net::reject_reason_t::bad_ticket);
    CHECK_MESSAGE(contains(col.last_rejected().message, want), col.last_rejected().message);
  };
  refused(std::nullopt, "frame without a transfer ticket");
  refused(ticket_for(net::make_transfer_key(), s.header), "MAC does not verify");  // forged
  auto other = s.header;
  other.partition = 2;
  refused(ticket_for(key, other), "transfer ticket for job 42 partition 2 does not match");
  other = s.header;
  other.circuit_digest[5] ^= 1;
  refused(ticket_for(key, other), "MAC does not verify");  // made for another circuit
  auto tampered = ticket_for(key, s.header, 1);
  tampered.attempt = 2;  // a ticket of attempt 1 passed off as attempt 2
  refused(tampered, "MAC does not verify");
  {  // malformed (version 5), by hand: NACK, then the server closes
    auto tb = net::encode_ticket(ticket_for(key, s.header));
    tb[4] = 5;
    net::timed_socket_t sock;
    REQUIRE_FALSE(sock.connect("127.0.0.1", server.port(), 2000ms));
    CHECK(raw_exchange(sock, frame_bytes(tb, s.header)).status == net::reply_status_t::bad_ticket);
    check_closed_by_server(sock);
    REQUIRE(col.wait_rejected(++n));
    CHECK(contains(col.last_rejected().message, "version 5 is not supported"));
  }
  const auto st = store.stats();
  CHECK(st.fresh_allocations == 0);
  CHECK(st.accounted == 0);
  CHECK(col.received.empty());
  auto good = net::send_buffer("127.0.0.1", server.port(), s.header, s.pieces(), quick(1),
                               ticket_for(key, s.header, 4));
  REQUIRE_MESSAGE(good.ok, good.error);
  REQUIRE(col.wait_received(1));
  CHECK(col.received[0].attempt == 4);
  check_same(store, good.buffer_id, s);
}

TEST_CASE("a duplicate (job, partition, attempt) is answered with the first buffer's id") {
  buffer::buffer_store_t store(16 * mib);
  collector_t col;
  const auto key = net::make_transfer_key();
  net::server_options_t o;
  o.transfer_key = key;
  net::data_server_t server(store, o, col.on_received(), col.on_rejected());
  auto s = make_sample(10000, 8192, true);
  const auto t1 = ticket_for(key, s.header, 1);
  auto r1 = net::send_buffer("127.0.0.1", server.port(), s.header, s.pieces(), quick(1), t1);
  REQUIRE_MESSAGE(r1.ok, r1.error);
  CHECK_FALSE(r1.duplicate);
  // Another connection, the same ticket (the first ACK was lost): ACK at the header, no payload.
  auto r2 = net::send_buffer("127.0.0.1", server.port(), s.header, s.pieces(), quick(1), t1);
  REQUIRE_MESSAGE(r2.ok, r2.error);
  CHECK(r2.duplicate);
  CHECK(r2.buffer_id == r1.buffer_id);
  CHECK(store.stats().registered == 1);
  CHECK(store.stats().fresh_allocations == 1);
  CHECK(server.stats().duplicates == 1);
  CHECK(server.stats().frames_accepted == 1);
  CHECK(col.received.size() == 1);
  {  // by hand: the reply to the header is the ACK itself, with the id and the duplicate mark
    net::timed_socket_t sock;
    REQUIRE_FALSE(sock.connect("127.0.0.1", server.port(), 2000ms));
    auto rep = raw_exchange(sock, frame_bytes(net::encode_ticket(t1), s.header));
    CHECK(rep.status == net::reply_status_t::ack);
    CHECK(rep.buffer_id == r1.buffer_id);
    CHECK(rep.detail == net::ack_duplicate);
    CHECK(rep.attempt == 1);
  }
  // A new attempt of the same partition is a new transfer.
  auto r3 = net::send_buffer("127.0.0.1", server.port(), s.header, s.pieces(), quick(1),
                             ticket_for(key, s.header, 2));
  REQUIRE_MESSAGE(r3.ok, r3.error);
  CHECK_FALSE(r3.duplicate);
  CHECK(r3.buffer_id != r1.buffer_id);
  CHECK(store.stats().registered == 2);
  // Released by its owner: the key is still remembered (the window), nothing is stored again.
  REQUIRE(server.claim(r1.buffer_id));
  CHECK(store.release(r1.buffer_id));
  server.forget(r1.buffer_id);
  auto r4 = net::send_buffer("127.0.0.1", server.port(), s.header, s.pieces(), quick(1), t1);
  REQUIRE_MESSAGE(r4.ok, r4.error);
  CHECK(r4.duplicate);
  CHECK(r4.buffer_id == r1.buffer_id);
  CHECK(store.stats().registered == 1);
  CHECK(server.stats().duplicates == 3);
  // One ticket, one buffer: another payload under the same ticket is refused, not stored.
  auto other = make_sample(10000, 8192, true, s.header.job_id, 2);
  REQUIRE(other.header.payload_checksum != s.header.payload_checksum);
  auto r5 =
      net::send_buffer("127.0.0.1", server.port(), other.header, other.pieces(), quick(1), t1);
  CHECK_FALSE(r5.ok);
  CHECK(r5.last_nack == net::reply_status_t::bad_ticket);
  CHECK(store.stats().registered == 1);
}

TEST_CASE("the duplicate memory is bounded: keys of released buffers age out") {
  buffer::buffer_store_t store(16 * mib);
  const auto key = net::make_transfer_key();
  net::server_options_t o;
  o.transfer_key = key;
  o.duplicate_memory = 1;
  o.duplicate_window = 100ms;
  net::data_server_t server(store, o, {}, {});
  auto a = make_sample(1000, 600, true, 50, 1), b = make_sample(1000, 600, true, 51, 2);
  auto ra = net::send_buffer("127.0.0.1", server.port(), a.header, a.pieces(), quick(1),
                             ticket_for(key, a.header));
  auto rb = net::send_buffer("127.0.0.1", server.port(), b.header, b.pieces(), quick(1),
                             ticket_for(key, b.header));
  REQUIRE(ra.ok);
  REQUIRE(rb.ok);
  for (auto id : {ra.buffer_id, rb.buffer_id}) {
    CHECK(server.claim(id));
    CHECK(store.release(id));
    server.forget(id);
  }
  // a's key was pushed out by b's (memory 1); b's ages out after the window.
  auto again = net::send_buffer("127.0.0.1", server.port(), a.header, a.pieces(), quick(1),
                                ticket_for(key, a.header));
  REQUIRE(again.ok);
  CHECK_FALSE(again.duplicate);
  // b's key goes after the window, at the next sweep (every second): until then b is answered as a
  // duplicate (which does not renew its key), then it is taken again.
  net::send_result_t b2;
  CHECK(eventually(
      [&] {
        b2 = net::send_buffer("127.0.0.1", server.port(), b.header, b.pieces(), quick(1),
                              ticket_for(key, b.header));
        return !b2.ok || !b2.duplicate;
      },
      5s, 50ms));
  REQUIRE(b2.ok);
  CHECK_FALSE(b2.duplicate);
}

TEST_CASE("an unclaimed buffer is released after unclaimed_timeout, a claimed one stays") {
  buffer::buffer_store_t store(16 * mib);
  collector_t col;
  net::server_options_t o;
  o.unclaimed_timeout = 200ms;
  net::data_server_t server(store, o, col.on_received(), col.on_rejected());
  auto a = make_sample(1000, 600, true, 60, 1), b = make_sample(2000, 600, true, 61, 2);
  auto ra = net::send_buffer("127.0.0.1", server.port(), a.header, a.pieces(), quick(1));
  auto rb = net::send_buffer("127.0.0.1", server.port(), b.header, b.pieces(), quick(1));
  REQUIRE(ra.ok);
  REQUIRE(rb.ok);
  CHECK(server.stats().unclaimed == 2);
  CHECK(server.claim(ra.buffer_id));
  CHECK_FALSE(server.claim(ra.buffer_id));  // already claimed
  CHECK_FALSE(server.claim(987654));        // unknown
  REQUIRE(eventually([&] { return server.stats().expired == 1; }));
  CHECK_FALSE(store.find(rb.buffer_id).has_value());
  CHECK_FALSE(server.claim(rb.buffer_id));  // expired
  // Time itself is what is tested here: past the timeout again (and the sweeps in it, every
  // 50 ms), the claimed buffer is still there. There is no event to wait for.
  std::this_thread::sleep_for(300ms);
  check_same(store, ra.buffer_id, a);  // claimed: never expired
  CHECK(server.stats().expired == 1);
  CHECK(server.stats().unclaimed == 0);
  CHECK(store.stats().registered == 1);
  CHECK(col.rejected.empty());
  // A buffer its owner released without claiming is dropped from the bookkeeping, not counted.
  auto rc = net::send_buffer("127.0.0.1", server.port(), b.header, b.pieces(), quick(1));
  REQUIRE(rc.ok);
  CHECK(store.release(rc.buffer_id));
  REQUIRE(eventually([&] { return server.stats().unclaimed == 0; }));
  CHECK(server.stats().expired == 1);
  check_serves(server);
}

TEST_CASE("connection caps: per peer address and in all, over a cap, closed at accept") {
  using tcp = boost::asio::ip::tcp;
  boost::asio::io_context io;
  auto open_from = [&](const char* source, uint16_t port) {
    auto s = std::make_unique<tcp::socket>(io);
    s->open(tcp::v4());
    s->bind(tcp::endpoint(boost::asio::ip::make_address(source), 0));
    s->connect(tcp::endpoint(boost::asio::ip::make_address("127.0.0.1"), port));
    return s;
  };
  buffer::buffer_store_t store(16 * mib);
  {
    collector_t col;
    net::server_options_t o;
    o.max_connections_per_peer = 2;
    net::data_server_t server(store, o, col.on_received(), col.on_rejected());
    auto c1 = open_from("127.0.0.1", server.port());
    auto c2 = open_from("127.0.0.1", server.port());
    REQUIRE(eventually([&] { return server.stats().connections == 2; }));
    net::timed_socket_t third;
    REQUIRE_FALSE(third.connect("127.0.0.1", server.port(), 2000ms));
    check_closed_by_server(third);
    REQUIRE(col.wait_rejected(1));
    CHECK(col.last_rejected().reason == net::reject_reason_t::too_many_connections);
    CHECK_MESSAGE(contains(col.last_rejected().message,
                           "2 connections open from 127.0.0.1 (max_connections_per_peer 2)"),
                  col.last_rejected().message);
    // Another address is another peer.
    auto other = open_from("127.0.0.2", server.port());
    REQUIRE(eventually([&] { return server.stats().connections == 3; }));
    CHECK(server.stats().rejected == 1);
    // A slot freed is a slot to use.
    c1.reset();
    REQUIRE(eventually([&] {
      auto s = make_sample(1000, 600, true);
      return net::send_buffer("127.0.0.1", server.port(), s.header, s.pieces(), quick(1)).ok;
    }));
  }
  {
    collector_t col;
    net::server_options_t o;
    o.max_connections = 2;
    net::data_server_t server(store, o, col.on_received(), col.on_rejected());
    auto c1 = open_from("127.0.0.1", server.port());
    auto c2 = open_from("127.0.0.2", server.port());
    REQUIRE(eventually([&] { return server.stats().connections == 2; }));
    net::timed_socket_t third;
    REQUIRE_FALSE(third.connect("127.0.0.1", server.port(), 2000ms));
    check_closed_by_server(third);
    REQUIRE(col.wait_rejected(1));
    CHECK(col.last_rejected().reason == net::reject_reason_t::too_many_connections);
    CHECK(contains(col.last_rejected().message, "2 connections open (max_connections 2)"));
    c2.reset();
    REQUIRE(eventually([&] {
      auto s = make_sample(1000, 600, true);
      return net::send_buffer("127.0.0.1", server.port(), s.header, s.pieces(), quick(1)).ok;
    }));
    CHECK(server.stats().rejected_by_reason[size_t(net::reject_reason_t::too_many_connections)] >=
          1);
  }
}

TEST_CASE("a TLS server's caps close before the handshake") {
  buffer::buffer_store_t store(16 * mib);
  collector_t col;
  auto o = tls_server();
  o.max_connections = 1;
  net::data_server_t server(store, o, col.on_received(), col.on_rejected());
  net::timed_socket_t held;  // plain TCP, holds the one slot until its handshake deadline
  REQUIRE_FALSE(held.connect("127.0.0.1", server.port(), 2000ms));
  REQUIRE(eventually([&] { return server.stats().connections == 1; }));
  net::timed_socket_t tls_sock(
      net::make_tls_context(certs().files("node.n2"), net::tls_side_t::client));
  CHECK(tls_sock.connect("127.0.0.1", server.port(), 2000ms));  // no handshake: closed at once
  REQUIRE(col.wait_rejected(1));
  CHECK(col.last_rejected().reason == net::reject_reason_t::too_many_connections);
  held.close();
  REQUIRE(eventually([&] {
    auto s = make_sample(1000, 600, true);
    return net::send_buffer("127.0.0.1", server.port(), s.header, s.pieces(),
                            quick(1, certs().files("node.n2")))
        .ok;
  }));
}

TEST_CASE("a trickling sender loses its reservation at the frame deadline") {
  buffer::buffer_store_t store(16 * mib);
  collector_t col;
  net::server_options_t o;
  o.frame_timeout = 300ms;
  o.min_rate_bytes_per_s = 1 * mib;  // 1.06 MiB payload: about 1.36 s for the whole frame
  o.io_timeout = 5000ms;             // each trickled piece is well within the io timeout
  net::data_server_t server(store, o, col.on_received(), col.on_rejected());
  auto s = make_sample(10000, 8192, true);
  const auto all = s.joined();
  {
    net::timed_socket_t sock;
    REQUIRE_FALSE(sock.connect("127.0.0.1", server.port(), 2000ms));
    const auto t0 = std::chrono::steady_clock::now();
    CHECK(raw_exchange(sock, frame_bytes(std::nullopt, s.header)).status ==
          net::reply_status_t::ready);
    CHECK(store.stats().accounted == buffer::size_class(s.header.payload_bytes));
    size_t sent = 0;
    while (col.rejected.empty() && std::chrono::steady_clock::now() - t0 < 4s) {
      if (sock.write(boost::asio::buffer(all.data() + sent, 8192), 1000ms)) break;
      sent += 8192;
      std::this_thread::sleep_for(50ms);  // the trickle itself: a slow sender is what is tested
    }
    REQUIRE(col.wait_rejected(1, 3000ms));
    const auto took = std::chrono::steady_clock::now() - t0;
    CHECK(took > 1200ms);
    CHECK(took < 3000ms);
    CHECK(col.last_rejected().reason == net::reject_reason_t::timeout);
    CHECK_MESSAGE(contains(col.last_rejected().message, "frame deadline passed"),
                  col.last_rejected().message);
    check_closed_by_server(sock);
  }
  {  // a header trickled: the frame deadline runs from its first byte
    net::timed_socket_t sock;
    REQUIRE_FALSE(sock.connect("127.0.0.1", server.port(), 2000ms));
    const auto hb = buffer::encode_header(s.header);
    REQUIRE_FALSE(sock.write(boost::asio::buffer(hb.data(), 10), 1000ms));
    REQUIRE(col.wait_rejected(2, 3000ms));
    CHECK(col.last_rejected().reason == net::reject_reason_t::timeout);
    CHECK_MESSAGE(contains(col.last_rejected().message, "after 10 of 128 header bytes"),
                  col.last_rejected().message);
  }
  // The reservation is back in the pool, nothing registered; the next transfer reuses it.
  const auto st = store.stats();
  CHECK(st.registered == 0);
  CHECK(st.pooled == buffer::size_class(s.header.payload_bytes));
  auto r = net::send_buffer("127.0.0.1", server.port(), s.header, s.pieces(), quick(1));
  REQUIRE_MESSAGE(r.ok, r.error);
  check_same(store, r.buffer_id, s);
  CHECK(store.stats().fresh_allocations == 1);
}

TEST_CASE("a TLS server with a key still serves after a run of bad peers") {
  buffer::buffer_store_t store(16 * mib);
  collector_t col;
  const auto key = net::make_transfer_key();
  auto o = tls_server(key);
  o.frame_timeout = 300ms;
  o.min_rate_bytes_per_s = 4 * mib;
  net::data_server_t server(store, o, col.on_received(), col.on_rejected());
  auto s = make_sample(1000, 600, true);
  const auto n2 = certs().files("node.n2");
  net::send_buffer("127.0.0.1", server.port(), s.header, s.pieces(), quick(1));  // plaintext
  net::send_buffer("127.0.0.1", server.port(), s.header, s.pieces(),
                   quick(1, certs().files("client.c1")), ticket_for(key, s.header));
  net::send_buffer("127.0.0.1", server.port(), s.header, s.pieces(), quick(1, n2));  // no ticket
  net::send_buffer("127.0.0.1", server.port(), s.header, s.pieces(), quick(1, n2),
                   ticket_for(net::make_transfer_key(), s.header));  // forged
  REQUIRE(col.wait_rejected(4));
  CHECK(store.stats().accounted == 0);
  auto ok = net::send_buffer("127.0.0.1", server.port(), s.header, s.pieces(), quick(1, n2, "n1"),
                             ticket_for(key, s.header));
  REQUIRE_MESSAGE(ok.ok, ok.error);
  check_same(store, ok.buffer_id, s);
  CHECK(server.claim(ok.buffer_id));
}
