#pragma once
// bellperson's Groth16 files over BLS12-381 (docs/filecoin.md §3; bellperson 0.27
// src/groth16/proof.rs, verifying_key.rs, params.rs, mapped_params.rs). Integers are u32
// big-endian, points in the ZCash encoding of zk/bellperson/groth16/points.hpp (canonical
// big-endian coordinates, not Montgomery — unlike snarkjs's files in zk/formats).
//
//   proof   A (G1 compressed, 48) ‖ B (G2 compressed, 96) ‖ C (G1 compressed, 48) = 192 bytes;
//           a sector's proof is its partitions' proofs concatenated, partition 0 first.
//   .vk     alpha_g1, beta_g1 (G1), beta_g2, gamma_g2 (G2), delta_g1 (G1), delta_g2 (G2), then
//           u32 count and that many IC points (G1) — uncompressed as VerifyingKey::write does,
//           or with every point compressed (the polka-storage vector); told apart by the 0x80
//           flag of byte 0.
//   .params the uncompressed .vk, then h, l, a, b_g1 (G1) and b_g2 (G2), each a u32 count and
//           that many uncompressed points; no point at infinity anywhere (bellperson's
//           readers refuse one: the generator leaves them out).
//
// Readers check every count against the bytes left BEFORE allocating or reading anything, and
// throw zk::format_error naming the file, the part (section, point) and the byte offset.
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "zk/bellperson/groth16/points.hpp"
#include "zk/formats/mapped_file.hpp"
#include "zk/groth16/keys.hpp"

namespace zk::bellperson {

// --- proofs ------------------------------------------------------------------------------------

// A proof is the one Groth16 proof type of the project (A, B, C affine).
using proof_t = groth16::proof_t<curve_t>;
constexpr size_t proof_size = g1_compressed_size + g2_compressed_size + g1_compressed_size;

// One 192-byte proof, subgroup-checked, no point at infinity (Proof::read_many).
// format_error "<file>: partition <k>: <A|B|C> (offset 0x…): <why>".
proof_t decode_proof(const uint8_t* in, std::string_view file, unsigned partition, uint64_t offset);
void encode_proof(const proof_t& p, uint8_t out[proof_size]);
// n bytes holding one proof per partition (n a non-zero multiple of 192).
std::vector<proof_t> decode_proofs(const uint8_t* data, uint64_t n, std::string_view file);
std::vector<proof_t> read_proof_file(const std::string& path);

// --- verifying key -----------------------------------------------------------------------------

struct verifying_key_t {
  g1_affine_t alpha_g1, beta_g1;
  g2_affine_t beta_g2, gamma_g2;
  g1_affine_t delta_g1;
  g2_affine_t delta_g2;
  std::vector<g1_affine_t> ic;  // one per public input, ONE first

  // The key as the one Groth16 verifier takes it (zk/groth16/verifier.hpp).
  groth16::verifying_key_t<curve_t> to_groth16() const {
    return {alpha_g1, beta_g2, gamma_g2, delta_g2, ic};
  }
};

enum class vk_encoding_t { uncompressed, compressed };

// Bytes of a key with n IC points.
uint64_t vk_size(vk_encoding_t e, uint64_t n_ic);

struct vk_read_t {
  verifying_key_t vk;
  vk_encoding_t encoding = vk_encoding_t::uncompressed;
  uint64_t size = 0;  // bytes read
};

// Parses a key at data[0, n); every point checked (on the curve, in the subgroup, not infinity).
// `encoding`: as given, or detected from byte 0 when detect is true. With exact, bytes after
// the key are an error (a .vk file); without, they are left (a .params file).
vk_read_t parse_vk(const uint8_t* data, uint64_t n, std::string_view file, bool detect,
                   vk_encoding_t encoding, bool exact);
// A .vk file in either encoding (a .params given for it is refused saying so).
vk_read_t read_vk_file(const std::string& path);
std::vector<uint8_t> encode_vk(const verifying_key_t& vk, vk_encoding_t e);
void write_vk_file(const std::string& path, const verifying_key_t& vk,
                   vk_encoding_t e = vk_encoding_t::uncompressed);

// --- parameters --------------------------------------------------------------------------------

// A bellperson .params file, mapped and read in place. Opening reads the verifying key and the
// five section heads (nothing is allocated by a count before it is checked against the file
// size; the file must end exactly after b_g2; a .vk given for it is refused saying so). Points
// are decoded when asked for.
//   checked    opening also decodes every point in parallel (zk::parallel_for): on the curve,
//              in the prime-order subgroup (the endomorphism tests), not infinity — then reads
//              trust the file;
//   unchecked  a trusted file: reads check the encoding (flags, coordinates below p, not
//              infinity) and nothing more.
class params_file_t {
 public:
  enum class mode_t { checked, unchecked };

