#pragma once
// Bytes as lowercase hex digits, in the order they are stored (the order of the C1 JSON, of a
// digest, of a chain's ids), and back.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "zk/base/bytes.hpp"

namespace zk {

std::string to_hex(const uint8_t* p, size_t n);
inline std::string to_hex(const bytes32_t& b) { return to_hex(b.data(), b.size()); }

// 64 hex digits (either case) → 32 bytes; std::invalid_argument naming `what`, the length or the
// first character pair that is not a hex byte otherwise.
bytes32_t parse_hex32(std::string_view hex, std::string_view what);

// The value of one hex digit, −1 for anything else.
int hex_digit(char c);

}  // namespace zk
