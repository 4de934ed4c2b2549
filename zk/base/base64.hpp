#pragma once
// Standard base64 (RFC 4648 §4, padded): how Go's encoding/json writes a []byte (the C1 wrapper of
// lotus-bench, Curio and cuzk).
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace zk {

std::string base64_encode(const uint8_t* p, size_t n);
// std::nullopt when the text is not canonical padded standard base64.
std::optional<std::string> base64_decode(std::string_view s);

// The same decoding a piece at a time (a C1 of ~200 MB in Go's wrapper, decoded straight into a
// file as it arrives): feed() the text in pieces of any size, finish() at its end.
class base64_decoder_t {
 public:
  // Appends what `s` decodes to `out`; false once the text is not canonical padded base64 (from
  // then on every call is false; position() is the offending byte).
  bool feed(std::string_view s, std::string& out);
  // Whether the whole text was canonical padded base64 (it did not end inside a group of four).
  bool finish() const { return ok_ && n_ == 0; }
  uint64_t position() const { return pos_; }  // the text's bytes taken

 private:
  uint32_t v_[4] = {};
  int n_ = 0, pad_ = 0;
  bool ok_ = true, ended_ = false;  // ended_: a padded group came (nothing may follow it)
  uint64_t pos_ = 0;
};

}  // namespace zk
