#include "node/prover/key_file.hpp"

#include <sys/stat.h>

namespace zk::node {

std::optional<file_id_t> file_id_of(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return std::nullopt;
  return file_id_t{uint64_t(st.st_dev), uint64_t(st.st_ino), uint64_t(st.st_size),
                   int64_t(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec};
}

}  // namespace zk::node
