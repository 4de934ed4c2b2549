#pragma once
// Frames of the data plane (common/net/README.md has the whole protocol). A transfer is
//
//   sender                                   receiver
//   [── ticket (64 B, ticket.hpp) ──▶]  required when the receiver has a transfer key
//   ── synth header (128 B, buffer/synth_buffer.hpp) ─▶  validate; check the ticket; reserve
//   ◀─ reply READY ─────────────────── or NACK(reason) and close,
//                                       or ACK(buffer id) of a duplicate: done, no payload
//   ── payload (payload_bytes, from the arrays) ──▶  read into the reserved buffer, XXH64
//   ◀─ reply ACK(buffer id) ─────────── or NACK(bad_checksum): connection kept, sender re-sends
//
// The data frame's header is the synth header: its magic, version, payload length and payload
// checksum are the frame's (plus a checksum over the header itself). The reply is a fixed 64-byte
// frame:
//
//   off size field
//     0   4 magic            "ZKRP"
//     4   2 version          2
//     6   2 status           reply_status_t
//     8   8 job_id           echoed from the header (0 when the header could not be read)
//    16   4 partition        echoed
//    20   4 attempt          echoed from the ticket (0 without one)
//    24   8 buffer_id        ACK: the id under which the receiver's store holds the buffer
//    32   8 payload_checksum echoed
//    40   8 detail           NACK no_space: the bytes that did not fit; ACK: 1 when the frame was
//                            a duplicate of a buffer the receiver already committed; else 0
//    48   8 reserved         zero
//    56   8 reply_checksum   XXH64 of bytes [0, 56)
//
// Version 2 (from 1): the attempt echo, the status bad_ticket, and ACK answering a header.
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "common/buffer/synth_buffer.hpp"
#include "zk/base/result.hpp"

namespace zk::net {

inline constexpr uint32_t reply_magic = 0x50524b5a;  // "ZKRP" read as a little-endian u32
inline constexpr uint16_t reply_version = 2;
inline constexpr size_t reply_size = 64;

enum class reply_status_t : uint16_t {
  ack = 0,           // payload stored, checksum verified
  ready = 1,         // header accepted, space reserved: send the payload
  bad_magic = 2,     // not a synth header (wrong protocol)
  bad_version = 3,   // synth header version this receiver does not speak
  bad_header = 4,    // a header field is invalid or the header checksum fails (corruption)
  bad_length = 5,    // payload length inconsistent with the counts, or over the receiver's limit
  bad_checksum = 6,  // payload checksum mismatch (corruption in transit)
  no_space = 7,      // the receiver's buffer store budget cannot hold the payload now
  bad_ticket = 8,    // transfer ticket missing, malformed, forged or not for this header
};
// ACK detail: the frame repeated a (job, partition, attempt) already committed; nothing stored.
inline constexpr uint64_t ack_duplicate = 1;
const char* status_name(reply_status_t s);
bool is_nack(reply_status_t s);

struct reply_t {
  reply_status_t status = reply_status_t::ack;
  uint64_t job_id = 0;
  uint32_t partition = 0;
  uint32_t attempt = 0;
  uint64_t buffer_id = 0;
  uint64_t payload_checksum = 0;
  uint64_t detail = 0;
};

using reply_bytes_t = std::array<uint8_t, reply_size>;
reply_bytes_t encode_reply(const reply_t& r);
// The reply, or the reason when magic, version, status or checksum is wrong.
result_t<reply_t> decode_reply(const uint8_t* bytes);

// The NACK a header validation error earns.
reply_status_t status_for(buffer::header_field_t f);

}  // namespace zk::net
