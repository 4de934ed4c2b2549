#include "zk/formats/binfile.hpp"

#include <doctest/doctest.h>

#include "tests/formats/test_util.hpp"
#include "zk/base/error.hpp"
#include "zk/formats/mapped_file.hpp"

using namespace zk;
using namespace zk::formats;
using namespace zk::formats::test;

namespace {

const char* test_names(uint32_t id) { return id == 7 ? "B2 points" : nullptr; }

std::vector<section_t> sample_sections() {
  bytes_t a;
  put_u32(a, 0xdeadbeef);
  put_u64(a, 0x0123456789abcdefull);
  put_bytes(a, {1, 2, 3});
  return {{7, a}, {2, {9, 9}}, {7, {5}}, {1, {}}};
}

}  // namespace

TEST_CASE("binfile: scans every record and indexes by id, in any order") {
  temp_dir_t dir;
  const std::string path = dir.file("x.bin");
  write_file(path, make_binfile("test", 3, sample_sections()));

  binfile_t f(path, "test", 3, test_names);
  CHECK(f.version() == 3);
  REQUIRE(f.sections().size() == 4);
  CHECK(f.sections()[0].id == 7);
  CHECK(f.sections()[0].offset == 12 + 12);
  CHECK(f.sections()[0].size == 15);
  CHECK(f.unique(2).size == 2);
  CHECK(f.unique(1).size == 0);
  CHECK(f.find_unique(42) == nullptr);
  CHECK(f.find_all(7).size() == 2);
  CHECK(f.find_all(42).empty());

  reader_t r = f.read(*f.find_all(7)[0]);
  CHECK(r.u32() == 0xdeadbeef);
  CHECK(r.u64() == 0x0123456789abcdefull);
  const uint8_t* p = r.bytes(3);
  CHECK(p[0] == 1);
  CHECK(p[2] == 3);
  CHECK(r.remaining() == 0);
  r.expect_end();
}

TEST_CASE("binfile: duplicate and missing unique sections") {
  temp_dir_t dir;
  const std::string path = dir.file("dup.bin");
  write_file(path, make_binfile("test", 1, sample_sections()));
  binfile_t f(path, "test", 1, test_names);
  CHECK_ERROR(f.unique(7), "dup.bin", "section 7 (B2 points)", "appears 2 times", "0x18");
  CHECK_ERROR(f.read(7), "dup.bin", "section 7 (B2 points)", "appears 2 times");
  CHECK_ERROR(f.unique(5), "dup.bin", "section 5", "is missing");
}

TEST_CASE("binfile: bad magic, bad version, short header") {
  temp_dir_t dir;
  const std::string path = dir.file("bad.bin");
  write_file(path, make_binfile("abcd", 1, {}));
  CHECK_ERROR(binfile_t(path, "zkey", 1), "bad.bin", "bad magic \"abcd\"", "expected \"zkey\"");

  write_file(path, make_binfile("zk\x01y", 1, {}));
  CHECK_ERROR(binfile_t(path, "zkey", 1), "bad.bin", "\\x01", "expected \"zkey\"");

  write_file(path, make_binfile("zkey", 2, {}));
  CHECK_ERROR(binfile_t(path, "zkey", 1), "bad.bin", "unsupported version 2", "expected 1",
              "offset 0x4");

  write_file(path, bytes_t{'z', 'k', 'e', 'y', 1, 0});
  CHECK_ERROR(binfile_t(path, "zkey", 1), "bad.bin", "too short", "6 bytes");
}

TEST_CASE("binfile: truncation anywhere is reported with an offset") {
  temp_dir_t dir;
  const std::string path = dir.file("trunc.bin");
  const bytes_t full = make_binfile("test", 1, sample_sections());
  for (size_t len :
       {size_t(5), size_t(12), size_t(13), size_t(23), size_t(24), size_t(30), full.size() - 1}) {
    CAPTURE(len);
    write_file(path, bytes_t(full.begin(), full.begin() + long(len)));
    CHECK_ERROR(binfile_t(path, "test", 1, test_names), "trunc.bin");
  }
  // Inside a payload: the record's length runs past the end.
  write_file(path, bytes_t(full.begin(), full.begin() + 30));
  CHECK_ERROR(binfile_t(path, "test", 1, test_names), "trunc.bin", "section 7 (B2 points)",
              "record 0 at offset 0xc", "runs past the end");
  // Inside a record head.
  write_file(path, bytes_t(full.begin(), full.begin() + 12 + 12 + 15 + 5));
  CHECK_ERROR(binfile_t(path, "test", 1, test_names), "trunc.bin", "record 1 of 4",
              "at offset 0x27", "truncated");
  // A length so large that offset + length overflows must not slip through.
  bytes_t huge = make_binfile("test", 1, {{1, {0}}});
  for (int i = 0; i < 8; ++i) huge[16 + i] = 0xff;
  write_file(path, huge);
  CHECK_ERROR(binfile_t(path, "test", 1), "trunc.bin", "runs past the end");
}

