#include "common/net/ticket.hpp"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>

#include <stdexcept>

#include "zk/base/hex.hpp"
#include "zk/base/le_bytes.hpp"

namespace zk::net {
namespace {}  // namespace

transfer_key_t make_transfer_key() {
  transfer_key_t key{};
  if (RAND_bytes(key.data(), static_cast<int>(key.size())) != 1)
    throw std::runtime_error("data plane: RAND_bytes failed to make a transfer key");
  return key;
}

std::string transfer_key_hex(const transfer_key_t& key) { return to_hex(key.data(), key.size()); }

std::optional<transfer_key_t> transfer_key_from_hex(std::string_view hex) {
  transfer_key_t key{};
  if (hex.size() != key.size() * 2) return std::nullopt;
  auto nibble = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  for (size_t i = 0; i < key.size(); ++i) {
    const int hi = nibble(hex[2 * i]), lo = nibble(hex[2 * i + 1]);
    if (hi < 0 || lo < 0) return std::nullopt;
    key[i] = static_cast<uint8_t>(hi << 4 | lo);
  }
  return key;
}

ticket_mac_t ticket_mac(const transfer_key_t& key, uint64_t job, uint32_t partition,
                        uint32_t attempt, const buffer::digest_t& circuit_digest) {
  constexpr size_t label = ticket_mac_label.size();
  std::array<uint8_t, label + 8 + 4 + 4 + 32> msg{};
  for (size_t i = 0; i < label; ++i) msg[i] = static_cast<uint8_t>(ticket_mac_label[i]);
  le_put<uint64_t>(msg.data(), label, job);
  le_put<uint32_t>(msg.data(), label + 8, partition);
  le_put<uint32_t>(msg.data(), label + 12, attempt);
  for (size_t i = 0; i < circuit_digest.size(); ++i) msg[label + 16 + i] = circuit_digest[i];
  ticket_mac_t mac{};
  unsigned int len = 0;
  if (HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()), msg.data(), msg.size(),
           mac.data(), &len) == nullptr ||
      len != mac.size())
    throw std::runtime_error("data plane: HMAC-SHA256 of a transfer ticket failed");
  return mac;
}

transfer_ticket_t make_ticket(const transfer_key_t& key, uint64_t job, uint32_t partition,
                              uint32_t attempt, const buffer::digest_t& circuit_digest) {
  return {job, partition, attempt, ticket_mac(key, job, partition, attempt, circuit_digest)};
}

ticket_bytes_t encode_ticket(const transfer_ticket_t& t) {
  ticket_bytes_t b{};
  uint8_t* p = b.data();
  le_put<uint32_t>(p, 0, ticket_magic);
  le_put<uint16_t>(p, 4, ticket_version);
  le_put<uint64_t>(p, 8, t.job);
  le_put<uint32_t>(p, 16, t.partition);
  le_put<uint32_t>(p, 20, t.attempt);
  for (size_t i = 0; i < t.mac.size(); ++i) p[24 + i] = t.mac[i];
  return b;
}

result_t<transfer_ticket_t> decode_ticket(const uint8_t* p) {
  auto fail = [](std::string what) {
    return result_t<transfer_ticket_t>("transfer ticket: " + std::move(what));
  };
  if (le_get<uint32_t>(p, 0) != ticket_magic) return fail("magic is not \"ZKTT\"");
  const auto version = le_get<uint16_t>(p, 4);
  if (version != ticket_version)
    return fail("version " + std::to_string(version) + " is not supported (expected 1)");
  if (le_get<uint16_t>(p, 6) != 0 || le_get<uint64_t>(p, 56) != 0)
    return fail("reserved fields are not zero");
  transfer_ticket_t t;
  t.job = le_get<uint64_t>(p, 8);
  t.partition = le_get<uint32_t>(p, 16);
  t.attempt = le_get<uint32_t>(p, 20);
  for (size_t i = 0; i < t.mac.size(); ++i) t.mac[i] = p[24 + i];
  return t;
}

bool ticket_valid(const transfer_key_t& key, const transfer_ticket_t& ticket,
                  const buffer::digest_t& header_digest) {
  const ticket_mac_t want =
      ticket_mac(key, ticket.job, ticket.partition, ticket.attempt, header_digest);
  return CRYPTO_memcmp(want.data(), ticket.mac.data(), want.size()) == 0;
}

}  // namespace zk::net
