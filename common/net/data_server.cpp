// The data server: its acceptor (connection limits), start and stop (data_server_core.hpp lists
// the other files).
#include "common/net/data_server.hpp"

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

const char* reject_reason_name(reject_reason_t r) {
  switch (r) {
    case reject_reason_t::bad_magic:
      return "bad_magic";
    case reject_reason_t::bad_version:
      return "bad_version";
    case reject_reason_t::bad_header:
      return "bad_header";
    case reject_reason_t::bad_length:
      return "bad_length";
    case reject_reason_t::bad_checksum:
      return "bad_checksum";
    case reject_reason_t::no_space:
      return "no_space";
    case reject_reason_t::truncated:
      return "truncated";
    case reject_reason_t::timeout:
      return "timeout";
    case reject_reason_t::io_error:
      return "io_error";
    case reject_reason_t::bad_ticket:
      return "bad_ticket";
    case reject_reason_t::too_many_connections:
      return "too_many_connections";
    case reject_reason_t::tls:
      return "tls";
  }
  return "?";
}

void data_server_t::core_t::reject(reject_reason_t why, const std::string& peer,
                                   const std::string& what) {
  {
    std::lock_guard<std::mutex> g(mu);
    ++stats.rejected;
    ++stats.rejected_by_reason[static_cast<size_t>(why)];
  }
  rejected_t r{why, peer, peer + ": " + what};
  if (on_rejected) {
    on_rejected(r);
  } else {  // docs/design.md "Errors": rejected and logged
    log::warn(std::string("data plane: rejected (") + reject_reason_name(why) + "): " + r.message);
  }
}

void data_server_t::core_t::accept() {
  acceptor.async_accept(asio::make_strand(io), [this](const error_code& ec, tcp::socket socket) {
    if (stopped.load() || !acceptor.is_open()) return;
    if (ec) {
      // Out of descriptors or memory: try again shortly instead of spinning on the error.
      accept_retry.expires_after(std::chrono::milliseconds(50));
      accept_retry.async_wait([this](const error_code&) { accept(); });
      return;
    }
    error_code pe;
    const auto ep = socket.remote_endpoint(pe);
    const std::string ip = pe ? std::string("unknown") : ep.address().to_string();
    const std::string peer =
        pe ? std::string("unknown peer") : ip + ":" + std::to_string(ep.port());
    std::string over;
    {
      std::lock_guard<std::mutex> g(mu);
      if (stopped.load()) return;  // stop() took its snapshot: this one would be missed
      if (active >= options.max_connections) {
        over = std::to_string(active) + " connections open (max_connections " +
               std::to_string(options.max_connections) + ")";
      } else if (per_peer[ip] >= options.max_connections_per_peer) {
        over = std::to_string(per_peer[ip]) + " connections open from " + ip +
               " (max_connections_per_peer " + std::to_string(options.max_connections_per_peer) +
               ")";
      } else {
        ++active;
        ++per_peer[ip];
        ++stats.connections;
      }
      if (!over.empty() && per_peer[ip] == 0) per_peer.erase(ip);
    }
    if (!over.empty()) {  // closed before anything is read (and before any TLS)
      error_code ignored;
      socket.close(ignored);
      reject(reject_reason_t::too_many_connections, peer, "connection refused: " + over);
      accept();
      return;
    }
    std::shared_ptr<session_base_t> session = start_session(this, std::move(socket), ip);
    {
      std::lock_guard<std::mutex> g(mu);
      sessions.erase(
          std::remove_if(sessions.begin(), sessions.end(), [](auto& w) { return w.expired(); }),
          sessions.end());
      if (!stopped.load()) {
        sessions.push_back(session);
      } else {
        session->shutdown();  // stop() took its snapshot already
      }
    }
    accept();
  });
}

data_server_t::data_server_t(buffer::buffer_store_t& store, server_options_t options,
                             on_received_t on_received, on_rejected_t on_rejected)
    : core_(std::make_shared<core_t>(store, std::move(options), std::move(on_received),
                                     std::move(on_rejected))) {
  auto& c = *core_;
  if (c.options.tls.enabled()) c.tls = make_tls_context(c.options.tls, tls_side_t::server);
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
  asio::post(c.sweep_timer.get_executor(), [&c] { c.start_sweeps(); });
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
bool data_server_t::tls() const { return core_->tls != nullptr; }

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
  asio::post(c.sweep_timer.get_executor(), [&c] { c.sweep_timer.cancel(); });
  for (auto& w : sessions) {
    if (auto s = w.lock()) s->shutdown();
  }
  for (auto& t : c.threads) t.join();
  c.threads.clear();
}

server_stats_t data_server_t::stats() const {
  std::lock_guard<std::mutex> g(core_->mu);
  auto s = core_->stats;
  s.unclaimed = core_->unclaimed.size();
  s.open = core_->active;
  return s;
}

}  // namespace zk::net
