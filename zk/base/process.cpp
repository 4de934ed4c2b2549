#include "zk/base/process.hpp"

#include <sys/resource.h>

namespace zk {

uint64_t peak_rss_bytes() {
  rusage u{};
  if (getrusage(RUSAGE_SELF, &u) != 0) return 0;
  return uint64_t(u.ru_maxrss) * 1024;  // Linux reports kibibytes
}

}  // namespace zk
