#pragma once
// Errors of the format layer. Every message names the file, and where it applies the section
// (id and name) and the byte offset, e.g.
//   circuit.zkey: section 7 (B2 points): length 1000 does not match 4*n8q*nVars = 128384
//   (section at offset 0x1a2b)
// Offsets are absolute file offsets; "section at offset" is where the section's payload starts.

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

namespace zk {

struct format_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// "0x1a2b"
inline std::string hex(uint64_t v) {
  static const char digits[] = "0123456789abcdef";
  char buf[19];
  char* p = buf + sizeof buf;
  do {
    *--p = digits[v & 15];
    v >>= 4;
  } while (v != 0);
  *--p = 'x';
  *--p = '0';
  return std::string(p, buf + sizeof buf);
}

// A little-endian integer of n bytes, as "0x..." (most significant digit first, no leading zeros).
inline std::string hex_le_number(const uint8_t* le, size_t n) {
  static const char digits[] = "0123456789abcdef";
  std::string out = "0x";
  bool leading = true;
  for (size_t i = n; i-- > 0;) {
    for (int shift = 4; shift >= 0; shift -= 4) {
      const int d = (le[i] >> shift) & 15;
      if (leading && d == 0) continue;
      leading = false;
      out += digits[d];
    }
  }
  if (leading) out += '0';
  return out;
}

// "<file>: <what>"
[[noreturn]] inline void throw_file_error(std::string_view file, std::string_view what) {
  std::string msg;
  msg.reserve(file.size() + what.size() + 2);
  msg.append(file).append(": ").append(what);
  throw format_error(msg);
}

// "<file>: <label>: <what> (section at offset 0x...)", label as made by section_label().
[[noreturn]] inline void throw_section_error(std::string_view file, std::string_view label,
                                             uint64_t section_offset, std::string_view what) {
  std::string msg;
  msg.append(file).append(": ").append(label).append(": ").append(what);
  msg.append(" (section at offset ").append(hex(section_offset)).append(")");
  throw format_error(msg);
}

// "section 7 (B2 points)", or "section 7" when the name is unknown.
inline std::string section_label(uint32_t id, const char* name) {
  std::string s = "section " + std::to_string(id);
  if (name != nullptr && *name != '\0') s.append(" (").append(name).append(")");
  return s;
}

}  // namespace zk
