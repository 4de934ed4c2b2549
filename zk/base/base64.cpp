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
  std::string out;
  out.reserve(s.size() / 4 * 3);
  base64_decoder_t d;
  if (!d.feed(s, out) || !d.finish()) return std::nullopt;
  return out;
}

bool base64_decoder_t::feed(std::string_view s, std::string& out) {
  auto val = [](char c) -> int {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+') return 62;
    if (c == '/') return 63;
    return -1;
  };
  for (const char c : s) {
    if (!ok_) return false;
    if (ended_) return ok_ = false;  // nothing after the padding
    if (c == '=') {                  // the padding: the group's last one or two characters
      if (n_ < 2 || (n_ == 2 && pad_ != 0)) return ok_ = false;
      ++pad_;
      v_[n_++] = 0;
    } else {
      const int v = val(c);
      if (v < 0 || pad_ != 0) return ok_ = false;
      v_[n_++] = uint32_t(v);
    }
    ++pos_;
    if (n_ < 4) continue;
    const uint32_t w = v_[0] << 18 | v_[1] << 12 | v_[2] << 6 | v_[3];
    out += char(w >> 16);
    if (pad_ < 2) out += char((w >> 8) & 0xff);
    if (pad_ < 1) out += char(w & 0xff);
    // Canonical: the bits the padding drops are zero.
    if ((pad_ == 1 && (w & 0xff) != 0) || (pad_ == 2 && (w & 0xffff) != 0)) return ok_ = false;
    ended_ = pad_ != 0;
    n_ = 0;
  }
  return ok_;
}

}  // namespace zk
