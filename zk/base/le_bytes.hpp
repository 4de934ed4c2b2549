#pragma once
// Little-endian integers at a byte offset, independent of the host's byte order and alignment:
// the wire headers of common/buffer and common/net.
#include <cstddef>
#include <cstdint>

namespace zk {

template <class T>
void le_put(uint8_t* p, size_t at, T v) {
  for (size_t i = 0; i < sizeof(T); ++i) p[at + i] = uint8_t(uint64_t(v) >> (8 * i));
}
template <class T>
T le_get(const uint8_t* p, size_t at) {
  uint64_t v = 0;
  for (size_t i = 0; i < sizeof(T); ++i) v |= uint64_t(p[at + i]) << (8 * i);
  return T(v);
}

}  // namespace zk
