// Helpers every subcommand shares for its command line (declared in apps/commands.hpp).
#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
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

std::string args_t::one(const std::string& f, const std::string& def) const {
  auto it = flags.find(f);
  return it == flags.end() || it->second.empty() ? def : it->second.back();
}

std::vector<std::string> args_t::all(const std::string& f) const {
  auto it = flags.find(f);
  return it == flags.end() ? std::vector<std::string>{} : it->second;
}

args_t parse_args(const std::vector<std::string>& args, const std::vector<flag_t>& known) {
  args_t p;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    const bool short_option = a.size() > 1 && a[0] == '-' && a[1] != '-' && !(a[1] >= '0' && a[1] <= '9');
    if (short_option) throw usage_error("unknown option " + a + " (options are spelt --name)");
    if (a.rfind("--", 0) != 0) {
      p.positional.push_back(a);
      continue;
    }
    auto f = std::find_if(known.begin(), known.end(), [&](const flag_t& k) { return k.name == a; });
    if (f == known.end()) throw usage_error("unknown option " + a);
    if (f->takes.empty()) {
      p.flags[a];
    } else {
      if (i + 1 >= args.size()) throw usage_error(a + " needs " + f->takes);
      p.flags[a].push_back(args[++i]);
    }
  }
  return p;
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
