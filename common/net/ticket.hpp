#pragma once
// Transfer tickets of the data plane (common/net/README.md "Transfer tickets"): a receiver takes a
// buffer only for a transfer the scheduler dispatched to it.
//
// Each receiver makes a random 32-byte transfer key at start-up (make_transfer_key) and gives it
// to the scheduler over the (TLS) control plane when it joins. For every dispatch the scheduler
// computes
//
//   mac = HMAC-SHA256(key, "zkfleet transfer v1" || job u64 LE || partition u32 LE ||
//                          attempt u32 LE || circuit_digest[32])
//
// and hands {job, partition, attempt, mac} to the sender, which writes it as a 64-byte ticket frame
// right before the synth header:
//
//   off size field
//     0   4 magic      "ZKTT" (read as a little-endian u32, like the other frames)
//     4   2 version    1
//     6   2 reserved   zero
//     8   8 job
//    16   4 partition
//    20   4 attempt    the scheduler's attempt number of this (job, partition)
//    24  32 mac
//    56   8 reserved   zero
//
// The receiver checks the MAC against the header's circuit digest and the ticket's job/partition
// against the header's (ticket_valid plus the equality checks in data_server.cpp), so a ticket
// cannot be replayed for another job, partition, attempt or circuit, nor made without the key.
// No state, no threads: plain functions.
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "common/buffer/synth_buffer.hpp"
#include "zk/base/result.hpp"

namespace zk::net {

inline constexpr uint32_t ticket_magic = 0x54544b5a;  // "ZKTT" read as a little-endian u32
inline constexpr uint16_t ticket_version = 1;
inline constexpr size_t ticket_size = 64;
// The MAC's domain separation prefix (19 bytes, no terminator).
inline constexpr std::string_view ticket_mac_label = "zkfleet transfer v1";

using transfer_key_t = std::array<uint8_t, 32>;
using ticket_mac_t = std::array<uint8_t, 32>;
using ticket_bytes_t = std::array<uint8_t, ticket_size>;

struct transfer_ticket_t {
  uint64_t job = 0;
  uint32_t partition = 0;
  uint32_t attempt = 0;
  ticket_mac_t mac{};
};

// 32 bytes of OpenSSL's RAND_bytes; throws std::runtime_error when the generator fails.
transfer_key_t make_transfer_key();
// Lowercase hex (64 characters) and back (nullopt unless exactly 64 hex digits): for configs,
// logs and messages that carry the key as text.
std::string transfer_key_hex(const transfer_key_t& key);
std::optional<transfer_key_t> transfer_key_from_hex(std::string_view hex);

// The scheduler's side: the MAC of one dispatched transfer, and the whole ticket.
ticket_mac_t ticket_mac(const transfer_key_t& key, uint64_t job, uint32_t partition,
                        uint32_t attempt, const buffer::digest_t& circuit_digest);
transfer_ticket_t make_ticket(const transfer_key_t& key, uint64_t job, uint32_t partition,
                              uint32_t attempt, const buffer::digest_t& circuit_digest);

ticket_bytes_t encode_ticket(const transfer_ticket_t& t);
// The ticket, or the reason ("transfer ticket: ...") when magic, version or a reserved field is
// wrong. The MAC is not checked here (ticket_valid does).
result_t<transfer_ticket_t> decode_ticket(const uint8_t* bytes);

// The receiver's side: the ticket's MAC was made with this key for the ticket's job, partition and
// attempt and for header_digest (compared in constant time). The caller also checks that the
// ticket's job and partition are the header's.
bool ticket_valid(const transfer_key_t& key, const transfer_ticket_t& ticket,
                  const buffer::digest_t& header_digest);

}  // namespace zk::net
