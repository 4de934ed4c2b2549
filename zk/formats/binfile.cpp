#include "zk/formats/binfile.hpp"

#include <algorithm>
#include <cstring>
#include <utility>

#include "zk/base/error.hpp"

namespace zk::formats {

namespace {

constexpr uint64_t file_header_size = 12;    // magic, version, nSections
constexpr uint64_t record_header_size = 12;  // u32 id, u64 length

// Printable rendering of a magic that did not match: "wtns" or "\x00\x01..".
std::string quote_magic(const uint8_t* p, size_t n) {
  std::string s = "\"";
  for (size_t i = 0; i < n; ++i) {
    if (p[i] >= 0x20 && p[i] < 0x7f && p[i] != '"' && p[i] != '\\') {
      s += char(p[i]);
    } else {
      static const char digits[] = "0123456789abcdef";
      s += "\\x";
      s += digits[p[i] >> 4];
      s += digits[p[i] & 15];
    }
  }
  return s + "\"";
}

}  // namespace

binfile_t::binfile_t(std::string path, std::string_view magic, uint32_t version,
                     section_namer_t names)
    : file_(std::move(path)), names_(names) {
  const uint8_t* d = file_.data();
  const uint64_t size = file_.size();
  if (size < file_header_size) {
    fail("file too short for a binfile header: " + std::to_string(size) + " bytes, need " +
         std::to_string(file_header_size));
  }
  if (magic.size() != 4 || std::memcmp(d, magic.data(), 4) != 0) {
    fail("bad magic " + quote_magic(d, 4) + " at offset 0x0 (expected \"" + std::string(magic) +
         "\")");
  }
  version_ = load_u32(d + 4);
  if (version_ != version) {
    fail("unsupported version " + std::to_string(version_) + " at offset 0x4 (expected " +
         std::to_string(version) + ")");
  }
  const uint32_t n_sections = load_u32(d + 8);

  // Each record takes at least 12 bytes, so a hostile nSections cannot make us reserve more
  // than the file could hold.
  sections_.reserve(std::min<uint64_t>(n_sections, size / record_header_size));
  uint64_t pos = file_header_size;
  for (uint32_t i = 0; i < n_sections; ++i) {
    if (size - pos < record_header_size) {
      fail("section record " + std::to_string(i) + " of " + std::to_string(n_sections) +
           " at offset " + hex(pos) + " is truncated: file ends at " + hex(size));
    }
    section_record_t s;
    s.id = load_u32(d + pos);
    s.size = load_u64(d + pos + 4);
    s.offset = pos + record_header_size;
    if (s.size > size - s.offset) {
      fail(label(s.id) + " (record " + std::to_string(i) + " at offset " + hex(pos) + "): length " +
           std::to_string(s.size) + " runs past the end of the file (payload at " + hex(s.offset) +
           ", file size " + std::to_string(size) + ")");
    }
    by_id_[s.id].push_back(static_cast<uint32_t>(sections_.size()));
    sections_.push_back(s);
    pos = s.offset + s.size;
  }
}

std::vector<const section_record_t*> binfile_t::find_all(uint32_t id) const {
  std::vector<const section_record_t*> out;
  auto it = by_id_.find(id);
  if (it != by_id_.end()) {
    for (uint32_t idx : it->second) out.push_back(&sections_[idx]);
  }
  return out;
}

const section_record_t* binfile_t::find_unique(uint32_t id) const {
  auto it = by_id_.find(id);
  if (it == by_id_.end()) return nullptr;
  if (it->second.size() > 1) {
    std::string offsets;
    for (uint32_t idx : it->second) {
      if (!offsets.empty()) offsets += ", ";
      offsets += hex(sections_[idx].offset);
    }
    fail(label(id) + " appears " + std::to_string(it->second.size()) + " times (at offsets " +
         offsets + "); expected exactly one");
  }
  return &sections_[it->second.front()];
}

const section_record_t& binfile_t::unique(uint32_t id) const {
  const section_record_t* s = find_unique(id);
  if (s == nullptr) fail(label(id) + " is missing");
  return *s;
}

reader_t binfile_t::read(uint32_t id) const { return reader_t(*this, unique(id)); }
reader_t binfile_t::read(const section_record_t& s) const { return reader_t(*this, s); }

std::string binfile_t::label(uint32_t id) const {
  return section_label(id, names_ != nullptr ? names_(id) : nullptr);
}

void binfile_t::fail(std::string_view what) const { throw_file_error(path(), what); }

void binfile_t::fail(const section_record_t& s, std::string_view what) const {
  throw_section_error(path(), label(s.id), s.offset, what);
}

void binfile_t::expect_size(const section_record_t& s, uint64_t expected,
                            std::string_view formula) const {
  if (s.size != expected) {
    fail(s, "length " + std::to_string(s.size) + " does not match " + std::string(formula) + " = " +
                std::to_string(expected));
  }
}

void reader_t::expect_end() const {
  if (remaining() != 0) {
    fail(std::to_string(remaining()) + " unexpected trailing bytes");
  }
}

void reader_t::fail(std::string_view what) const {
  file_->fail(section_, std::string(what) + " at offset " + hex(file_offset()));
}

void reader_t::overrun(uint64_t n, const char* what) const {
  fail("truncated: need " + std::to_string(n) + " bytes" + what + ", only " +
       std::to_string(remaining()) + " left in the section");
}

}  // namespace zk::formats