TEST_CASE("binfile: extra nSections claims are truncation, fewer ignore trailing records") {
  temp_dir_t dir;
  const std::string path = dir.file("n.bin");
  write_file(path, make_binfile("test", 1, {{1, {1}}}, 2));
  CHECK_ERROR(binfile_t(path, "test", 1), "n.bin", "record 1 of 2", "truncated");
  write_file(path, make_binfile("test", 1, {{1, {1}}, {2, {2}}}, 1));
  binfile_t f(path, "test", 1);
  CHECK(f.sections().size() == 1);
}

TEST_CASE("reader: overruns and trailing bytes name file, section and offset") {
  temp_dir_t dir;
  const std::string path = dir.file("r.bin");
  write_file(path, make_binfile("test", 1, {{7, {1, 2, 3, 4, 5, 6}}}));
  binfile_t f(path, "test", 1, test_names);
  reader_t r = f.read(7);
  CHECK(r.u32() == 0x04030201u);
  CHECK_ERROR(r.u64(), "r.bin", "section 7 (B2 points)", "need 8 bytes for a u64", "2 left",
              "at offset 0x1c", "section at offset 0x18");
  CHECK_ERROR(r.bytes(3), "r.bin", "need 3 bytes");
  CHECK_ERROR(r.expect_end(), "r.bin", "section 7 (B2 points)", "2 unexpected trailing bytes");
  r.skip(2);
  r.expect_end();
  CHECK_ERROR(f.expect_size(f.unique(7), 10, "2*n"), "r.bin",
              "section 7 (B2 points): length 6 does not match 2*n = 10",
              "(section at offset 0x18)");
}

TEST_CASE("mapped_file: errors name the path and errno text, move keeps the mapping") {
  temp_dir_t dir;
  CHECK_ERROR(mapped_file_t(dir.file("missing.zkey")), "missing.zkey", "cannot open",
              "No such file or directory");
  write_file(dir.file("empty.zkey"), {});
  CHECK_ERROR(mapped_file_t(dir.file("empty.zkey")), "empty.zkey", "file is empty");
  CHECK_ERROR(mapped_file_t(dir.file("")), "not a regular file");

  write_file(dir.file("m.bin"), {1, 2, 3});
  mapped_file_t a(dir.file("m.bin"));
  const uint8_t* data = a.data();
  a.advise_sequential();
  a.advise_willneed(1, 100);
  mapped_file_t b(std::move(a));
  CHECK(b.data() == data);
  CHECK(b.size() == 3);
  CHECK(b.data()[2] == 3);
  CHECK_FALSE(a.is_open());
  mapped_file_t c;
  c = std::move(b);
  CHECK(c.data() == data);
  CHECK(has(c.path(), "m.bin"));
}

TEST_CASE("error helpers") {
  CHECK(hex(0) == "0x0");
  CHECK(hex(0x1a2b) == "0x1a2b");
  const uint8_t le_num[4] = {0x01, 0x00, 0xab, 0x00};
  CHECK(hex_le_number(le_num, 4) == "0xab0001");
  const uint8_t zero[3] = {0, 0, 0};
  CHECK(hex_le_number(zero, 3) == "0x0");
  CHECK(section_label(7, "B2 points") == "section 7 (B2 points)");
  CHECK(section_label(3, nullptr) == "section 3");
  CHECK_ERROR(throw_section_error("circuit.zkey", "section 7 (B2 points)", 0x1a2b, "bad"),
              "circuit.zkey: section 7 (B2 points): bad (section at offset 0x1a2b)");
}
