// The control plane's TLS tunnels (common/net/tls_tunnel.hpp) on loopback: bytes through an
// originate → terminate pair to a plain echo backend, and each refusal: a certificate of another
// CA, a terminating end that is not the expected node, a client that never makes its handshake
// (the handshake timeout), and the per-peer connection limit. Every wait is bounded.
#include "common/net/tls_tunnel.hpp"

#include <doctest/doctest.h>

#include <atomic>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/write.hpp>
#include <chrono>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "common/net/timed_socket.hpp"
#include "tests/net/test_certs.hpp"
#include "tests/test_util.hpp"

using namespace zk;
using namespace std::chrono_literals;
using zk::test::certs;
using zk::test::contains;
using zk::test::eventually;

namespace {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;

// A plain TCP echo server on 127.0.0.1: what the terminating end pipes to (CAF's middleman in
// the cluster). One thread, one connection at a time, until destroyed.
class echo_server_t {
 public:
  echo_server_t() : acceptor_(io_, tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0)) {
    thread_ = std::thread([this] {
      for (;;) {
        tcp::socket s(io_);
        boost::system::error_code ec;
        acceptor_.accept(s, ec);
        if (ec || stop_) return;
        char buf[256];
        for (;;) {
          const size_t n = s.read_some(asio::buffer(buf), ec);
          if (ec) break;
          asio::write(s, asio::buffer(buf, n), ec);
          if (ec) break;
        }
      }
    });
  }
  ~echo_server_t() {
    stop_ = true;
    boost::system::error_code ec;
    tcp::socket poke(io_);
    poke.connect(acceptor_.local_endpoint(), ec);  // wakes the accept
    thread_.join();
  }
  uint16_t port() const { return acceptor_.local_endpoint().port(); }

 private:
  asio::io_context io_;
  tcp::acceptor acceptor_;
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

// What a tunnel refused, as its on_refused saw it.
struct refusals_t {
  std::mutex mu;
  std::vector<std::string> why;
  net::tls_tunnel_t::on_refused_t callback() {
    return [this](const std::string& peer, const std::string& w) {
      std::lock_guard<std::mutex> g(mu);
      why.push_back(peer + ": " + w);
    };
  }
  size_t size() {
    std::lock_guard<std::mutex> g(mu);
    return why.size();
  }
  std::string all() {
    std::lock_guard<std::mutex> g(mu);
    std::string s;
    for (const auto& w : why) s += w + "\n";
    return s;
  }
};

// Sends `text` to 127.0.0.1:port in plaintext and reads as many bytes back: what came back, or
// "" when the connection closed or 5 s passed first.
std::string exchange(uint16_t port, const std::string& text) {
  net::timed_socket_t s;
  if (s.connect("127.0.0.1", port, 5s)) return "";
  if (s.write(asio::buffer(text), 5s)) return "";
  std::string back(text.size(), '\0');
  if (s.read(asio::buffer(back), 5s)) return "";
  return back;
}

}  // namespace

TEST_CASE("TLS tunnel: bytes through originate and terminate, in both directions") {
  echo_server_t echo;
  refusals_t term_refused, orig_refused;
  auto term = net::tls_tunnel_t::terminate("127.0.0.1", 0, echo.port(), certs().files("node.n1"),
                                           term_refused.callback());
  REQUIRE(term->port() != 0);
  // A node and a client certificate of the CA may both connect; the terminating end must be n1.
  for (const char* leaf : {"node.n2", "client.c1"}) {
    CAPTURE(leaf);
    auto orig = net::tls_tunnel_t::originate("127.0.0.1", term->port(), certs().files(leaf), "n1",
                                             orig_refused.callback());
    const std::string text = std::string("hello through the tunnel from ") + leaf;
    CHECK(exchange(orig->port(), text) == text);
    // The originating end takes one connection only: its port closes after the first.
    CHECK(exchange(orig->port(), "again").empty());
    orig->stop();
    orig->stop();  // idempotent
  }
  CHECK_MESSAGE(term_refused.size() == 0, term_refused.all());
  CHECK_MESSAGE(orig_refused.size() == 0, orig_refused.all());
}

TEST_CASE("TLS tunnel: another CA's certificate and the wrong terminating node are refused") {
  echo_server_t echo;
  refusals_t term_refused;
  auto term = net::tls_tunnel_t::terminate("127.0.0.1", 0, echo.port(), certs().files("node.n1"),
                                           term_refused.callback());
  {  // A node certificate of another CA: the terminating end refuses it, nothing reaches the echo.
    refusals_t orig_refused;
    auto orig = net::tls_tunnel_t::originate("127.0.0.1", term->port(),
                                             certs().files("other.node.n1", "other-ca"), "n1",
                                             orig_refused.callback());
    CHECK(exchange(orig->port(), "forged").empty());
    REQUIRE(eventually([&] { return term_refused.size() + orig_refused.size() > 0; }, 10s));
  }
  {  // The right CA, but the terminating end is n1, not the n9 this side expects.
    refusals_t orig_refused;
    auto orig = net::tls_tunnel_t::originate("127.0.0.1", term->port(), certs().files("node.n2"),
                                             "n9", orig_refused.callback());
    CHECK(exchange(orig->port(), "to n9").empty());
    REQUIRE(eventually([&] { return orig_refused.size() > 0; }, 10s));
    CHECK_MESSAGE(contains(orig_refused.all(), "n9"), orig_refused.all());
  }
}

TEST_CASE("TLS tunnel: a silent client is dropped after the handshake timeout, per-peer limit") {
  echo_server_t echo;
  refusals_t refused;
  net::tunnel_options_t o;
  o.handshake_timeout = 300ms;
  o.max_per_peer = 1;
  auto term = net::tls_tunnel_t::terminate("127.0.0.1", 0, echo.port(), certs().files("node.n1"),
                                           refused.callback(), o);
  asio::io_context io;
  const tcp::endpoint at(asio::ip::make_address("127.0.0.1"), term->port());
  tcp::socket silent(io), second(io);
  silent.connect(at);
  second.connect(at);  // over max_per_peer (1): closed at accept
  char b = 0;
  boost::system::error_code ec;
  const auto t0 = std::chrono::steady_clock::now();
  asio::read(second, asio::buffer(&b, 1), ec);
  CHECK(ec);  // closed, nothing sent
  // The silent one: closed once the handshake timeout passed (well within 5 s), and reported.
  asio::read(silent, asio::buffer(&b, 1), ec);
  CHECK(ec);
  CHECK(std::chrono::steady_clock::now() - t0 < 5s);
  REQUIRE(eventually([&] { return refused.size() > 0; }, 10s));
}
