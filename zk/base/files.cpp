#include "zk/base/files.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "zk/base/error.hpp"

namespace zk {

std::string read_text(const std::string& path, uint64_t max_bytes) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw_file_error(path, "is a directory, not a file");
  const auto size = std::filesystem::file_size(path, ec);
  if (!ec && size > max_bytes)
    throw_file_error(path, std::to_string(size) + " bytes, more than the " +
                               std::to_string(max_bytes) + " this file may have");
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) throw_file_error(path, std::string("cannot open: ") + std::strerror(errno));
  std::string out;
  char buf[1 << 16];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) {
    out.append(buf, n);
    if (out.size() > max_bytes) {  // grew while being read
      std::fclose(f);
      throw_file_error(path,
                       "more than the " + std::to_string(max_bytes) + " bytes this file may have");
    }
  }
  const bool err = std::ferror(f) != 0;
  std::fclose(f);
  if (err) throw_file_error(path, "read error");
  return out;
}

void write_file_atomic(const std::string& path, std::string_view bytes) {
  // A device or a pipe (/dev/null, /dev/stdout) is written in place: a rename would replace the
  // node itself (run as root, /dev/null would become a regular file for the whole machine).
  std::error_code ec;
  const auto st = std::filesystem::status(path, ec);
  if (!ec && std::filesystem::exists(st) && !std::filesystem::is_regular_file(st) &&
      !std::filesystem::is_directory(st)) {
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (f == nullptr) throw_file_error(path, std::string("cannot open: ") + std::strerror(errno));
    const bool ok =
        std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size() && std::fflush(f) == 0;
    const int err = errno;
    if (std::fclose(f) != 0 || !ok)
      throw_file_error(path, std::string("write failed: ") + std::strerror(ok ? errno : err));
    return;
  }
  const std::string tmp = path + ".tmp-" + std::to_string(::getpid());
  std::FILE* f = std::fopen(tmp.c_str(), "wb");
  if (f == nullptr) throw_file_error(path, std::string("cannot create: ") + std::strerror(errno));
  const bool ok =
      std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size() && std::fflush(f) == 0;
  const int err = errno;
  if (std::fclose(f) != 0 || !ok) {
    std::remove(tmp.c_str());
    throw_file_error(path, std::string("write failed: ") + std::strerror(ok ? errno : err));
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    const int e = errno;
    std::remove(tmp.c_str());
    throw_file_error(path,
                     std::string("cannot rename the written file into place: ") + std::strerror(e));
  }
}

}  // namespace zk
