#pragma once
// Groth16 .zkey version 1 writer, byte-compatible with snarkjs (docs/formats.md §2).
//
// Layout written: magic "zkey", version 1, 10 sections in id order 1..10 (the order snarkjs's
// contribution tools use). Every section length is known up front from the header, so records
// are written once, front to back, through a large stdio buffer: keys of ~1 GB stream from the
// caller's buffers (or another key's mapping) without a copy. The file is written to
// "<path>.tmp" and renamed into place by finish(); an unfinished writer removes its temp file.
//
// What snarkjs needs from what we write (iden3/snarkjs src/zkey_utils.js readHeader,
// src/groth16_prove.js, src/zkey_export_verificationkey.js, @iden3/binfileutils):
//  * magic "zkey", version <= 2 (rapidsnark: <= 1), sections looked up by id, 1..9 unique;
//  * section 1 = u32 protocol 1, read exactly (endReadSection checks the length);
//  * section 2 read exactly; q must be a curve snarkjs knows (getCurveFromQ), r must match;
//  * section 4 sorted by constraint: the multi-threaded buildABC binary-searches the records by
//    constraint to cut the domain into chunks, so unsorted records silently give a wrong proof.
//    The writer therefore rejects records out of constraint order;
//  * section 10 is not read by prove or export verificationkey; `zkey verify`/contribute read
//    the 64-byte circuit hash and nContributions (0 here, as zkey_new writes).

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "zk/formats/binfile.hpp"
#include "zk/formats/zkey.hpp"

namespace zk::formats {

// The point sections and coefficients of a key, as raw bytes (Montgomery LE points, §2.2).
struct zkey_sections_t {
  byte_span_t ic;  // (nPublic+1) G1
  coef_span_t coefficients;
  byte_span_t a;   // nVars G1
  byte_span_t b1;  // nVars G1
  byte_span_t b2;  // nVars G2
  byte_span_t c;   // (nVars-nPublic-1) G1
  byte_span_t h;   // domainSize G1
};

// The sections of a key already read, e.g. to rewrite it.
zkey_sections_t sections_of(const zkey_file_t& zkey);

class zkey_writer_t {
 public:
  // Validates `header` (field sizes, known curve primes, domainSize a power of two,
  // nPublic < nVars; header.curve and log2_domain_size are ignored), opens "<path>.tmp" and writes
  // the file head and sections 1 and 2. `n_coefficients` fixes the length of section 4.
  zkey_writer_t(std::string path, const zkey_header_t& header, uint64_t n_coefficients);
  ~zkey_writer_t();
  zkey_writer_t(const zkey_writer_t&) = delete;
  zkey_writer_t& operator=(const zkey_writer_t&) = delete;

  // Sections 3..9 are written in id order: begin_section(id), then data, then end_section().
  void begin_section(uint32_t id);
  // Raw bytes of the current point section (3, 5..9); may be called any number of times.
  void write(const uint8_t* data, uint64_t n);
  // One record of section 4; validated (matrix 0/1, constraint < domainSize and not below the
  // previous record's, signal < nVars, value < r).
  void add_coefficient(uint32_t matrix, uint32_t constraint, uint32_t signal, const uint8_t* value);
  void add_coefficients(const coef_span_t& records);
  // Fails unless the current section received exactly its length.
  void end_section();

  // Writes section 10 (64-byte circuit hash, u32 nContributions = 0), flushes, closes and renames
  // "<path>.tmp" to `path`.
  void finish(const uint8_t* circuit_hash);

 private:
  void write_head();
  uint64_t expected_size(uint32_t id) const;
  void put(const void* data, uint64_t n);
  void put_u32(uint32_t v);
  void begin_record(uint32_t id, uint64_t size);
  [[noreturn]] void fail(const std::string& what) const;
  [[noreturn]] void fail_io(const char* what) const;

  std::string path_;
  std::string tmp_path_;
  zkey_header_t header_;
  uint64_t n_coefs_;
  std::FILE* f_ = nullptr;
  std::vector<char> buffer_;
  uint32_t next_section_ = 3;  // next id begin_section() accepts
  uint32_t current_ = 0;       // section being written, 0 when none
  uint64_t written_ = 0;       // bytes of the current section so far
  uint64_t coefs_written_ = 0;
  uint32_t last_constraint_ = 0;
  bool finished_ = false;
};

// Writes a whole key in one call (streaming underneath).
void write_zkey(const std::string& path, const zkey_header_t& header,
                const zkey_sections_t& sections, const uint8_t* circuit_hash);

}  // namespace zk::formats
