#pragma once
// Read-only memory map of a whole file (RAII). Proving keys are read in place: point sections are
// handed out as spans into this mapping, never copied.

#include <cstddef>
#include <cstdint>
#include <string>

namespace zk::formats {

class mapped_file_t {
 public:
  mapped_file_t() = default;
  // Maps `path` (MAP_PRIVATE, PROT_READ). Throws format_error naming the path and the errno text
  // when the file is missing, unreadable, not a regular file or empty.
  explicit mapped_file_t(std::string path);
  ~mapped_file_t();

  mapped_file_t(mapped_file_t&& other) noexcept;
  mapped_file_t& operator=(mapped_file_t&& other) noexcept;
  mapped_file_t(const mapped_file_t&) = delete;
  mapped_file_t& operator=(const mapped_file_t&) = delete;

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
