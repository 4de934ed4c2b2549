// Helpers every subcommand shares for its command line (declared in apps/commands.hpp).
#include <sys/ioctl.h>
#include <unistd.h>

#include <cstdlib>
#include <string>

#include "apps/commands.hpp"

namespace zk::apps {

uint64_t parse_uint_arg(const std::string& what, const std::string& text, uint64_t lo, uint64_t hi) {
  uint64_t x = 0;
  bool ok = !text.empty() && text.size() <= 20;
  for (char c : text) {
    if (c < '0' || c > '9') {
      ok = false;
      break;
    }
    const uint64_t digit = uint64_t(c - '0');
    if (x > (UINT64_MAX - digit) / 10) {  // past 2^64 - 1
      ok = false;
      break;
    }
    x = x * 10 + digit;
  }
  if (!ok || x < lo || x > hi) {
    std::string range = hi == UINT64_MAX ? (lo == 0 ? "a non-negative integer" : "an integer ≥ " + std::to_string(lo))
                                         : "an integer from " + std::to_string(lo) + " to " + std::to_string(hi);
    throw usage_error(what + " needs " + range + ", got '" + text + "'");
  }
  return x;
}

unsigned terminal_width() {
  if (const char* c = std::getenv("COLUMNS")) {
    int v = std::atoi(c);
    if (v >= 40) return unsigned(v);
  }
  winsize ws{};
  if (::isatty(STDOUT_FILENO) && ::ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 40) return ws.ws_col;
  return 100;
}

}  // namespace zk::apps
