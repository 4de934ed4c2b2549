#include "common/net/networks.hpp"

#include <boost/asio/ip/address.hpp>

namespace zk::net {

namespace ip = boost::asio::ip;

namespace {

// An address's bytes: IPv4 in the first 4 (IPv4-mapped IPv6 too), else the 16 of IPv6.
std::optional<ip::address> address_of(std::string_view text) {
  boost::system::error_code ec;
  ip::address a = ip::make_address(std::string(text), ec);
  if (ec) return std::nullopt;
  if (a.is_v6() && a.to_v6().is_v4_mapped()) a = ip::make_address_v4(ip::v4_mapped, a.to_v6());
  return a;
}

void bytes_of(const ip::address& a, unsigned char out[16]) {
  if (a.is_v4()) {
    const auto b = a.to_v4().to_bytes();
    std::copy(b.begin(), b.end(), out);
  } else {
    const auto b = a.to_v6().to_bytes();
    std::copy(b.begin(), b.end(), out);
  }
}

bool bit(const unsigned char* b, unsigned i) { return (b[i / 8] >> (7 - i % 8)) & 1; }

}  // namespace

std::optional<network_t> parse_network(std::string_view text) {
  network_t n;
  n.text = std::string(text);
  const auto slash = text.find('/');
  auto a = address_of(text.substr(0, slash));
  if (!a) return std::nullopt;
  n.v6 = a->is_v6();
  const unsigned bits = n.v6 ? 128 : 32;
  n.prefix = bits;
  if (slash != std::string_view::npos) {
    const std::string_view p = text.substr(slash + 1);
    if (p.empty() || p.size() > 3 || p.find_first_not_of("0123456789") != std::string_view::npos)
      return std::nullopt;
    n.prefix = unsigned(std::stoul(std::string(p)));
    if (n.prefix > bits) return std::nullopt;
  }
  bytes_of(*a, n.bytes);
  for (unsigned i = n.prefix; i < bits; ++i)
    if (bit(n.bytes, i)) return std::nullopt;  // "10.1.2.3/16": say which network is meant
  return n;
}

bool in_network(const network_t& n, std::string_view address) {
  auto a = address_of(address);
  if (!a || a->is_v6() != n.v6) return false;
  unsigned char b[16] = {};
  bytes_of(*a, b);
  for (unsigned i = 0; i < n.prefix; ++i)
    if (bit(b, i) != bit(n.bytes, i)) return false;
  return true;
}

bool in_networks(const std::vector<network_t>& ns, std::string_view address) {
  for (const auto& n : ns)
    if (in_network(n, address)) return true;
  return false;
}

bool is_loopback_host(std::string_view host) {
  if (host == "localhost") return true;
  auto a = address_of(host);
  return a && a->is_loopback();
}

}  // namespace zk::net
