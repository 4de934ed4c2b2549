#pragma once
// The process's own memory figures (Linux).
#include <cstdint>

namespace zk {

// The peak resident set size so far (getrusage ru_maxrss), in bytes.
uint64_t peak_rss_bytes();

}  // namespace zk
