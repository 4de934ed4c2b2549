#pragma once
// Whether a mapped proving-key file may still be read. A key cut shorter in place faults
// (SIGBUS) when its pages past the new end are read; rewritten in place, it may hold another
// key. A new file renamed over the old one (another inode) leaves the mapping intact.
#include <cstdint>
#include <optional>
#include <string>

namespace zk::node {

// A file's identity and version.
struct file_id_t {
  uint64_t dev = 0, ino = 0, size = 0;
  int64_t mtime_ns = 0;
  bool operator==(const file_id_t& o) const {
    return dev == o.dev && ino == o.ino && size == o.size && mtime_ns == o.mtime_ns;
  }
  // The same inode, changed since (size or mtime): a mapping of it must be dropped unread.
  bool changed_in_place(const file_id_t& now) const {
    return now.dev == dev && now.ino == ino && !(now == *this);
  }
};

// stat(2) of the path; nullopt when it cannot be read.
std::optional<file_id_t> file_id_of(const std::string& path);

}  // namespace zk::node