  struct section_t {
    const char* name = "";  // "h", "l", "a", "b_g1", "b_g2"
    uint64_t offset = 0;    // of the first point (its u32 count is 4 bytes before)
    uint64_t count = 0;
    size_t point_size = 0;  // 96 (G1) or 192 (G2)
    bool g2 = false;
  };

  explicit params_file_t(std::string path, mode_t mode = mode_t::checked);

  const std::string& path() const { return file_.path(); }
  uint64_t file_size() const { return file_.size(); }
  mode_t mode() const { return mode_; }
  const verifying_key_t& vk() const { return vk_; }
  uint64_t vk_bytes() const { return vk_bytes_; }
  const section_t& h() const { return sections_[0]; }
  const section_t& l() const { return sections_[1]; }
  const section_t& a() const { return sections_[2]; }
  const section_t& b_g1() const { return sections_[3]; }
  const section_t& b_g2() const { return sections_[4]; }
  const section_t& section(size_t i) const { return sections_[i]; }  // 0 … 4 in file order
  static constexpr size_t section_count = 5;

  // Point i of a G1 / G2 section (format_error if it does not decode or is infinity;
  // std::out_of_range past the section).
  g1_affine_t g1(const section_t& s, uint64_t i) const;
  g2_affine_t g2(const section_t& s, uint64_t i) const;
  // Points [first, first + n) of a section into out, decoded in parallel.
  void read_g1(const section_t& s, uint64_t first, uint64_t n, g1_affine_t* out) const;
  void read_g2(const section_t& s, uint64_t first, uint64_t n, g2_affine_t* out) const;

  // Every point of every section on the curve, in the subgroup and finite (what checked mode
  // runs at opening), in parallel; format_error naming the first bad point in file order.
  void check_all_points() const;

  const formats::mapped_file_t& mapping() const { return file_; }

 private:
  void
  read_heads();  // the verifying key and the section heads (format_error when they do not read)
  [[noreturn]] void point_error(const section_t& s, uint64_t i, const char* why) const;
  void check_section(const section_t& s) const;

  formats::mapped_file_t file_;
  mode_t mode_;
  verifying_key_t vk_;
  uint64_t vk_bytes_ = 0;
  section_t sections_[section_count];
};

// Writes a .params file: the key, then the sections in file order (h, l, a, b_g1 as G1, b_g2 as
// G2), each begun with its count and filled by one or more appends. Points at infinity are
// refused (std::invalid_argument), as every reader would refuse them; so is a section that
// receives more or fewer points than it announced, or a section out of order. The file is
// complete only after finish(); a writer destroyed before that removes the file.
class params_writer_t {
 public:
  params_writer_t(std::string path, const verifying_key_t& vk);
  ~params_writer_t();
  params_writer_t(const params_writer_t&) = delete;
  params_writer_t& operator=(const params_writer_t&) = delete;

  void begin_section(uint64_t count);  // the next section in file order
  void append_g1(const g1_affine_t* points, size_t n);
  void append_g2(const g2_affine_t* points, size_t n);
  void finish();

 private:
  void write(const void* p, size_t n);
  void end_section();
  std::string path_;
  std::FILE* f_ = nullptr;
  int section_ = -1;  // index of the open section, −1 before h
  uint64_t announced_ = 0, written_ = 0;
};

// The whole file in one call (tests, small circuits).
void write_params_file(const std::string& path, const verifying_key_t& vk,
                       const std::vector<g1_affine_t>& h, const std::vector<g1_affine_t>& l,
                       const std::vector<g1_affine_t>& a, const std::vector<g1_affine_t>& b_g1,
                       const std::vector<g2_affine_t>& b_g2);

}  // namespace zk::bellperson
