#pragma once
// Shared by the harnesses (fuzz/README.md): inputs for readers that only take a path, and the one
// way a harness reports a broken invariant.
//
// The binfile readers (.r1cs, .wtns, .zkey) map a path; the harness hands them an anonymous
// in-memory file (memfd_create) through /proc/self/fd/N, so each input is read through the same
// open/fstat/mmap path as a real file, with no disk I/O and nothing left behind when a run ends.
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>

namespace zk::fuzz {

// One per process: rewritten for every input.
class memory_file_t {
 public:
  memory_file_t() {
    fd_ = ::memfd_create("zkfleet-fuzz", MFD_CLOEXEC);
    if (fd_ < 0) {
      std::fprintf(stderr, "fuzz: memfd_create failed: %s\n", std::strerror(errno));
      std::abort();
    }
    path_ = "/proc/self/fd/" + std::to_string(fd_);
  }
  // Replaces the file's contents with data[0, size) and returns its path.
  const std::string& write(const uint8_t* data, size_t size) {
    if (::ftruncate(fd_, 0) != 0) fatal("ftruncate");
    size_t done = 0;
    while (done < size) {
      const ssize_t n = ::pwrite(fd_, data + done, size - done, static_cast<off_t>(done));
      if (n <= 0) fatal("pwrite");
      done += static_cast<size_t>(n);
    }
    return path_;
  }

 private:
  [[noreturn]] static void fatal(const char* what) {
    std::fprintf(stderr, "fuzz: %s failed: %s\n", what, std::strerror(errno));
    std::abort();
  }
  int fd_ = -1;
  std::string path_;
};

inline memory_file_t& input_file() {
  static memory_file_t f;
  return f;
}

// A private directory of this process (under $TMPDIR or /tmp), removed at normal exit: for the
// files a harness writes (a zkey written back, a config's base_dir).
inline const std::string& scratch_dir() {
  static const std::string dir = [] {
    const char* tmp = std::getenv("TMPDIR");
    std::string tmpl =
        std::string(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp") + "/zkfleet-fuzz-XXXXXX";
    if (::mkdtemp(tmpl.data()) == nullptr) {
      std::fprintf(stderr, "fuzz: mkdtemp(%s) failed: %s\n", tmpl.c_str(), std::strerror(errno));
      std::abort();
    }
    static std::string removed_at_exit;
    removed_at_exit = tmpl;
    std::atexit([] {
      std::error_code ec;
      std::filesystem::remove_all(removed_at_exit, ec);
    });
    return tmpl;
  }();
  return dir;
}

// A property the reader promises did not hold: print it and abort (libFuzzer saves the input).
#define ZK_FUZZ_CHECK(cond)                                                                     \
  do {                                                                                          \
    if (!(cond)) {                                                                              \
      std::fprintf(stderr, "fuzz: invariant failed at %s:%d: %s\n", __FILE__, __LINE__, #cond); \
      std::abort();                                                                             \
    }                                                                                           \
  } while (0)

}  // namespace zk::fuzz
