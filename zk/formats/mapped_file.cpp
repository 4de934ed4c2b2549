#include "zk/formats/mapped_file.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

#include "zk/base/error.hpp"

namespace zk::formats {

namespace {

[[noreturn]] void throw_errno(const std::string& path, const char* what, int err) {
  throw_file_error(path, std::string(what) + ": " + std::strerror(err));
}

// Closes a descriptor on every path out of the constructor.
struct fd_guard_t {
  int fd;
  ~fd_guard_t() {
    if (fd >= 0) ::close(fd);
  }
};

}  // namespace

mapped_file_t::mapped_file_t(std::string path) : path_(std::move(path)) {
  fd_guard_t fd{::open(path_.c_str(), O_RDONLY | O_CLOEXEC)};
  if (fd.fd < 0) throw_errno(path_, "cannot open", errno);

  struct stat st {};
  if (::fstat(fd.fd, &st) != 0) throw_errno(path_, "cannot stat", errno);
  if (!S_ISREG(st.st_mode)) throw_file_error(path_, "not a regular file");
  if (st.st_size == 0) throw_file_error(path_, "file is empty");

  void* p = ::mmap(nullptr, static_cast<size_t>(st.st_size), PROT_READ, MAP_PRIVATE, fd.fd, 0);
  if (p == MAP_FAILED) throw_errno(path_, "cannot mmap", errno);
  data_ = static_cast<const uint8_t*>(p);
  size_ = static_cast<uint64_t>(st.st_size);
}

mapped_file_t::~mapped_file_t() { unmap(); }

mapped_file_t::mapped_file_t(mapped_file_t&& other) noexcept
    : path_(std::move(other.path_)),
      data_(std::exchange(other.data_, nullptr)),
      size_(std::exchange(other.size_, 0)) {}

mapped_file_t& mapped_file_t::operator=(mapped_file_t&& other) noexcept {
  if (this != &other) {
    unmap();
    path_ = std::move(other.path_);
    data_ = std::exchange(other.data_, nullptr);
    size_ = std::exchange(other.size_, 0);
  }
  return *this;
}

void mapped_file_t::unmap() noexcept {
  if (data_ != nullptr) ::munmap(const_cast<uint8_t*>(data_), size_);
  data_ = nullptr;
  size_ = 0;
}

void mapped_file_t::advise(uint64_t offset, uint64_t len, int advice) const {
  if (data_ == nullptr || offset >= size_) return;
  if (len > size_ - offset) len = size_ - offset;
  // madvise wants a page-aligned start; the mapping itself is page-aligned.
  static const uint64_t page = static_cast<uint64_t>(::sysconf(_SC_PAGESIZE));
  const uint64_t start = offset - offset % page;
  ::madvise(const_cast<uint8_t*>(data_) + start, len + (offset - start), advice);
}

void mapped_file_t::advise_sequential() const { advise(0, size_, MADV_SEQUENTIAL); }
void mapped_file_t::advise_dontneed(uint64_t offset, uint64_t len) const {
  advise(offset, len, MADV_DONTNEED);
}

void mapped_file_t::advise_willneed(uint64_t offset, uint64_t len) const {
  advise(offset, len, MADV_WILLNEED);
}

}  // namespace zk::formats
