#include "zk/base/base64.hpp"

namespace zk {

std::string base64_encode(const uint8_t* p, size_t n) {
  static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((n + 2) / 3 * 4);
  size_t i = 0;
  for (; i + 3 <= n; i += 3) {
    const uint32_t v = uint32_t(p[i]) << 16 | uint32_t(p[i + 1]) << 8 | p[i + 2];
    out += alphabet[v >> 18];
    out += alphabet[(v >> 12) & 63];
    out += alphabet[(v >> 6) & 63];
    out += alphabet[v & 63];
  }
  if (n - i == 1) {
    const uint32_t v = uint32_t(p[i]) << 16;
    out += alphabet[v >> 18];
    out += alphabet[(v >> 12) & 63];
    out += "==";
  } else if (n - i == 2) {
    const uint32_t v = uint32_t(p[i]) << 16 | uint32_t(p[i + 1]) << 8;
    out += alphabet[v >> 18];
    out += alphabet[(v >> 12) & 63];
    out += alphabet[(v >> 6) & 63];
    out += '=';
  }
  return out;
}

std::optional<std::string> base64_decode(std::string_view s) {
  auto val = [](char c) -> int {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+') return 62;
    if (c == '/') return 63;
    return -1;
  };
  if (s.size() % 4 != 0) return std::nullopt;
  std::string out;
  out.reserve(s.size() / 4 * 3);
  for (size_t i = 0; i < s.size(); i += 4) {
    const bool last = i + 4 == s.size();
    const int pad = last ? (s[i + 3] == '=') + (s[i + 2] == '=' && s[i + 3] == '=') : 0;
    int v[4];
    for (int k = 0; k < 4 - pad; ++k)
      if ((v[k] = val(s[i + size_t(k)])) < 0) return std::nullopt;
    for (int k = 4 - pad; k < 4; ++k) v[k] = 0;
    const uint32_t w =
        uint32_t(v[0]) << 18 | uint32_t(v[1]) << 12 | uint32_t(v[2]) << 6 | uint32_t(v[3]);
    out += char(w >> 16);
    if (pad < 2) out += char((w >> 8) & 0xff);
    if (pad < 1) out += char(w & 0xff);
    // Canonical: the bits the padding drops are zero.
    if ((pad == 1 && (w & 0xff) != 0) || (pad == 2 && (w & 0xffff) != 0)) return std::nullopt;
  }
  return out;
}

}  // namespace zk
