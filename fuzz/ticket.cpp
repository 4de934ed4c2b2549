// Data-plane transfer ticket (common/net/ticket.hpp): decode_ticket and ticket_valid, what a
// receiver does with the 64 bytes that come before a synth header from any peer.
//
// Input: the 64 ticket bytes, then optional bytes: 32 of a circuit digest (zero when absent).
// Bad input is reported as a value (result_t's error), never thrown: any exception is a bug.
// Properties: an accepted ticket re-encodes to exactly the input bytes; a ticket only validates
// under the key whose MAC it carries (a fixed test key here: random bytes never verify, a ticket
// re-made with that key always does).
#include "common/net/ticket.hpp"

#include <cstdint>
#include <cstring>

#include "fuzz/fuzz_util.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace zk::net;
  if (size < ticket_size) return 0;
  zk::buffer::digest_t digest{};
  if (size >= ticket_size + digest.size()) std::memcpy(digest.data(), data + ticket_size, 32);
  const auto t = decode_ticket(data);
  if (!t) return 0;
  const ticket_bytes_t out = encode_ticket(t.value());
  ZK_FUZZ_CHECK(std::memcmp(out.data(), data, ticket_size) == 0);
  transfer_key_t key{};
  for (size_t i = 0; i < key.size(); ++i) key[i] = uint8_t(i * 7 + 1);
  const bool valid = ticket_valid(key, t.value(), digest);
  const auto remade = make_ticket(key, t->job, t->partition, t->attempt, digest);
  ZK_FUZZ_CHECK(ticket_valid(key, remade, digest));
  ZK_FUZZ_CHECK(valid == (remade.mac == t->mac));
  return 0;
}
