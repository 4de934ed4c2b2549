#include "node/job_ref.hpp"

#include <cctype>

namespace zk::node {

result_t<job_ref_t> parse_job_ref(const std::string& text) {
  const std::string why = "'" + text.substr(0, 64) +
                          "' is not a job: give its id (32 hex digits, as zkfleet submit printed "
                          "it), its number (7, #7 or job7, as logs and the dashboard show it) or "
                          "request:<its request id>";
  const std::string prefix = request_ref_prefix;
  if (text.rfind(prefix, 0) == 0) {
    if (text.size() == prefix.size()) return why;
    return job_ref_t{"", 0, text.substr(prefix.size())};
  }
  std::string t = text;
  if (t.size() == 32) {
    for (char& c : t) {
      if (!std::isxdigit(static_cast<unsigned char>(c))) return why;
      c = char(std::tolower(static_cast<unsigned char>(c)));
    }
    return job_ref_t{t, 0, ""};
  }
  if (t.rfind("job", 0) == 0)
    t = t.substr(t[3] == ' ' ? 4 : 3);
  else if (!t.empty() && t[0] == '#')
    t = t.substr(1);
  if (t.empty() || t.size() > 18 || t.find_first_not_of("0123456789") != std::string::npos)
    return why;
  const uint64_t n = std::stoull(t);
  if (n == 0) return why;  // numbers start at 1
  return job_ref_t{"", n, ""};
}

}  // namespace zk::node
