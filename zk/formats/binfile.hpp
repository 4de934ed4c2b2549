#pragma once
// The iden3 "binfile" container shared by .r1cs, .wtns and .zkey (docs/formats.md §1.1):
//   4-byte ASCII magic, u32 LE version, u32 LE nSections,
//   then nSections records { u32 LE id, u64 LE length, payload[length] }.
// Section order is arbitrary and an id may repeat, so every record is scanned and indexed by id
// before any payload is read. Every length is checked against the file size during the scan.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "zk/base/le_bytes.hpp"
#include "zk/formats/mapped_file.hpp"

namespace zk::formats {

// ---- little-endian helpers (all iden3 integers are LE, §7.2)
// -------------------------------------

// (the byte order itself is zk/base/le_bytes.hpp's, shared with the wire headers)
inline uint32_t load_u32(const uint8_t* p) { return le_get<uint32_t>(p, 0); }
inline uint64_t load_u64(const uint8_t* p) { return le_get<uint64_t>(p, 0); }
inline void store_u32(uint8_t* p, uint32_t v) { le_put(p, 0, v); }
inline void store_u64(uint8_t* p, uint64_t v) { le_put(p, 0, v); }

// a < b for two n-byte little-endian integers.
inline bool le_less(const uint8_t* a, const uint8_t* b, size_t n) {
  for (size_t i = n; i-- > 0;) {
    if (a[i] != b[i]) return a[i] < b[i];
  }
  return false;
}
// The n-byte little-endian integer equals 1.
inline bool le_is_one(const uint8_t* a, size_t n) {
  if (n == 0 || a[0] != 1) return false;
  for (size_t i = 1; i < n; ++i) {
    if (a[i] != 0) return false;
  }
  return true;
}

// A contiguous range of bytes inside a mapped file.
struct byte_span_t {
  const uint8_t* data = nullptr;
  uint64_t size = 0;
};

// ---- container ---------------------------------------------------------------------------------

// Maps a section id to a human-readable name for error messages ("B2 points"), or nullptr.
using section_namer_t = const char* (*)(uint32_t id);

struct section_record_t {
  uint32_t id = 0;
  uint64_t offset = 0;  // absolute file offset of the payload (just after the 12-byte record head)
  uint64_t size = 0;    // payload length
};

class reader_t;

// A field element's byte size as the formats store it (n8, fs, n8q, n8r): a positive multiple of 8,
// bounded as a sanity check (2048-bit fields).
inline constexpr uint32_t max_field_bytes = 256;
inline bool valid_field_size(uint32_t n8) {
  return n8 != 0 && n8 % 8 == 0 && n8 <= max_field_bytes;
}

class binfile_t {
 public:
  // Maps `path`, checks the 4-byte magic and that the version equals `version`, then scans and
  // indexes every section record. Throws format_error (file, offset, expected vs got) on any
  // inconsistency: short file, bad magic, bad version, a record or payload running past the end.
  binfile_t(std::string path, std::string_view magic, uint32_t version,
            section_namer_t names = nullptr);

  binfile_t(binfile_t&&) noexcept = default;
  binfile_t& operator=(binfile_t&&) noexcept = default;

  const std::string& path() const { return file_.path(); }
  const uint8_t* data() const { return file_.data(); }
  uint64_t size() const { return file_.size(); }
  uint32_t version() const { return version_; }

  // Every record, in file order.
  const std::vector<section_record_t>& sections() const { return sections_; }
  // Every record with this id, in file order (empty when absent).
  std::vector<const section_record_t*> find_all(uint32_t id) const;
  // The single record with this id, or nullptr when absent; throws when the id repeats.
  const section_record_t* find_unique(uint32_t id) const;
  // The single record with this id; throws when absent or repeated.
  const section_record_t& unique(uint32_t id) const;

  byte_span_t bytes(const section_record_t& s) const { return {data() + s.offset, s.size}; }
  // A bounds-checked cursor over the payload of the unique section `id`.
  reader_t read(uint32_t id) const;
  reader_t read(const section_record_t& s) const;

  // "section 7 (B2 points)"
  std::string label(uint32_t id) const;
  // "<path>: <what>"
  [[noreturn]] void fail(std::string_view what) const;
  // "<path>: section 7 (B2 points): <what> (section at offset 0x...)"
  [[noreturn]] void fail(const section_record_t& s, std::string_view what) const;
  // Checks s.size == expected; otherwise fails naming `formula` (e.g. "4*n8q*nVars").
  void expect_size(const section_record_t& s, uint64_t expected, std::string_view formula) const;

  void advise_willneed(const section_record_t& s) const { file_.advise_willneed(s.offset, s.size); }
  void advise_dontneed(const section_record_t& s) const { file_.advise_dontneed(s.offset, s.size); }
  // Drops the pages of [offset, offset + len) from this process's resident set (the mapping is
  // read-only: a later read faults them in again from the page cache).
  void advise_dontneed(uint64_t offset, uint64_t len) const { file_.advise_dontneed(offset, len); }

 private:
  mapped_file_t file_;
  section_namer_t names_ = nullptr;
  uint32_t version_ = 0;
  std::vector<section_record_t> sections_;
  std::unordered_map<uint32_t, std::vector<uint32_t>> by_id_;  // id -> indices into sections_
};

// Sequential, bounds-checked reads from one section's payload. Overruns throw format_error naming
// the file, the section and the absolute offset of the failed read.
class reader_t {
 public:
  reader_t(const binfile_t& file, const section_record_t& section)
      : file_(&file), section_(section), base_(file.data() + section.offset) {}

  uint32_t u32() { return load_u32(take(4, " for a u32")); }
  uint64_t u64() { return load_u64(take(8, " for a u64")); }
  // A u32 field size (valid_field_size), else fail("<name> = N is not a positive multiple of 8
  // ...").
  uint32_t field_size(std::string_view name) {
    const uint32_t n8 = u32();
    if (!valid_field_size(n8))
      fail(std::string(name) + " = " + std::to_string(n8) +
           " is not a positive multiple of 8 up to " + std::to_string(max_field_bytes));
    return n8;
  }
  // Pointer to the next n bytes (into the mapping), then advances past them.
  const uint8_t* bytes(uint64_t n) { return take(n, ""); }
  void skip(uint64_t n) { take(n, ""); }

  uint64_t pos() const { return pos_; }  // relative to the payload start
  uint64_t remaining() const { return section_.size - pos_; }
  uint64_t file_offset() const { return section_.offset + pos_; }
  const section_record_t& section() const { return section_; }
  const binfile_t& file() const { return *file_; }

  // Fails unless every byte of the section was consumed.
  void expect_end() const;
  // "<path>: section 2 (header): <what> at offset 0x... (section at offset 0x...)"
  [[noreturn]] void fail(std::string_view what) const;

 private:
  const uint8_t* take(uint64_t n, const char* what) {
    if (n > remaining()) overrun(n, what);
    const uint8_t* p = base_ + pos_;
    pos_ += n;
    return p;
  }
  [[noreturn]] void overrun(uint64_t n, const char* what) const;

  const binfile_t* file_;
  section_record_t section_;
  const uint8_t* base_;
  uint64_t pos_ = 0;
};

}  // namespace zk::formats
