#pragma once
// The C1 of a SubmitProofRequest as it streams in (grpcapi reads vanilla_proof straight off
// gRPC's slices): Go's wrapper, {"SectorNum": n, "Phase1Out": "<base64 of the C1 JSON>",
// "SectorSize": bytes} as Curio's json.Marshal writes it, has its Phase1Out decoded a piece at a
// time and handed on (the C1 JSON itself: what the upload store keeps, as the HTTP API's upload of
// a C1), SectorNum and SectorSize kept; nothing of it is held whole. A vanilla_proof that is a
// C1's JSON itself (not the wrapper) is handed on as it came (the intake's C1 reader checks it).
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "zk/base/base64.hpp"
#include "zk/base/result.hpp"

namespace zk::node::cuzk {

class c1_stream_t {
 public:
  // Where the C1 goes, a piece at a time; its refusal stops the stream.
  using sink_t = std::function<check_t(std::string_view)>;
  explicit c1_stream_t(sink_t sink) : sink_(std::move(sink)) {}
  // The next bytes of vanilla_proof; the refusal names the byte ("vanilla_proof: byte 12: …").
  check_t feed(std::string_view piece);
  // At its end: the wrapper complete (its Phase1Out given, the object closed).
  check_t finish();
  bool wrapped() const { return mode_ == mode_t::wrapper; }
  // The wrapper's fields, when it gave them.
  std::optional<uint64_t> sector_num, sector_size;

 private:
  enum class mode_t { sniff, wrapper, raw };
  // The wrapper's grammar, one state a token.
  enum class at_t { open, key_or_close, key, colon, value, number, base64, escape, comma, done };
  check_t step(char c);
  check_t refuse(const std::string& why) const;
  check_t flush();  // the decoded bytes so far to the sink

  sink_t sink_;
  mode_t mode_ = mode_t::sniff;
  std::string head_;  // sniff: the bytes before the first key is known
  at_t at_ = at_t::open;
  std::string key_;
  uint64_t number_ = 0;
  unsigned digits_ = 0;
  bool phase1out_ = false;
  base64_decoder_t b64_;
  std::string out_;   // decoded, not yet handed on
  uint64_t pos_ = 0;  // the byte being read
};

}  // namespace zk::node::cuzk
