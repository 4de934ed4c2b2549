#pragma once
// Groth16 .zkey version 1 reader (docs/formats.md §2). Point sections are spans into the
// mapping: nothing is copied and no point is touched. Validation covers the headers, every
// section length (exact, from the header counts) and the coefficient records; it is
// O(header + coefficients).
//
// Encodings (§2.2, §7.1): points are affine, Montgomery LE over n8q bytes per coordinate;
// G1 = x ‖ y, G2 = x.c0 ‖ x.c1 ‖ y.c0 ‖ y.c1; the point at infinity is all-zero bytes.
// Coefficient values are coef·R² mod r as canonical LE integers (§2.4).

#include <cstdint>
#include <optional>
#include <string>

#include "zk/base/curve_id.hpp"
#include "zk/base/result.hpp"
#include "zk/formats/binfile.hpp"

namespace zk::formats {

class wtns_file_t;

namespace zkey_section {
inline constexpr uint32_t protocol = 1;
inline constexpr uint32_t header = 2;
inline constexpr uint32_t ic = 3;
inline constexpr uint32_t coefficients = 4;
inline constexpr uint32_t points_a = 5;
inline constexpr uint32_t points_b1 = 6;
inline constexpr uint32_t points_b2 = 7;
inline constexpr uint32_t points_c = 8;
inline constexpr uint32_t points_h = 9;
inline constexpr uint32_t mpc_params = 10;
}  // namespace zkey_section

// Section 1 protocol ids (snarkjs).
inline constexpr uint32_t zkey_protocol_groth16 = 1;
inline constexpr uint32_t zkey_protocol_plonk = 2;
inline constexpr uint32_t zkey_protocol_fflonk = 10;

// Bytes of the 64-byte blake2b circuit hash opening section 10.
inline constexpr uint32_t zkey_circuit_hash_size = 64;

// Section 2, in file order (§2.3). The six points point into the mapping.
struct zkey_header_t {
  curve_id_t curve = curve_id_t::bn254;
  uint32_t n8q = 0;            // bytes per Fq element
  const uint8_t* q = nullptr;  // base field modulus, n8q bytes LE (canonical)
  uint32_t n8r = 0;            // bytes per Fr element
  const uint8_t* r = nullptr;  // scalar field modulus, n8r bytes LE (canonical)
  uint32_t n_vars = 0;         // wires, including wire 0
  uint32_t n_public = 0;       // public wires 1..nPublic (excludes wire 0)
  uint32_t domain_size = 0;    // n, a power of two
  uint32_t log2_domain_size = 0;
  const uint8_t* alpha1 = nullptr;  // [α]₁
  const uint8_t* beta1 = nullptr;   // [β]₁
  const uint8_t* beta2 = nullptr;   // [β]₂
  const uint8_t* gamma2 = nullptr;  // [γ]₂ (the G2 generator for snarkjs keys)
  const uint8_t* delta1 = nullptr;  // [δ]₁
  const uint8_t* delta2 = nullptr;  // [δ]₂

  uint32_t g1_size() const { return 2 * n8q; }
  uint32_t g2_size() const { return 4 * n8q; }
  uint32_t coef_size() const { return 12 + n8r; }
};

// What the header fixes of a point section (3, 5..9), for the reader and the writer alike:
// its point count, its point size, and the size formula named in error messages.
struct zkey_point_section_t {
  uint64_t count = 0;
  uint32_t point_size = 0;
  const char* formula = "";
};
zkey_point_section_t zkey_points_of(const zkey_header_t& h, uint32_t section_id);

// Why a coefficient record (§2.4) does not fit the header — matrix neither A nor B, constraint
// ≥ domainSize, signal ≥ nVars, value ≥ r — as a refusal; it passes when the record fits.
check_t check_zkey_coefficient(const zkey_header_t& h, uint32_t matrix, uint32_t constraint,
                               uint32_t signal, const uint8_t* value);

// `count` points of `stride` bytes each, contiguous in the mapping.
struct point_span_t {
  const uint8_t* data = nullptr;
  uint64_t count = 0;
  uint32_t stride = 0;

