#pragma once
// Networks written as CIDR ("10.1.0.0/16", "fd00::/8", or one address) and whether an address is
// in one: the networks a plaintext listener takes peers from (scheduler.grpc_insecure_networks,
// read by common/config and checked per call by the gRPC face), and what counts as loopback.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace zk::net {

struct network_t {
  std::string text;  // as written, for messages
  bool v6 = false;
  unsigned char bytes[16] = {};  // the network's address, its first 4 for IPv4
  unsigned prefix = 0;           // bits
};

// The network of `text` (an address alone is a /32 or /128), or nullopt when it is not one (a
// host name, a prefix past the address's bits, bits set past the prefix).
std::optional<network_t> parse_network(std::string_view text);
// Whether `address` (a literal IPv4 or IPv6 address; an IPv4-mapped IPv6 one counts as IPv4) is in
// `n`. A name is in none.
bool in_network(const network_t& n, std::string_view address);
bool in_networks(const std::vector<network_t>& ns, std::string_view address);
// 127.0.0.0/8, ::1, "localhost": what only this host reaches.
bool is_loopback_host(std::string_view host);

}  // namespace zk::net
