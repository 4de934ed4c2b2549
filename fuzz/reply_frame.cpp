// Data-plane reply frame (common/net/frame.hpp): decode_reply, what a sender does with the 64
// bytes a receiver answers.
//
// Input: the 64 reply bytes, then optional byte 64: bit 0 set = reseal (write the correct
// reply_checksum first, so the fuzzer reaches the checks behind it).
// Bad input is reported as a value (result_t's error), never thrown: any exception is a bug.
// Properties: an accepted reply has a known status and re-encodes to exactly the input bytes (the
// decoder accepts nothing the encoder cannot produce: reserved bytes included).
#include <cstdint>
#include <cstring>

#include "common/buffer/checksum.hpp"
#include "common/net/frame.hpp"
#include "fuzz/fuzz_util.hpp"
#include "zk/base/le_bytes.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace zk::net;
  if (size < reply_size) return 0;
  reply_bytes_t in;
  std::memcpy(in.data(), data, reply_size);
  if (size > reply_size && (data[reply_size] & 1) != 0)
    zk::le_put<uint64_t>(in.data(), 56, zk::buffer::xxh64(in.data(), 56));

  const auto r = decode_reply(in.data());
  if (!r) {
    ZK_FUZZ_CHECK(r.error().rfind("reply: ", 0) == 0);
    return 0;
  }
  ZK_FUZZ_CHECK(std::string(status_name(r->status)) != "unknown");
  (void)is_nack(r->status);
  const reply_bytes_t out = encode_reply(r.value());
  ZK_FUZZ_CHECK(out == in);
  return 0;
}
