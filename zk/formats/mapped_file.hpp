#pragma once
// Read-only memory map of a whole file (RAII). Proving keys are read in place: point sections are
// handed out as spans into this mapping, never copied.

#include <cstddef>
#include <cstdint>
#include <string>

namespace zk::formats {

class mapped_file {
 public:
  mapped_file() = default;
  // Maps `path` (MAP_PRIVATE, PROT_READ). Throws format_error naming the path and the errno text
  // when the file is missing, unreadable, not a regular file or empty.
  explicit mapped_file(std::string path);
  ~mapped_file();

  mapped_file(mapped_file&& other) noexcept;
  mapped_file& operator=(mapped_file&& other) noexcept;
  mapped_file(const mapped_file&) = delete;
  mapped_file& operator=(const mapped_file&) = delete;

  const uint8_t* data() const { return data_; }
  uint64_t size() const { return size_; }
  const std::string& path() const { return path_; }
  bool is_open() const { return data_ != nullptr; }

  // madvise hints; failures are ignored (they are only hints). Offsets need no alignment.
  void advise_sequential() const;
  void advise_willneed(uint64_t offset, uint64_t len) const;
  // Drops the range's pages from this process's resident set (MADV_DONTNEED); the mapping is
  // read-only, so a later access simply reads them again from the page cache.
  void advise_dontneed(uint64_t offset, uint64_t len) const;

 private:
  void advise(uint64_t offset, uint64_t len, int advice) const;
  void unmap() noexcept;

  std::string path_;
  const uint8_t* data_ = nullptr;
  uint64_t size_ = 0;
};

}  // namespace zk::formats
