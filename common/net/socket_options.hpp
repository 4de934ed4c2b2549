#pragma once
// The options every TCP connection of the cluster takes (data plane, TLS tunnels): no Nagle
// delay, and TCP keepalive probing an idle connection after 10 s, every 2 s, 3 times, so that a
// peer gone without a FIN (power loss, a partition, a host frozen) is noticed in about 16 s even
// on a connection with nothing in flight (one with data in flight has its operation deadlines).
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>

#include <boost/asio/ip/tcp.hpp>

namespace zk::net {

inline constexpr int keepalive_idle_s = 10, keepalive_interval_s = 2, keepalive_probes = 3;

inline void tune_socket(boost::asio::ip::tcp::socket& s) {
  boost::system::error_code ignored;  // best effort: a socket that refuses still works
  s.set_option(boost::asio::ip::tcp::no_delay(true), ignored);
  s.set_option(boost::asio::socket_base::keep_alive(true), ignored);
  const int fd = s.native_handle();
  ::setsockopt(fd, IPPROTO_TCP, TCP_KEEPIDLE, &keepalive_idle_s, sizeof keepalive_idle_s);
  ::setsockopt(fd, IPPROTO_TCP, TCP_KEEPINTVL, &keepalive_interval_s, sizeof keepalive_interval_s);
  ::setsockopt(fd, IPPROTO_TCP, TCP_KEEPCNT, &keepalive_probes, sizeof keepalive_probes);
}

}  // namespace zk::net
