#include "zk/formats/wtns.hpp"

#include <algorithm>

#include "zk/base/error.hpp"

namespace zk::formats {

namespace {

const char* wtns_section_name(uint32_t id) {
  switch (id) {
    case wtns_section::header:
      return "header";
    case wtns_section::values:
      return "witness values";
    default:
      return nullptr;
  }
}

}  // namespace

wtns_file_t::wtns_file_t(std::string path) : file_(std::move(path), "wtns", 2, wtns_section_name) {
  reader_t r = file_.read(wtns_section::header);
  n8_ = r.field_size("field size n8");
  file_.expect_size(r.section(), 8ull + n8_, "8+n8");
  prime_ = r.bytes(n8_);
  n_witness_ = r.u32();
  r.expect_end();

  const section_record_t& vals = file_.unique(wtns_section::values);
  file_.expect_size(vals, uint64_t(n8_) * n_witness_, "n8*nWitness");
  values_ = file_.data() + vals.offset;

  // Every value below the prime, read a piece at a time and each piece's pages released after it:
  // checking a witness of hundreds of MB (the scheduler does at submit) leaves the process's
  // resident set as it was.
  constexpr uint32_t piece = 1u << 18;  // values (8 MiB at n8 = 32)
  for (uint32_t first = 0, end = 0; first < n_witness_; first = end) {
    end = first + std::min(piece, n_witness_ - first);
    for (uint32_t i = first; i < end; ++i) {
      const uint8_t* v = value(i);
      if (!le_less(v, prime_, n8_)) {
        file_.fail(vals, "witness[" + std::to_string(i) + "] = " + hex_le_number(v, n8_) +
                             " is not below the prime " + hex_le_number(prime_, n8_) +
                             " at offset " + hex(vals.offset + uint64_t(i) * n8_));
      }
    }
    if (n_witness_ > piece)
      file_.advise_dontneed(vals.offset + uint64_t(first) * n8_, uint64_t(end - first) * n8_);
  }
  // Wire 0 is the constant 1 (§7.7); an empty witness has no wire 0 at all.
  if (n_witness_ == 0) file_.fail(vals, "nWitness is 0: wire 0 (the constant 1) is missing");
  if (!le_is_one(values_, n8_)) {
    file_.fail(vals, "witness[0] = " + hex_le_number(values_, n8_) + " at offset " +
                         hex(vals.offset) + ", expected 1");
  }
}

}  // namespace zk::formats
