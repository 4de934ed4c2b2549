#include "zk/base/hex.hpp"

#include <stdexcept>

namespace zk {

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::string to_hex(const uint8_t* p, size_t n) {
  static const char digits[] = "0123456789abcdef";
  std::string s(2 * n, '0');
  for (size_t i = 0; i < n; ++i) {
    s[2 * i] = digits[p[i] >> 4];
    s[2 * i + 1] = digits[p[i] & 15];
  }
  return s;
}

bytes32_t parse_hex32(std::string_view hex, std::string_view what) {
  if (hex.size() != 64)
    throw std::invalid_argument(std::string(what) + ": needs 64 hex digits (32 bytes), got " +
                                std::to_string(hex.size()) + " characters");
  bytes32_t out{};
  for (size_t i = 0; i < 32; ++i) {
    const int hi = hex_digit(hex[2 * i]), lo = hex_digit(hex[2 * i + 1]);
    if (hi < 0 || lo < 0)
      throw std::invalid_argument(std::string(what) + ": '" + std::string(hex.substr(2 * i, 2)) +
                                  "' at character " + std::to_string(2 * i) + " is not a hex byte");
    out[i] = uint8_t(hi * 16 + lo);
  }
  return out;
}

}  // namespace zk
