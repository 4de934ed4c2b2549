#include "common/net/frame.hpp"

#include "common/buffer/checksum.hpp"
#include "zk/base/le_bytes.hpp"

namespace zk::net {
namespace {

constexpr size_t checksum_at = 56;

}  // namespace

const char* status_name(reply_status_t s) {
  switch (s) {
    case reply_status_t::ack:
      return "ack";
    case reply_status_t::ready:
      return "ready";
    case reply_status_t::bad_magic:
      return "bad_magic";
    case reply_status_t::bad_version:
      return "bad_version";
    case reply_status_t::bad_header:
      return "bad_header";
    case reply_status_t::bad_length:
      return "bad_length";
    case reply_status_t::bad_checksum:
      return "bad_checksum";
    case reply_status_t::no_space:
      return "no_space";
    case reply_status_t::bad_ticket:
      return "bad_ticket";
  }
  return "unknown";
}

bool is_nack(reply_status_t s) { return s != reply_status_t::ack && s != reply_status_t::ready; }

reply_bytes_t encode_reply(const reply_t& r) {
  reply_bytes_t b{};
  uint8_t* p = b.data();
  le_put<uint32_t>(p, 0, reply_magic);
  le_put<uint16_t>(p, 4, reply_version);
  le_put<uint16_t>(p, 6, static_cast<uint16_t>(r.status));
  le_put<uint64_t>(p, 8, r.job_id);
  le_put<uint32_t>(p, 16, r.partition);
  le_put<uint32_t>(p, 20, r.attempt);
  le_put<uint64_t>(p, 24, r.buffer_id);
  le_put<uint64_t>(p, 32, r.payload_checksum);
  le_put<uint64_t>(p, 40, r.detail);
  le_put<uint64_t>(p, checksum_at, buffer::xxh64(p, checksum_at));
  return b;
}

result_t<reply_t> decode_reply(const uint8_t* p) {
  auto fail = [](std::string what) { return result_t<reply_t>("reply: " + std::move(what)); };
  if (le_get<uint32_t>(p, 0) != reply_magic) return fail("magic is not \"ZKRP\"");
  const auto version = le_get<uint16_t>(p, 4);
  if (version != reply_version)
    return fail("version " + std::to_string(version) + " is not supported (expected " +
                std::to_string(reply_version) + ")");
  if (le_get<uint64_t>(p, checksum_at) != buffer::xxh64(p, checksum_at))
    return fail("checksum mismatch (corrupted reply)");
  const auto status = le_get<uint16_t>(p, 6);
  if (status > static_cast<uint16_t>(reply_status_t::bad_ticket))
    return fail("unknown status " + std::to_string(status));
  // Bytes [48, 56) are reserved (zero in version 2): a reply using them is not one we can read.
  if (const auto reserved = le_get<uint64_t>(p, 48); reserved != 0)
    return fail("reserved bytes 48..55 are not zero (" + std::to_string(reserved) + ")");
  reply_t r;
  r.status = static_cast<reply_status_t>(status);
  r.job_id = le_get<uint64_t>(p, 8);
  r.partition = le_get<uint32_t>(p, 16);
  r.attempt = le_get<uint32_t>(p, 20);
  r.buffer_id = le_get<uint64_t>(p, 24);
  r.payload_checksum = le_get<uint64_t>(p, 32);
  r.detail = le_get<uint64_t>(p, 40);
  return r;
}

reply_status_t status_for(buffer::header_field_t f) {
  using buffer::header_field_t;
  switch (f) {
    case header_field_t::magic:
      return reply_status_t::bad_magic;
    case header_field_t::version:
      return reply_status_t::bad_version;
    case header_field_t::header_size:
    case header_field_t::payload_bytes:
      return reply_status_t::bad_length;
    default:
      return reply_status_t::bad_header;
  }
}

}  // namespace zk::net