  const uint8_t* operator[](uint64_t i) const { return data + i * stride; }
  uint64_t size_bytes() const { return count * stride; }
};

// One section-4 record: { u32 matrix (0 = A, 1 = B), u32 constraint, u32 signal, n8r-byte value }.
struct coef_record_t {
  uint32_t matrix;
  uint32_t constraint;   // row, < domainSize
  uint32_t signal;       // wire id, < nVars
  const uint8_t* value;  // n8r bytes: coef·R² mod r, canonical LE
};

// The packed records of section 4 (after its u32 count).
struct coef_span_t {
  const uint8_t* data = nullptr;
  uint64_t count = 0;
  uint32_t n8r = 0;

  uint32_t stride() const { return 12 + n8r; }
  uint64_t size_bytes() const { return count * stride(); }
  coef_record_t operator[](uint64_t i) const {
    const uint8_t* p = data + i * stride();
    return {load_u32(p), load_u32(p + 4), load_u32(p + 8), p + 12};
  }
};

// What opening a .zkey reads. prover: everything the prover uses, the coefficient section's every
// record checked (at 2^23 that reads 860 MB). verifier: the header, the section table and the
// points' extents only (no page of the point or coefficient sections is read); coefficients() is
// empty. For a node that needs the key's counts or its verification key, not its matrices.
enum class zkey_open_t { prover, verifier };

// Movable; the spans and header pointers stay valid across moves (they point into the mapping).
class zkey_file_t {
 public:
  // Maps and validates `path`. Sections 1-9 are required and unique; section 10 is optional
  // (the prover ignores it) but, when present, must hold at least the circuit hash and count.
  explicit zkey_file_t(std::string path, zkey_open_t open = zkey_open_t::prover);

  const std::string& path() const { return file_.path(); }
  const binfile_t& file() const { return file_; }
  const zkey_header_t& header() const { return header_; }

  point_span_t ic() const { return ic_; }  // nPublic+1 G1: wires 0..nPublic
  coef_span_t coefficients() const { return coefs_; }
  point_span_t a() const { return a_; }    // nVars G1
  point_span_t b1() const { return b1_; }  // nVars G1
  point_span_t b2() const { return b2_; }  // nVars G2
  point_span_t c() const { return c_; }    // nVars-nPublic-1 G1: wires nPublic+1..nVars-1
  point_span_t h() const { return h_; }    // domainSize G1

  // True when the records are in non-decreasing constraint order (zkey_new and writeZKey
  // produce that; snarkjs's multi-threaded buildABC relies on it to cut work).
  bool coefficients_sorted_by_constraint() const { return coefs_sorted_; }
  // The 64-byte circuit hash opening section 10, or nullptr when the file has no section 10.
  const uint8_t* circuit_hash() const { return circuit_hash_; }

  void advise_willneed(uint32_t section_id) const {
    file_.advise_willneed(file_.unique(section_id));
  }
  // Releases a section's pages from the resident set once a stage is done with them.
  void release(uint32_t section_id) const { file_.advise_dontneed(file_.unique(section_id)); }

 private:
  void read_protocol();
  void read_header();
  point_span_t points(uint32_t id) const;  // a point section, sized as zkey_points_of says
  void read_coefficients();
  void read_mpc_params();

  binfile_t file_;
  zkey_header_t header_;
  point_span_t ic_, a_, b1_, b2_, c_, h_;
  coef_span_t coefs_;
  bool coefs_sorted_ = true;
  const uint8_t* circuit_hash_ = nullptr;
};

// Throws format_error naming both files unless the witness belongs to this key: the wtns prime
// must equal the zkey's r and nWitness must equal nVars (§1.3, §3.1).
void check_witness_matches(const zkey_file_t& zkey, const wtns_file_t& wtns);

}  // namespace zk::formats
