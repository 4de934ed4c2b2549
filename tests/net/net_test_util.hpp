#pragma once
// Helpers of the data-plane tests: sample synth buffers, a collector for the server's callbacks,
// and a TCP proxy that flips one byte of the client→server stream (real corruption on the wire,
// no hook in the code under test). Loopback only; every wait is bounded.
#include <doctest/doctest.h>

#include <array>
#include <atomic>
#include <boost/asio/buffer.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/write.hpp>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <functional>
#include <memory>
#include <mutex>
#include <random>
#include <thread>
#include <vector>

#include "common/buffer/checksum.hpp"
#include "common/buffer/synth_buffer.hpp"
#include "common/net/data_server.hpp"
#include "tests/test_util.hpp"

namespace zk::test {

// A synth buffer of random bytes kept as four separate arrays (witness, a, b, c).
struct sample_buffer_t {
  std::vector<uint8_t> witness, a, b, c;
  buffer::synth_header_t header;

  std::vector<boost::asio::const_buffer> pieces() const {
    std::vector<boost::asio::const_buffer> p{boost::asio::buffer(witness)};
    if (!a.empty())
      p.insert(p.end(), {boost::asio::buffer(a), boost::asio::buffer(b), boost::asio::buffer(c)});
    return p;
  }
  std::vector<uint8_t> joined() const {
    std::vector<uint8_t> all(witness);
    for (auto* v : {&a, &b, &c}) all.insert(all.end(), v->begin(), v->end());
    return all;
  }
};

inline sample_buffer_t make_sample(uint64_t n_vars, uint64_t rows, bool abc, uint64_t job = 42,
                                   uint32_t seed = 1) {
  std::mt19937_64 g(seed);
  auto fill = [&](std::vector<uint8_t>& v, size_t n) {
    v.resize(n);
    for (size_t i = 0; i + 8 <= n; i += 8) {
      const uint64_t x = g();
      std::memcpy(v.data() + i, &x, 8);
    }
  };
  sample_buffer_t s;
  fill(s.witness, n_vars * 32);
  if (abc) {
    fill(s.a, rows * 32);
    fill(s.b, rows * 32);
    fill(s.c, rows * 32);
  }
  buffer::synth_params_t p;
  p.curve = curve_id_t::bn254;
  p.circuit_digest.fill(0xcd);
  p.job_id = job;
  p.partition = 1;
  p.n_vars = n_vars;
  p.n_public = 1;
  p.domain_rows = rows;
  p.shape = abc ? buffer::synth_shape_t::abc_witness : buffer::synth_shape_t::witness_only;
  std::vector<buffer::byte_span_t> spans{{s.witness.data(), s.witness.size()}};
  if (abc) {
    for (auto* v : {&s.a, &s.b, &s.c}) spans.push_back({v->data(), v->size()});
  }
  s.header = buffer::make_header(p, spans);
  return s;
}

// Collects the server's callbacks; waits are bounded.
// The received buffer, byte for byte, equals what was sent.
inline void check_same(buffer::buffer_store_t& store, uint64_t id, const test::sample_buffer_t& s) {
  auto ref = store.find(id);
  REQUIRE(ref.has_value());
  const auto want = s.joined();
  REQUIRE(ref->size() == want.size());
  CHECK(std::memcmp(ref->data(), want.data(), want.size()) == 0);
  CHECK(buffer::xxh64(ref->data(), ref->size()) == s.header.payload_checksum);
  CHECK(ref->header().job_id == s.header.job_id);
}

struct collector_t {
  std::mutex mu;
  std::condition_variable cv;
  std::vector<net::received_t> received;
  std::vector<net::rejected_t> rejected;

  net::data_server_t::on_received_t on_received() {
    return [this](const net::received_t& r) {
      std::lock_guard<std::mutex> g(mu);
      received.push_back(r);
      cv.notify_all();
    };
  }
  net::data_server_t::on_rejected_t on_rejected() {
    return [this](const net::rejected_t& r) {
      std::lock_guard<std::mutex> g(mu);
      rejected.push_back(r);
      cv.notify_all();
    };
  }
  bool wait_rejected(size_t n, std::chrono::milliseconds t = std::chrono::milliseconds(5000)) {
    std::unique_lock<std::mutex> g(mu);
    return cv.wait_for(g, t, [&] { return rejected.size() >= n; });
  }
  bool wait_received(size_t n, std::chrono::milliseconds t = std::chrono::milliseconds(5000)) {
    std::unique_lock<std::mutex> g(mu);
    return cv.wait_for(g, t, [&] { return received.size() >= n; });
  }
  net::rejected_t last_rejected() {
    std::lock_guard<std::mutex> g(mu);
    return rejected.back();
  }
};

// Forwards 127.0.0.1:port() to 127.0.0.1:upstream, flipping bit 0x01 of the byte at flip_offset
// of the client→server stream of the first connection only.
class corrupting_proxy_t {
 public:
  corrupting_proxy_t(uint16_t upstream, uint64_t flip_offset)
      : upstream_(upstream),
        flip_offset_(flip_offset),
        acceptor_(io_,
                  boost::asio::ip::tcp::endpoint(boost::asio::ip::make_address("127.0.0.1"), 0)) {
    accept();
    thread_ = std::thread([this] { io_.run(); });
  }
  ~corrupting_proxy_t() {
    io_.stop();
    thread_.join();
  }
  uint16_t port() const { return acceptor_.local_endpoint().port(); }
  int flips() const { return flips_.load(); }

 private:
  using tcp = boost::asio::ip::tcp;
  using error_code = boost::system::error_code;
  struct link_t {
    link_t(boost::asio::io_context& io) : client(io), server(io) {}
    tcp::socket client, server;
    void close() {
      error_code e;
      client.close(e);
      server.close(e);
    }
  };

  void accept() {
    acceptor_.async_accept([this](const error_code& ec, tcp::socket s) {
      if (ec) return;
      auto l = std::make_shared<link_t>(io_);
      l->client = std::move(s);
      error_code e;
      l->server.connect(tcp::endpoint(boost::asio::ip::make_address("127.0.0.1"), upstream_), e);
      if (!e) {
        const bool corrupt = connections_++ == 0;
        pump(l, &link_t::client, &link_t::server, corrupt, std::make_shared<uint64_t>(0));
        pump(l, &link_t::server, &link_t::client, false, std::make_shared<uint64_t>(0));
      }
      accept();
    });
  }

  void pump(std::shared_ptr<link_t> l, tcp::socket link_t::*from, tcp::socket link_t::*to,
            bool corrupt, std::shared_ptr<uint64_t> seen) {
    auto buf = std::make_shared<std::array<uint8_t, 65536>>();
    ((*l).*from).async_read_some(boost::asio::buffer(*buf), [=](const error_code& ec, size_t n) {
      if (ec) {
        l->close();
        return;
      }
      if (corrupt && flip_offset_ >= *seen && flip_offset_ < *seen + n) {
        (*buf)[flip_offset_ - *seen] ^= 0x01;
        ++flips_;
      }
      *seen += n;
      boost::asio::async_write((*l).*to, boost::asio::buffer(buf->data(), n),
                               [=](const error_code& ec2, size_t) {
                                 if (ec2) {
                                   l->close();
                                   return;
                                 }
                                 pump(l, from, to, corrupt, seen);
                               });
    });
  }

  uint16_t upstream_;
  uint64_t flip_offset_;
  boost::asio::io_context io_;
  tcp::acceptor acceptor_;
  std::thread thread_;
  int connections_ = 0;
  std::atomic<int> flips_{0};
};

}  // namespace zk::test
