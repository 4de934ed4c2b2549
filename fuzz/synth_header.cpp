// Synth buffer header (common/buffer/synth_buffer.hpp): decode_header + validate_header, the
// first thing a receiver does with 128 bytes off the network, then payload_layout and the NACK
// status the data plane would answer (net::status_for).
//
// Input: the 128 header bytes, then optional control bytes: byte 128 bit 0 set = reseal (write the
// correct header_checksum before validating, so the fuzzer reaches the checks behind the
// checksum); bytes 129..136 = the receiver's max_payload_bytes (LE; absent: no limit).
// Bad input is reported as a value (header_error_t), never thrown: any exception is a bug.
// Properties: decode → encode is the identity on the bytes; a valid header's counts are in range
// and its payload_layout ends at payload_bytes, within max_payload_bytes.
#include <cstdint>
#include <cstring>

#include "common/buffer/synth_buffer.hpp"
#include "common/net/frame.hpp"
#include "fuzz/fuzz_util.hpp"
#include "zk/base/le_bytes.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace zk::buffer;
  if (size < synth_header_size) return 0;
  synth_header_t h = decode_header(data);
  const header_bytes_t again = encode_header(h);
  ZK_FUZZ_CHECK(std::memcmp(again.data(), data, synth_header_size) == 0);

  const bool reseal = size > synth_header_size && (data[synth_header_size] & 1) != 0;
  uint64_t max_payload = UINT64_MAX;
  if (size >= synth_header_size + 9) max_payload = zk::le_get<uint64_t>(data, 129);
  if (reseal) h.header_checksum = compute_header_checksum(h);

  const auto err = validate_header(h, max_payload);
  if (err) {
    ZK_FUZZ_CHECK(!err->message.empty());
    ZK_FUZZ_CHECK(err->message.find(field_name(err->field)) != std::string::npos);
    (void)zk::net::status_for(err->field);
    return 0;
  }
  ZK_FUZZ_CHECK(h.header_checksum == compute_header_checksum(h));
  ZK_FUZZ_CHECK(h.n_vars >= 1 && h.n_vars <= max_count);
  ZK_FUZZ_CHECK(h.n_public < h.n_vars);
  ZK_FUZZ_CHECK(h.domain_rows > h.n_public && h.domain_rows <= max_count);
  ZK_FUZZ_CHECK(h.payload_bytes <= max_payload);
  ZK_FUZZ_CHECK(h.payload_bytes == payload_bytes_for(h.n_vars, h.domain_rows, h.shape()));
  const payload_layout_t l = payload_layout(h);
  ZK_FUZZ_CHECK(l.witness == 0 && l.a == h.n_vars * fr_bytes);
  ZK_FUZZ_CHECK(l.a <= l.b && l.b <= l.c && l.c <= l.end);
  ZK_FUZZ_CHECK(l.end == h.payload_bytes);
  return 0;
}
