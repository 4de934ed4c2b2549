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

}  // namespace zk
