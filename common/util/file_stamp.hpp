#pragma once
// Whether a file changed since it was last read, for files re-read on use (the token store, the
// revocation list): one stat per check. Every rewrite of those files renames a new file over the
// old one, so a new inode says "changed" even when size and mtime (coarse on some file systems)
// are the same.

#include <sys/stat.h>

#include <cstdint>
#include <string>

namespace zk::util {

class file_stamp_t {
 public:
  enum class seen_t { missing, same, changed };

  seen_t check(const std::string& path) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) {
      mtime_ = size_ = 0;
      inode_ = 0;
      return seen_t::missing;
    }
    const int64_t mtime = int64_t(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
    if (mtime == mtime_ && int64_t(st.st_size) == size_ && uint64_t(st.st_ino) == inode_)
      return seen_t::same;
    mtime_ = mtime;
    size_ = int64_t(st.st_size);
    inode_ = uint64_t(st.st_ino);
    return seen_t::changed;
  }

 private:
  int64_t mtime_ = -1, size_ = -1;
  uint64_t inode_ = 0;
};

}  // namespace zk::util
