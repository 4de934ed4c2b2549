#include "zk/ff/ifma.hpp"

#ifdef ZK_FF_IFMA
#include <cstdlib>
#include <cstring>

namespace zk::ff::ifma {

bool cpu_has_ifma() {
  // libgcc's CPU model also checks that the OS enabled the AVX-512 state (XCR0).
  static const bool has = [] {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512ifma") &&
           __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512bw") &&
           __builtin_cpu_supports("avx512dq");
  }();
  return has;
}

bool available() {
  static const bool on = [] {
    const char* e = std::getenv("ZK_NO_IFMA");
    const bool off = e && *e && std::strcmp(e, "0") != 0;
    return cpu_has_ifma() && !off;
  }();
  return on;
}

}  // namespace zk::ff::ifma
#endif
