#pragma once
// Where a node's buffers are reached: over the data plane at "tcp:host:port", or in this
// process at "local:<node>" (an embedded cluster, or a node with both roles: the prover pins
// the synthesizer's buffer in place). Messages carry the text form; this is its one parser and
// its one printer.
#include <cstdint>
#include <optional>
#include <string>

namespace zk::net {

struct data_endpoint_t {
  std::string host;   // tcp: an address or a name (IPv6 without brackets)
  uint16_t port = 0;  // tcp: 0 asks a listener for an ephemeral port
  std::string node;   // local: the node whose store it is (empty for tcp)

  static data_endpoint_t tcp(std::string host, uint16_t port) {
    return {std::move(host), port, {}};
  }
  static data_endpoint_t local(std::string node) { return {{}, 0, std::move(node)}; }
  bool is_tcp() const { return node.empty(); }

  std::string str() const {
    if (!is_tcp()) return "local:" + node;
    const bool v6 = host.find(':') != std::string::npos;
    return "tcp:" + (v6 ? "[" + host + "]" : host) + ":" + std::to_string(port);
  }

  // "tcp:host:port" ([v6]:port accepted) or "local:name"; nullopt for anything else.
  static std::optional<data_endpoint_t> parse(const std::string& text) {
    if (text.rfind("local:", 0) == 0 && text.size() > 6) return local(text.substr(6));
    if (text.rfind("tcp:", 0) != 0) return std::nullopt;
    const auto colon = text.rfind(':');
    if (colon <= 4 || colon + 1 == text.size()) return std::nullopt;
    unsigned long port = 0;
    for (size_t i = colon + 1; i < text.size(); ++i) {
      if (text[i] < '0' || text[i] > '9') return std::nullopt;
      port = port * 10 + unsigned(text[i] - '0');
      if (port > 65535) return std::nullopt;
    }
    std::string host = text.substr(4, colon - 4);
    if (host.size() > 2 && host.front() == '[' && host.back() == ']')
      host = host.substr(1, host.size() - 2);
    return tcp(std::move(host), uint16_t(port));
  }
};

}  // namespace zk::net
