#pragma once
// The process's own memory figures (Linux).
#include <cstdint>

namespace zk {

// The peak resident set size so far (getrusage ru_maxrss), in bytes.
uint64_t peak_rss_bytes();

// The CPU time this process has used so far, user and system, every thread (getrusage), in
// seconds: on a shared machine the steadier figure than wall time.
double cpu_seconds();
// The calling thread's CPU time (user + system), seconds.
double thread_cpu_seconds();

}  // namespace zk
